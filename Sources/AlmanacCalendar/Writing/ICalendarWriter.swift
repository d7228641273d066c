import AlmanacCore
import Foundation

/// RFC 5545 text as Almanac writes it: content lines folded at 75 octets (never inside a UTF-8
/// character), TEXT values escaped, dates and times in their three forms, and VTIMEZONE blocks
/// built from the system's zone database.
enum ICalendarText {
    /// `NAME;PARAM=V:VALUE` folded into lines of at most 75 octets, each ended by CRLF (3.1).
    static func line(_ name: String, _ value: String, parameters: [(String, String)] = []) -> String {
        var head = name
        for (key, parameterValue) in parameters { head += ";\(key)=\(parameterValue)" }
        return fold(head + ":" + value)
    }

    /// Folds one unfolded content line: a line break and a space before the octet that would make
    /// a line longer than 75 octets, moved back to the start of the character it falls in.
    static func fold(_ unfolded: String) -> String {
        let bytes = Array(unfolded.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 70 * 3 + 2)
        var start = 0
        // The first line holds 75 octets; a continuation line's leading space counts, so 74 more.
        var room = 75
        while bytes.count - start > room {
            var cut = start + room
            // A UTF-8 continuation byte is 10xxxxxx: step back to the character's first byte.
            while cut > start, bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
            out += bytes[start..<cut]
            out += [0x0D, 0x0A, 0x20]
            start = cut
            room = 74
        }
        out += bytes[start...]
        out += [0x0D, 0x0A]
        return String(decoding: out, as: UTF8.self)
    }

    /// A TEXT value (3.3.11): backslash, semicolon, comma escaped; every line end written `\n`.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var previousCR = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\r": out += "\\n"
            case "\n": if !previousCR { out += "\\n" }
            default:
                // Other control characters are not allowed in a TEXT value (3.3.11: no CTLs).
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += " "
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
            previousCR = scalar == "\r"
        }
        return out
    }

    /// The inverse of ``escape(_:)`` (for values read from raw lines).
    static func unescape(_ text: String) -> String {
        var out = ""
        var escaped = false
        for character in text {
            if escaped {
                switch character {
                case "n", "N": out += "\n"
                default: out.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// `YYYYMMDD`.
    static func date(_ day: CivilDate) -> String {
        String(format: "%04d%02d%02d", day.year, day.month, day.day)
    }

    /// `YYYYMMDDTHHMMSSZ`.
    static func utc(_ date: Date) -> String {
        wall(date, in: TimeZone(identifier: "UTC") ?? .current) + "Z"
    }

    /// `YYYYMMDDTHHMMSS`: the wall-clock time of `date` in `zone`.
    static func wall(_ date: Date, in zone: TimeZone) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down)) + zone.secondsFromGMT(for: date)
        let day = CivilDate(dayNumber: Int((Double(seconds) / 86_400).rounded(.down)))
        let inDay = seconds - day.dayNumber * 86_400
        return Self.date(day) + String(format: "T%02d%02d%02d", inDay / 3600, inDay % 3600 / 60, inDay % 60)
    }

    /// `+HHMM` / `-HHMM` (and seconds when the offset has them), as TZOFFSETFROM/TO want.
    static func offset(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let value = abs(seconds)
        var text = sign + String(format: "%02d%02d", value / 3600, value % 3600 / 60)
        if value % 60 != 0 { text += String(format: "%02d", value % 60) }
        return text
    }

    /// Whether `zone` is UTC under another name: times in it are written with `Z`, no TZID.
    static func isUTC(_ zone: TimeZone) -> Bool {
        let name = zone.identifier.uppercased()
        return ["UTC", "GMT", "ETC/UTC", "ETC/GMT", "Z", "ZULU", "UNIVERSAL", "ETC/UNIVERSAL", "ETC/ZULU"].contains(
            name)
    }
}

/// A VTIMEZONE for a zone of the system's database, covering the years an item needs.
///
/// Almanac's own reader (and Google, Apple, Thunderbird) read a TZID that names a database zone by
/// the database; the block is for readers that only trust the file (RFC 5545 3.6.5 requires one for
/// every TZID used). Transitions are listed from the database; the last run of transitions that
/// follows one yearly rule (the zone's present rule) becomes an RRULE, so times after the covered
/// years stay right too.
enum VTimeZoneBuilder {
    /// One offset change.
    struct Transition: Equatable {
        var at: Date
        var from: Int
        var to: Int
        var daylight: Bool
        var name: String?
        /// `BYMONTH` and `BYDAY` of the yearly rule this change follows, with its local time.
        var rule: String
        var localTime: String
    }

