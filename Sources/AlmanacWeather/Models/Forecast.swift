import AlmanacCore
import Foundation

/// What the weather providers return: an Open-Meteo forecast, or web search hits as a last resort.
public enum WeatherReport: Sendable, Codable, Equatable {
    /// A decoded forecast.
    case forecast(Forecast)
    /// Web search results about the weather (untrusted text, no numbers we can vouch for).
    case web(WebWeather)
}

/// A forecast for one place, API-agnostic. Times are the place's local wall-clock times as
/// upstream wrote them (`2026-03-05T21:00`, `2026-03-05`), read in ``WeatherLocation/zone``.
public struct Forecast: Sendable, Codable, Equatable {
    /// Where the forecast is for.
    public var location: WeatherLocation
    /// The units of every number below (from upstream's `*_units` blocks).
    public var units: WeatherUnits
    /// Current conditions, when the response had a `current` block.
    public var current: CurrentConditions?
    /// Hour by hour, in time order.
    public var hourly: [HourlyForecast]
    /// Day by day (the place's local days), in date order.
    public var daily: [DailyForecast]

    /// Creates a forecast.
    public init(
        location: WeatherLocation, units: WeatherUnits, current: CurrentConditions?, hourly: [HourlyForecast],
        daily: [DailyForecast]
    ) {
        self.location = location
        self.units = units
        self.current = current
        self.hourly = hourly
        self.daily = daily
    }
}

/// The place a forecast is for: the geocoded place (when there was one) plus the forecast's zone.
public struct WeatherLocation: Sendable, Codable, Equatable {
    /// Place name (`Frederick`), nil for a bare `--lat/--lon` request.
    public var name: String?
    /// First-level administrative area (`Maryland`).
    public var admin1: String?
    /// Country name (`United States`).
    public var country: String?
    /// ISO 3166-1 alpha-2 code (`US`).
    public var countryCode: String?
    /// Latitude asked for (the geocoded place, or `--lat`).
    public var latitude: Double
    /// Longitude asked for.
    public var longitude: Double
    /// The model grid cell upstream answered for (its `latitude`).
    public var gridLatitude: Double?
    /// The model grid cell's longitude.
    public var gridLongitude: Double?
    /// Elevation in metres, when given.
    public var elevation: Double?
    /// The forecast's time zone (`America/New_York`, or `GMT`).
    public var timezone: String
    /// Upstream's `utc_offset_seconds` at the time of the request.
    public var utcOffsetSeconds: Int

    /// Creates a location.
    public init(
        name: String? = nil, admin1: String? = nil, country: String? = nil, countryCode: String? = nil,
        latitude: Double, longitude: Double, gridLatitude: Double? = nil, gridLongitude: Double? = nil,
        elevation: Double? = nil, timezone: String, utcOffsetSeconds: Int
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

    /// The zone local times are read in: the named zone when it agrees with upstream's
    /// `utc_offset_seconds` now, else a fixed offset (upstream's numbers win over our tzdata).
    public func zone(at date: Date) -> TimeZone {
        if let named = TimeZone(identifier: timezone), named.secondsFromGMT(for: date) == utcOffsetSeconds {
            return named
        }
        return TimeZone(secondsFromGMT: utcOffsetSeconds) ?? TimeText.utc
    }

    /// "Frederick, Maryland, United States", or "39.41°N 77.41°W" without a name.
    public var displayName: String {
        guard let name else { return Self.coordinates(latitude, longitude) }
        var parts = [name]
        if let admin1, !admin1.isEmpty, admin1 != name { parts.append(admin1) }
        if let country, !country.isEmpty { parts.append(country) }
        return parts.joined(separator: ", ")
    }

    /// "39.41°N 77.41°W".
    public static func coordinates(_ latitude: Double, _ longitude: Double) -> String {
        let lat = String(format: "%.2f°%@", abs(latitude), latitude < 0 ? "S" : "N")
        let lon = String(format: "%.2f°%@", abs(longitude), longitude < 0 ? "W" : "E")
        return "\(lat) \(lon)"
    }
}

/// Unit labels as upstream reported them (normalized spelling: `mp/h` → `mph`).
public struct WeatherUnits: Sendable, Codable, Equatable {
    /// `°C` or `°F`.
    public var temperature: String
    /// `km/h`, `m/s`, `mph` or `kn`.
    public var windSpeed: String
    /// `mm` or `inch`.
    public var precipitation: String

