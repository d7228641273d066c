import AlmanacCore
import Foundation

/// Metric or imperial numbers.
enum UnitSystem: String, Sendable, Codable, CaseIterable {
    /// °C, km/h, mm.
    case metric
    /// °F, mph, inch.
    case imperial
}

/// Wind speed units Open-Meteo offers (`wind_speed_unit`).
enum WindUnit: String, Sendable, Codable, CaseIterable {
    /// Kilometres per hour (upstream default).
    case kmh
    /// Metres per second.
    case ms
    /// Miles per hour.
    case mph
    /// Knots.
    case kn

    /// The default for a unit system.
    static func `default`(for system: UnitSystem) -> WindUnit {
        system == .imperial ? .mph : .kmh
    }

    /// The label used when upstream gave none.
    var label: String {
        switch self {
        case .kmh: "km/h"
        case .ms: "m/s"
        case .mph: "mph"
        case .kn: "kn"
        }
    }
}

/// What the weather providers are asked: where (coordinates, or only a name for web search),
/// how far ahead, and in which units.
struct WeatherQuery: Sendable {
    /// Latitude rounded to 2 decimals (about 1 km, finer than any forecast model), nil when
    /// geocoding could not run and only web search can answer.
    var latitude: Double?
    /// Longitude rounded to 2 decimals.
    var longitude: Double?
    /// The geocoded place, if the request named one.
    var place: GeoPlace?
    /// Days to request (`forecast_days`, 1–16).
    var days: Int
    /// Unit system.
    var units: UnitSystem
    /// Wind speed unit.
    var wind: WindUnit
    /// What a web search fallback asks ("weather in Lisbon tomorrow"); empty when none makes sense.
    var searchText: String
    /// The place as the user wrote it, for the web fallback's label.
    var placeText: String
    /// The profile's name for the place ("home", "work"), for labels; not part of any request.
    var profileName: String?

    init(
        latitude: Double?, longitude: Double?, place: GeoPlace? = nil, days: Int = 7, units: UnitSystem = .metric,
        wind: WindUnit = .kmh, searchText: String = "", placeText: String = ""
    ) {
        self.latitude = latitude.map(Coordinate.round)
        self.longitude = longitude.map(Coordinate.round)
        self.place = place
        self.days = days
        self.units = units
        self.wind = wind
        self.searchText = searchText
        self.placeText = placeText
    }
}

/// Open-Meteo's forecast API (`/v1/forecast`): current conditions, hourly and daily values.
///
/// Always sends `timezone=auto`, so daily values are the place's own local days; the times come
/// back as the place's wall-clock strings (with `utc_offset_seconds`), which the decoder turns
/// into instants.
struct OpenMeteoProvider: DescribedProvider {
    /// `open-meteo`, tried first for forecasts.
    static let descriptor = ProviderDescriptor(
        name: "open-meteo", tool: "weather", priority: 0, summary: "Open-Meteo forecast API", label: "Open-Meteo",
        endpoints: [ProviderEndpoint(env: "ALMANAC_OPEN_METEO_URL", defaultBase: "https://api.open-meteo.com")],
        terms: UpstreamTerms(attribution: "Weather data by Open-Meteo.com (CC BY 4.0)"),
        probe: HealthProbe(path: "/v1/forecast?latitude=0&longitude=0"),
        decoders: [
            UpstreamDecoder(name: "open-meteo", seeds: ["Fixtures/weather/open-meteo/forecast-*.response.json"]) {
                _ = try? OpenMeteoDecoder.decode($0)
            }
        ],
        sampleCall: SampleCall(
            words: ["run", "weather", "--lat", "39.41", "--lon", "-77.41"],
            // MET Norway's contact, which it needs to be tried behind it, is added from its own
            // terms (ProviderRegistry.sampleCall(for:)).
            environment: ["ALMANAC_NOW": "2026-08-09T18:50:00Z"]))

    /// `current=` variables (each appears in a recorded response; see Fixtures/weather/README.md).
    static let currentVariables = [
        "temperature_2m", "relative_humidity_2m", "apparent_temperature", "is_day", "precipitation",
        "weather_code", "wind_speed_10m", "wind_direction_10m", "wind_gusts_10m",
    ]
    /// `hourly=` variables.
    static let hourlyVariables = [
        "temperature_2m", "apparent_temperature", "precipitation_probability", "precipitation", "weather_code",
        "wind_speed_10m", "wind_direction_10m", "wind_gusts_10m",
    ]
    /// `daily=` variables.
    static let dailyVariables = [
        "weather_code", "temperature_2m_max", "temperature_2m_min", "precipitation_sum",
        "precipitation_probability_max", "wind_speed_10m_max", "wind_gusts_10m_max", "sunrise", "sunset",
    ]

    /// Only queries with coordinates (geocoding succeeded, or `--lat/--lon`).
    func supports(_ query: WeatherQuery) -> Bool {
        query.latitude != nil && query.longitude != nil
    }

