import AlmanacCore
import Foundation

// The weather tool's `data` object (docs/weather.md), written like every payload's: `Encodable`
// with a keyed container that writes each documented key, absent values as `null`.

/// `data` for a forecast.
struct ForecastJSON: Encodable {
    let payload: WeatherPayload
    let forecast: Forecast

    enum CodingKeys: String, CodingKey {
        case location, units, view, day, alerts, current, hourly, daily, alternatives
    }

    func encode(to encoder: any Encoder) throws {
        let sheet = Sheet(forecast: forecast, now: payload.now)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(LocationJSON(location: forecast.location), forKey: .location)
        try container.encode(UnitsJSON(units: forecast.units), forKey: .units)
        try container.encode(payload.viewName, forKey: .view)
        try container.encode(payload.day, forKey: .day)
        try container.encode(
            payload.alerts.filter { $0.inForce(at: payload.now) }.map { AlertJSON(alert: $0, calendar: sheet.calendar) },
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
    let payload: WeatherPayload
    let web: WebWeather

    enum CodingKeys: String, CodingKey {
        case location, units, view, day, alerts, current, daily, alternatives, source, query, results
    }

    enum HitKeys: String, CodingKey {
        case title, url, snippet, age
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(
            LocationJSON(location: WeatherLocation(name: web.place, latitude: 0, longitude: 0), coordinates: false),
            forKey: .location)
        try container.encodeNil(forKey: .units)
        try container.encode(payload.viewName, forKey: .view)
        try container.encodeNil(forKey: .day)
        try container.encode([String](), forKey: .alerts)
        try container.encodeNil(forKey: .current)
        try container.encode([DayJSON](), forKey: .daily)
        try container.encode([PlaceJSON](), forKey: .alternatives)
        try container.encode("web search", forKey: .source)
        try container.encode(web.query, forKey: .query)
        var results = container.nestedUnkeyedContainer(forKey: .results)
        for hit in web.hits {
            var item = results.nestedContainer(keyedBy: HitKeys.self)
            try item.encode(hit.title, forKey: .title)
            try item.encode(hit.url, forKey: .url)
            try item.encode(hit.snippet, forKey: .snippet)
            try item.encode(hit.age, forKey: .age)
        }
    }
}

struct LocationJSON: Encodable {
    let location: WeatherLocation
    /// False when no place was resolved (web fallback): the coordinates are null too.
    var coordinates = true

    enum CodingKeys: String, CodingKey {
        case name, admin1, country, countryCode, latitude, longitude, timezone, utcOffsetSeconds, gridLatitude,
            gridLongitude, elevation
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(location.name, forKey: .name)
        try container.encode(location.admin1, forKey: .admin1)
        try container.encode(location.country, forKey: .country)
        try container.encode(location.countryCode, forKey: .countryCode)
        try container.encode(coordinates ? location.latitude : nil, forKey: .latitude)
        try container.encode(coordinates ? location.longitude : nil, forKey: .longitude)
        try container.encode(location.timezone, forKey: .timezone)
        try container.encode(location.utcOffsetSeconds, forKey: .utcOffsetSeconds)
        try container.encode(location.gridLatitude, forKey: .gridLatitude)
        try container.encode(location.gridLongitude, forKey: .gridLongitude)
        try container.encode(location.elevation, forKey: .elevation)
    }
}

struct UnitsJSON: Encodable {
    let units: WeatherUnits

    enum CodingKeys: String, CodingKey {
        case temperature, windSpeed, precipitation
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(units.temperature, forKey: .temperature)
        try container.encode(units.windSpeed, forKey: .windSpeed)
        try container.encode(units.precipitation, forKey: .precipitation)
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
    let sheet: Sheet
    let current: CurrentConditions

    enum CodingKeys: String, CodingKey {
        case time, temperature, apparentTemperature, weatherCode, description, windSpeed, windDirection, windCompass,
            windGusts, humidity, precipitation, isDay
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sheet.localISO(current.time), forKey: .time)
        try container.encode(current.temperature, forKey: .temperature)
        try container.encode(current.apparentTemperature, forKey: .apparentTemperature)
        try container.encode(current.weatherCode, forKey: .weatherCode)
        try container.encode(current.weatherCode.map(WeatherCode.description), forKey: .description)
        try container.encode(current.windSpeed, forKey: .windSpeed)
        try container.encode(current.windDirection, forKey: .windDirection)
        try container.encode(current.windDirection.map(Compass.point), forKey: .windCompass)
        try container.encode(current.windGusts, forKey: .windGusts)
        try container.encode(current.humidity, forKey: .humidity)
        try container.encode(current.precipitation, forKey: .precipitation)
        try container.encode(current.isDay, forKey: .isDay)
    }
}

struct HourJSON: Encodable {
    let sheet: Sheet
    let hour: HourlyForecast

    enum CodingKeys: String, CodingKey {
        case time, temperature, apparentTemperature, precipitationProbability, precipitation, weatherCode,
            description, windSpeed, windDirection, windCompass, windGusts
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sheet.localISO(hour.time), forKey: .time)
        try container.encode(hour.temperature, forKey: .temperature)
        try container.encode(hour.apparentTemperature, forKey: .apparentTemperature)
        try container.encode(hour.precipitationProbability, forKey: .precipitationProbability)
        try container.encode(hour.precipitation, forKey: .precipitation)
        try container.encode(hour.weatherCode, forKey: .weatherCode)
        try container.encode(hour.weatherCode.map(WeatherCode.description), forKey: .description)
        try container.encode(hour.windSpeed, forKey: .windSpeed)
        try container.encode(hour.windDirection, forKey: .windDirection)
        try container.encode(hour.windDirection.map(Compass.point), forKey: .windCompass)
        try container.encode(hour.windGusts, forKey: .windGusts)
    }
}

struct DayJSON: Encodable {
    let sheet: Sheet
    let day: DailyForecast

    enum CodingKeys: String, CodingKey {
        case date, weekday, min, max, precipitationProbability, precipitationSum, weatherCode, description,
            windSpeedMax, windGustsMax, sunrise, sunset
    }

    func encode(to encoder: any Encoder) throws {
        let zone = sheet.zone
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(day.date, forKey: .date)
        try container.encode(
            TimeText.parseDay(day.date, in: zone).map { TimeText.weekday($0, in: zone) }, forKey: .weekday)
        try container.encode(day.min, forKey: .min)
        try container.encode(day.max, forKey: .max)
        try container.encode(day.precipitationProbability, forKey: .precipitationProbability)
        try container.encode(day.precipitationSum, forKey: .precipitationSum)
        try container.encode(day.weatherCode, forKey: .weatherCode)
        try container.encode(day.weatherCode.map(WeatherCode.description), forKey: .description)
        try container.encode(day.windSpeedMax, forKey: .windSpeedMax)
        try container.encode(day.windGustsMax, forKey: .windGustsMax)
        try container.encode(sheet.localISO(day.sunrise), forKey: .sunrise)
        try container.encode(sheet.localISO(day.sunset), forKey: .sunset)
    }
}

/// Another place with the asked name.
struct PlaceJSON: Encodable {
    let place: GeoPlace

    enum CodingKeys: String, CodingKey {
        case name, admin1, country, countryCode, latitude, longitude, population
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(place.name, forKey: .name)
        try container.encode(place.admin1, forKey: .admin1)
        try container.encode(place.country, forKey: .country)
        try container.encode(place.countryCode, forKey: .countryCode)
        try container.encode(place.latitude, forKey: .latitude)
        try container.encode(place.longitude, forKey: .longitude)
        try container.encode(place.population, forKey: .population)
    }
}
