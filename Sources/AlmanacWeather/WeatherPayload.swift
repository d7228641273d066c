import AlmanacCore
import Foundation

/// The weather tool's result: a forecast (or web fallback) plus how to show it.
///
/// Every time is the place's local time (UTC, said so, when no provider knew its zone), labelled
/// with weekday and today/tomorrow; the context is a handful of lines (never the raw hourly
/// series) and fits ``Rendering/budget``.
struct WeatherPayload: ToolPayload {
    /// What the providers returned.
    let report: WeatherReport
    /// What to show.
    let view: WeatherRequest.View
    /// Hour by hour in a day view.
    let everyHour: Bool
    /// Sunrise and sunset lines.
    let sun: Bool
    /// Wind in every hour entry (`--wind` asked).
    var wind = false
    /// The asked day as `YYYY-MM-DD` in the place's calendar (day view with a forecast).
    let day: String?
    /// Other places with the same name (so a wrong geocoding pick is visible).
    let alternatives: [GeoPlace]
    /// The reference time JSON output is cut at (the run's "now").
    let now: Date
    /// The geocoder that named the place (its licence may ask for attribution), nil for coordinates.
    var geocoder: String?
    /// Official warnings in force at the place, shown one line each above the forecast.
    var alerts: [WeatherAlert] = []
    /// The profile's name for the place ("home", "work"), shown before the geocoded name.
    var profileName: String?

    /// Builds the payload for a checked request; resolves a day word in the forecast's zone.
    ///
    /// - Throws: a usage error when the asked day is not in the forecast.
    init(
        report: WeatherReport, request: WeatherRequest, now: Date, alternatives: [GeoPlace] = []
    ) throws {
        try self.init(
            report: report, view: request.view, everyHour: request.everyHour, sun: request.sun, now: now,
            alternatives: alternatives)
        wind = request.windAsked
    }

    /// Builds the payload from its parts (see ``init(report:request:now:alternatives:)``).
    init(
        report: WeatherReport, view: WeatherRequest.View, everyHour: Bool = false, sun: Bool = false, now: Date,
        alternatives: [GeoPlace] = []
    ) throws {
        self.report = report
        self.view = view
        self.everyHour = everyHour
        self.sun = sun
        self.alternatives = alternatives
        self.now = now
        if case .day(let word) = view, case .forecast(let forecast) = report {
            let zone = forecast.location.zone(at: now)
            guard let date = TimeText.resolveDay(word, now: now, in: zone) else {
                throw AlmanacError.usage(
                    "weather: '\(word)' is not a day", suggestion: "use today, tomorrow, a weekday or YYYY-MM-DD")
            }
            let iso = TimeText.isoDay(date, in: zone)
            guard forecast.daily.contains(where: { $0.date == iso }) else {
                let range =
                    forecast.daily.first.map { "\($0.date) to \(forecast.daily.last?.date ?? $0.date)" } ?? "no days"
                throw AlmanacError.usage(
                    "weather: no forecast for \(iso) at \(forecast.location.displayName) (forecast covers \(range))",
                    suggestion: "ask for a day in that range")
            }
            day = iso
        } else {
            day = nil
        }
    }

    /// "work (Porto, Portugal) · local time ..." for a place of the profile, else `title`.
    func labelled(_ title: String) -> String {
        guard let profileName else { return title }
        guard let cut = title.range(of: " · ") else { return "\(profileName) (\(title))" }
        return "\(profileName) (\(title[..<cut.lowerBound]))\(title[cut.lowerBound...])"
    }

    // MARK: - Context

    /// Compact text for an LLM: header, now, the day(s) asked, at most a few more lines.
    func context(_ rendering: Rendering) -> String {
        switch report {
        case .forecast(let forecast):
            let sheet = Sheet(forecast: forecast, now: rendering.now)
            let header = rendering.header(labelled(sheet.title), zone: sheet.zone)
            let lines = rendering.budget.fit(sheet.contextLines(self), reserved: header, minimum: 1) {
                "… \($0) more line\($0 == 1 ? "" : "s") omitted"
            }
            return ([header] + lines).joined(separator: "\n")
        case .web(let web):
            return webContext(web, rendering)
        }
    }

