import AlmanacCore
import Foundation

// The weather tool's `data` object (docs/weather.md), written like every payload's: `Encodable`
// with a keyed container that writes each documented key, absent values as `null`.

/// `data` for a forecast.
struct ForecastJSON: Encodable {
    let payload: WeatherPayload
    let forecast: Forecast

    enum CodingKeys: String, CodingKey {
        case location, profilePlace, units, view, day, alerts, current, hourly, daily, alternatives
    }

    /// By hand: `hourly` is written only for the views that show hours.
    func encode(to encoder: any Encoder) throws {
        let sheet = Sheet(forecast: forecast, now: payload.now)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(LocationJSON(location: forecast.location), forKey: .location)
        // Only for a place of the profile ("home", "work"): older answers keep their exact shape.
        try container.encodeIfPresent(payload.profileName, forKey: .profilePlace)
        try container.encode(forecast.units, forKey: .units)
        try container.encode(payload.viewName, forKey: .view)
        try container.encode(payload.day, forKey: .day)
        try container.encode(
            payload.alerts.filter { $0.inForce(at: payload.now) }.map {
                AlertJSON(alert: $0, calendar: sheet.calendar)
            },
            forKey: .alerts)
        try container.encode(forecast.current.map { CurrentJSON(sheet: sheet, current: $0) }, forKey: .current)
        // Only the views that show hours carry them.
        if let hours = sheet.hoursShown(payload) {
            try container.encode(hours.map { HourJSON(sheet: sheet, hour: $0) }, forKey: .hourly)
        }
        try container.encode(sheet.daysShown(payload).map { DayJSON(sheet: sheet, day: $0) }, forKey: .daily)
        try container.encode(payload.alternatives.map(PlaceJSON.init), forKey: .alternatives)
    }
}

/// `data` when web search stood in: the forecast's keys, empty, plus the fenced hits.
struct WebWeatherJSON: Encodable {
    struct Hit: Encodable {
        var title: String
        var url: String
        var snippet: String
        @Nullable var age: String?
    }

    var location: LocationJSON
    @Nullable var units: WeatherUnits?
    var view: String
    @Nullable var day: String?
    var alerts: [String] = []
    @Nullable var current: CurrentJSON?
    var daily: [DayJSON] = []
    var alternatives: [PlaceJSON] = []
    var source = "web search"
    var query: String
    var results: [Hit]

    init(payload: WeatherPayload, web: WebWeather) {
        location = LocationJSON(
            location: WeatherLocation(name: web.place, latitude: 0, longitude: 0), coordinates: false)
        view = payload.viewName
        query = web.query
        results = web.hits.map { Hit(title: $0.title, url: $0.url, snippet: $0.snippet, age: $0.age) }
    }
}

struct LocationJSON: Encodable {
    @Nullable var name: String?
    @Nullable var admin1: String?
    @Nullable var country: String?
    @Nullable var countryCode: String?
    /// Null when no place was resolved (web fallback).
    @Nullable var latitude: Double?
    @Nullable var longitude: Double?
    @Nullable var timezone: String?
    @Nullable var utcOffsetSeconds: Int?
    @Nullable var gridLatitude: Double?
    @Nullable var gridLongitude: Double?
    @Nullable var elevation: Double?

    /// `coordinates` false when no place was resolved (web fallback): the coordinates are null too.
    init(location: WeatherLocation, coordinates: Bool = true) {
        name = location.name
        admin1 = location.admin1
        country = location.country
        countryCode = location.countryCode
        latitude = coordinates ? location.latitude : nil
        longitude = coordinates ? location.longitude : nil
        timezone = location.timezone
        utcOffsetSeconds = location.utcOffsetSeconds
        gridLatitude = location.gridLatitude
        gridLongitude = location.gridLongitude
        elevation = location.elevation
    }
}

