import AlmanacCore
import Foundation

/// MET Norway's Locationforecast 2.0 (`/weatherapi/locationforecast/2.0/compact`): weather's
/// second forecast provider, tried when Open-Meteo cannot answer.
///
/// Its terms: a User-Agent with a contact (a generic one gets 403, so without a contact it is
/// never called), at most 4 decimals in coordinates, `Expires`/`If-Modified-Since` honoured (the
/// shared ``TermsTransport`` does it), CC BY 4.0 attribution. It answers one UTC timeseries
/// (hourly for about 2.5 days, then 6-hourly) in °C, m/s and mm: the decoder converts into the
/// asked units, maps symbol codes into WMO codes and aggregates local days (see docs/weather.md).
struct MetNorwayProvider: DescribedProvider {
    /// `met-norway`, tried after Open-Meteo.
    static let descriptor = ProviderDescriptor(
        name: "met-norway", tool: "weather", priority: 10, summary: "MET Norway Locationforecast 2.0",
        label: "MET Norway",
        endpoints: [ProviderEndpoint(env: "ALMANAC_METNO_URL", defaultBase: "https://api.met.no")],
        terms: terms,
        probe: HealthProbe(path: "/weatherapi/locationforecast/2.0/status", essential: false),
        decoders: [
            UpstreamDecoder(name: "met-norway", seeds: ["Fixtures/weather/met-norway/*.response.json"]) {
                _ = try? MetNorwayDecoder.decode($0)
            }
        ],
        unconfiguredReason: { terms.unconfiguredReason($0, service: "MET Norway") },
        sampleCall: SampleCall(
            words: ["run", "weather", "--lat", "59.91", "--lon", "10.75"],
            environment: ["ALMANAC_NOW": "2026-02-06T21:10:00Z", "ALMANAC_CONTACT": "almanac-tests@example.org"]),
        // The drift check's live request needs the same agent (a generic one gets 403).
        liveRequestHeaders: { settings in
            terms.unconfiguredReason(settings, service: "MET Norway") == nil
                ? ["User-Agent": terms.userAgentValue(settings)] : nil
        })

    /// What MET Norway's terms of service ask.
    static let terms = UpstreamTerms(
        userAgent: .contactRequired(config: ["weather", "contact"]), conditionalRequests: true,
        attribution: "Data from MET Norway (CC BY 4.0)")

    /// Only queries with coordinates.
    func supports(_ query: WeatherQuery) -> Bool {
        query.latitude != nil && query.longitude != nil
    }

    /// The request for `query` against `base`: coordinates with at most 4 decimals (the terms;
    /// queries carry 2).
    static func request(_ query: WeatherQuery, base: URL) -> HTTPRequest {
        let url = ForecastURL.make(
            base: base, path: "/weatherapi/locationforecast/2.0/compact",
            items: [("lat", Coordinate.text(query.latitude ?? 0)), ("lon", Coordinate.text(query.longitude ?? 0))])
        return HTTPRequest(url: url, headers: ["Accept": "application/json"])
    }

    /// Fetches and decodes the forecast, within MET Norway's terms.
    func fetch(_ query: WeatherQuery, in environment: ProviderEnvironment) async throws -> WeatherReport {
        guard supports(query) else { throw ProviderFailure(.notFound, "MET Norway: no coordinates to forecast") }
        let base = try descriptor.baseURL(environment.settings)
        let transport = try environment.transport(honouring: descriptor)
        let response = try await transport.fetch(
            Self.request(query, base: base), timeout: environment.timeout, service: "MET Norway")
        return .forecast(try MetNorwayDecoder.decode(response.body, expected: query, now: environment.now))
    }
}