    /// Text for people: the same facts, one day or hour per line.
    func text(_ rendering: Rendering) -> String {
        switch report {
        case .forecast(let forecast):
            let sheet = Sheet(forecast: forecast, now: rendering.now)
            var lines = [rendering.header(labelled(sheet.title), zone: sheet.zone)] + sheet.textLines(self)
            // The providers' licences ask for attribution wherever people see the data: the forecast's
            // and the geocoder's (OpenStreetMap's ODbL).
            let forecaster = WeatherTool.forecastChain.first { $0.name == rendering.metadata.provider }
            let geocoder = WeatherTool.geocodingChain.first { $0.name == self.geocoder }
            lines += [forecaster?.descriptor.terms.attribution, geocoder?.descriptor.terms.attribution].compactMap {
                $0
            }
            // And the warning services' whose warnings are shown.
            let shown = Set(alerts.filter { $0.inForce(at: rendering.now) }.map(\.service))
            if shown.contains("MeteoAlarm") { lines.append(MeteoAlarmProvider.descriptor.terms.attribution ?? "") }
            if shown.contains("MET Norway") { lines.append(MetAlertsProvider.descriptor.terms.attribution ?? "") }
            if shown.contains(where: { $0.hasPrefix("NWS") }) {
                lines.append(NWSAlertsProvider.descriptor.terms.attribution ?? "")
            }
            return lines.joined(separator: "\n")
        case .web(let web):
            return webContext(web, rendering)
        }
    }

    private func webContext(_ web: WebWeather, _ rendering: Rendering) -> String {
        let header = rendering.header("\(web.place) · from web search (no forecast service answered)")
        let entries = web.hits.enumerated().map { index, hit in
            var line =
                "\(index + 1). \(UntrustedText.clean(hit.title, limit: 120)) — \(UntrustedText.clean(hit.snippet, limit: 300))"
            if let age = hit.age, !age.isEmpty { line += " (\(UntrustedText.clean(age, limit: 40)))" }
            return line + " <\(UntrustedText.clean(hit.url, limit: 200))>"
        }
        let nonce = UntrustedText.nonce(for: entries)
        let intro =
            "Web search results for \"\(UntrustedText.clean(web.query, limit: 120))\", not a forecast: check each result's date and place."
        let reserved = [
            header, intro, UntrustedText.notice(nonce), UntrustedText.open(nonce), UntrustedText.close(nonce),
        ]
        .joined(separator: "\n")
        let kept = rendering.budget.fit(entries, reserved: reserved, minimum: 1) { "… \($0) more results omitted" }
        return
            ([header, intro, UntrustedText.notice(nonce), UntrustedText.open(nonce)] + kept + [
                UntrustedText.close(nonce)
            ])
            .joined(separator: "\n")
    }

    // MARK: - JSON

    /// Writes the documented `data` object (see docs/weather.md): every key, absent values as null.
    /// By hand: a forecast and a web stand-in are two shapes.
    func encode(to encoder: any Encoder) throws {
        switch report {
        case .forecast(let forecast): try ForecastJSON(payload: self, forecast: forecast).encode(to: encoder)
        case .web(let web): try WebWeatherJSON(payload: self, web: web).encode(to: encoder)
        }
    }

    var viewName: String {
        switch view {
        case .overview: "overview"
        case .hourly: "hourly"
        case .day: "day"
        }
    }
}

/// A forecast read in its own zone at a reference time: what is today, which hours are next.
struct Sheet {
    let forecast: Forecast
    let now: Date
    let zone: TimeZone
    let calendar: Calendar
    let today: String

    init(forecast: Forecast, now: Date) {
        self.forecast = forecast
        self.now = now
        zone = forecast.location.zone(at: now)
        calendar = TimeText.calendar(zone)
        today = TimeText.isoDay(now, in: zone)
    }

