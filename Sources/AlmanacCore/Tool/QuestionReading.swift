public import Foundation

/// How a tool reads a clause of a question people type ("did the lakers win", "weather in Lisbon
/// tomorrow") into its own CLI words, declared by the tool as a provider declares its
/// ``ProviderDescriptor``.
///
/// The LLM router splits a question into clauses, asks every registered tool's reader, and picks:
/// it names no tool and holds no word list of a domain. A reader's words are data tables the tool
/// owns; the clause brings the English every reader shares (days, tense).
///
/// ## Implementation requirements
/// - Deterministic for a clause and clock; quick (no I/O, no model).
/// - Return words `tools run <tool>` accepts: positionals first, then options. An option the tool's
///   schema does not declare (a capability of a later version) is dropped by the router with the
///   word after it when that word is not an option, so a boolean flag must not come before a value.
public protocol QuestionReader: Sendable {
    /// The tool's reading of `clause`, or nil when the clause is not about what the tool answers.
    func read(_ clause: QuestionClause) -> ToolReading?
    /// Whether this tool answers whatever no other tool reads (web search). Default: no.
    var answersAnything: Bool { get }
}

extension QuestionReader {
    /// Most tools answer only their own questions.
    public var answersAnything: Bool { false }
}

/// A tool's reading of one clause: the CLI words and how sure the tool is.
public struct ToolReading: Sendable, Hashable {
    /// How a reading weighs against other tools' readings of the same clause.
    public enum Weight: Int, Sendable, Hashable, Comparable {
        /// A word that may be about this tool ("rain", "free"): kept unless another tool's
        /// reading is ``dominant``.
        case weak
        /// A word only this tool answers ("forecast", "calendar"): always kept.
        case strong
        /// A name that settles the subject (a team, a league): kept, and other tools' weak
        /// readings of the clause are dropped ("heat score", "lakers game in the snow").
        case dominant

        /// Orders by strength.
        public static func < (lhs: Weight, rhs: Weight) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The CLI words after the tool name, e.g. `["nba", "--team", "lakers"]`.
    public var words: [String]
    /// How sure the tool is.
    public var weight: Weight
    /// Further runs of the same tool the clause asks for ("weather in Lisbon and Porto": Porto's).
    public var more: [[String]]

    /// Creates a reading.
    public init(_ words: [String], weight: Weight, more: [[String]] = []) {
        self.words = words
        self.weight = weight
        self.more = more
    }
}

extension Tool {
    /// This tool's question reader, if it reads questions (see ``QuestionReader``).
    public var questionReader: (any QuestionReader)? { nil }
}

/// One word of a question.
public struct QuestionToken: Sendable, Hashable {
    /// As typed, without surrounding punctuation.
    public var original: String
    /// Lowercased, accents folded, apostrophes removed.
    public var lower: String
    /// A comma followed the word ("Paris, France").
    var comma: Bool
    /// A semicolon followed the word (a clause break).
    public var semicolon: Bool

    /// The words of `text`: split at white space, punctuation around each word trimmed.
    public static func tokenize(_ text: String) -> [QuestionToken] {
        let trim = CharacterSet(charactersIn: "?!.,;:\"()[]{}“”‘’'`*")
        var tokens: [QuestionToken] = []
        for raw in text.split(whereSeparator: { $0.isWhitespace }) {
            let word = String(raw)
            // A URL keeps its punctuation inside; only a sentence's end is trimmed from it.
            let core = word.trimmingCharacters(in: trim)
            guard !core.isEmpty else { continue }
            let tail = word.reversed().prefix { trim.contains($0.unicodeScalars.first ?? " ") }
            let lower = core.folding(options: .diacriticInsensitive, locale: nil).lowercased()
                .replacingOccurrences(of: "'", with: "")
                .replacingOccurrences(of: "’", with: "")
            tokens.append(
                QuestionToken(original: core, lower: lower, comma: tail.contains(","), semicolon: tail.contains(";")))
        }
        return tokens
    }
}

/// A day or span a question names, before it is resolved against the clock.
public enum QuestionDay: Sendable, Hashable {
    case today, tonight, tomorrow, yesterday, weekend, thisWeek, nextWeek
    /// 0 = Sunday … 6 = Saturday.
    case weekday(Int)
    /// A calendar date; the year is nil when the question gave none.
    case date(year: Int?, month: Int, day: Int)

