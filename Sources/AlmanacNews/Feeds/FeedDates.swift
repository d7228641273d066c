import Foundation

/// Dates as feeds write them: RFC 822 (RSS `pubDate`, with or without the weekday, two- or
/// four-digit years, zone names or offsets, month names in a few European languages), ISO 8601 /
/// W3C-DTF (Atom, `dc:date`, JSON Feed) and `2020/1/10 14:33:00`. A date with no zone is read as
/// UTC (as feedparser reads it). Hand-rolled: Foundation's date formatters cost more than the
/// whole parse of a feed.
enum FeedDates {
    /// The instant `text` names, or nil when it is not a date this reader knows.
    static func parse(_ text: String) -> Date? {
        var scanner = DateScanner(Array(text.utf8))
        scanner.skipSpaces()
        guard let first = scanner.peek else { return nil }
        if isDigit(first) {
            if let date = scanner.iso() { return date }
            scanner.position = 0
            scanner.skipSpaces()
        }
        return scanner.rfc822()
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
    static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 97 && (byte | 0x20) <= 122 || byte >= 0x80 }

    /// Days from 1970-01-01 to the civil date (Howard Hinnant's algorithm).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The instant, or nil when a field is out of range.
    static func instant(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Double, offsetSeconds: Int
    ) -> Date? {
        guard (1...12).contains(month), (1...31).contains(day), (0...24).contains(hour), (0...59).contains(minute),
            second >= 0, second < 61, (1000...9999).contains(year)
        else { return nil }
        let seconds = Double(days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60) + second
        return Date(timeIntervalSince1970: seconds - Double(offsetSeconds))
    }

    /// Month abbreviations (first three letters, lower case): English first, then the
    /// Portuguese, Spanish, French, German and Italian ones feeds were seen with.
    static let months: [String: Int] = [
        "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "oct": 10,
        "nov": 11, "dec": 12,
        "fev": 2, "abr": 4, "mai": 5, "ago": 8, "set": 9, "out": 10, "dez": 12, "ene": 1, "dic": 12, "avr": 4,
        "aoû": 8, "déc": 12, "fév": 2, "mär": 3, "okt": 10, "gen": 1, "giu": 6, "lug": 7, "janv": 1, "févr": 2,
        "mrz": 3, "juin": 6, "juil": 7,
    ]

    /// North American zone names RFC 822 defines, and the universal ones.
    static let zones: [String: Int] = [
        "gmt": 0, "ut": 0, "utc": 0, "z": 0, "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6,
        "pst": -8, "pdt": -7,
    ]
}

/// A cursor over the bytes of one date.
private struct DateScanner {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    mutating func skipSpaces() {
        while let byte = peek, byte == 32 || byte == 9 || byte == 10 || byte == 13 { position += 1 }
    }

    mutating func skip(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        position += 1
        return true
    }

    /// Up to `maximum` digits as a number, and how many there were.
    mutating func number(maximum: Int = 9) -> (value: Int, digits: Int)? {
        var value = 0
        var digits = 0
        while digits < maximum, let byte = peek, FeedDates.isDigit(byte) {
            value = value * 10 + Int(byte - 48)
            digits += 1
            position += 1
        }
        return digits == 0 ? nil : (value, digits)
    }

    mutating func word() -> String {
        let start = position
        while let byte = peek, FeedDates.isLetter(byte) { position += 1 }
        return String(decoding: bytes[start..<position], as: UTF8.self).lowercased()
    }