    var units: WeatherUnits { forecast.units }

    /// "Frederick, Maryland, United States · local time Sun 9 Aug 2026 14:50 EDT". A forecast
    /// requested in GMT/UTC (not by this tool, which asks for `timezone=auto`), or for a place whose
    /// zone no provider knew, says so instead of calling UTC "local".
    var title: String {
        let clock =
            "\(TimeText.day(now, in: zone)) \(TimeText.clock(now, in: zone)) \(TimeText.zoneAbbreviation(zone, at: now))"
        guard forecast.location.zoneKnown else {
            return "\(forecast.location.displayName) · times in UTC (the place's time zone is unknown) · now \(clock)"
        }
        if let name = forecast.location.timezone, ["GMT", "UTC"].contains(name) {
            return "\(forecast.location.displayName) · times in \(name), not local · now \(clock)"
        }
        return "\(forecast.location.displayName) · local time \(clock)"
    }

    // MARK: Selection

    /// Days from today on (the response may start yesterday with `past_days`).
    var upcomingDays: [DailyForecast] { forecast.daily.filter { $0.date >= today } }

    func daysShown(_ payload: WeatherPayload) -> [DailyForecast] {
        switch payload.view {
        case .overview(let count): return Array(upcomingDays.prefix(count))
        case .hourly: return Array(upcomingDays.prefix(2))
        case .day: return forecast.daily.filter { $0.date == payload.day }
        }
    }

    /// Hours from the start of the current hour on.
    var upcomingHours: [HourlyForecast] {
        let hourStart = calendar.dateInterval(of: .hour, for: now)?.start ?? now
        return forecast.hourly.filter { $0.time >= hourStart }
    }

    /// The hours a view lists; nil for views without an hour list.
    func hoursShown(_ payload: WeatherPayload) -> [HourlyForecast]? {
        switch payload.view {
        case .overview: return nil
        case .hourly: return Array(upcomingHours.prefix(24))
        case .day:
            guard let day = payload.day else { return [] }
            let source = day == today ? upcomingHours : forecast.hourly
            let hours = source.filter { isoDay($0.time) == day }
            return payload.everyHour ? hours : hours.filter { calendar.component(.hour, from: $0.time) % 3 == 0 }
        }
    }

    /// `2026-08-09` in the forecast's zone.
    func isoDay(_ date: Date) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// `14:50` in the forecast's zone.
    func clock(_ date: Date) -> String {
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }

    // MARK: Lines

    func contextLines(_ payload: WeatherPayload) -> [String] {
        // Warnings first: the one thing the reader must not miss. Re-checked against this
        // rendering's "now", so a stored answer never shows an expired warning.
        let warnings = AlertLines(zone: zone, now: now)
        var lines = payload.alerts.filter { $0.inForce(at: now) }.map(warnings.line)
        switch payload.view {
        case .overview:
            lines.append(nowLine())
            let days = daysShown(payload)
            if let first = days.first {
                lines.append(dayLine(first, detailed: true, sun: payload.sun))
                let rest = Array(days.dropFirst())
                for (index, start) in stride(from: 0, to: rest.count, by: 3).enumerated() {
                    let chunk = rest[start..<min(start + 3, rest.count)].map {
                        dayLine($0, detailed: false, sun: payload.sun)
                    }
                    lines.append((index == 0 ? "Next days: " : "Then: ") + chunk.joined(separator: "; "))
                }
            } else {
                lines.append("No daily forecast from today on in this response.")
            }
        case .hourly:
            lines.append(nowLine())
            lines.append(contentsOf: hourLines(hoursShown(payload) ?? [], perLine: 6, wind: payload.wind))
            if lines.count == 1 { lines.append("No hourly forecast from now on in this response.") }
        case .day:
            if payload.day == today { lines.append(nowLine()) }
            if let day = daysShown(payload).first { lines.append(dayLine(day, detailed: true, sun: payload.sun)) }
            let hours = hoursShown(payload) ?? []
            lines.append(contentsOf: hourLines(hours, perLine: payload.everyHour ? 6 : 8, wind: payload.wind))
        }
        if !payload.alternatives.isEmpty {
            lines.append(alternativesLine(payload.alternatives))
        }
        return lines
    }

