import Foundation

/// The checks every tool's request reader shares, so that a blank name, a count out of range or a bad
/// date reads the same in every tool: one line naming the argument and what would be right.
extension ToolArguments {
    /// The trimmed text of `name`, or nil when it was not given.
    ///
    /// Given but blank is a mistake (often an unset shell variable), not absence, so it throws
    /// "--NAME needs `what`" with `example` as the suggestion.
    func text(_ name: String, needs what: String, example: String) throws -> String? {
        guard let raw = string(name) else { return nil }
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else {
            throw AlmanacError.usage("--\(name) needs \(what)", suggestion: "e.g. \(example)")
        }
        return text
    }

    /// The whole number `name` within `range`, or nil when it was not given.
    ///
    /// - Throws: a usage error naming the range and the value given, with `example` as the suggestion.
    func integer(_ name: String, in range: ClosedRange<Int>, example: String) throws -> Int? {
        guard values[name] != nil else { return nil }
        guard let value = integer(name), range.contains(value) else {
            let bounds =
                range.upperBound == Int.max
                ? "\(range.lowerBound) or more" : "between \(range.lowerBound) and \(range.upperBound)"
            throw AlmanacError.usage(
                "\(name) must be \(bounds), got '\(string(name) ?? "")'", suggestion: "e.g. \(example)")
        }
        return value
    }

    /// The day `name` names (today, tomorrow, a weekday, YYYY-MM-DD: ``TimeText/resolveDay(_:now:in:)``),
    /// as the start of that day in `zone`, or nil when it was not given.
    ///
    /// An empty value is a mistake (an unset shell variable), not today.
    func day(_ name: String, now: Date, in zone: TimeZone) throws -> Date? {
        guard let raw = string(name) else { return nil }
        let word = raw.trimmingCharacters(in: .whitespaces)
        guard !word.isEmpty, let start = TimeText.resolveDay(word, now: now, in: zone) else {
            throw AlmanacError.usage(
                "bad date '\(word)'",
                suggestion: "expected today, yesterday, tomorrow, a weekday, or YYYY-MM-DD (e.g. 2024-12-15)")
        }
        return start
    }
}