    /// `YYYY-MM-DD[(T| )HH:MM[:SS[.fff]]][Z|±HH[:MM]]`, or `YYYY/M/D H:MM[:SS]`.
    mutating func iso() -> Date? {
        guard let year = number(maximum: 4), year.digits == 4 else { return nil }
        let separator = peek
        guard separator == UInt8(ascii: "-") || separator == UInt8(ascii: "/") else { return nil }
        position += 1
        guard let month = number(maximum: 2), let separatorAgain = peek, separatorAgain == separator else {
            return nil
        }
        position += 1
        guard let day = number(maximum: 2) else { return nil }
        var hour = 0
        var minute = 0
        var second = 0.0
        var offset = 0
        if skip(UInt8(ascii: "T")) || skip(UInt8(ascii: "t")) || skip(32) {
            skipSpaces()
            guard let h = number(maximum: 2), skip(UInt8(ascii: ":")), let m = number(maximum: 2) else { return nil }
            hour = h.value
            minute = m.value
            if skip(UInt8(ascii: ":")) {
                guard let s = number(maximum: 2) else { return nil }
                second = Double(s.value)
                if skip(UInt8(ascii: ".")) || skip(UInt8(ascii: ",")) {
                    if let fraction = number(maximum: 9) {
                        second += Double(fraction.value) / pow(10, Double(fraction.digits))
                    }
                    while let byte = peek, FeedDates.isDigit(byte) { position += 1 }
                }
            }
            skipSpaces()
            if let zone = self.offset() { offset = zone }
        }
        return FeedDates.instant(
            year: year.value, month: month.value, day: day.value, hour: hour, minute: minute, second: second,
            offsetSeconds: offset)
    }

    /// `Z`, `±HH:MM`, `±HHMM`, `±HH`, or a zone name; nil when none (UTC is assumed).
    mutating func offset() -> Int? {
        guard let byte = peek else { return nil }
        if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
            position += 1
            guard let first = number(maximum: 4) else { return nil }
            var hours = first.value
            var minutes = 0
            if first.digits == 4 {
                hours = first.value / 100
                minutes = first.value % 100
            } else if first.digits == 3 {
                hours = first.value / 100
                minutes = first.value % 100
            } else if skip(UInt8(ascii: ":")), let rest = number(maximum: 2) {
                minutes = rest.value
            }
            guard hours <= 14, minutes < 60 else { return nil }
            let seconds = hours * 3600 + minutes * 60
            return byte == UInt8(ascii: "-") ? -seconds : seconds
        }
        let name = word()
        if name.isEmpty { return nil }
        if let hours = FeedDates.zones[name] {
            // `GMT+2` and the like.
            if let sign = peek, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"), let extra = offset() {
                return hours * 3600 + extra
            }
            return hours * 3600
        }
        // A military letter or an unknown name: read as UTC, as feedparser does.
        return 0
    }

    /// `[Wkd,] D Mon YY[YY] HH:MM[:SS] [zone]` (the weekday in any language, or none).
    mutating func rfc822() -> Date? {
        skipSpaces()
        if let byte = peek, FeedDates.isLetter(byte) {
            _ = word()
            _ = skip(UInt8(ascii: ","))
            _ = skip(UInt8(ascii: "."))
            skipSpaces()
        }
        var day: Int
        var monthName: String
        if let number = number(maximum: 2) {
            day = number.value
            skipSpaces()
            _ = skip(UInt8(ascii: "-"))
            monthName = word()
        } else {
            // `Mon D YYYY` (a form some producers use).
            monthName = word()
            skipSpaces()
            guard let number = number(maximum: 2) else { return nil }
            day = number.value
            _ = skip(UInt8(ascii: ","))
        }
        _ = skip(UInt8(ascii: "."))
        guard let month = Self.month(monthName) else { return nil }
        skipSpaces()
        _ = skip(UInt8(ascii: "-"))
        guard let yearNumber = number(maximum: 4) else { return nil }
        var year = yearNumber.value
        if yearNumber.digits == 2 { year += year < 50 ? 2000 : 1900 }
        skipSpaces()
        var hour = 0
        var minute = 0
        var second = 0.0
        var offset = 0
        if let h = number(maximum: 2) {
            guard skip(UInt8(ascii: ":")), let m = number(maximum: 2) else { return nil }
            hour = h.value
            minute = m.value
            if skip(UInt8(ascii: ":")), let s = number(maximum: 2) {
                second = Double(s.value)
            }
            skipSpaces()
            if let zone = self.offset() { offset = zone }
        }
        return FeedDates.instant(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, offsetSeconds: offset)
    }

    static func month(_ name: String) -> Int? {
        if let month = FeedDates.months[name] { return month }
        let prefix = String(name.prefix(3))
        if name.count > 3, let month = FeedDates.months[prefix] { return month }
        return nil
    }
}
