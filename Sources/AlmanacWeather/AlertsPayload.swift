import AlmanacCore
import Foundation

/// `tools run weather PLACE --alerts`: the official warnings in force at a place, or a plain
/// statement that none are, or that no warning service covers it.
///
/// Times are the place's local time (its geocoded zone, else the service's own: NWS offsets,
/// Norway's zone; UTC, said so, when neither is known). Warnings whose end has passed at the
/// run's "now" are never shown, however old the stored answer.
struct AlertsPayload: ToolPayload {
    /// The service's answer; nil when no service covers the place.
    let report: AlertsReport?
    /// The place as shown ("Oslo, Norway", "29.01°N 81.38°W").
    let place: String
    /// The place's zone identifier, when the geocoder knew it.
    let timezone: String?
    /// The run's "now" (expiry is judged against it).
    let now: Date
    /// Why no service covers the place, for bare coordinates MeteoAlarm cannot place.
    let uncoveredHint: String?

    init(report: AlertsReport?, place: String, timezone: String?, now: Date, uncoveredHint: String? = nil) {
        self.report = report
        self.place = place
        self.timezone = timezone
        self.now = now
        self.uncoveredHint = uncoveredHint
    }

    /// Warnings in force at `now`, the soonest-ending first within their order of onset.
    var active: [WeatherAlert] {
        (report?.alerts ?? []).filter { $0.inForce(at: now) }
            .sorted {
                ($0.onset ?? .distantPast, $0.expires ?? .distantFuture) < (
                    $1.onset ?? .distantPast, $1.expires ?? .distantFuture
                )
            }
    }

    /// The zone times are read in, and whether it is the place's own.
    var zone: (zone: TimeZone, known: Bool) {
        if let zone = timezone.flatMap(TimeZone.init(identifier:)) { return (zone, true) }
        if let zone = report?.zoneHint.flatMap(AlertLines.zone) { return (zone, true) }
        return (TimeText.utc, false)
    }

    /// Compact text: the warnings one line each, then their texts fenced, cut to the budget.
    func context(_ rendering: Rendering) -> String {
        let (zone, known) = zone
        let title = "\(place) · official warnings" + (known ? "" : " · times in UTC (the place's time zone is unknown)")
        let header = rendering.header(title, zone: zone)
        let lines = AlertLines(zone: zone, now: now)
        guard let report else {
            return [header, "No warning service covers \(place)" + (uncoveredHint.map { " (\($0))" } ?? "") + "."]
                .joined(separator: "\n")
        }
        let active = self.active
        var summary = active.map(lines.line)
        if active.isEmpty {
            summary.append("No active warnings from \(report.service) for \(place).")
        }
        if report.elsewhere > 0 {
            summary.append(
                "\(report.service) has \(report.elsewhere) other warning\(report.elsewhere == 1 ? "" : "s") in force elsewhere in the country."
            )
        }
        let texts = active.compactMap { alert -> String? in
            let text = [alert.description, alert.instruction].compactMap { $0 }.joined(separator: " ")
            return text.isEmpty ? nil : "\(alert.event): \(UntrustedText.clean(text, limit: 1200))"
        }
        guard !texts.isEmpty else { return ([header] + summary).joined(separator: "\n") }
        let nonce = UntrustedText.nonce(for: texts)
        let reserved =
            ([header] + summary + [UntrustedText.notice(nonce), UntrustedText.open(nonce), UntrustedText.close(nonce)])
            .joined(separator: "\n")
        let kept = rendering.budget.fit(texts, reserved: reserved, minimum: 0) {
            "… \($0) more warning text\($0 == 1 ? "" : "s") omitted"
        }
        guard !kept.isEmpty else { return ([header] + summary).joined(separator: "\n") }
        return
            ([header] + summary + [UntrustedText.notice(nonce), UntrustedText.open(nonce)] + kept + [
                UntrustedText.close(nonce)
            ]).joined(separator: "\n")
    }

    /// The same for people, with the service's attribution.
    func text(_ rendering: Rendering) -> String {
        let attribution = WeatherTool.alertsChain.first { $0.name == rendering.metadata.provider }?.descriptor.terms
            .attribution
        return ([context(rendering)] + [attribution].compactMap { $0 }).joined(separator: "\n")
    }

    enum CodingKeys: String, CodingKey {
        case place, timezone, service, covered, alerts, elsewhere
    }

