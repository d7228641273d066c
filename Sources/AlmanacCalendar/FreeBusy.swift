import AlmanacCore
import Foundation

/// The hours of each day a free/busy view looks at ("afternoon": 12–18).
struct DayHours: Sendable, Hashable, CustomStringConvertible {
    /// First hour (0–23).
    var from: Int
    /// Last hour, exclusive (1–24).
    var to: Int

    /// Waking hours, when a question names no part of the day.
    static let waking = DayHours(from: 8, to: 20)

    /// `12-18`.
    var description: String { String(format: "%02d-%02d", from, to) }

    /// Reads `HH-HH` ("12-18", "9-17"), or nil.
    init?(_ text: String) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "-")
        guard parts.count == 2, let from = Int(parts[0]), let to = Int(parts[1]), (0...23).contains(from),
            (1...24).contains(to), from < to
        else { return nil }
        self.from = from
        self.to = to
    }

    init(from: Int, to: Int) {
        self.from = from
        self.to = to
    }
}

/// Busy blocks and free gaps in a window of each day: "am I free Friday afternoon?".
///
/// Timed events inside the window are busy (clipped to it); events that overlap each other are
/// flagged, a double booking being what the user most needs to hear. All-day events block nothing
/// (a birthday, a holiday) but are listed. On today the window starts now: the past is not free.
struct FreeBusyPayload: ToolPayload {
    struct Block: Sendable, Encodable {
        var start: Date
        var end: Date
        var summary: String?
        var calendar: String
        /// Titles of the other events this one overlaps.
        var overlaps: [String]
    }

    struct Gap: Sendable, Encodable {
        var start: Date
        var end: Date
        var minutes: Int
    }

    struct Day: Sendable, Encodable {
        var date: CivilDate
        var busy: [Block]
        var free: [Gap]
        var allDay: [String]
    }

    var firstDay: CivilDate
    var lastDay: CivilDate
    var hours: DayHours
    var zone: TimeZone
    var days: [Day]
    var warnings: [String]

    init(
        events: [CalendarEvent], firstDay: CivilDate, lastDay: CivilDate, hours: DayHours, zone: TimeZone, now: Date,
        warnings: [String]
    ) {
        self.firstDay = firstDay
        self.lastDay = lastDay
        self.hours = hours
        self.zone = zone
        self.warnings = warnings
        var days: [Day] = []
        var day = firstDay
        while day <= lastDay, days.count < 62 {
            days.append(Self.day(day, events: events, hours: hours, zone: zone, now: now))
            day = day.adding(days: 1)
        }
        self.days = days
    }

    static func day(_ day: CivilDate, events: [CalendarEvent], hours: DayHours, zone: TimeZone, now: Date) -> Day {
        let midnight = day.start(in: zone)
        let calendar = TimeText.calendar(zone)
        let open = calendar.date(byAdding: .hour, value: hours.from, to: midnight) ?? midnight
        let close = calendar.date(byAdding: .hour, value: hours.to, to: midnight) ?? midnight
        let start = max(open, min(now, close) > open && CivilDate(now, in: zone) == day ? now : open)
        var allDay: [String] = []
        var blocks: [Block] = []
        for event in events {
            if event.allDay {
                let first = event.start.date(in: zone)
                let after = event.end.date(in: zone)
                if first < close && after > open { allDay.append(event.summary ?? "(no title)") }
                continue
            }
            let from = event.start.date(in: zone)
            let to = max(event.end.date(in: zone), from)
            guard from < close, to > start else { continue }
            blocks.append(
                Block(
                    start: max(from, start), end: min(to, close), summary: event.summary, calendar: event.calendar,
                    overlaps: []))
        }
        blocks.sort { ($0.start, $0.end) < ($1.start, $1.end) }
        for index in blocks.indices {
            for other in blocks.indices where other != index {
                if blocks[index].start < blocks[other].end && blocks[other].start < blocks[index].end {
                    blocks[index].overlaps.append(blocks[other].summary ?? "(no title)")
                }
            }
        }
        var free: [Gap] = []
        var cursor = start
        for block in blocks {
            if block.start > cursor { free.append(gap(cursor, block.start)) }
            cursor = max(cursor, block.end)
        }
        if close > cursor { free.append(gap(cursor, close)) }
        return Day(date: day, busy: blocks, free: free.filter { $0.minutes >= 5 }, allDay: allDay)
    }

    static func gap(_ start: Date, _ end: Date) -> Gap {
        Gap(start: start, end: end, minutes: Int(end.timeIntervalSince(start) / 60))
    }

    // MARK: Output

    enum CodingKeys: String, CodingKey { case range, from, to, timeZone, hours, days, warnings }

