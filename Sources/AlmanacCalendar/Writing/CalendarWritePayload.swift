import AlmanacCore
import Foundation

/// What a write did, for the answer: the item as written (local times with their zone), and
/// the events it overlaps.
struct WrittenItem: Sendable, Encodable {
    /// `added`, `done`, `reopened`, `moved`, `cancelled`, `deleted`, or `unchanged` (a retry
    /// found the item already written, or a task already done).
    var action: String
    var uid: String
    var calendar: String
    /// `event` or `task`.
    var kind: String
    var summary: String?
    /// Local ISO 8601 with the offset (`2026-12-03T15:00:00+01:00`), or `YYYY-MM-DD` all day.
    var start: String?
    var end: String?
    var due: String?
    var timeZone: String
    var allDay: Bool
    /// The RRULE written, for a series.
    var rule: String?
    /// The original start of the one occurrence moved or cancelled.
    var occurrence: String?
    /// The ETag the server gave the written object (CalDAV); nil for local files.
    var etag: String?

    /// The instants the event covers, for the overlap check (not encoded).
    var span: (start: Date, end: Date)?
    /// The one line that says what happened (not encoded).
    var sentence: String
    /// `ics-file` or `caldav` (not encoded).
    var provider: String

    enum CodingKeys: String, CodingKey {
        case action, uid, calendar, kind, summary, start, end, due, timeZone, allDay, rule, occurrence, etag
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(action, forKey: .action)
        try container.encode(uid, forKey: .uid)
        try container.encode(calendar, forKey: .calendar)
        try container.encode(kind, forKey: .kind)
        try container.encode(summary, forKey: .summary)
        try container.encode(start, forKey: .start)
        try container.encode(end, forKey: .end)
        try container.encode(due, forKey: .due)
        try container.encode(timeZone, forKey: .timeZone)
        try container.encode(allDay, forKey: .allDay)
        try container.encode(rule, forKey: .rule)
        try container.encode(occurrence, forKey: .occurrence)
        try container.encode(etag, forKey: .etag)
    }
}

/// Another event the written one overlaps.
struct WriteOverlap: Sendable, Encodable, Hashable {
    var uid: String
    var summary: String?
    var start: String
    var end: String
    var calendar: String
}

/// The answer to a calendar write: `data` is `{"item": {...}, "overlaps": [...]}`.
struct CalendarWritePayload: ToolPayload {
    var written: WrittenItem
    var zone: TimeZone
    var overlaps: [WriteOverlap] = []
    /// Set when the overlap check could not read every calendar.
    var overlapNote: String?

    enum CodingKeys: String, CodingKey {
        case item, overlaps
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(written, forKey: .item)
        try container.encode(overlaps, forKey: .overlaps)
    }

    func context(_ rendering: Rendering) -> String {
        let title = "Write: \(written.action) \(written.kind) in calendar \(written.calendar)"
        var lines = [rendering.header(title, zone: zone)]
        lines.append(written.sentence)
        if !overlaps.isEmpty {
            let texts = overlaps.map { $0.summary ?? "(no title)" }
            let nonce = UntrustedText.nonce(for: texts)
            lines.append(
                "Overlaps \(overlaps.count) other event\(overlaps.count == 1 ? "" : "s") (written anyway). "
                    + UntrustedText.notice(nonce))
            lines.append(UntrustedText.open(nonce))
            for overlap in overlaps {
                let title = UntrustedText.clean(overlap.summary ?? "(no title)", limit: 120)
                lines.append("- \(title) · \(overlap.start) to \(overlap.end) · \(overlap.calendar)")
            }
            lines.append(UntrustedText.close(nonce))
        }
        if let overlapNote { lines.append(overlapNote) }
        return lines.joined(separator: "\n")
    }

    func text(_ rendering: Rendering) -> String { context(rendering) }

    // MARK: - Wording

    /// "Thu 3 Dec 2026 15:00 Europe/Berlin (UTC+01:00)", or "Thu 3 Dec 2026 (all day)".
    static func describe(_ time: EventTime, zone: TimeZone) -> String {
        switch time {
        case .day(let day): return "\(TimeText.day(day.start(in: TimeText.utc), in: TimeText.utc)) (all day)"
        case .instant(let date):
            return "\(TimeText.day(date, in: zone)) \(TimeText.clock(date, in: zone)) \(zoneLabel(zone, at: date))"
        }
    }

    static func describe(_ time: WriteTime) -> String {
        switch time {
        case .day(let day): describe(.day(day), zone: TimeText.utc)
        case .zoned(let date, let zone): describe(.instant(date), zone: zone)
        }
    }

    /// "Thu 3 Dec 2026 15:00–16:00 Europe/Berlin (UTC+01:00)"; a multi-day span names both days.
    static func describe(span start: WriteTime, _ end: WriteTime) -> String {
        switch (start, end) {
        case (.day(let first), .day(let after)):
            let last = after.adding(days: -1)
            let utc = TimeText.utc
            let firstText = TimeText.day(first.start(in: utc), in: utc)
            return last == first
                ? "\(firstText) (all day)" : "\(firstText) to \(TimeText.day(last.start(in: utc), in: utc)) (all day)"
        case (.zoned(let from, let zone), .zoned(let to, _)):
            let sameDay = CivilDate(from, in: zone) == CivilDate(to, in: zone)
            let endText =
                sameDay ? TimeText.clock(to, in: zone) : "\(TimeText.day(to, in: zone)) \(TimeText.clock(to, in: zone))"
            let startText = "\(TimeText.day(from, in: zone)) \(TimeText.clock(from, in: zone))"
            return "\(startText)–\(endText) \(zoneLabel(zone, at: from))"
        default:
            return "\(describe(start)) to \(describe(end))"
        }
    }

    /// "Europe/Berlin (UTC+01:00)": the zone's name and its offset at that moment.
    static func zoneLabel(_ zone: TimeZone, at date: Date) -> String {
        ICalendarText.isUTC(zone) ? "UTC" : "\(zone.identifier) (\(TimeText.offset(zone.secondsFromGMT(for: date))))"
    }

    /// Local ISO 8601 with the offset, or `YYYY-MM-DD`.
    static func localISO(_ time: EventTime, zone: TimeZone) -> String {
        switch time {
        case .day(let day): return day.description
        case .instant(let date):
            let offset = zone.secondsFromGMT(for: date)
            let wall = ICalendarText.wall(date, in: zone)
            let sign = offset < 0 ? "-" : "+"
            let digits = Array(wall)
            return String(digits[0..<4]) + "-" + String(digits[4..<6]) + "-" + String(digits[6..<8]) + "T"
                + String(digits[9..<11]) + ":" + String(digits[11..<13]) + ":" + String(digits[13..<15])
                + sign + String(format: "%02d:%02d", abs(offset) / 3600, abs(offset) % 3600 / 60)
        }
    }
}
