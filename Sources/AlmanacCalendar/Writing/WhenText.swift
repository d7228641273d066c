import AlmanacCore
import Foundation

/// Reads WHEN ("thursday 15:00", "tomorrow 6pm", "in 2 hours", "2026-12-03 15:00", ISO 8601) in
/// the user's zone, and DURATION ("90m", "1h30m", "2 hours", "PT1H").
///
/// Rules (docs/calendar.md, "Writing"): a weekday is the next such day, today included while the
/// time is still ahead ("next thursday" is never today); a time alone is today while ahead, else
/// tomorrow; a bare hour 1–7 is in the afternoon ("at 6" is 18:00, as the question reader has
/// it); "in N minutes/hours" counts elapsed time, "in N days/weeks" keeps the wall clock; a time a
/// DST change skips moves forward by the change (02:30 is 03:30), one it repeats is the first.
/// Results are whole minutes.
struct WhenReader: Sendable {
    /// A reading: an instant, or a day with no time given.
    enum When: Sendable, Equatable {
        case time(Date)
        case day(CivilDate)
    }

    var now: Date
    var zone: TimeZone

    static let examples = "e.g. \"thursday 15:00\", \"tomorrow 6pm\", \"in 2 hours\", \"2026-12-03 15:00\""

    private static let weekdays: [(names: [String], index: Int)] = [
        (["sunday", "sun"], 0), (["monday", "mon"], 1), (["tuesday", "tue", "tues"], 2),
        (["wednesday", "wed"], 3), (["thursday", "thu", "thur", "thurs"], 4), (["friday", "fri"], 5),
        (["saturday", "sat"], 6),
    ]
    private static let months = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
        "november", "december",
    ]

    /// Reads `text` for `option` (named in the error).
    func read(_ text: String, option: String) throws -> When {
        guard let when = parse(text) else {
            throw AlmanacError.usage(
                "\(option): could not read '\(text)' as a day or time", suggestion: Self.examples)
        }
        return when
    }

    /// Reads `text` and insists on a time of day.
    func time(_ text: String, option: String) throws -> Date {
        switch try read(text, option: option) {
        case .time(let date): return date
        case .day(let day):
            throw AlmanacError.usage(
                "\(option) '\(text)' names a day (\(day)) but no time",
                suggestion: "add a time, e.g. \"\(text) 15:00\"")
        }
    }

    /// The reading of `text`, or nil.
    func parse(_ text: String) -> When? {
        var words = text.lowercased().replacingOccurrences(of: ",", with: " ")
            .split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        words.removeAll { ["at", "on", "the"].contains($0) }
        guard !words.isEmpty else { return nil }
        if words == ["now"] { return .time(minute(now)) }
        if words.count == 1, let absolute = iso(words[0]) { return absolute }
        if words.first == "in", let seconds = Self.relative(Array(words.dropFirst())) {
            return .time(seconds.calendarDays ? shiftDays(seconds.amount) : minute(now + TimeInterval(seconds.amount)))
        }
        // A day and a time, in either order; each at most once.
        var day: CivilDate?
        var weekday: (index: Int, strict: Bool)?
        var clock: Int?
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            if day == nil, weekday == nil, let found = dayWord(word) {
                day = found
                continue
            }
            if day == nil, weekday == nil, word == "next", index < words.count,
                let found = Self.weekdayIndex(words[index])
            {
                weekday = (found, true)
                index += 1
                continue
            }
            if day == nil, weekday == nil, let found = Self.weekdayIndex(word) {
                weekday = (found, false)
                continue
            }
            if day == nil, weekday == nil, let found = monthDay(word, index < words.count ? words[index] : nil) {
                day = found.day
                index += found.used - 1
                continue
            }
            if clock == nil, let found = Self.clock(word, next: index < words.count ? words[index] : nil) {
                clock = found.seconds
                index += found.used - 1
                continue
            }
            return nil
        }
        let today = CivilDate(now, in: zone)
        if let weekday {
            let current = (today.dayNumber % 7 + 7 + 4) % 7
            var ahead = (weekday.index - current + 7) % 7
            if ahead == 0 {
                let laterToday = clock.map { WallClock.instant(today, seconds: $0, in: zone) > now } ?? true
                if weekday.strict || !laterToday { ahead = 7 }
            }
            day = today.adding(days: ahead)
        }
        guard let clock else { return day.map { When.day($0) } }
        if let day { return .time(WallClock.instant(day, seconds: clock, in: zone)) }
        let todayAt = WallClock.instant(today, seconds: clock, in: zone)
        return .time(todayAt > now ? todayAt : WallClock.instant(today.adding(days: 1), seconds: clock, in: zone))
    }

    /// `today`, `tonight`, `tomorrow`, `YYYY-MM-DD`.
    private func dayWord(_ word: String) -> CivilDate? {
        let today = CivilDate(now, in: zone)
        switch word {
        case "today", "tonight": return today
        case "tomorrow", "tmrw": return today.adding(days: 1)
        default: return CivilDate(iso: word)
        }
    }

    /// "dec 3", "3 dec", "december 3rd": that day this year, or next year once it has passed.
    private func monthDay(_ word: String, _ next: String?) -> (day: CivilDate, used: Int)? {
        func month(_ text: String) -> Int? {
            let name = text.hasSuffix(".") ? String(text.dropLast()) : text
            guard name.count >= 3 else { return nil }
            return Self.months.firstIndex { $0.hasPrefix(name) }.map { $0 + 1 }
        }
        func number(_ text: String) -> Int? {
            Int(text.trimmingCharacters(in: CharacterSet(charactersIn: "stndrh")))
        }
        guard let next else { return nil }
        let pair: (Int, Int)?
        if let m = month(word), let d = number(next) {
            pair = (m, d)
        } else if let d = number(word), let m = month(next) {
            pair = (m, d)
        } else {
            pair = nil
        }
        guard let (m, d) = pair else { return nil }
        let today = CivilDate(now, in: zone)
        for year in [today.year, today.year + 1] {
            guard let day = CivilDate(iso: String(format: "%04d-%02d-%02d", year, m, d)) else { return nil }
            if day >= today { return (day, 2) }
        }
        return nil
    }

    private static func weekdayIndex(_ word: String) -> Int? {
        weekdays.first { $0.names.contains(word) }?.index
    }

    /// A time of day as seconds after midnight: `15:00`, `15.30`, `6pm`, `6:30 pm`, `noon`,
    /// `midnight`, a bare hour (1–7 is pm); `used` counts a separate "am"/"pm".
    static func clock(_ word: String, next: String?) -> (seconds: Int, used: Int)? {
        guard let clock = ClockWords(word, next: next) else { return nil }
        var hour = clock.hour
        if clock.said == .hour, (1...7).contains(hour) { hour += 12 }
        return (hour * 3600 + clock.minute * 60, clock.usedNext ? 2 : 1)
    }

    /// `in ...`: an amount of seconds, or of days for day and week units (kept on the wall clock).
    static func relative(_ words: [String]) -> (amount: Int, calendarDays: Bool)? {
        var joined = words
        if joined.first == "an" || joined.first == "a" { joined[0] = "1" }
        if joined == ["half", "1", "hour"] || joined == ["half", "an", "hour"] { return (1800, false) }
        let text = joined.joined()
        let units: [(names: [String], seconds: Int, days: Bool)] = [
            (["minutes", "minute", "mins", "min", "m"], 60, false),
            (["hours", "hour", "hrs", "hr", "h"], 3600, false),
            (["days", "day", "d"], 1, true),
            (["weeks", "week", "w"], 7, true),
        ]
        var rest = Substring(text)
        var total = 0
        var days: Bool?
        while !rest.isEmpty {
            let digits = rest.prefix(while: \.isNumber)
            guard !digits.isEmpty, digits.count <= 5, let value = Int(digits) else { return nil }
            rest = rest.dropFirst(digits.count)
            guard let unit = units.first(where: { unit in unit.names.contains { rest.hasPrefix($0) } }),
                let name = unit.names.first(where: { rest.hasPrefix($0) })
            else { return nil }
            // Days and hours are not mixed: "in 1d2h" is neither a wall-clock day nor elapsed time.
            if let days, days != unit.days { return nil }
            days = unit.days
            rest = rest.dropFirst(name.count)
            total += value * unit.seconds
        }
        guard let days, total > 0 else { return nil }
        return (total, days)
    }

    /// `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS]` (local), with `Z` or `±HH:MM` (that instant).
    private func iso(_ word: String) -> When? {
        if let day = CivilDate(iso: word) { return .day(day) }
        guard word.count >= 16, let separator = word.firstIndex(where: { $0 == "t" }) else { return nil }
        guard let day = CivilDate(iso: String(word[..<separator])) else { return nil }
        var rest = String(word[word.index(after: separator)...])
        var offset: Int?
        if rest.hasSuffix("z") {
            offset = 0
            rest.removeLast()
        } else if let sign = rest.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let zone = rest[rest.index(after: sign)...].replacingOccurrences(of: ":", with: "")
            guard zone.count == 4, let hours = Int(zone.prefix(2)), let minutes = Int(zone.suffix(2)) else {
                return nil
            }
            offset = (hours * 3600 + minutes * 60) * (rest[sign] == "-" ? -1 : 1)
            rest = String(rest[..<sign])
        }
        let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isNumber) }),
            let h = Int(parts[0]), let m = Int(parts[1]), h < 24, m < 60
        else { return nil }
        let s = parts.count == 3 ? Int(parts[2]) ?? 0 : 0
        guard s < 60 else { return nil }
        let seconds = h * 3600 + m * 60 + s
        if let offset {
            return .time(Date(timeIntervalSince1970: TimeInterval(day.dayNumber * 86_400 + seconds - offset)))
        }
        return .time(WallClock.instant(day, seconds: seconds, in: zone))
    }

    private func minute(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 60).rounded(.down) * 60)
    }

    private func shiftDays(_ days: Int) -> Date {
        let (day, seconds) = WallClock.wall(minute(now), in: zone)
        return WallClock.instant(day.adding(days: days), seconds: seconds, in: zone)
    }
}