    /// Days that only make sense looking forward.
    var looksAhead: Bool {
        switch self {
        case .tomorrow, .nextWeek: true
        default: false
        }
    }
}

/// The reference time and zone relative days are resolved in.
public struct QuestionClock: Sendable {
    /// The reference time.
    public var now: Date
    /// The zone days are counted in.
    var timeZone: TimeZone

    /// Creates a clock.
    public init(now: Date, timeZone: TimeZone) {
        self.now = now
        self.timeZone = timeZone
    }

    /// A Gregorian calendar in the clock's zone.
    public var calendar: Calendar { TimeText.calendar(timeZone) }
    /// Midnight today.
    public var today: Date { calendar.startOfDay(for: now) }
    /// The hour of day now (0–23).
    public var hour: Int { calendar.component(.hour, from: now) }

    /// `2024-12-15`.
    public func iso(_ date: Date) -> String { TimeText.isoDay(date, in: timeZone) }

    /// Today plus `days`.
    public func offset(_ days: Int) -> Date { calendar.date(byAdding: .day, value: days, to: today) ?? today }

    /// The date a weekday names: the next one (today included), or the last one before today.
    public func resolve(weekday index: Int, past: Bool) -> Date {
        let current = calendar.component(.weekday, from: today) - 1
        if past {
            let back = (current - index + 7) % 7
            return offset(-(back == 0 ? 7 : back))
        }
        return offset((index - current + 7) % 7)
    }

    /// The date of `month`/`day` in `year`, or in this year when none is given.
    public func resolve(year: Int?, month: Int, day: Int) -> Date? {
        let year = year ?? calendar.component(.year, from: today)
        return calendar.date(from: DateComponents(year: year, month: month, day: day))
    }

    /// Days from today to the coming Sunday, inclusive (for "this weekend").
    public var daysThroughSunday: Int {
        let current = calendar.component(.weekday, from: today) - 1
        return current == 0 ? 1 : 8 - current
    }
}

/// One clause of a question, as every tool's reader sees it: its words, the day it names, its
/// tense, and the same for the whole question (a clause may take its day from another one).
public struct QuestionClause: Sendable {
    /// The clause's words.
    public let tokens: [QuestionToken]
    /// Their lower-case forms.
    public let words: [String]
    /// The lower-case words joined with single spaces, padded with one space each side.
    public let text: String
    /// The clock days are resolved against.
    public let clock: QuestionClock
    /// The day the clause names, if any.
    let ownDay: QuestionDay?
    /// The day the whole question names, if any.
    let questionDay: QuestionDay?
    /// Whether the whole question is in the past tense.
    public let questionIsPast: Bool
    /// The whole question as typed.
    let question: String

    /// Creates a clause of `question`.
    public init(tokens: [QuestionToken], question: String, whole: [QuestionToken]? = nil, clock: QuestionClock) {
        self.tokens = tokens
        self.question = question
        self.clock = clock
        words = tokens.map(\.lower)
        text = " " + words.joined(separator: " ") + " "
        ownDay = QuestionWords.findDay(words)
        let wholeWords = (whole ?? tokens).map(\.lower)
        questionDay = QuestionWords.findDay(wholeWords)
        questionIsPast = QuestionWords.isPast(wholeWords)
    }

    /// Whether the clause has `phrase` (lower-case words separated by single spaces).
    public func has(_ phrase: String) -> Bool { text.contains(" \(phrase) ") }
    /// Whether any word of the clause is in `set`.
    public func hasAny(_ set: Set<String>) -> Bool { words.contains { set.contains($0) } }
    /// Whether the clause has any of `phrases`.
    public func hasAnyPhrase(_ phrases: [String]) -> Bool { phrases.contains { has($0) } }

    /// First index of `phrase` (space-separated words) in the clause.
    public func find(_ phrase: String) -> Int? {
        let parts = phrase.split(separator: " ").map(String.init)
        guard !parts.isEmpty, parts.count <= words.count else { return nil }
        for start in 0...(words.count - parts.count) where Array(words[start..<start + parts.count]) == parts {
            return start
        }
        return nil
    }

    /// Whether the clause is in the past tense ("did", "won", "last night").
    public var isPast: Bool { QuestionWords.isPast(words) }

    /// The clause's own day, else the question's; a past-tense clause does not take a
    /// forward-looking day from another clause ("weather tomorrow and did the celtics win?").
    public var day: QuestionDay? {
        ownDay ?? questionDay.flatMap { isPast && $0.looksAhead ? nil : $0 }
    }

