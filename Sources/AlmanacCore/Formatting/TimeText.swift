public import Foundation
import Synchronization

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
        return
            "\(weekdays[(parts.weekday ?? 1) - 1]) \(parts.day ?? 0) \(months[(parts.month ?? 1) - 1]) \(parts.year ?? 0)"
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
        // From the zone's offset at that instant, as the calendar reckons it, without building a
        // Calendar and a format string (every answer's header has one: a tenth of a plugin call's
        // rendering through `tools serve`).
        let local = (date.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: date))).rounded(.down)
        guard local.isFinite, abs(local) < 1e15 else {
            let parts = calendar(zone).dateComponents([.hour, .minute], from: date)
            return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        }
        let minuteOfDay = ((Int64(local) % 86_400 + 86_400) % 86_400) / 60
        let hour = Int(minuteOfDay / 60)
        let minute = Int(minuteOfDay % 60)
        return (hour < 10 ? "0" : "") + String(hour) + (minute < 10 ? ":0" : ":") + String(minute)
    }

    /// "EST", "GMT", or "UTC+01:00" when the locale data has no common abbreviation for the zone.
    public static func zoneAbbreviation(_ zone: TimeZone, at date: Date) -> String {
        let universal = ["UTC", "GMT", "Etc/UTC", "Etc/GMT", "Etc/Universal", "Universal", "Zulu", "Etc/Zulu"]
        let seconds = zone.secondsFromGMT(for: date)
        if universal.contains(zone.identifier) || (seconds == 0 && !zone.identifier.contains("/")) {
            return "UTC"
        }
        // One zone at one offset has one label (EST and EDT differ by offset): a result is looked
        // up once, not once per game or event.
        let key = "\(zone.identifier) \(seconds)"
        if let known = knownAbbreviations.withLock({ $0[key] }) { return known }
        // TimeZone.abbreviation(for:) on Linux only gives "GMT-5"; ICU's short names for en_US know
        // "EST" (the same text as a DateFormatter's "zzz", at a third of the first call's cost).
        let style: NSTimeZone.NameStyle = zone.isDaylightSavingTime(for: date) ? .shortDaylightSaving : .shortStandard
        let name = zone.localizedName(for: style, locale: Locale(identifier: "en_US")) ?? ""
        let label =
            name == "GMT" || (name.first?.isLetter == true && !name.hasPrefix("GMT") && !name.hasPrefix("UTC"))
            ? name : offset(seconds)
        knownAbbreviations.withLock { $0[key] = label }
        return label
    }

    private static let knownAbbreviations = Mutex<[String: String]>([:])

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
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        appendISOUTC(date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `isoUTC(date)` to `bytes`. Integer arithmetic, no Foundation calendar or
    /// `String(format:)`: a year of a busy calendar writes tens of thousands of these, at ~30 µs
    /// each the Foundation way.
    public static func appendISOUTC(_ date: Date, to bytes: inout [UInt8]) {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400)
        let secondOfDay = seconds - days * 86_400
        let civil = civil(dayNumber: days)
        if (0...9999).contains(civil.year) {
            // The usual case, fixed width: the 20 bytes are laid out on the stack and appended at
            // once (one capacity check, not twenty).
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { text in
                putDay(year: civil.year, month: civil.month, day: civil.day, into: text)
                text[10] = UInt8(ascii: "T")
                putTwo(secondOfDay / 3600, into: text, at: 11)
                text[13] = UInt8(ascii: ":")
                putTwo(secondOfDay % 3600 / 60, into: text, at: 14)
                text[16] = UInt8(ascii: ":")
                putTwo(secondOfDay % 60, into: text, at: 17)
                text[19] = UInt8(ascii: "Z")
                bytes.append(contentsOf: text)
            }
            return
        }
        appendISODay(year: civil.year, month: civil.month, day: civil.day, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        appendDigits(secondOfDay / 3600, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(secondOfDay % 3600 / 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(secondOfDay % 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
    }

    /// Appends "YYYY-MM-DD" to `bytes`.
    public static func appendISODay(year: Int, month: Int, day: Int, to bytes: inout [UInt8]) {
        if (0...9999).contains(year), (0...99).contains(month), (0...99).contains(day) {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 10) { text in
                putDay(year: year, month: month, day: day, into: text)
                bytes.append(contentsOf: text)
            }
            return
        }
        appendDigits(year, width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(month, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(day, width: 2, to: &bytes)
    }

    /// Writes "YYYY-MM-DD" at the start of `text`; year 0...9999, month and day 0...99.
    private static func putDay(year: Int, month: Int, day: Int, into text: UnsafeMutableBufferPointer<UInt8>) {
        putTwo(year / 100, into: text, at: 0)
        putTwo(year % 100, into: text, at: 2)
        text[4] = UInt8(ascii: "-")
        putTwo(month, into: text, at: 5)
        text[7] = UInt8(ascii: "-")
        putTwo(day, into: text, at: 8)
    }

    /// Writes `value` (0...99) as two digits at `index`.
    private static func putTwo(_ value: Int, into text: UnsafeMutableBufferPointer<UInt8>, at index: Int) {
        text[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value / 10)
        text[index + 1] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
    }

    /// The Gregorian day `dayNumber` days after 1970-01-01 (Howard Hinnant's civil_from_days).
    public static func civil(dayNumber: Int) -> (year: Int, month: Int, day: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Appends `value` in decimal, zero-padded to `width` (a minus sign first when negative).
    static func appendDigits(_ value: Int, width: Int, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = value.magnitude
        var divisor: UInt = 1
        var count = 1
        while divisor <= magnitude / 10 {
            divisor *= 10
            count += 1
        }
        if count < width { bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - count)) }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude / divisor % 10))
            divisor /= 10
        }
    }

    /// "2025-06-05" in `zone`.
    public static func isoDay(_ date: Date, in zone: TimeZone) -> String {
        let parts = calendar(zone).dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// Parses ISO 8601 instants with or without a fraction ("2025-06-05T23:10:04Z",
    /// "2025-06-05T23:10:04.123Z", "2025-06-05T19:10:04-04:00"). An upstream's own forms (ESPN's
    /// "2024-12-15T23:00Z") are its provider's to read.
    public static func parseInstant(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let date = try? Date(trimmed, strategy: .iso8601) { return date }
        let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        return try? fractional.parse(trimmed)
    }

    /// Parses "YYYY-MM-DD" as the start of that day in `zone`.
    public static func parseDay(_ text: String, in zone: TimeZone) -> Date? {
        // Empty parts kept and digits only: "-2024-01-01" or "+2024-01-01" is not a day.
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }),
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