/// Decodes Locationforecast 2.0 bodies (`compact` or `complete`) into a ``Forecast``.
enum MetNorwayDecoder {
    /// Decodes `body`, converting into `expected`'s units (metric when nil) and reading local days
    /// in the geocoded place's zone (UTC when unknown). *Now* is the last hourly step at or before
    /// `now` (the first step when there is none, or no `now`): the series starts at the hour it
    /// was made, and a stored answer may be served a while later.
    ///
    /// - Throws: ``ProviderFailure`` of kind `decoding` for a body that is not a forecast, or one
    ///   without a single readable step.
    static func decode(_ body: Data, expected: WeatherQuery? = nil, now: Date? = nil) throws -> Forecast {
        let dto = try UpstreamJSON.decode(Body.self, from: body, service: "MET Norway")
        let steps = dto.properties.timeseries.compactMap { step in
            TimeText.parseInstant(step.time).map { (time: $0, data: step.data) }
        }.sorted { $0.time < $1.time }
        guard let first = steps.first else {
            throw ProviderFailure(.decoding, "MET Norway: unreadable response (no timeseries steps)")
        }
        let step = now.flatMap { now in steps.last { $0.time <= now && $0.data.next1Hours != nil } } ?? first
        let units = Units(expected)
        let place = expected?.place
        // GeoJSON order: longitude, latitude, altitude (the point asked for, not a model cell).
        let coordinates = dto.geometry.coordinates
        let gridLatitude = coordinates.count > 1 ? coordinates[1] : nil
        let location = WeatherLocation(
            name: place?.name, admin1: place?.admin1, country: place?.country, countryCode: place?.countryCode,
            latitude: place?.latitude ?? expected?.latitude ?? gridLatitude ?? 0,
            longitude: place?.longitude ?? expected?.longitude ?? coordinates.first ?? 0,
            elevation: coordinates.count > 2 ? coordinates[2] : nil, timezone: place?.timezone)
        let current = CurrentConditions(
            time: step.time, temperature: step.data.details?.airTemperature.map(units.temperature),
            weatherCode: step.data.next1Hours?.summary?.symbolCode.flatMap(MetSymbol.wmoCode),
            windSpeed: step.data.details?.windSpeed.map(units.wind),
            windDirection: step.data.details?.windFromDirection,
            windGusts: step.data.details?.windSpeedOfGust.map(units.wind),
            humidity: step.data.details?.relativeHumidity,
            precipitation: step.data.next1Hours?.details?.precipitationAmount.map(units.precipitation),
            isDay: step.data.next1Hours?.summary?.symbolCode.flatMap(MetSymbol.isDay))
        // Hours are the steps with a one-hour period (the first ~2.5 days).
        let hourly = steps.filter { $0.data.next1Hours != nil }.map { step in
            HourlyForecast(
                time: step.time, temperature: step.data.details?.airTemperature.map(units.temperature),
                precipitationProbability: step.data.next1Hours?.details?.probabilityOfPrecipitation,
                precipitation: step.data.next1Hours?.details?.precipitationAmount.map(units.precipitation),
                weatherCode: step.data.next1Hours?.summary?.symbolCode.flatMap(MetSymbol.wmoCode),
                windSpeed: step.data.details?.windSpeed.map(units.wind),
                windDirection: step.data.details?.windFromDirection,
                windGusts: step.data.details?.windSpeedOfGust.map(units.wind))
        }
        let zone = location.zone(at: first.time)
        let daily = DayAggregator(zone: zone).days(steps.map { ($0.time, $0.data) }).map { day in
            DailyForecast(
                date: day.date, min: day.min.map(units.temperature), max: day.max.map(units.temperature),
                precipitationProbability: day.probability,
                // Summed steps carry float noise (0.7999999999999999): back to MET Norway's 0.1 mm.
                precipitationSum: day.precipitation.map { units.precipitation(units.round($0, 1)) },
                weatherCode: day.code, windSpeedMax: day.wind.map(units.wind), windGustsMax: day.gusts.map(units.wind))
        }
        return Forecast(
            location: location, units: units.labels, current: current, hourly: hourly, daily: daily)
    }

    /// Conversions from MET Norway's fixed units (°C, m/s, mm) into the asked ones, rounded the
    /// way Open-Meteo rounds its own.
    struct Units {
        let system: UnitSystem
        let windUnit: WindUnit

        init(_ query: WeatherQuery?) {
            system = query?.units ?? .metric
            windUnit = query?.wind ?? .kmh
        }

