import Foundation

/// Date and time wording for context output. Small models cannot do date arithmetic, so these do
/// it for them: every time is local to a named zone and days are labelled today/tomorrow/yesterday.
public enum TimeText {
    /// A Gregorian calendar in `zone`.
    public static func calendar(_ zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        calendar.locale = Locale(identifier: "en_US_POSIX")
        return calendar
    }

    /// "today", "tomorrow", "yesterday", or nil, comparing local days in `zone`.
    public static func relativeDay(_ date: Date, now: Date, in zone: TimeZone) -> String? {
        let calendar = calendar(zone)
        let days = calendar.dateComponents(
            [.day], from: calendar.startOfDay(for: now), to: calendar.startOfDay(for: date)
        ).day
        switch days {
        case 0: return "today"
        case 1: return "tomorrow"
        case -1: return "yesterday"
        default: return nil
        }
    }

    /// "Sun 15 Dec 2024".
    public static func day(_ date: Date, in zone: TimeZone) -> String {
        let parts = calendar(zone).dateComponents([.weekday, .day, .month, .year], from: date)
        return "\(weekdays[(parts.weekday ?? 1) - 1]) \(parts.day ?? 0) \(months[(parts.month ?? 1) - 1]) \(parts.year ?? 0)"
    }

    /// "Sun 15 Dec 2024 (today)".
    public static func labelledDay(_ date: Date, now: Date, in zone: TimeZone) -> String {
        let base = day(date, in: zone)
        return relativeDay(date, now: now, in: zone).map { "\(base) (\($0))" } ?? base
    }

    /// "Sun" for `date` in `zone`.
    public static func weekday(_ date: Date, in zone: TimeZone) -> String {
        weekdays[(calendar(zone).component(.weekday, from: date)) - 1]
    }

    /// "19:30" (24-hour, unambiguous for small models).
    public static func clock(_ date: Date, in zone: TimeZone) -> String {
        let parts = calendar(zone).dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }

    /// "EST", "GMT", or "UTC+01:00" when the locale data has no common abbreviation for the zone.
    public static func zoneAbbreviation(_ zone: TimeZone, at date: Date) -> String {
        let universal = ["UTC", "GMT", "Etc/UTC", "Etc/GMT", "Etc/Universal", "Universal", "Zulu", "Etc/Zulu"]
        if universal.contains(zone.identifier) || (zone.secondsFromGMT(for: date) == 0 && !zone.identifier.contains("/")) {
            return "UTC"
        }
        // TimeZone.abbreviation(for:) on Linux only gives "GMT-5"; the formatter's "zzz" knows "EST".
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US")
        formatter.timeZone = zone
        formatter.dateFormat = "zzz"
        let name = formatter.string(from: date)
        if name == "GMT" || (name.first?.isLetter == true && !name.hasPrefix("GMT") && !name.hasPrefix("UTC")) {
            return name
        }
        return offset(zone.secondsFromGMT(for: date))
    }

    /// "UTC+05:30".
    public static func offset(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let magnitude = abs(seconds)
        return String(format: "UTC%@%02d:%02d", sign, magnitude / 3600, (magnitude % 3600) / 60)
    }

    /// "12 s ago", "3 min ago", "2 h 5 min ago", "3 d 4 h ago".
    public static func age(seconds: Int) -> String {
        let seconds = max(0, seconds)
        switch seconds {
        case ..<60: return "\(seconds) s ago"
        case ..<3600: return "\(seconds / 60) min ago"
        case ..<86_400:
            let minutes = (seconds % 3600) / 60
            return "\(seconds / 3600) h" + (minutes > 0 ? " \(minutes) min" : "") + " ago"
        default:
            let hours = (seconds % 86_400) / 3600
            return "\(seconds / 86_400) d" + (hours > 0 ? " \(hours) h" : "") + " ago"
        }
    }

    /// "2025-06-05T23:10:04Z".
    public static func isoUTC(_ date: Date) -> String {
        let parts = calendar(utc).dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02dZ", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
            parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }

    /// "2025-06-05" in `zone`.
    public static func isoDay(_ date: Date, in zone: TimeZone) -> String {
        let parts = calendar(zone).dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// Parses ISO 8601 instants with or without seconds/fraction ("2024-12-15T23:00Z",
    /// "2025-06-05T23:10:04.123Z", "2025-06-05T19:10:04-04:00").
    public static func parseInstant(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let date = try? Date(trimmed, strategy: .iso8601) { return date }
        let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        if let date = try? fractional.parse(trimmed) { return date }
        // ESPN writes "2024-12-15T23:00Z" (no seconds).
        if trimmed.hasSuffix("Z"), trimmed.count == 17 {
            return try? Date(String(trimmed.dropLast()) + ":00Z", strategy: .iso8601)
        }
        return nil
    }

    /// Parses "YYYY-MM-DD" as the start of that day in `zone`.
    public static func parseDay(_ text: String, in zone: TimeZone) -> Date? {
        let parts = text.split(separator: "-")
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        let calendar = calendar(zone)
        let components = DateComponents(year: year, month: month, day: day)
        guard let date = calendar.date(from: components),
            calendar.component(.day, from: date) == day, calendar.component(.month, from: date) == month
        else { return nil }
        return date
    }

    /// A day word (`today`, `yesterday`, `tomorrow`, `YYYY-MM-DD`, or a weekday name meaning the next
    /// such day) resolved to the start of that local day in `zone`.
    public static func resolveDay(_ word: String, now: Date, in zone: TimeZone) -> Date? {
        let calendar = calendar(zone)
        let today = calendar.startOfDay(for: now)
        switch word.lowercased() {
        case "today", "tonight": return today
        case "tomorrow": return calendar.date(byAdding: .day, value: 1, to: today)
        case "yesterday", "last night": return calendar.date(byAdding: .day, value: -1, to: today)
        default: break
        }
        if let index = weekdayNames.firstIndex(where: { $0.hasPrefix(word.lowercased()) && word.count >= 3 }) {
            let current = calendar.component(.weekday, from: today) - 1
            let ahead = (index - current + 7) % 7
            return calendar.date(byAdding: .day, value: ahead, to: today)
        }
        return parseDay(word, in: zone)
    }

    /// UTC.
    public static let utc = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? .current
    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let weekdayNames = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