    /// Whether the clause reads as a question of its own ("who is the president of France").
    public var isStandaloneQuestion: Bool {
        guard let first = words.first, words.count >= 3 else { return false }
        return QuestionWords.openers.contains(first)
    }

    /// The clause's words from `index` as typed, with commas that qualify a place kept ("Paris," "TX").
    public static func typed(_ tokens: some Collection<QuestionToken>) -> [String] {
        let list = Array(tokens)
        return list.enumerated().map { index, token in
            token.comma && index < list.count - 1 ? token.original + "," : token.original
        }
    }
}

/// English every reader shares: days, months, tense. Domain words belong to the tools.
public enum QuestionWords {
    /// Sunday first, as `QuestionDay.weekday` counts.
    public static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
    /// January first.
    public static let months = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
        "november", "december",
    ]
    /// Words that put a clause in the past.
    public static let pastWords: Set<String> = [
        "did", "won", "lost", "beat", "was", "were", "last", "final", "result", "results", "yesterday",
        "happened", "scored",
    ]
    /// Words that open a question of its own.
    public static let openers: Set<String> = [
        "who", "what", "whats", "when", "where", "why", "how", "which", "is", "are", "does", "can",
    ]
    /// Small numbers people write as words.
    public static let numbers: [String: Int] = [
        "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
        "ten": 10, "fourteen": 14,
    ]

    /// Days people name by a holiday of fixed date, longest phrase first.
    static let fixedDays: [(String, Int, Int)] = [
        ("christmas eve", 12, 24), ("new years eve", 12, 31), ("new years day", 1, 1), ("boxing day", 12, 26),
        ("christmas day", 12, 25), ("christmas", 12, 25), ("xmas", 12, 25), ("halloween", 10, 31),
        ("fourth of july", 7, 4), ("valentines day", 2, 14),
    ]

    /// Whether `words` are in the past tense.
    static func isPast(_ words: [String]) -> Bool {
        words.contains { pastWords.contains($0) } || " \(words.joined(separator: " ")) ".contains(" how did ")
    }

    /// The day `words` name, if any.
    public static func findDay(_ words: [String]) -> QuestionDay? {
        let text = " " + words.joined(separator: " ") + " "
        if text.contains(" last night ") { return .yesterday }
        if text.contains(" next week ") { return .nextWeek }
        if text.contains(" this week ") || text.contains(" the week ") { return .thisWeek }
        if text.contains(" weekend ") { return .weekend }
        for (phrase, month, day) in fixedDays where text.contains(" \(phrase) ") {
            return .date(year: nil, month: month, day: day)
        }
        for (index, word) in words.enumerated() {
            switch word {
            case "today", "todays": return .today
            case "tonight", "tonights": return .tonight
            case "tomorrow", "tomorrows", "tmrw", "tomorow", "tommorow", "tmr": return .tomorrow
            case "yesterday", "yesterdays": return .yesterday
            default: break
            }
            let stem = word.hasSuffix("s") ? String(word.dropLast()) : word
            if let weekday = weekdays.firstIndex(of: stem) { return .weekday(weekday) }
            let parts = word.split(separator: "-")
            if parts.count == 3, parts[0].count == 4, let year = Int(parts[0]), let month = Int(parts[1]),
                let day = Int(parts[2])
            {
                return .date(year: year, month: month, day: day)
            }
            if let month = monthIndex(word) {
                if index + 1 < words.count, let day = dayNumber(words[index + 1]) {
                    return .date(year: nil, month: month + 1, day: day)
                }
                if index > 0, let day = dayNumber(words[index - 1]) {
                    return .date(year: nil, month: month + 1, day: day)
                }
            }
        }
        return nil
    }

    /// 0-based month a word names ("dec", "december").
    static func monthIndex(_ word: String) -> Int? {
        guard word.count >= 3 else { return nil }
        return months.firstIndex { $0 == word || ($0.hasPrefix(word) && word.count == 3) }
    }

    /// A day of the month ("5", "5th").
    static func dayNumber(_ word: String) -> Int? {
        let digits = word.prefix { $0.isNumber }
        guard let day = Int(digits), (1...31).contains(day),
            word.count == digits.count || ["st", "nd", "rd", "th"].contains(String(word.dropFirst(digits.count)))
        else { return nil }
        return day
    }
}
