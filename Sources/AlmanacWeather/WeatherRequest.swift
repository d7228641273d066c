import AlmanacCore
import Foundation

/// A weather question after argument checks, before any network call.
struct WeatherRequest: Sendable, Equatable {
    /// Where.
    enum Target: Sendable, Equatable {
        /// A place name to geocode ("Paris, TX").
        case place(PlaceText)
        /// `--lat/--lon`.
        case coordinates(latitude: Double, longitude: Double)
    }

    /// What to show.
    enum View: Sendable, Equatable {
        /// Now, today and the next days (`count` days in all, today included).
        case overview(days: Int)
        /// The next 24 hours, hour by hour.
        case hourly
        /// One day, named by a day word (resolved in the place's zone once the forecast is in).
        case day(String)
    }

    /// Beside the forecast: what else was asked for instead of it.
    enum Extra: String, Sendable, Equatable {
        /// `--alerts`: official warnings in force.
        case alerts
        /// `--air`: air quality, UV and pollen.
        case air
        /// `--next-hour`: precipitation in the next hour.
        case nextHour = "next-hour"

        /// The switch that asks for it.
        var parameter: WeatherParameter {
            switch self {
            case .alerts: .alerts
            case .air: .air
            case .nextHour: .nextHour
            }
        }
    }

    /// Where.
    var target: Target
    /// The profile's name for the place (`home`, or a key of `[me] places` such as `work`), shown
    /// beside the geocoded name; nil when the place was named directly.
    var profileName: String?
    /// What the profile gave for ``profileName`` ("Porto", "38.72,-9.14"), for messages.
    var profileValue: String?
    /// Warnings, air quality or the next hour instead of the forecast; nil for the forecast.
    var extra: Extra?
    /// What to show.
    var view: View
    /// Hour by hour within a day view.
    var everyHour: Bool
    /// Include sunrise and sunset.
    var sun: Bool
    /// Unit system.
    var units: UnitSystem
    /// Wind unit.
    var wind: WindUnit
    /// Whether wind was asked for (`--wind`): hour lines then carry it.
    var windAsked: Bool

    /// The asked day's word, for a day view.
    var dayWord: String? {
        if case .day(let word) = view { return word }
        return nil
    }

    /// Words that name a day when they end the place text.
    static let dayWords: Set<String> = [
        "today", "tonight", "tomorrow", "yesterday", "monday", "tuesday", "wednesday", "thursday", "friday",
        "saturday", "sunday",
    ]

    /// Words that name one of the user's own places ("at work"), resolved from the profile only.
    static let personalPlaces: Set<String> = ["home", "work", "office", "school"]

    /// Days Open-Meteo forecasts (`forecast_days` ≤ 16).
    static let maxDays = 16
    /// Days requested by default.
    static let defaultDays = 7

    /// Checks `arguments` against each other and the `[weather]` config table, phase by phase:
    /// the day, the place or coordinates, the view, the units.
    ///
    /// - Throws: ``AlmanacError/usage(_:suggestion:)`` naming what was wrong and what would be right.
    init(_ arguments: ToolArguments, settings: Settings) throws {
        let (placeText, dayWord) = try Self.placeAndDay(arguments)
        (target, profileName, profileValue) = try Self.profileTarget(
            arguments, placeText: placeText, settings: settings)
        (view, everyHour) = try Self.view(arguments, dayWord: dayWord)
        sun = arguments.flag(WeatherParameter.sun)
        (units, wind) = try Self.units(arguments, settings: settings)
        windAsked = arguments.string(WeatherParameter.wind) != nil
        extra = try Self.extra(arguments, view: view, dayWord: dayWord)
    }

    /// `--alerts`, `--air` or `--next-hour` (one at a time); only `--air` takes a day.
    static func extra(_ arguments: ToolArguments, view: View, dayWord: String?) throws -> Extra? {
        let asked = [Extra.alerts, .air, .nextHour].filter { arguments.flag($0.parameter) }
        guard let extra = asked.first else { return nil }
        if asked.count > 1 {
            throw AlmanacError.usage(
                "weather: ask for one of --alerts, --air, --next-hour at a time (got \(asked.map { "--" + $0.rawValue }.joined(separator: " ")))",
                suggestion: "run the tool once for each")
        }
        if arguments.flag(WeatherParameter.hourly) || arguments.integer(WeatherParameter.days) != nil {
            throw AlmanacError.usage(
                "weather: --\(extra.rawValue) does not combine with --hourly or --days",
                suggestion: "drop --hourly/--days (--air takes a day: 'Lisbon tomorrow --air')")
        }
        if let dayWord, extra != .air {
            throw AlmanacError.usage(
                "weather: --\(extra.rawValue) is about now, not '\(dayWord)'",
                suggestion: extra == .alerts
                    ? "drop the day: warnings in force and announced are listed with their times" : "drop the day")
        }
        return extra
    }

