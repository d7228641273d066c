import AlmanacCore
import Foundation

/// What the weather providers return: a forecast, or web search hits as a last resort.
enum WeatherReport: Sendable, Codable, Equatable {
    /// A decoded forecast.
    case forecast(Forecast)
    /// Web search results about the weather (untrusted text, no numbers we can vouch for).
    case web(WebWeather)
}

/// A forecast for one place, whatever the provider. Times are instants; days are the place's
/// calendar days (`2026-03-05`) in ``WeatherLocation/zone(at:)``: its own zone when known, else
/// UTC (and the context says so). Numbers are in the units the query asked for (each provider
/// converts); sky conditions are WMO weather codes (each provider maps its own words into them).
struct Forecast: Sendable, Codable, Equatable {
    /// Where the forecast is for.
    var location: WeatherLocation
    /// The units of every number below (the ones asked for; labels as upstream spelled them).
    var units: WeatherUnits
    /// Current conditions, when the response had a `current` block.
    var current: CurrentConditions?
    /// Hour by hour, in time order.
    var hourly: [HourlyForecast]
    /// Day by day (the place's local days), in date order.
    var daily: [DailyForecast]
}

/// The place a forecast is for: the geocoded place (when there was one) plus the forecast's zone.
struct WeatherLocation: Sendable, Codable, Equatable {
    /// Place name (`Frederick`), nil for a bare `--lat/--lon` request.
    var name: String?
    /// First-level administrative area (`Maryland`).
    var admin1: String?
    /// Country name (`United States`).
    var country: String?
    /// ISO 3166-1 alpha-2 code (`US`).
    var countryCode: String?
    /// Latitude asked for (the geocoded place, or `--lat`).
    var latitude: Double
    /// Longitude asked for.
    var longitude: Double
    /// The model grid cell upstream answered for (its `latitude`).
    var gridLatitude: Double?
    /// The model grid cell's longitude.
    var gridLongitude: Double?
    /// Elevation in metres, when given.
    var elevation: Double?
    /// The place's time zone (`America/New_York`, or `GMT` when upstream was asked for GMT); nil
    /// when no provider knew it (times are then shown in UTC).
    var timezone: String?
    /// The zone's offset from UTC as upstream reported it at the time of the request, when it did.
    var utcOffsetSeconds: Int?

    init(
        name: String? = nil, admin1: String? = nil, country: String? = nil, countryCode: String? = nil,
        latitude: Double, longitude: Double, gridLatitude: Double? = nil, gridLongitude: Double? = nil,
        elevation: Double? = nil, timezone: String? = nil, utcOffsetSeconds: Int? = nil
    ) {
        self.name = name
        self.admin1 = admin1
        self.country = country
        self.countryCode = countryCode
        self.latitude = latitude
        self.longitude = longitude
        self.gridLatitude = gridLatitude
        self.gridLongitude = gridLongitude
        self.elevation = elevation
        self.timezone = timezone
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// Whether the place's zone is known (else every time is shown in UTC).
    var zoneKnown: Bool { timezone != nil || utcOffsetSeconds != nil }

    /// The zone local times are read in: the named zone when it agrees with upstream's
    /// `utc_offset_seconds` at `date` (or upstream gave none), else a fixed offset (upstream's
    /// numbers win over our tzdata); UTC when no zone is known.
    func zone(at date: Date) -> TimeZone {
        if let named = timezone.flatMap(TimeZone.init(identifier:)),
            utcOffsetSeconds.map({ named.secondsFromGMT(for: date) == $0 }) ?? true
        {
            return named
        }
        return utcOffsetSeconds.flatMap(TimeZone.init(secondsFromGMT:)) ?? TimeText.utc
    }

    /// "Frederick, Maryland, United States", "Italia, 77.85°S 166.67°E" for a name with no area or
    /// country, or "39.41°N 77.41°W" without a name.
    var displayName: String {
        guard let name else { return Self.coordinates(latitude, longitude) }
        var parts = [name]
        if let admin1, !admin1.isEmpty, admin1 != name { parts.append(admin1) }
        if let country, !country.isEmpty { parts.append(country) }
        // A name alone ("Italia": a stream in Antarctica) does not say where it is.
        if parts.count == 1 { parts.append(Self.coordinates(latitude, longitude)) }
        return parts.joined(separator: ", ")
    }

    /// "39.41°N 77.41°W".
    static func coordinates(_ latitude: Double, _ longitude: Double) -> String {
        let lat = String(format: "%.2f°%@", abs(latitude), latitude < 0 ? "S" : "N")
        let lon = String(format: "%.2f°%@", abs(longitude), longitude < 0 ? "W" : "E")
        return "\(lat) \(lon)"
    }
}

/// Unit labels of a forecast's numbers (normalized spelling: `mp/h` → `mph`).
struct WeatherUnits: Sendable, Codable, Equatable {
    /// `°C` or `°F`.
    var temperature: String
    /// `km/h`, `m/s`, `mph` or `kn`.
    var windSpeed: String
    /// `mm` or `inch`.
    var precipitation: String
}

/// Conditions now (any value may be absent).
struct CurrentConditions: Sendable, Codable, Equatable {
    /// When the observation/model step is for.
    var time: Date
    /// Air temperature at 2 m.
    var temperature: Double?
    /// "Feels like".
    var apparentTemperature: Double?
    /// WMO weather code.
    var weatherCode: Int?
    /// Wind speed at 10 m.
    var windSpeed: Double?
    /// Where the wind comes from, degrees.
    var windDirection: Double?
    /// Gusts at 10 m.
    var windGusts: Double?
    /// Relative humidity, %.
    var humidity: Double?
    /// Precipitation in the last interval.
    var precipitation: Double?
    /// Daylight.
    var isDay: Bool?