    func textLines(_ payload: WeatherPayload) -> [String] {
        let warnings = AlertLines(zone: zone, now: now)
        var lines = payload.alerts.filter { $0.inForce(at: now) }.map(warnings.line) + [nowLine()]
        if let hours = hoursShown(payload) {
            lines += hours.map {
                hourEntry($0, previousCode: nil, label: dayLabel(isoDay($0.time)), wind: payload.wind)
            }
        }
        lines += daysShown(payload).map { dayLine($0, detailed: true, sun: payload.sun) }
        if !payload.alternatives.isEmpty { lines.append(alternativesLine(payload.alternatives)) }
        return lines
    }

    /// "Now (21:00): 32.6 °F, feels like 22.5 °F, overcast, wind 13.2 mph, gusts 33.3 mph".
    func nowLine() -> String {
        guard let current = forecast.current else { return "Now: no current conditions in this response." }
        var parts: [String] = []
        if let value = current.temperature { parts.append(temperature(value)) }
        if let value = current.apparentTemperature { parts.append("feels like \(temperature(value))") }
        if let code = current.weatherCode { parts.append(WeatherCode.description(code)) }
        if let wind = windText(current.windSpeed, current.windDirection) { parts.append(wind) }
        if let gusts = current.windGusts { parts.append("gusts \(Numbers.text(gusts)) \(units.windSpeed)") }
        if let humidity = current.humidity { parts.append("humidity \(Numbers.percent(humidity))") }
        if let precipitation = current.precipitation, precipitation > 0 {
            parts.append("precipitation \(Numbers.amount(precipitation)) \(units.precipitation)")
        }
        let day = isoDay(current.time)
        let when = day == today ? clock(current.time) : "\(day) \(clock(current.time))"
        return "Now (\(when)): " + (parts.isEmpty ? "no values in this response" : parts.joined(separator: ", "))
    }

    /// "Sun 9 Aug (today): overcast, 22.5 to 32.9 °C, precip chance 20%".
    func dayLine(_ day: DailyForecast, detailed: Bool, sun: Bool) -> String {
        var parts: [String] = []
        if let code = day.weatherCode { parts.append(WeatherCode.description(code)) }
        switch (day.min, day.max) {
        case (let low?, let high?): parts.append("\(Numbers.text(low)) to \(temperature(high))")
        case (nil, let high?): parts.append("high \(temperature(high))")
        case (let low?, nil): parts.append("low \(temperature(low))")
        case (nil, nil): break
        }
        if let chance = day.precipitationProbability {
            var text = "precip chance \(Numbers.percent(chance))"
            if detailed, let sum = day.precipitationSum, sum > 0 {
                text += " (\(Numbers.amount(sum)) \(units.precipitation))"
            }
            parts.append(text)
        } else if detailed, let sum = day.precipitationSum, sum > 0 {
            parts.append("precipitation \(Numbers.amount(sum)) \(units.precipitation)")
        }
        if detailed, let wind = day.windSpeedMax {
            var text = "wind up to \(Numbers.text(wind)) \(units.windSpeed)"
            if let gusts = day.windGustsMax { text += ", gusts \(Numbers.text(gusts)) \(units.windSpeed)" }
            parts.append(text)
        }
        if sun {
            if let sunrise = day.sunrise, let sunset = day.sunset {
                parts.append("sunrise \(moment(sunrise, on: day.date)), sunset \(moment(sunset, on: day.date))")
            } else {
                parts.append("sunrise/sunset not in this response")
            }
        }
        return "\(dayLabel(day.date)): " + (parts.isEmpty ? "no data" : parts.joined(separator: ", "))
    }