    /// `data`: the place, the service, and the warnings in force (docs/weather.md).
    /// By hand: `data` is derived from the report (coverage, warnings in force), not this type's fields.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(place, forKey: .place)
        try container.encode(timezone ?? (zone.known ? zone.zone.identifier : nil), forKey: .timezone)
        try container.encode(report?.service, forKey: .service)
        try container.encode(report != nil, forKey: .covered)
        let calendar = TimeText.calendar(zone.zone)
        try container.encode(active.map { AlertJSON(alert: $0, calendar: calendar) }, forKey: .alerts)
        try container.encode(report?.elsewhere ?? 0, forKey: .elsewhere)
    }
}

/// One warning in `data.alerts[]` (times local with their offset).
struct AlertJSON: Encodable {
    var id: String
    var service: String
    var event: String
    @Nullable var severity: String?
    @Nullable var certainty: String?
    @Nullable var urgency: String?
    @Nullable var level: String?
    var areas: [String]
    @Nullable var onset: String?
    @Nullable var expires: String?
    @Nullable var headline: String?
    @Nullable var description: String?
    @Nullable var instruction: String?
    @Nullable var url: String?

    init(alert: WeatherAlert, calendar: Calendar) {
        id = alert.id
        service = alert.service
        event = alert.event
        severity = alert.severity
        certainty = alert.certainty
        urgency = alert.urgency
        level = alert.level
        areas = alert.areas
        onset = alert.onset.map { LocalTime.iso($0, calendar: calendar) }
        expires = alert.expires.map { LocalTime.iso($0, calendar: calendar) }
        headline = alert.headline
        description = alert.description
        instruction = alert.instruction
        url = alert.url
    }
}

/// One warning as one context line, in a zone at a "now".
struct AlertLines {
    let zone: TimeZone
    let now: Date

    /// "Warning: yellow (Moderate) gale, Måløy - Svinøy, in force since Tue 3 Jun 19:00 until
    /// Thu 5 Jun (tomorrow) 20:00 CEST; MET Norway".
    func line(_ alert: WeatherAlert) -> String {
        var parts: [String] = []
        // CAP's "Unknown" severity says nothing: left out.
        let severity = alert.severity.flatMap { $0.lowercased() == "unknown" ? nil : $0 }
        let grade = [alert.level, severity.map { alert.level == nil ? $0.lowercased() : "(\($0))" }]
            .compactMap { $0 }.joined(separator: " ")
        parts.append((grade.isEmpty ? "" : grade + " ") + UntrustedText.clean(alert.event, limit: 80))
        if !alert.areas.isEmpty {
            parts.append(UntrustedText.clean(alert.areas.joined(separator: "; "), limit: 160))
        }
        parts.append(span(alert))
        return "Warning: " + parts.joined(separator: ", ") + "; \(UntrustedText.clean(alert.service, limit: 60))"
    }

    func span(_ alert: WeatherAlert) -> String {
        let start: String
        if let onset = alert.onset, onset > now {
            start = "from \(moment(onset))"
        } else if let onset = alert.onset {
            start = "in force since \(moment(onset))"
        } else {
            start = "in force"
        }
        let end = alert.expires.map { " until \(moment($0))" } ?? " until further notice"
        return start + end + " \(TimeText.zoneAbbreviation(zone, at: alert.expires ?? alert.onset ?? now))"
    }

    /// "Thu 5 Jun (tomorrow) 20:00".
    func moment(_ date: Date) -> String {
        let calendar = TimeText.calendar(zone)
        let parts = calendar.dateComponents([.day, .month], from: date)
        let month = Sheet.months[((parts.month ?? 1) - 1) % 12]
        let relative = TimeText.relativeDay(date, now: now, in: zone).map { " (\($0))" } ?? ""
        return
            "\(TimeText.weekday(date, in: zone)) \(parts.day ?? 0) \(month)\(relative) \(TimeText.clock(date, in: zone))"
    }

    /// A zone from a hint: an identifier ("Europe/Oslo") or a fixed offset ("GMT-0400").
    static func zone(_ hint: String) -> TimeZone? {
        if hint.hasPrefix("GMT"), hint.count == 8, let hours = Int(hint.dropFirst(4).prefix(2)),
            let minutes = Int(hint.suffix(2))
        {
            let seconds = (hours * 3600 + minutes * 60) * (hint.dropFirst(3).first == "-" ? -1 : 1)
            return TimeZone(secondsFromGMT: seconds)
        }
        return TimeZone(identifier: hint)
    }
}
