import AlmanacCore
import Foundation

/// `--air`: air quality, UV and pollen now and over the asked day (today by default), with the
/// category words of each index, in the place's local time.
struct AirPayload: ToolPayload {
    /// What the provider returned.
    let report: AirQualityReport
    /// The place as shown.
    let place: String
    /// The day shown, `YYYY-MM-DD` in the place's calendar.
    let day: String
    /// The run's "now".
    let now: Date

    /// Builds the payload; resolves the day word in the answer's zone.
    ///
    /// - Throws: a usage error when the answer has no hours on the asked day.
    init(report: AirQualityReport, place: String, day word: String?, now: Date) throws {
        self.report = report
        self.place = place
        self.now = now
        let zone = Self.zone(report)
        guard let date = TimeText.resolveDay(word ?? "today", now: now, in: zone) else {
            throw AlmanacError.usage(
                "weather: '\(word ?? "")' is not a day", suggestion: "use today, tomorrow, a weekday or YYYY-MM-DD")
        }
        day = TimeText.isoDay(date, in: zone)
        if word != nil, !report.hourly.contains(where: { TimeText.isoDay($0.time, in: zone) == day }) {
            let first = report.hourly.first.map { TimeText.isoDay($0.time, in: zone) } ?? "no days"
            let last = report.hourly.last.map { TimeText.isoDay($0.time, in: zone) } ?? first
            throw AlmanacError.usage(
                "weather: no air-quality forecast for \(day) at \(place) (it covers \(first) to \(last))",
                suggestion: "ask for a day within the next \(AirQualityQuery.maxDays) days")
        }
    }

    static func zone(_ report: AirQualityReport) -> TimeZone {
        report.timezone.flatMap(TimeZone.init(identifier:))
            ?? report.utcOffsetSeconds.flatMap(TimeZone.init(secondsFromGMT:)) ?? TimeText.utc
    }

    /// The hours of the shown day.
    var hours: [AirQualityReport.Reading] {
        let zone = Self.zone(report)
        return report.hourly.filter { TimeText.isoDay($0.time, in: zone) == day }
    }

    /// Compact text: now, then the day's highest values.
    func context(_ rendering: Rendering) -> String {
        let zone = Self.zone(report)
        let header = rendering.header(
            "\(place) · \(AirWords.contents(report)) · local time \(TimeText.day(now, in: zone)) \(TimeText.clock(now, in: zone)) \(TimeText.zoneAbbreviation(zone, at: now))",
            zone: zone)
        var lines: [String] = []
        if let current = report.current {
            lines.append(
                "Now (\(TimeText.clock(current.time, in: zone))): "
                    + AirWords.describe(current, peak: false, pollenHere: report.pollenForecastHere))
        }
        let hours = self.hours
        if let peak = AirWords.peak(hours) {
            let label = TimeText.parseDay(day, in: zone).map { TimeText.labelledDay($0, now: now, in: zone) } ?? day
            lines.append(
                "\(label), highest over the day: "
                    + AirWords.describe(peak, peak: true, pollenHere: report.pollenForecastHere))
        }
        if lines.isEmpty { lines.append("No air-quality values for \(place) in this answer.") }
        return ([header] + lines).joined(separator: "\n")
    }

    /// The same for people, with the attribution.
    func text(_ rendering: Rendering) -> String {
        context(rendering) + "\n" + (OpenMeteoAirQualityProvider.descriptor.terms.attribution ?? "")
    }

    enum CodingKeys: String, CodingKey {
        case place, timezone, day, current, dayMax, hourly
    }

    /// `data` (docs/weather.md): readings with category words; `dayMax` the day's highest values.
    /// By hand: `data` is derived from the report (the day's hours, their peak), not this type's fields.
    func encode(to encoder: any Encoder) throws {
        let calendar = TimeText.calendar(Self.zone(report))
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(place, forKey: .place)
        try container.encode(report.timezone, forKey: .timezone)
        try container.encode(day, forKey: .day)
        try container.encode(report.current.map { AirJSON(reading: $0, calendar: calendar) }, forKey: .current)
        try container.encode(
            AirWords.peak(hours).map { AirJSON(reading: $0, calendar: calendar, time: false) }, forKey: .dayMax)
        try container.encode(hours.map { AirJSON(reading: $0, calendar: calendar) }, forKey: .hourly)
    }
}

/// One air-quality reading in `data` (`dayMax` has no `time`).
struct AirJSON: Encodable {
    var time: String?
    @Nullable var europeanAqi: Double?
    @Nullable var europeanAqiCategory: String?
    @Nullable var usAqi: Double?
    @Nullable var usAqiCategory: String?
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // The documented JSON key (Open-Meteo's own name), written as is.
    @Nullable var pm2_5: Double?
    @Nullable var pm10: Double?
    @Nullable var ozone: Double?
    @Nullable var nitrogenDioxide: Double?
    @Nullable var uvIndex: Double?
    @Nullable var uvCategory: String?
    var pollen: [String: Double]