    /// The forecast request for `query` against `base`.
    static func request(_ query: WeatherQuery, base: URL) -> HTTPRequest {
        var items: [(String, String)] = [
            ("latitude", Coordinate.text(query.latitude ?? 0)),
            ("longitude", Coordinate.text(query.longitude ?? 0)),
            ("current", currentVariables.joined(separator: ",")),
            ("hourly", hourlyVariables.joined(separator: ",")),
            ("daily", dailyVariables.joined(separator: ",")),
            ("timezone", "auto"),
            ("forecast_days", String(query.days)),
        ]
        if query.units == .imperial {
            items.append(("temperature_unit", "fahrenheit"))
            items.append(("precipitation_unit", "inch"))
        }
        if query.wind != .kmh { items.append(("wind_speed_unit", query.wind.rawValue)) }
        return HTTPRequest(
            url: ForecastURL.make(base: base, path: "/v1/forecast", items: items),
            headers: ["Accept": "application/json"])
    }

    /// Fetches and decodes the forecast.
    func fetch(_ query: WeatherQuery, in environment: ProviderEnvironment) async throws -> WeatherReport {
        guard supports(query) else { throw ProviderFailure(.notFound, "Open-Meteo: no coordinates to forecast") }
        let base = try descriptor.baseURL(environment.settings)
        let response = try await environment.transport.fetch(
            Self.request(query, base: base), timeout: environment.timeout, service: "Open-Meteo")
        var forecast = try OpenMeteoDecoder.decode(response.body, expected: query)
        if let place = query.place {
            forecast.location.name = place.name
            forecast.location.latitude = place.latitude
            forecast.location.longitude = place.longitude
            forecast.location.admin1 = place.admin1
            forecast.location.country = place.country
            forecast.location.countryCode = place.countryCode
        }
        return .forecast(forecast)
    }
}

/// Decodes `/v1/forecast` bodies into a ``Forecast``.
enum OpenMeteoDecoder {
    /// Decodes `body`. Units come from the `*_units` blocks; `expected` fills a unit only when
    /// upstream named none (a block missing from the response).
    ///
    /// - Throws: ``ProviderFailure`` of kind `decoding` for a body that is not a forecast.
    static func decode(_ body: Data, expected: WeatherQuery? = nil) throws -> Forecast {
        let dto = try UpstreamJSON.decode(ForecastDTO.self, from: body, service: "Open-Meteo")
        let units = WeatherUnits(
            temperature: unit(
                dto.currentUnits?["temperature_2m"], dto.hourlyUnits?["temperature_2m"],
                dto.dailyUnits?["temperature_2m_max"]) ?? (expected?.units == .imperial ? "°F" : "°C"),
            windSpeed: unit(
                dto.currentUnits?["wind_speed_10m"], dto.hourlyUnits?["wind_speed_10m"],
                dto.dailyUnits?["wind_speed_10m_max"]) ?? (expected?.wind ?? .kmh).label,
            precipitation: unit(
                dto.hourlyUnits?["precipitation"], dto.dailyUnits?["precipitation_sum"],
                dto.currentUnits?["precipitation"]) ?? (expected?.units == .imperial ? "inch" : "mm"))
        let location = WeatherLocation(
            latitude: expected?.latitude ?? dto.latitude, longitude: expected?.longitude ?? dto.longitude,
            gridLatitude: dto.latitude, gridLongitude: dto.longitude, elevation: dto.elevation,
            timezone: dto.timezone, utcOffsetSeconds: dto.utcOffsetSeconds)
        // Upstream writes wall-clock strings in the place's zone; read them in the named zone when
        // it agrees with upstream's offset at the first of them, else in that fixed offset.
        let fixed = TimeText.calendar(TimeZone(secondsFromGMT: dto.utcOffsetSeconds) ?? TimeText.utc)
        let first = [dto.current?.time, dto.hourly?.time.first, dto.daily?.time.first.map { $0 + "T12:00" }]
            .compactMap { $0 }.lazy.compactMap { LocalTime.instant($0, calendar: fixed) }.first
        let calendar = TimeText.calendar(location.zone(at: first ?? Date()))
        func instant(_ text: String?) -> Date? { text.flatMap { LocalTime.instant($0, calendar: calendar) } }
        // A current block whose time cannot be read cannot say when "now" was: left out.
        let current = dto.current.flatMap { block -> CurrentConditions? in
            guard let time = instant(block.time) else { return nil }
            return CurrentConditions(
                time: time, temperature: block.temperature, apparentTemperature: block.apparentTemperature,
                weatherCode: block.weatherCode.flatMap(code), windSpeed: block.windSpeed,
                windDirection: block.windDirection, windGusts: block.windGusts, humidity: block.humidity,
                precipitation: block.precipitation, isDay: block.isDay.map { $0 != 0 })
        }
        var hourly: [HourlyForecast] = []
        if let block = dto.hourly {
            for (index, text) in block.time.enumerated() {
                // An hour whose time cannot be read cannot be placed: left out.
                guard let time = instant(text) else { continue }
                hourly.append(
                    HourlyForecast(
                        time: time, temperature: value(block.temperature, index),
                        apparentTemperature: value(block.apparentTemperature, index),
                        precipitationProbability: value(block.precipitationProbability, index),
                        precipitation: value(block.precipitation, index),
                        weatherCode: value(block.weatherCode, index).flatMap(code),
                        windSpeed: value(block.windSpeed, index), windDirection: value(block.windDirection, index),
                        windGusts: value(block.windGusts, index)))
            }
        }
        var daily: [DailyForecast] = []
        if let block = dto.daily {
            for (index, date) in block.time.enumerated() {
                daily.append(
                    DailyForecast(
                        date: date, min: value(block.temperatureMin, index), max: value(block.temperatureMax, index),
                        precipitationProbability: value(block.precipitationProbabilityMax, index),
                        precipitationSum: value(block.precipitationSum, index),
                        weatherCode: value(block.weatherCode, index).flatMap(code),
                        windSpeedMax: value(block.windSpeedMax, index), windGustsMax: value(block.windGustsMax, index),
                        sunrise: instant(value(block.sunrise, index)), sunset: instant(value(block.sunset, index))))
            }
        }
        return Forecast(location: location, units: units, current: current, hourly: hourly, daily: daily)
    }