    init(
        time: Date, temperature: Double? = nil, apparentTemperature: Double? = nil, weatherCode: Int? = nil,
        windSpeed: Double? = nil, windDirection: Double? = nil, windGusts: Double? = nil, humidity: Double? = nil,
        precipitation: Double? = nil, isDay: Bool? = nil
    ) {
        self.time = time
        self.temperature = temperature
        self.apparentTemperature = apparentTemperature
        self.weatherCode = weatherCode
        self.windSpeed = windSpeed
        self.windDirection = windDirection
        self.windGusts = windGusts
        self.humidity = humidity
        self.precipitation = precipitation
        self.isDay = isDay
    }
}

/// One hour (values may be null upstream).
struct HourlyForecast: Sendable, Codable, Equatable {
    /// Start of the hour.
    var time: Date
    var temperature: Double?
    /// Feels like.
    var apparentTemperature: Double?
    /// Chance of precipitation, %.
    var precipitationProbability: Double?
    /// Precipitation amount.
    var precipitation: Double?
    /// WMO weather code.
    var weatherCode: Int?
    var windSpeed: Double?
    /// Wind direction, degrees.
    var windDirection: Double?
    var windGusts: Double?

    init(
        time: Date, temperature: Double? = nil, apparentTemperature: Double? = nil,
        precipitationProbability: Double? = nil, precipitation: Double? = nil, weatherCode: Int? = nil,
        windSpeed: Double? = nil, windDirection: Double? = nil, windGusts: Double? = nil
    ) {
        self.time = time
        self.temperature = temperature
        self.apparentTemperature = apparentTemperature
        self.precipitationProbability = precipitationProbability
        self.precipitation = precipitation
        self.weatherCode = weatherCode
        self.windSpeed = windSpeed
        self.windDirection = windDirection
        self.windGusts = windGusts
    }
}

/// One local day (values may be null upstream).
struct DailyForecast: Sendable, Codable, Equatable {
    /// The place's calendar day, `2026-03-05` (a day is not an instant: it is read in the
    /// forecast's zone).
    var date: String
    /// Minimum temperature.
    var min: Double?
    /// Maximum temperature.
    var max: Double?
    /// Highest chance of precipitation in the day, %.
    var precipitationProbability: Double?
    /// Precipitation total.
    var precipitationSum: Double?
    /// WMO weather code (the day's most severe).
    var weatherCode: Int?
    /// Maximum wind speed.
    var windSpeedMax: Double?
    /// Maximum gusts.
    var windGustsMax: Double?
    var sunrise: Date?
    var sunset: Date?

    init(
        date: String, min: Double? = nil, max: Double? = nil, precipitationProbability: Double? = nil,
        precipitationSum: Double? = nil, weatherCode: Int? = nil, windSpeedMax: Double? = nil,
        windGustsMax: Double? = nil, sunrise: Date? = nil, sunset: Date? = nil
    ) {
        self.date = date
        self.min = min
        self.max = max
        self.precipitationProbability = precipitationProbability
        self.precipitationSum = precipitationSum
        self.weatherCode = weatherCode
        self.windSpeedMax = windSpeedMax
        self.windGustsMax = windGustsMax
        self.sunrise = sunrise
        self.sunset = sunset
    }
}

/// Web search hits standing in for a forecast when no forecast provider can answer.
struct WebWeather: Sendable, Codable, Equatable {
    /// The place as the user gave it.
    var place: String
    /// The query sent to the searcher (`weather in Lisbon`).
    var query: String
    /// The hits (untrusted text).
    var hits: [WebSearchHit]
}