extension Sheet {
    /// `2026-08-09T14:50:00-04:00`: the place's reading with its offset (`+00:00` when the zone is
    /// unknown), so machines need no zone table.
    func localISO(_ date: Date?) -> String? {
        date.map { LocalTime.iso($0, calendar: calendar) }
    }
}

struct CurrentJSON: Encodable {
    @Nullable var time: String?
    @Nullable var temperature: Double?
    @Nullable var apparentTemperature: Double?
    @Nullable var weatherCode: Int?
    @Nullable var description: String?
    @Nullable var windSpeed: Double?
    @Nullable var windDirection: Double?
    @Nullable var windCompass: String?
    @Nullable var windGusts: Double?
    @Nullable var humidity: Double?
    @Nullable var precipitation: Double?
    @Nullable var isDay: Bool?

    init(sheet: Sheet, current: CurrentConditions) {
        time = sheet.localISO(current.time)
        temperature = current.temperature
        apparentTemperature = current.apparentTemperature
        weatherCode = current.weatherCode
        description = current.weatherCode.map(WeatherCode.description)
        windSpeed = current.windSpeed
        windDirection = current.windDirection
        windCompass = current.windDirection.map(Compass.point)
        windGusts = current.windGusts
        humidity = current.humidity
        precipitation = current.precipitation
        isDay = current.isDay
    }
}

struct HourJSON: Encodable {
    @Nullable var time: String?
    @Nullable var temperature: Double?
    @Nullable var apparentTemperature: Double?
    @Nullable var precipitationProbability: Double?
    @Nullable var precipitation: Double?
    @Nullable var weatherCode: Int?
    @Nullable var description: String?
    @Nullable var windSpeed: Double?
    @Nullable var windDirection: Double?
    @Nullable var windCompass: String?
    @Nullable var windGusts: Double?

    init(sheet: Sheet, hour: HourlyForecast) {
        time = sheet.localISO(hour.time)
        temperature = hour.temperature
        apparentTemperature = hour.apparentTemperature
        precipitationProbability = hour.precipitationProbability
        precipitation = hour.precipitation
        weatherCode = hour.weatherCode
        description = hour.weatherCode.map(WeatherCode.description)
        windSpeed = hour.windSpeed
        windDirection = hour.windDirection
        windCompass = hour.windDirection.map(Compass.point)
        windGusts = hour.windGusts
    }
}

struct DayJSON: Encodable {
    var date: String
    @Nullable var weekday: String?
    @Nullable var min: Double?
    @Nullable var max: Double?
    @Nullable var precipitationProbability: Double?
    @Nullable var precipitationSum: Double?
    @Nullable var weatherCode: Int?
    @Nullable var description: String?
    @Nullable var windSpeedMax: Double?
    @Nullable var windGustsMax: Double?
    @Nullable var sunrise: String?
    @Nullable var sunset: String?

    init(sheet: Sheet, day: DailyForecast) {
        let zone = sheet.zone
        date = day.date
        weekday = TimeText.parseDay(day.date, in: zone).map { TimeText.weekday($0, in: zone) }
        min = day.min
        max = day.max
        precipitationProbability = day.precipitationProbability
        precipitationSum = day.precipitationSum
        weatherCode = day.weatherCode
        description = day.weatherCode.map(WeatherCode.description)
        windSpeedMax = day.windSpeedMax
        windGustsMax = day.windGustsMax
        sunrise = sheet.localISO(day.sunrise)
        sunset = sheet.localISO(day.sunset)
    }
}

/// Another place with the asked name.
struct PlaceJSON: Encodable {
    var name: String
    @Nullable var admin1: String?
    @Nullable var country: String?
    @Nullable var countryCode: String?
    var latitude: Double
    var longitude: Double
    @Nullable var population: Int?

    init(place: GeoPlace) {
        name = place.name
        admin1 = place.admin1
        country = place.country
        countryCode = place.countryCode
        latitude = place.latitude
        longitude = place.longitude
        population = place.population
    }
}
