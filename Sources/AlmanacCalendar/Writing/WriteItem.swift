import Foundation

/// A start, end or due time as it is written.
enum WriteTime: Sendable, Hashable {
    /// A whole day (`VALUE=DATE`).
    case day(CivilDate)
    /// An instant written as wall-clock time with the zone's TZID (or with `Z` when the zone is UTC).
    case zoned(Date, TimeZone)

    /// The value and parameters of a DTSTART/DTEND/DUE/RECURRENCE-ID/EXDATE property.
    var property: (value: String, parameters: [(String, String)]) {
        switch self {
        case .day(let day): return (ICalendarText.date(day), [("VALUE", "DATE")])
        case .zoned(let date, let zone):
            if ICalendarText.isUTC(zone) || !WallClock.isFirst(date, in: zone) {
                // A time in the repeated hour of a DST change (its second pass) has no unambiguous
                // wall-clock form: written as UTC, it stays the instant it is.
                return (ICalendarText.utc(date), [])
            }
            return (ICalendarText.wall(date, in: zone), [("TZID", zone.identifier)])
        }
    }

    /// The zone whose VTIMEZONE the property needs, if any.
    var zoneNeeded: TimeZone? {
        if case .zoned(_, let zone) = self, !ICalendarText.isUTC(zone) { return zone }
        return nil
    }

    /// What the reader gives back for this time.
    var eventTime: EventTime {
        switch self {
        case .day(let day): .day(day)
        case .zoned(let date, _): .instant(date)
        }
    }

    /// The year it falls in (for the VTIMEZONE's span).
    var year: Int {
        switch self {
        case .day(let day): day.year
        case .zoned(let date, let zone): CivilDate(date, in: zone).year
        }
    }
}

/// A repeating rule Almanac writes: `--repeat daily|weekly|monthly [--count N | --repeat-until DAY]`.
struct Repetition: Sendable, Hashable {
    enum Frequency: String, Sendable, CaseIterable {
        case daily, weekly, monthly
    }

    var frequency: Frequency
    var count: Int?
    /// The last day an occurrence may start on (inclusive, in the event's zone).
    var until: CivilDate?

    /// The RRULE value for a series starting at `start`. UNTIL is a DATE for all-day series, else
    /// the end of that day in the event's zone as UTC (RFC 5545 3.3.10: UTC when DTSTART has a TZID).
    func rule(start: WriteTime) -> String {
        var text = "FREQ=\(frequency.rawValue.uppercased())"
        if let count { text += ";COUNT=\(count)" }
        if let until {
            switch start {
            case .day: text += ";UNTIL=\(ICalendarText.date(until))"
            case .zoned(_, let zone):
                text += ";UNTIL=\(ICalendarText.utc(until.adding(days: 1).start(in: zone).addingTimeInterval(-1)))"
            }
        }
        return text
    }
}

/// An event or task to write.
struct WriteItem: Sendable, Hashable {
    enum Kind: String, Sendable {
        case event, task
    }

    var kind: Kind
    var uid: String
    var summary: String
    var location: String?
    var notes: String?
    /// DTSTART (events).
    var start: WriteTime?
    /// DTEND (events).
    var end: WriteTime?
    /// DUE (tasks).
    var due: WriteTime?
    var repetition: Repetition?
    /// A VALARM this many seconds before the start (events) or the due time (tasks).
    var alarmBefore: Int?
    /// DTSTAMP, CREATED and LAST-MODIFIED.
    var stamp: Date

    /// The zones the item's times name (each needs a VTIMEZONE beside it).
    var zones: [TimeZone] {
        var seen = Set<String>()
        return [start, end, due].compactMap { $0?.zoneNeeded }.filter { seen.insert($0.identifier).inserted }
    }

    /// The years its VTIMEZONEs must cover: from its first time to the end of its series (at most
    /// 30 years on; the yearly rule covers the rest), and the year after.
    var zoneYears: ClosedRange<Int> {
        let years = [start, end, due].compactMap { $0?.year }
        let first = years.min() ?? 2000
        var last = years.max() ?? first
        if let until = repetition?.until { last = max(last, until.year) }
        // From the year before: a reader that trusts only the block finds an observance in force
        // at the item's first time (each observance applies from its DTSTART on).
        return (first - 1)...min(max(last, first) + 1, first + 30)
    }