    /// The VTIMEZONE text for `zone`, covering `years`.
    static func block(for zone: TimeZone, years: ClosedRange<Int>) -> String {
        let transitions = self.transitions(of: zone, years: years)
        var text = "BEGIN:VTIMEZONE\r\n" + ICalendarText.line("TZID", zone.identifier)
        text += ICalendarText.line("X-LIC-LOCATION", zone.identifier)
        guard !transitions.isEmpty else {
            // No change in these years: one STANDARD observance with the zone's offset.
            let start = CivilDate(year: years.lowerBound, month: 1, day: 1).start(in: zone)
            let offset = zone.secondsFromGMT(for: start)
            text += "BEGIN:STANDARD\r\n"
            text += ICalendarText.line("DTSTART", "19700101T000000")
            text += ICalendarText.line("TZOFFSETFROM", ICalendarText.offset(offset))
            text += ICalendarText.line("TZOFFSETTO", ICalendarText.offset(offset))
            if let name = abbreviation(zone, at: start) { text += ICalendarText.line("TZNAME", name) }
            text += "END:STANDARD\r\nEND:VTIMEZONE\r\n"
            return text
        }
        // The trailing run of each kind that keeps one rule and offsets becomes one observance with
        // an RRULE; everything before it is listed one by one.
        var ruled: [Bool: Int] = [:]
        for daylight in [true, false] {
            let kind = transitions.indices.filter { transitions[$0].daylight == daylight }
            guard let last = kind.last else { continue }
            var first = last
            for index in kind.reversed().dropFirst() {
                let a = transitions[index]
                let b = transitions[last]
                guard a.rule == b.rule, a.localTime == b.localTime, a.from == b.from, a.to == b.to else { break }
                first = index
            }
            // A rule seen in at least two years is the zone's rule, not a one-off change.
            if kind.filter({ $0 >= first }).count >= 2 { ruled[daylight] = first }
        }
        for (index, transition) in transitions.enumerated() {
            let ruleStart = ruled[transition.daylight]
            if let ruleStart, index > ruleStart { continue }
            let kind = transition.daylight ? "DAYLIGHT" : "STANDARD"
            text += "BEGIN:\(kind)\r\n"
            text += ICalendarText.line("DTSTART", ICalendarText.wall(transition.at, in: fixed(transition.from)))
            text += ICalendarText.line("TZOFFSETFROM", ICalendarText.offset(transition.from))
            text += ICalendarText.line("TZOFFSETTO", ICalendarText.offset(transition.to))
            if ruleStart == index { text += ICalendarText.line("RRULE", "FREQ=YEARLY;" + transition.rule) }
            if let name = transition.name { text += ICalendarText.line("TZNAME", name) }
            text += "END:\(kind)\r\n"
        }
        return text + "END:VTIMEZONE\r\n"
    }

    /// The offset changes of `zone` from the start of the first year to the end of the last.
    static func transitions(of zone: TimeZone, years: ClosedRange<Int>) -> [Transition] {
        let utc = TimeZone(identifier: "UTC") ?? .current
        var date = CivilDate(year: years.lowerBound, month: 1, day: 1).start(in: utc)
        let end = CivilDate(year: years.upperBound + 1, month: 1, day: 1).start(in: utc)
        var list: [Transition] = []
        // Bounded: a zone changes a few times a year at most.
        for _ in 0..<(4 * years.count + 8) {
            guard let next = zone.nextDaylightSavingTimeTransition(after: date), next < end else { break }
            let from = zone.secondsFromGMT(for: next.addingTimeInterval(-1))
            let to = zone.secondsFromGMT(for: next)
            let local = next.addingTimeInterval(TimeInterval(from))
            let day = CivilDate(local, in: utc)
            let seconds = Int(local.timeIntervalSince(day.start(in: utc)))
            let weekday = (day.dayNumber % 7 + 7 + 4) % 7  // 1970-01-01 was a Thursday (4)
            let names = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
            let monthLength = CivilDate(year: day.year, month: day.month, day: 1).adding(days: 31)
            let daysInMonth = 31 - (monthLength.day - 1)
            let ordinal = day.day + 7 > daysInMonth ? -1 : (day.day - 1) / 7 + 1
            let rule = "BYMONTH=\(day.month);BYDAY=\(ordinal)\(names[weekday])"
            if from != to {
                list.append(
                    Transition(
                        at: next, from: from, to: to, daylight: zone.isDaylightSavingTime(for: next),
                        name: abbreviation(zone, at: next), rule: rule,
                        localTime: String(format: "%02d%02d%02d", seconds / 3600, seconds % 3600 / 60, seconds % 60)))
            }
            date = next
        }
        return list
    }

    /// "CET", "EDT": the name people know, or none (an offset is no name).
    private static func abbreviation(_ zone: TimeZone, at date: Date) -> String? {
        let name = TimeText.zoneAbbreviation(zone, at: date)
        return name.hasPrefix("UTC") || name.hasPrefix("GMT+") || name.hasPrefix("GMT-") ? nil : name
    }

    private static func fixed(_ offset: Int) -> TimeZone {
        TimeZone(secondsFromGMT: offset) ?? TimeZone(identifier: "UTC") ?? .current
    }
}