        var labels: WeatherUnits {
            WeatherUnits(
                temperature: system == .imperial ? "°F" : "°C", windSpeed: windUnit.label,
                precipitation: system == .imperial ? "inch" : "mm")
        }

        func temperature(_ celsius: Double) -> Double {
            system == .imperial ? round(celsius * 9 / 5 + 32, 1) : celsius
        }

        func wind(_ metresPerSecond: Double) -> Double {
            switch windUnit {
            case .ms: metresPerSecond
            case .kmh: round(metresPerSecond * 3.6, 1)
            case .mph: round(metresPerSecond * 3600 / 1609.344, 1)
            case .kn: round(metresPerSecond * 3600 / 1852, 1)
            }
        }

        func precipitation(_ millimetres: Double) -> Double {
            system == .imperial ? round(millimetres / 25.4, 3) : millimetres
        }

        func round(_ value: Double, _ decimals: Int) -> Double {
            let scale = pow(10, Double(decimals))
            return (value * scale).rounded() / scale
        }
    }

    /// The parts of a Locationforecast body we read (named in the recorded compact and complete
    /// answers under Fixtures/weather/met-norway/; `probability_of_precipitation` and
    /// `wind_speed_of_gust` from MET Norway's documentation). Everything below the step is optional.
    struct Body: Decodable {
        struct Geometry: Decodable { let coordinates: [Double] }
        struct Properties: Decodable { let timeseries: [Step] }
        struct Step: Decodable {
            let time: String
            let data: StepData
        }
        let geometry: Geometry
        let properties: Properties
    }

    struct StepData: Decodable {
        struct Instant: Decodable { let details: InstantDetails? }
        struct InstantDetails: Decodable {
            let airTemperature: Double?
            let windSpeed: Double?
            let windFromDirection: Double?
            let windSpeedOfGust: Double?
            let relativeHumidity: Double?

            enum CodingKeys: String, CodingKey {
                case airTemperature = "air_temperature"
                case windSpeed = "wind_speed"
                case windFromDirection = "wind_from_direction"
                case windSpeedOfGust = "wind_speed_of_gust"
                case relativeHumidity = "relative_humidity"
            }
        }
        struct Period: Decodable {
            struct Summary: Decodable {
                let symbolCode: String?
                enum CodingKeys: String, CodingKey { case symbolCode = "symbol_code" }
            }
            struct Details: Decodable {
                let precipitationAmount: Double?
                let probabilityOfPrecipitation: Double?
                let airTemperatureMax: Double?
                let airTemperatureMin: Double?

                enum CodingKeys: String, CodingKey {
                    case precipitationAmount = "precipitation_amount"
                    case probabilityOfPrecipitation = "probability_of_precipitation"
                    case airTemperatureMax = "air_temperature_max"
                    case airTemperatureMin = "air_temperature_min"
                }
            }
            let summary: Summary?
            let details: Details?
        }
        let instant: Instant?
        let next1Hours: Period?
        let next6Hours: Period?

        /// The step's instant values (absent ones read as unknown, not as a broken body).
        var details: InstantDetails? { instant?.details }

        enum CodingKeys: String, CodingKey {
            case instant
            case next1Hours = "next_1_hours"
            case next6Hours = "next_6_hours"
        }
    }
}

/// Local days from MET Norway's UTC timeseries.
///
/// Each step's instant values (temperature, wind) count for the local day the step falls in.
/// Periods are counted once: a step's one-hour period when the next step is an hour later, else
/// its six-hour period (the 6-hourly part), each for the local day it starts in. The day's sky
/// is the most severe WMO code of its periods; its min/max also take a six-hour period's own
/// `air_temperature_min/max` where the answer has them (`complete`). The last day is dropped when
/// the series ends before its final six hours begin (a partial day's min/max would mislead).
struct DayAggregator {
    let zone: TimeZone

    struct Day {
        var date: String
        var min: Double?
        var max: Double?
        var precipitation: Double?
        var probability: Double?
        var code: Int?
        var wind: Double?
        var gusts: Double?
    }