    /// The VEVENT or VTODO block.
    var component: String {
        let name = kind == .event ? "VEVENT" : "VTODO"
        var text = "BEGIN:\(name)\r\n"
        text += ICalendarText.line("UID", uid)
        text += ICalendarText.line("DTSTAMP", ICalendarText.utc(stamp))
        text += ICalendarText.line("CREATED", ICalendarText.utc(stamp))
        text += ICalendarText.line("LAST-MODIFIED", ICalendarText.utc(stamp))
        text += ICalendarText.line("SEQUENCE", "0")
        text += ICalendarText.line("SUMMARY", ICalendarText.escape(summary))
        if let location { text += ICalendarText.line("LOCATION", ICalendarText.escape(location)) }
        if let notes { text += ICalendarText.line("DESCRIPTION", ICalendarText.escape(notes)) }
        for (property, time) in [("DTSTART", start), ("DTEND", end), ("DUE", due)] {
            guard let time else { continue }
            let (value, parameters) = time.property
            text += ICalendarText.line(property, value, parameters: parameters)
        }
        if let repetition, let start { text += ICalendarText.line("RRULE", repetition.rule(start: start)) }
        switch kind {
        case .event: text += ICalendarText.line("STATUS", "CONFIRMED")
        case .task: text += ICalendarText.line("STATUS", "NEEDS-ACTION")
        }
        if let alarmBefore {
            text += "BEGIN:VALARM\r\n"
            text += ICalendarText.line("ACTION", "DISPLAY")
            text += ICalendarText.line("DESCRIPTION", ICalendarText.escape(summary))
            // For a VTODO, RELATED=END is relative to DUE (RFC 5545 3.8.6.3).
            text += ICalendarText.line(
                "TRIGGER", "-" + ICalendarDuration.text(alarmBefore),
                parameters: kind == .task ? [("RELATED", "END")] : [])
            text += "END:VALARM\r\n"
        }
        return text + "END:\(name)\r\n"
    }

    /// A whole calendar holding the item and the VTIMEZONEs it needs.
    var calendar: String {
        ICalendarText.header + zones.map { VTimeZoneBuilder.block(for: $0, years: zoneYears) }.joined() + component
            + "END:VCALENDAR\r\n"
    }
}

extension ICalendarText {
    /// The start of a calendar Almanac creates.
    static let header =
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Almanac//Almanac calendar writer//EN\r\nCALSCALE:GREGORIAN\r\n"
}

/// RFC 5545 durations (3.3.6), as Almanac writes and reads them: `PT15M`, `PT1H30M`, `P1D`, `P2W`.
enum ICalendarDuration {
    /// `seconds` (≥ 0) as a duration value.
    static func text(_ seconds: Int) -> String {
        let value = max(0, seconds)
        if value > 0, value % 604_800 == 0 { return "P\(value / 604_800)W" }
        let days = value / 86_400
        let rest = value % 86_400
        var text = "P"
        if days > 0 { text += "\(days)D" }
        if rest > 0 || days == 0 {
            text += "T"
            if rest / 3600 > 0 { text += "\(rest / 3600)H" }
            if rest % 3600 / 60 > 0 { text += "\(rest % 3600 / 60)M" }
            if rest % 60 > 0 || rest == 0 { text += "\(rest % 60)S" }
        }
        return text
    }
}

/// Wall-clock times in a zone, turned into instants as RFC 5545 3.3.5 reads them.
enum WallClock {
    /// The instant of `seconds` after midnight of `day` in `zone`: in the hour a DST change skips,
    /// with the offset from before the change (so 02:30 on a spring-forward night is 03:30); in the
    /// hour a change repeats, the first of the two.
    static func instant(_ day: CivilDate, seconds: Int, in zone: TimeZone) -> Date {
        let naive = TimeInterval(day.dayNumber * 86_400 + seconds)
        let before = zone.secondsFromGMT(for: Date(timeIntervalSince1970: naive - 86_400))
        let after = zone.secondsFromGMT(for: Date(timeIntervalSince1970: naive + 86_400))
        let offsets = before >= after ? [before, after] : [after, before]
        // The larger offset gives the earlier instant: the first pass through a repeated hour.
        for offset in offsets {
            let candidate = Date(timeIntervalSince1970: naive - TimeInterval(offset))
            if zone.secondsFromGMT(for: candidate) == offset { return candidate }
        }
        return Date(timeIntervalSince1970: naive - TimeInterval(before))
    }

    /// Whether `date` is the instant its own wall-clock time reads as (false only in the second
    /// pass through an hour a DST change repeats).
    static func isFirst(_ date: Date, in zone: TimeZone) -> Bool {
        let (day, seconds) = wall(date, in: zone)
        return instant(day, seconds: seconds, in: zone) == date
    }

    /// The local day and seconds after midnight of `date` in `zone`.
    static func wall(_ date: Date, in zone: TimeZone) -> (CivilDate, Int) {
        let total = Int(date.timeIntervalSince1970.rounded(.down)) + zone.secondsFromGMT(for: date)
        let day = CivilDate(dayNumber: Int((Double(total) / 86_400).rounded(.down)))
        return (day, total - day.dayNumber * 86_400)
    }
}