    /// The place text and the day word (from `--day`, or a trailing word of the place).
    static func placeAndDay(_ arguments: ToolArguments) throws -> (place: String, day: String?) {
        var placeText = PlaceText.collapse(arguments.string(WeatherParameter.place) ?? "")
        var dayWord = arguments.string(WeatherParameter.day).map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        if dayWord == nil {
            let split = Self.splitDayWord(placeText)
            placeText = split.place
            dayWord = split.day
        }
        if let dayWord, !Self.isDayWord(dayWord) {
            throw AlmanacError.usage(
                "weather: '\(dayWord)' is not a day",
                suggestion: "use today, tomorrow, a weekday (friday) or YYYY-MM-DD")
        }
        if dayWord == "yesterday" {
            throw AlmanacError.usage(
                "weather: forecasts start today; past weather is not available", suggestion: "use today or a later day")
        }
        return (placeText, dayWord)
    }

    /// The target with the profile applied: a name of `[me] places` wins over a geocoder lookup of
    /// the same word ("work" is the user's work, not a place called Work); no place at all is
    /// `[me] home`, then `[weather] place`. A profile value "LAT,LON" is coordinates.
    static func profileTarget(
        _ arguments: ToolArguments, placeText: String, settings: Settings
    ) throws -> (Target, name: String?, value: String?) {
        let coordinatesGiven =
            arguments.number(WeatherParameter.lat) != nil || arguments.number(WeatherParameter.lon) != nil
        guard !coordinatesGiven else {
            return (try target(arguments, placeText: placeText, settings: settings), nil, nil)
        }
        let profile = try Profile.read(settings)
        let chosen: (name: String, value: String)?
        if placeText.isEmpty {
            chosen = profile.home.map { ("home", $0) }
        } else if let named = profile.place(named: placeText) {
            chosen = (named.name, named.place)
        } else if Self.personalPlaces.contains(placeText.lowercased()) {
            // "at home", "at work": the user's own places, never a geocoder's guess at the word.
            let word = placeText.lowercased()
            if word == "home", let home = profile.home {
                chosen = ("home", home)
            } else {
                throw AlmanacError.usage(
                    word == "home"
                        ? "weather: no home is set" : "weather: '\(word)' is not one of your places ([me] places)",
                    suggestion: word == "home"
                        ? "set it under [me] in config.toml: home = \"Lisbon\""
                        : "add it under [me] in config.toml: places = { \(word) = \"Porto\" }")
            }
        } else {
            chosen = nil
        }
        guard let chosen else { return (try target(arguments, placeText: placeText, settings: settings), nil, nil) }
        if let (latitude, longitude) = coordinates(chosen.value) {
            return (.coordinates(latitude: latitude, longitude: longitude), chosen.name, chosen.value)
        }
        let place = PlaceText(PlaceText.collapse(chosen.value))
        guard !place.name.isEmpty else {
            throw AlmanacError.usage(
                "weather: [me] \(chosen.name == "home" ? "home" : "places: \(chosen.name)") is empty",
                suggestion: "e.g. home = \"Lisbon\" or home = \"38.72,-9.14\" under [me] in config.toml")
        }
        return (.place(place), chosen.name, chosen.value)
    }

    /// "38.72,-9.14" as latitude and longitude in range, else nil (a place name).
    static func coordinates(_ text: String) -> (Double, Double)? {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
            (-90...90).contains(latitude), (-180...180).contains(longitude)
        else { return nil }
        return (latitude, longitude)
    }

    /// `--lat/--lon`, else the place (or the configured default place).
    static func target(_ arguments: ToolArguments, placeText: String, settings: Settings) throws -> Target {
        switch (arguments.number(WeatherParameter.lat), arguments.number(WeatherParameter.lon)) {
        case (let latitude?, let longitude?):
            guard (-90...90).contains(latitude) else {
                throw AlmanacError.usage(
                    "weather: --lat must be between -90 and 90, got \(latitude)",
                    suggestion: "e.g. --lat 38.72 --lon -9.14")
            }
            guard (-180...180).contains(longitude) else {
                throw AlmanacError.usage(
                    "weather: --lon must be between -180 and 180, got \(longitude)",
                    suggestion: "e.g. --lat 38.72 --lon -9.14")
            }
            guard placeText.isEmpty else {
                throw AlmanacError.usage(
                    "weather: give a place or --lat/--lon, not both ('\(placeText)')",
                    suggestion:
                        "tools run weather '\(placeText)'  or  tools run weather --lat \(latitude) --lon \(longitude)")
            }
            return .coordinates(latitude: latitude, longitude: longitude)
        case (nil, nil):
            var placeText = placeText
            if placeText.isEmpty, let configured = settings.config("weather", "place")?.stringValue {
                placeText = PlaceText.collapse(configured)
            }
            let place = PlaceText(placeText)
            guard !place.name.isEmpty else {
                throw AlmanacError.usage(
                    "weather: no place given and no home is set",
                    suggestion:
                        "tools run weather Lisbon, or set your home in config.toml: [me] home = \"Lisbon\"")
            }
            return .place(place)
        default:
            throw AlmanacError.usage(
                "weather: --lat and --lon go together", suggestion: "e.g. --lat 38.72 --lon -9.14")
        }
    }