    /// The first unit upstream named, with Open-Meteo's `mp/h` spelled `mph`.
    static func unit(_ candidates: String?...) -> String? {
        guard let found = candidates.compactMap({ $0 }).first(where: { !$0.isEmpty }) else { return nil }
        return found == "mp/h" ? "mph" : found
    }

    /// An array element that may be missing (short array) or null.
    static func value<T>(_ array: [T?]?, _ index: Int) -> T? {
        guard let array, index < array.count else { return nil }
        return array[index]
    }

    /// WMO codes arrive as JSON numbers; keep whole ones only.
    static func code(_ value: Double) -> Int? {
        guard value.isFinite, value == value.rounded(), abs(value) < 1000 else { return nil }
        return Int(value)
    }
}

/// The parts of a `/v1/forecast` body we read. Every name below appears in a recorded response
/// under Fixtures/weather/open-meteo/; blocks and variables that were not requested are absent,
/// and array entries may be null.
struct ForecastDTO: Decodable {
    let latitude: Double
    let longitude: Double
    let utcOffsetSeconds: Int
    let timezone: String
    let elevation: Double?
    let currentUnits: [String: String]?
    let current: Current?
    let hourlyUnits: [String: String]?
    let hourly: Hourly?
    let dailyUnits: [String: String]?
    let daily: Daily?

    enum CodingKeys: String, CodingKey {
        case latitude, longitude, timezone, elevation, current, hourly, daily
        case utcOffsetSeconds = "utc_offset_seconds"
        case currentUnits = "current_units"
        case hourlyUnits = "hourly_units"
        case dailyUnits = "daily_units"
    }

    struct Current: Decodable {
        let time: String
        let temperature: Double?
        let apparentTemperature: Double?
        let weatherCode: Double?
        let windSpeed: Double?
        let windDirection: Double?
        let windGusts: Double?
        let humidity: Double?
        let precipitation: Double?
        let isDay: Double?

        enum CodingKeys: String, CodingKey {
            case time, precipitation
            case temperature = "temperature_2m"
            case apparentTemperature = "apparent_temperature"
            case weatherCode = "weather_code"
            case windSpeed = "wind_speed_10m"
            case windDirection = "wind_direction_10m"
            case windGusts = "wind_gusts_10m"
            case humidity = "relative_humidity_2m"
            case isDay = "is_day"
        }
    }

    struct Hourly: Decodable {
        let time: [String]
        let temperature: [Double?]?
        let apparentTemperature: [Double?]?
        let precipitationProbability: [Double?]?
        let precipitation: [Double?]?
        let weatherCode: [Double?]?
        let windSpeed: [Double?]?
        let windDirection: [Double?]?
        let windGusts: [Double?]?

        enum CodingKeys: String, CodingKey {
            case time, precipitation
            case temperature = "temperature_2m"
            case apparentTemperature = "apparent_temperature"
            case precipitationProbability = "precipitation_probability"
            case weatherCode = "weather_code"
            case windSpeed = "wind_speed_10m"
            case windDirection = "wind_direction_10m"
            case windGusts = "wind_gusts_10m"
        }
    }

    struct Daily: Decodable {
        let time: [String]
        let weatherCode: [Double?]?
        let temperatureMax: [Double?]?
        let temperatureMin: [Double?]?
        let precipitationSum: [Double?]?
        let precipitationProbabilityMax: [Double?]?
        let windSpeedMax: [Double?]?
        let windGustsMax: [Double?]?
        let sunrise: [String?]?
        let sunset: [String?]?

        enum CodingKeys: String, CodingKey {
            case time, sunrise, sunset
            case weatherCode = "weather_code"
            case temperatureMax = "temperature_2m_max"
            case temperatureMin = "temperature_2m_min"
            case precipitationSum = "precipitation_sum"
            case precipitationProbabilityMax = "precipitation_probability_max"
            case windSpeedMax = "wind_speed_10m_max"
            case windGustsMax = "wind_gusts_10m_max"
        }
    }
}