/// DURATION: `90m`, `1h30m`, `2 hours`, `1 day`, `45` (minutes), `PT1H30M`.
enum DurationText {
    static let examples = "e.g. 30m, 1h30m, \"2 hours\", 1d"

    static func seconds(_ text: String, option: String) throws -> Int {
        guard let value = parse(text), value > 0 else {
            throw AlmanacError.usage("\(option): could not read '\(text)' as a length of time", suggestion: examples)
        }
        return value
    }

    static func parse(_ text: String) -> Int? {
        let lowered = text.lowercased().trimmingCharacters(in: .whitespaces)
        if let minutes = Int(lowered) { return minutes > 0 && minutes < 525_600 ? minutes * 60 : nil }
        if lowered.hasPrefix("p") { return iso(lowered) }
        guard let relative = WhenReader.relative(lowered.split(separator: " ").map(String.init)) else { return nil }
        let seconds = relative.calendarDays ? relative.amount * 86_400 : relative.amount
        return seconds <= 366 * 86_400 ? seconds : nil
    }

    /// `P[nW][nD][T[nH][nM][nS]]`.
    private static func iso(_ text: String) -> Int? {
        var total = 0
        var number = ""
        var inTime = false
        for character in text.dropFirst() {
            if character.isNumber {
                number.append(character)
                continue
            }
            if character == "t" {
                inTime = true
                continue
            }
            guard let value = Int(number) else { return nil }
            number = ""
            switch (character, inTime) {
            case ("w", false): total += value * 604_800
            case ("d", false): total += value * 86_400
            case ("h", true): total += value * 3600
            case ("m", true): total += value * 60
            case ("s", true): total += value
            default: return nil
            }
        }
        return number.isEmpty && total > 0 ? total : nil
    }
}