    func days(_ steps: [(time: Date, data: MetNorwayDecoder.StepData)]) -> [Day] {
        let calendar = TimeText.calendar(zone)
        var days: [Day] = []
        var coveredUntil = Date.distantPast
        for (index, step) in steps.enumerated() {
            let date = TimeText.isoDay(step.time, in: zone)
            if days.last?.date != date { days.append(Day(date: date)) }
            let details = step.data.details
            days[days.count - 1].fold(temperature: details?.airTemperature)
            days[days.count - 1].wind = Self.larger(days[days.count - 1].wind, details?.windSpeed)
            days[days.count - 1].gusts = Self.larger(days[days.count - 1].gusts, details?.windSpeedOfGust)
            guard step.time >= coveredUntil else { continue }
            let next = index + 1 < steps.count ? steps[index + 1].time : nil
            let hourly = step.data.next1Hours != nil && (next.map { $0.timeIntervalSince(step.time) <= 3600 } ?? true)
            guard let period = hourly ? step.data.next1Hours : (step.data.next6Hours ?? step.data.next1Hours) else {
                continue
            }
            coveredUntil = step.time.addingTimeInterval(hourly || step.data.next6Hours == nil ? 3600 : 6 * 3600)
            days[days.count - 1].fold(period)
        }
        if let last = steps.last, let final = days.last,
            let start = TimeText.parseDay(final.date, in: zone),
            let end = calendar.date(byAdding: .day, value: 1, to: start),
            max(coveredUntil, last.time) < end.addingTimeInterval(-6 * 3600)
        {
            days.removeLast()
        }
        return days
    }

    static func larger(_ a: Double?, _ b: Double?) -> Double? {
        switch (a, b) {
        case (let a?, let b?): Swift.max(a, b)
        default: a ?? b
        }
    }
}

extension DayAggregator.Day {
    mutating func fold(temperature: Double?) {
        guard let temperature else { return }
        min = Swift.min(min ?? temperature, temperature)
        max = Swift.max(max ?? temperature, temperature)
    }

    mutating func fold(_ period: MetNorwayDecoder.StepData.Period) {
        if let amount = period.details?.precipitationAmount { precipitation = (precipitation ?? 0) + amount }
        probability = DayAggregator.larger(probability, period.details?.probabilityOfPrecipitation)
        fold(temperature: period.details?.airTemperatureMin)
        fold(temperature: period.details?.airTemperatureMax)
        if let code = period.summary?.symbolCode.flatMap(MetSymbol.wmoCode) {
            self.code = Swift.max(self.code ?? code, code)
        }
    }
}

/// MET Norway's weather symbol codes (`lightrainshowers_day`) in WMO terms.
enum MetSymbol {
    /// The WMO code with the same meaning; nil for a symbol not in MET Norway's legend.
    static func wmoCode(_ symbol: String) -> Int? {
        let base = symbol.split(separator: "_").first.map(String.init) ?? symbol
        if base.hasSuffix("andthunder") { return 95 }
        return table[base]
    }

    /// Day or night, from the symbol's `_day`/`_night` suffix (`_polartwilight` says neither).
    static func isDay(_ symbol: String) -> Bool? {
        if symbol.hasSuffix("_day") { return true }
        if symbol.hasSuffix("_night") { return false }
        return nil
    }

    /// MET Norway's symbol legend (without day/night suffixes and thunder variants).
    static let table: [String: Int] = [
        "clearsky": 0, "fair": 1, "partlycloudy": 2, "cloudy": 3, "fog": 45,
        "lightrain": 61, "rain": 63, "heavyrain": 65,
        "lightsleet": 68, "sleet": 69, "heavysleet": 69,
        "lightsnow": 71, "snow": 73, "heavysnow": 75,
        "lightrainshowers": 80, "rainshowers": 81, "heavyrainshowers": 82,
        "lightsleetshowers": 83, "sleetshowers": 84, "heavysleetshowers": 84,
        "lightsnowshowers": 85, "snowshowers": 85, "heavysnowshowers": 86,
    ]
}
