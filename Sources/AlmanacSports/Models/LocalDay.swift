import AlmanacCore
import Foundation

/// A day on the viewer's calendar: `[start, end)` in their zone.
struct LocalDay: Sendable, Hashable, Codable {
    /// Start of the day (inclusive).
    var start: Date
    /// Start of the next day (exclusive); 23 or 25 hours later on DST changes.
    var end: Date
    /// The viewer's zone identifier.
    var zoneIdentifier: String

    init(start: Date, end: Date, zoneIdentifier: String) {
        self.start = start
        self.end = end
        self.zoneIdentifier = zoneIdentifier
    }

    /// The day containing `instant` in `zone`.
    static func containing(_ instant: Date, in zone: TimeZone) -> LocalDay {
        let calendar = TimeText.calendar(zone)
        let start = calendar.startOfDay(for: instant)
        let end = calendar.date(byAdding: .day, value: 1, to: start) ?? start.addingTimeInterval(86_400)
        return LocalDay(start: start, end: end, zoneIdentifier: zone.identifier)
    }

    var zone: TimeZone { TimeZone(identifier: zoneIdentifier) ?? TimeText.utc }

    /// "2024-12-15".
    var isoDate: String { TimeText.isoDay(start, in: zone) }

    /// Whether `instant` falls in the day.
    func contains(_ instant: Date) -> Bool { instant >= start && instant < end }

    /// The ESPN scoreboard dates (`YYYYMMDD`, US-Eastern days) whose day overlaps this one: one date when
    /// the viewer is in New York, usually two elsewhere.
    ///
    /// ESPN files every game under the Eastern date it starts on, so a late game in Los Angeles or an early
    /// one seen from Tokyo sits under a different date than the viewer's.
    var easternDates: [String] {
        let calendar = TimeText.calendar(Self.eastern)
        var day = calendar.startOfDay(for: start)
        var dates: [String] = []
        while day < end, dates.count < 4 {
            dates.append(Self.compact(day, calendar: calendar))
            guard let next = calendar.date(byAdding: .day, value: 1, to: day) else { break }
            day = next
        }
        return dates
    }

    /// "2024-12-15" as the Eastern calendar date of `instant`, for games whose time is not set.
    static func easternISODate(_ instant: Date) -> String {
        TimeText.isoDay(instant, in: eastern)
    }

    static let eastern = TimeZone(identifier: "America/New_York") ?? TimeZone(secondsFromGMT: -5 * 3600) ?? TimeText.utc

    private static func compact(_ date: Date, calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d%02d%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