    /// Hour entries grouped `perLine` to a line; each line and each new day starts with the day label.
    func hourLines(_ hours: [HourlyForecast], perLine: Int, wind: Bool = false) -> [String] {
        var lines: [String] = []
        var previousCode: Int?
        var previousDay: String?
        for start in stride(from: 0, to: hours.count, by: perLine) {
            var entries: [String] = []
            for hour in hours[start..<min(start + perLine, hours.count)] {
                let date = isoDay(hour.time)
                let label = (entries.isEmpty || date != previousDay) ? dayLabel(date) : nil
                entries.append(
                    hourEntry(hour, previousCode: label == nil ? previousCode : nil, label: label, wind: wind))
                previousCode = hour.weatherCode
                previousDay = date
            }
            lines.append(entries.joined(separator: ", "))
        }
        return lines
    }

    /// "21:00 32.6 °F overcast precip 5%" (the sky is named only when it changes).
    /// With `wind` (asked with `--wind`), or when the hour has nothing else to say, the entry
    /// carries the wind too: an hour line of bare times answers nothing.
    func hourEntry(_ hour: HourlyForecast, previousCode: Int?, label: String?, wind: Bool = false) -> String {
        var parts = [(label.map { "\($0) " } ?? "") + clock(hour.time)]
        if let value = hour.temperature { parts.append(temperature(value)) }
        if let code = hour.weatherCode, code != previousCode { parts.append(WeatherCode.description(code)) }
        if let chance = hour.precipitationProbability { parts.append("precip \(Numbers.percent(chance))") }
        if wind || parts.count == 1, let speed = hour.windSpeed {
            var text = "wind \(Numbers.text(speed))"
            if let direction = hour.windDirection, speed > 0 { text += " \(Compass.point(direction))" }
            if let gusts = hour.windGusts { text += " gusts \(Numbers.text(gusts))" }
            parts.append(text + " \(units.windSpeed)")
        }
        return parts.joined(separator: " ")
    }

    func alternativesLine(_ places: [GeoPlace]) -> String {
        let names = places.map(\.displayName).joined(separator: "; ")
        let hint =
            places.first.map { place in
                let qualifier =
                    place.admin1.flatMap { admin1 in
                        PlaceMatcher.areaAbbreviations[place.countryCode ?? ""]?.first { $0.value == admin1 }?.key
                    } ?? place.countryCode ?? place.country ?? ""
                return "\(place.name), \(qualifier)"
            } ?? ""
        return "Other places with this name: \(names) (ask for e.g. '\(hint)' to pick one)."
    }

    // MARK: Words

    /// "Sun 9 Aug (today)" from `2026-08-09` (the place's calendar).
    func dayLabel(_ isoDay: String) -> String {
        guard let date = TimeText.parseDay(String(isoDay.prefix(10)), in: zone) else { return isoDay }
        let parts = TimeText.calendar(zone).dateComponents([.day, .month], from: date)
        let base = "\(TimeText.weekday(date, in: zone)) \(parts.day ?? 0) \(Self.months[((parts.month ?? 1) - 1) % 12])"
        return TimeText.relativeDay(date, now: now, in: zone).map { "\(base) (\($0))" } ?? base
    }

    /// "06:21", or "Fri 24 Oct 19:21" when the moment falls on another day than `date` (sunrise in
    /// a GMT forecast for a place far east of Greenwich).
    func moment(_ time: Date, on date: String) -> String {
        guard isoDay(time) != date else { return clock(time) }
        let parts = calendar.dateComponents([.day, .month], from: time)
        return
            "\(TimeText.weekday(time, in: zone)) \(parts.day ?? 0) \(Self.months[((parts.month ?? 1) - 1) % 12]) \(clock(time))"
    }

    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    func temperature(_ value: Double) -> String { "\(Numbers.text(value)) \(units.temperature)" }

    /// "wind 8.3 km/h from NNE".
    func windText(_ speed: Double?, _ direction: Double?) -> String? {
        guard let speed else { return nil }
        var text = "wind \(Numbers.text(speed)) \(units.windSpeed)"
        if let direction, speed > 0 { text += " from \(Compass.point(direction))" }
        return text
    }
}
