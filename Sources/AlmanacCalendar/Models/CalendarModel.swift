import AlmanacCore
import Foundation

/// A calendar day without a time or zone (all-day events are "floating" days in iCalendar).
struct CivilDate: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    var year: Int
    /// Month 1...12.
    var month: Int
    /// Day of month 1...31.
    var day: Int

    init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The local day of `date` in `zone`.
    init(_ date: Date, in zone: TimeZone) {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down)) + Int64(zone.secondsFromGMT(for: date))
        self.init(dayNumber: Int(seconds.floorDivided(by: 86_400)))
    }

    /// The day `dayNumber` days after 1970-01-01.
    init(dayNumber: Int) {
        let civil = TimeText.civil(dayNumber: dayNumber)
        self.init(year: civil.year, month: civil.month, day: civil.day)
    }

    /// Days since 1970-01-01 (H. Hinnant's days_from_civil); cheap, no Foundation calendar.
    var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Parses `YYYY-MM-DD` (strictly: real days only).
    init?(iso text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        self.init(year: year, month: month, day: day)
        // Reject 2024-02-30 and friends: the day must survive a round trip.
        guard adding(days: 0) == self else { return nil }
    }

    /// `YYYY-MM-DD`.
    var description: String {
        var bytes: [UInt8] = []
        appendISO(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The start of this day in `zone`.
    func start(in zone: TimeZone) -> Date {
        Self.calendar(zone).date(from: DateComponents(year: year, month: month, day: day))
            ?? Date(timeIntervalSince1970: TimeInterval(dayNumber) * 86_400)
    }

    /// This day plus `days` (negative goes back).
    func adding(days: Int) -> CivilDate { CivilDate(dayNumber: dayNumber + days) }

    /// Whole days from `self` to `other`.
    func days(to other: CivilDate) -> Int { other.dayNumber - dayNumber }

    static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    static func calendar(_ zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }
}

/// When an event instance starts or ends: a whole day (all-day events) or an instant. Encoded as
/// its ``json`` string.
enum EventTime: Sendable, Hashable, Encodable {
    /// An all-day boundary (a floating day, read in the viewer's zone).
    case day(CivilDate)
    /// A moment in time.
    case instant(Date)

    /// The moment this time denotes for a viewer in `zone`.
    func date(in zone: TimeZone) -> Date {
        switch self {
        case .day(let day): day.start(in: zone)
        case .instant(let date): date
        }
    }

    /// `YYYY-MM-DD` for days, ISO 8601 UTC with `Z` for instants (the JSON form).
    var json: String {
        switch self {
        case .day(let day): day.description
        case .instant(let date): TimeText.isoUTC(date)
        }
    }

    /// Writes ``json``.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(json)
    }
}

/// One instance of an event, after recurrence expansion and overrides.
struct CalendarEvent: Sendable, Hashable, Encodable {
    /// The event's UID (shared by every instance of a recurring event).
    var uid: String
    /// The instance's original start, nil for one-off events.
    var recurrenceId: EventTime?
    var start: EventTime
    /// End (exclusive; for all-day events the day after the last day, as in iCalendar).
    var end: EventTime
    /// Title (untrusted text), as the source wrote it (surrounding whitespace trimmed); nil when
    /// the event has none.
    var summary: String?
    /// Location (untrusted text).
    var location: String?
    /// Description (untrusted text; shown fenced in context, not part of the JSON shape).
    var description: String?
    var calendar: String

    /// Whether the event covers whole days.
    var allDay: Bool {
        if case .day = start { return true }
        return false
    }

    enum CodingKeys: String, CodingKey {
        case uid, recurrenceId, start, end, allDay, summary, location, calendar
    }

    /// Writes the documented JSON shape. By hand: `description` stays out of it and `allDay` is derived.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(uid, forKey: .uid)
        try container.encode(recurrenceId, forKey: .recurrenceId)
        try container.encode(start, forKey: .start)
        try container.encode(end, forKey: .end)
        try container.encode(allDay, forKey: .allDay)
        try container.encode(summary, forKey: .summary)
        try container.encode(location, forKey: .location)
        try container.encode(calendar, forKey: .calendar)
    }
}

/// A to-do (VTODO): a task or reminder.
struct CalendarTask: Sendable, Hashable, Encodable {
    /// The task's state relative to now.
    enum State: String, Sendable, Encodable {
        /// Not done, no due time or due later.
        case open
        /// Not done and due within the next day.
        case due
        /// Not done and past due.
        case overdue
        case completed
    }

    var uid: String
    /// Title (untrusted text); nil when the task has no SUMMARY.
    @Nullable var summary: String?
    /// Due time, if any (written like event times: `Z` instant or `YYYY-MM-DD`).
    @Nullable var due: EventTime?
    var state: State
    /// Priority 1 (highest) ... 9, nil when unset.
    @Nullable var priority: Int?
    var calendar: String
}

extension CivilDate {
    /// Appends `YYYY-MM-DD` to `bytes`.
    func appendISO(to bytes: inout [UInt8]) {
        TimeText.appendISODay(year: year, month: month, day: day, to: &bytes)
    }
}

extension EventTime {
    /// Appends the JSON string literal of `json` (no escaping needed: digits and punctuation).
    func appendJSON(to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        switch self {
        case .day(let day): day.appendISO(to: &bytes)
        case .instant(let date): TimeText.appendISOUTC(date, to: &bytes)
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

extension Int64 {
    /// Division rounding toward negative infinity.
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