    init(reading: AirQualityReport.Reading, calendar: Calendar, time: Bool = true) {
        self.time = time ? LocalTime.iso(reading.time, calendar: calendar) : nil
        europeanAqi = reading.europeanAQI
        europeanAqiCategory = reading.europeanAQI.map(AirWords.european)
        usAqi = reading.usAQI
        usAqiCategory = reading.usAQI.map(AirWords.us)
        pm2_5 = reading.pm25
        pm10 = reading.pm10
        ozone = reading.ozone
        nitrogenDioxide = reading.nitrogenDioxide
        uvIndex = reading.uvIndex
        uvCategory = reading.uvIndex.map(AirWords.uv)
        pollen = reading.pollen
    }
}

/// Category words of the indices (the bands their owners publish: EEA/CAMS for the European AQI,
/// US EPA for the US AQI, WHO for the UV index).
enum AirWords {
    static func european(_ value: Double) -> String {
        switch value {
        case ..<20: "good"
        case ..<40: "fair"
        case ..<60: "moderate"
        case ..<80: "poor"
        case ..<100: "very poor"
        default: "extremely poor"
        }
    }

    static func us(_ value: Double) -> String {
        switch value {
        case ...50: "good"
        case ...100: "moderate"
        case ...150: "unhealthy for sensitive groups"
        case ...200: "unhealthy"
        case ...300: "very unhealthy"
        default: "hazardous"
        }
    }

    static func uv(_ value: Double) -> String {
        switch value.rounded() {
        case ..<3: "low"
        case ..<6: "moderate"
        case ..<8: "high"
        case ..<11: "very high"
        default: "extreme"
        }
    }

    /// The highest of each value over `hours` (nil when there are none).
    static func peak(_ hours: [AirQualityReport.Reading]) -> AirQualityReport.Reading? {
        guard let first = hours.first else { return nil }
        func most(_ path: KeyPath<AirQualityReport.Reading, Double?>) -> Double? {
            hours.compactMap { $0[keyPath: path] }.max()
        }
        var pollen: [String: Double] = [:]
        for hour in hours { pollen.merge(hour.pollen) { Swift.max($0, $1) } }
        return AirQualityReport.Reading(
            time: first.time, europeanAQI: most(\.europeanAQI), usAQI: most(\.usAQI), pm25: most(\.pm25),
            pm10: most(\.pm10), ozone: most(\.ozone), nitrogenDioxide: most(\.nitrogenDioxide),
            uvIndex: most(\.uvIndex),
            pollen: pollen)
    }

    /// What the answer holds, for the header: "air quality, UV and pollen", "air quality" (an answer
    /// without UV or pollen values must not promise them).
    static func contents(_ report: AirQualityReport) -> String {
        let readings = (report.current.map { [$0] } ?? []) + report.hourly
        var extras: [String] = []
        if readings.contains(where: { $0.uvIndex != nil }) { extras.append("UV") }
        if readings.contains(where: { !$0.pollen.isEmpty }) { extras.append("pollen") }
        switch extras.count {
        case 0: return "air quality"
        case 1: return "air quality and \(extras[0])"
        default: return "air quality, \(extras[0]) and \(extras[1])"
        }
    }

    /// "European AQI 44 (moderate), US AQI 65 (moderate); PM2.5 22.1 μg/m³, ...; UV index 2.1 (low); pollen: none".
    ///
    /// No pollen values: "not forecast here (Europe only)" only for a point outside the CAMS European
    /// domain (`pollenHere` false); inside it (or unknown) the answer simply carried none.
    static func describe(_ reading: AirQualityReport.Reading, peak: Bool, pollenHere: Bool? = nil) -> String {
        var groups: [String] = []
        let indices = [
            reading.europeanAQI.map { "European AQI \(Numbers.text($0)) (\(european($0)))" },
            reading.usAQI.map { "US AQI \(Numbers.text($0)) (\(us($0)))" },
        ].compactMap { $0 }
        if !indices.isEmpty { groups.append(indices.joined(separator: ", ")) }
        let pollutants = [
            reading.pm25.map { "PM2.5 \(Numbers.text($0))" }, reading.pm10.map { "PM10 \(Numbers.text($0))" },
            reading.ozone.map { "ozone \(Numbers.text($0))" },
            reading.nitrogenDioxide.map { "NO2 \(Numbers.text($0))" },
        ].compactMap { $0 }
        if !pollutants.isEmpty { groups.append(pollutants.joined(separator: ", ") + " μg/m³") }
        if let uv = reading.uvIndex { groups.append("UV index \(Numbers.text(uv)) (\(Self.uv(uv)))") }
        if reading.pollen.isEmpty {
            groups.append(
                pollenHere == false ? "pollen: not forecast here (Europe only)" : "pollen: none in this answer")
        } else {
            let present = reading.pollen.filter { $0.value > 0 }.sorted { $0.value > $1.value }
            groups.append(
                present.isEmpty
                    ? "pollen: none"
                    : "pollen " + present.map { "\($0.key) \(Numbers.text($0.value))" }.joined(separator: ", ")
                        + " grains/m³")
        }
        return groups.isEmpty ? "no values" : groups.joined(separator: "; ")
    }
}