    /// The view from a day word, `--hourly` and `--days`, and whether a day shows every hour.
    static func view(_ arguments: ToolArguments, dayWord: String?) throws -> (View, everyHour: Bool) {
        let days = arguments.integer(WeatherParameter.days)
        if let days, !(1...Self.maxDays).contains(days) {
            throw AlmanacError.usage(
                "weather: --days must be 1 to \(Self.maxDays), got \(days)",
                suggestion: "forecasts reach at most \(Self.maxDays) days ahead, e.g. --days 3")
        }
        let hourly = arguments.flag(WeatherParameter.hourly)
        if let dayWord {
            if days != nil {
                throw AlmanacError.usage(
                    "weather: --days does not combine with a day ('\(dayWord)')", suggestion: "drop --days, or the day")
            }
            return (.day(dayWord), hourly)
        }
        if hourly {
            if days != nil {
                throw AlmanacError.usage(
                    "weather: --days does not combine with --hourly (the next 24 hours)", suggestion: "drop one of them"
                )
            }
            return (.hourly, true)
        }
        return (.overview(days: days ?? Self.defaultDays), false)
    }

    /// The unit system and wind unit: the arguments, else `[weather] units/wind`, else metric.
    static func units(_ arguments: ToolArguments, settings: Settings) throws -> (UnitSystem, WindUnit) {
        var units = UnitSystem.metric
        if let raw = arguments.string(WeatherParameter.units) ?? settings.config("weather", "units")?.stringValue {
            guard let system = UnitSystem(rawValue: raw.lowercased()) else {
                throw AlmanacError.usage(
                    "weather: units must be metric or imperial, got '\(raw)'",
                    suggestion: "--units imperial, or [weather] units = \"imperial\" in config.toml")
            }
            units = system
        }
        guard let raw = arguments.string(WeatherParameter.wind) ?? settings.config("weather", "wind")?.stringValue
        else {
            return (units, WindUnit.default(for: units))
        }
        guard let unit = WindUnit(rawValue: raw.lowercased()) else {
            throw AlmanacError.usage(
                "weather: wind must be one of kmh, ms, mph, kn, got '\(raw)'",
                suggestion: "--wind ms, or [weather] wind = \"ms\" in config.toml")
        }
        return (units, unit)
    }

    /// "Lisbon tomorrow" → ("Lisbon", "tomorrow"); "Paris, TX 2026-03-07" → ("Paris, TX", "2026-03-07").
    /// Only a whole trailing word counts, so "Tomorrowland" stays a place.
    static func splitDayWord(_ text: String) -> (place: String, day: String?) {
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let last = words.last?.lowercased(), isDayWord(last) else { return (text, nil) }
        var place = words.dropLast().joined(separator: " ")
        if place.hasSuffix(",") { place.removeLast() }
        return (place, last)
    }

    static func isDayWord(_ word: String) -> Bool {
        dayWords.contains(word) || TimeText.parseDay(word, in: TimeText.utc) != nil
    }

    /// `forecast_days` to ask for: at least the default, enough for `--days`, and enough to reach
    /// the asked day (measured in `zone`, with a day of slack for the place's own zone).
    ///
    /// - Throws: a usage error for a day in the past or beyond the forecast horizon.
    func span(now: Date, zone: TimeZone) throws -> Int {
        switch view {
        case .overview(let days): return max(Self.defaultDays, days)
        case .hourly: return Self.defaultDays
        case .day(let word):
            guard let target = TimeText.resolveDay(word, now: now, in: zone) else {
                throw AlmanacError.usage(
                    "weather: '\(word)' is not a day", suggestion: "use today, tomorrow, a weekday or YYYY-MM-DD")
            }
            let calendar = TimeText.calendar(zone)
            let offset = calendar.dateComponents([.day], from: calendar.startOfDay(for: now), to: target).day ?? 0
            if offset < 0 {
                throw AlmanacError.usage(
                    "weather: \(word) is in the past; forecasts start today", suggestion: "use today or a later day")
            }
            if offset >= Self.maxDays {
                throw AlmanacError.usage(
                    "weather: \(word) is \(offset) days ahead; forecasts reach \(Self.maxDays) days",
                    suggestion: "ask for a day within the next \(Self.maxDays) days")
            }
            return min(Self.maxDays, max(Self.defaultDays, offset + 2))
        }
    }
}