    /// By hand: `data` names the window and zone in words (`range`, `from`, `hours`), not this type's fields.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("free", forKey: .range)
        try container.encode(firstDay.description, forKey: .from)
        try container.encode(lastDay.description, forKey: .to)
        try container.encode(zone.identifier, forKey: .timeZone)
        try container.encode(hours.description, forKey: .hours)
        try container.encode(days.map(JSONDay.init), forKey: .days)
        try container.encode(warnings, forKey: .warnings)
    }

    /// A day in JSON: times as ISO 8601 UTC, as every calendar time is.
    struct JSONDay: Encodable {
        struct Busy: Encodable {
            var start: String
            var end: String
            @Nullable var summary: String?
            var calendar: String
            var overlaps: [String]
        }

        struct Free: Encodable {
            var start: String
            var end: String
            var minutes: Int
        }

        var date: String
        var busy: [Busy]
        var free: [Free]
        var allDay: [String]

        init(_ day: Day) {
            date = day.date.description
            busy = day.busy.map {
                Busy(
                    start: TimeText.isoUTC($0.start), end: TimeText.isoUTC($0.end), summary: $0.summary,
                    calendar: $0.calendar, overlaps: $0.overlaps)
            }
            free = day.free.map {
                Free(start: TimeText.isoUTC($0.start), end: TimeText.isoUTC($0.end), minutes: $0.minutes)
            }
            allDay = day.allDay
        }
    }

    func context(_ rendering: Rendering) -> String {
        var top = [rendering.header(title(rendering), zone: zone)]
        let busyCount = days.reduce(0) { $0 + $1.busy.count }
        let doubles = days.reduce(0) { $0 + $1.busy.filter { !$0.overlaps.isEmpty }.count }
        top.append(
            "Busy blocks and free gaps between \(clockHour(hours.from)) and \(clockHour(hours.to)) each day; "
                + "\(busyCount) busy block\(busyCount == 1 ? "" : "s")"
                + (doubles > 0 ? ", \(doubles) overlapping (double-booked)." : "."))
        let body = lines(rendering)
        let nonce = UntrustedText.nonce(for: body)
        top.append(UntrustedText.notice(nonce))
        top.append(UntrustedText.open(nonce))
        let closing = UntrustedText.close(nonce)
        let reserved = (top + [closing]).joined(separator: "\n")
        let kept = rendering.budget.fit(body, reserved: reserved, minimum: min(2, body.count)) {
            "… \($0) more lines omitted"
        }
        return (top + kept + warnings.map { "warning: \($0)" } + [closing]).joined(separator: "\n")
    }

    func text(_ rendering: Rendering) -> String {
        ([rendering.header(title(rendering), zone: zone)] + lines(rendering) + warnings.map { "warning: \($0)" })
            .joined(separator: "\n")
    }

    private func title(_ rendering: Rendering) -> String {
        let first = TimeText.labelledDay(firstDay.start(in: zone), now: rendering.now, in: zone)
        if firstDay == lastDay { return "Free/busy \(first), \(clockHour(hours.from))–\(clockHour(hours.to))" }
        let last = TimeText.labelledDay(lastDay.start(in: zone), now: rendering.now, in: zone)
        return "Free/busy \(first) to \(last), \(clockHour(hours.from))–\(clockHour(hours.to))"
    }

    private func clockHour(_ hour: Int) -> String { String(format: "%02d:00", hour) }

    private func lines(_ rendering: Rendering) -> [String] {
        var lines: [String] = []
        for day in days {
            lines.append(TimeText.labelledDay(day.date.start(in: zone), now: rendering.now, in: zone))
            for title in day.allDay {
                lines.append("- all day: \(UntrustedText.clean(title, limit: 80)) (blocks no time)")
            }
            for block in day.busy {
                var line =
                    "- busy \(span(block.start, block.end)) \(UntrustedText.clean(block.summary ?? "(no title)", limit: 80))"
                if !block.overlaps.isEmpty {
                    line +=
                        " · OVERLAPS "
                        + block.overlaps.map { UntrustedText.clean($0, limit: 60) }.joined(separator: ", ")
                }
                lines.append(line)
            }
            if day.free.isEmpty {
                lines.append("- free: none")
            } else {
                lines.append(
                    "- free "
                        + day.free.map { "\(span($0.start, $0.end)) (\(duration($0.minutes)))" }.joined(separator: ", ")
                )
            }
        }
        return lines
    }

    private func span(_ start: Date, _ end: Date) -> String {
        "\(TimeText.clock(start, in: zone))–\(TimeText.clock(end, in: zone))"
    }

    private func duration(_ minutes: Int) -> String {
        let hours = minutes / 60
        let rest = minutes % 60
        if hours == 0 { return "\(rest) min" }
        return rest == 0 ? "\(hours) h" : "\(hours) h \(rest) min"
    }
}