/// `--next-hour`: one line saying when rain starts, peaks and stops, then the steps.
struct NextHourPayload: ToolPayload {
    /// What the provider returned.
    let report: NextHourReport
    /// The place as shown.
    let place: String
    /// The place's zone, when the geocoder knew it.
    let timezone: String?
    /// The run's "now".
    let now: Date

    init(report: NextHourReport, place: String, timezone: String?, now: Date) {
        self.report = report
        self.place = place
        self.timezone = timezone
        self.now = now
    }

    /// The steps from the one under way at "now" to an hour later.
    var window: [NextHourReport.Step] {
        let start = now.addingTimeInterval(-Double(report.stepSeconds))
        let end = now.addingTimeInterval(3600)
        return report.steps.filter { $0.time > start && $0.time < end }
    }

    var zone: (zone: TimeZone, known: Bool) {
        if let zone = (timezone ?? report.timezone).flatMap(TimeZone.init(identifier:)) { return (zone, true) }
        return (TimeText.utc, false)
    }

    /// Wet enough to count as rain (the nowcast's smallest step is 0.1 mm/h).
    static let wet = 0.05

    /// "Rain from 14:20, heaviest 14:35 (2.1 mm/h), dry again by 15:10".
    func summary() -> String {
        let zone = self.zone.zone
        let steps = window
        func clock(_ date: Date) -> String { TimeText.clock(date, in: zone) }
        guard let first = steps.first, let last = steps.last else {
            let end = report.steps.last.map { " (it ends at \(clock($0.time)))" } ?? ""
            return "No precipitation steps from now on in this answer\(end)."
        }
        let until = last.time.addingTimeInterval(Double(report.stepSeconds))
        guard let start = steps.firstIndex(where: { $0.rate > Self.wet }) else {
            return "Dry for the next hour: no precipitation expected until \(clock(until))."
        }
        let wetSteps = steps[start...]
        let heaviest = wetSteps.max { $0.rate < $1.rate } ?? steps[start]
        let opening =
            start == 0 && first.time <= now
            ? "Raining now (\(Numbers.text(first.rate)) mm/h)" : "Rain from \(clock(steps[start].time))"
        var text = opening
        if heaviest.time != steps[start].time || start != 0 {
            text += ", heaviest \(clock(heaviest.time)) (\(Numbers.text(heaviest.rate)) mm/h)"
        }
        if let dry = wetSteps.first(where: { $0.rate <= Self.wet }) {
            text += ", dry again by \(clock(dry.time))"
        } else {
            text += ", still falling at \(clock(until)) (\(Numbers.text(last.rate)) mm/h)"
        }
        return text
    }

    /// Compact text: the summary, then the steps as "HH:MM rate" pairs.
    func context(_ rendering: Rendering) -> String {
        let (zone, known) = zone
        let title =
            "\(place) · next hour (\(report.source))"
            + (known ? " · local time" : " · times in UTC (the place's time zone is unknown)")
        let header = rendering.header(title, zone: zone)
        var lines = [summary()]
        let steps = window
        if !steps.isEmpty {
            lines.append(
                "Steps (mm/h): "
                    + steps.map { "\(TimeText.clock($0.time, in: zone)) \(Numbers.text($0.rate))" }
                    .joined(separator: ", "))
        }
        return ([header] + lines).joined(separator: "\n")
    }

    /// The same for people.
    func text(_ rendering: Rendering) -> String { context(rendering) }

    enum CodingKeys: String, CodingKey {
        case place, timezone, source, summary, steps
    }

    enum StepKeys: String, CodingKey {
        case time, rate
    }

    /// `data` (docs/weather.md): the summary line and the hour's steps (`rate` in mm/h).
    /// By hand: `data` is derived from the report (the summary, the hour's window), not this type's fields.
    func encode(to encoder: any Encoder) throws {
        let calendar = TimeText.calendar(zone.zone)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(place, forKey: .place)
        try container.encode(zone.known ? zone.zone.identifier : nil, forKey: .timezone)
        try container.encode(report.source, forKey: .source)
        try container.encode(summary(), forKey: .summary)
        var steps = container.nestedUnkeyedContainer(forKey: .steps)
        for step in window {
            var item = steps.nestedContainer(keyedBy: StepKeys.self)
            try item.encode(LocalTime.iso(step.time, calendar: calendar), forKey: .time)
            try item.encode(step.rate, forKey: .rate)
        }
    }
}