    /// Creates units.
    public init(temperature: String, windSpeed: String, precipitation: String) {
        self.temperature = temperature
        self.windSpeed = windSpeed
        self.precipitation = precipitation
    }
}

/// Conditions now (upstream's `current` block; any value may be absent).
public struct CurrentConditions: Sendable, Codable, Equatable {
    /// Local time of the observation/model step (`2026-03-05T21:00`).
    public var time: String
    /// Air temperature at 2 m.
    public var temperature: Double?
    /// "Feels like".
    public var apparentTemperature: Double?
    /// WMO weather code.
    public var weatherCode: Int?
    /// Wind speed at 10 m.
    public var windSpeed: Double?
    /// Where the wind comes from, degrees.
    public var windDirection: Double?
    /// Gusts at 10 m.
    public var windGusts: Double?
    /// Relative humidity, %.
    public var humidity: Double?
    /// Precipitation in the last interval.
    public var precipitation: Double?
    /// Daylight.
    public var isDay: Bool?

    /// Creates current conditions.
    public init(
        time: String, temperature: Double? = nil, apparentTemperature: Double? = nil, weatherCode: Int? = nil,
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
public struct HourlyForecast: Sendable, Codable, Equatable {
    /// Local start of the hour (`2026-03-05T21:00`).
    public var time: String
    /// Temperature.
    public var temperature: Double?
    /// Feels like.
    public var apparentTemperature: Double?
    /// Chance of precipitation, %.
    public var precipitationProbability: Double?
    /// Precipitation amount.
    public var precipitation: Double?
    /// WMO weather code.
    public var weatherCode: Int?
    /// Wind speed.
    public var windSpeed: Double?
    /// Wind direction, degrees.
    public var windDirection: Double?
    /// Gusts.
    public var windGusts: Double?

    /// Creates an hour.
    public init(
        time: String, temperature: Double? = nil, apparentTemperature: Double? = nil,
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
public struct DailyForecast: Sendable, Codable, Equatable {
    /// `2026-03-05`.
    public var date: String
    /// Minimum temperature.
    public var min: Double?
    /// Maximum temperature.
    public var max: Double?
    /// Highest chance of precipitation in the day, %.
    public var precipitationProbability: Double?
    /// Precipitation total.
    public var precipitationSum: Double?
    /// WMO weather code (the day's most severe).
    public var weatherCode: Int?
    /// Maximum wind speed.
    public var windSpeedMax: Double?
    /// Maximum gusts.
    public var windGustsMax: Double?
    /// Local sunrise (`2026-03-05T06:41`).
    public var sunrise: String?
    /// Local sunset.
    public var sunset: String?

    /// Creates a day.
    public init(
        date: String, min: Double? = nil, max: Double? = nil, precipitationProbability: Double? = nil,
        precipitationSum: Double? = nil, weatherCode: Int? = nil, windSpeedMax: Double? = nil,
        windGustsMax: Double? = nil, sunrise: String? = nil, sunset: String? = nil
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

/// Web search hits standing in for a forecast when Open-Meteo cannot answer.
public struct WebWeather: Sendable, Codable, Equatable {
    /// The place as the user gave it.
    public var place: String
    /// The query sent to the searcher (`weather in Lisbon`).
    public var query: String
    /// The hits (untrusted text).
    public var hits: [WebSearchHit]

    /// Creates a web result.
    public init(place: String, query: String, hits: [WebSearchHit]) {
        self.place = place
        self.query = query
        self.hits = hits
    }
}
