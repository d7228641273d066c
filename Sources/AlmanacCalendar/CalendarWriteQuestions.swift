import AlmanacCore
import Foundation

/// Reads requests to change the calendar ("remind me to call mom tomorrow at 6", "add dentist
/// thursday 3pm", "move my 3pm to 4", "I finished the tax return") into the write commands of
/// `tools run calendar`. The command still asks before it writes: on the terminal for `tools
/// ask`, by the caller's confirmation for a model (docs/security.md).
enum CalendarWriteQuestion {
    /// The write reading of `clause`, or nil when it asks for no write.
    static func read(_ clause: QuestionClause) -> ToolReading? {
        let words = clause.words
        guard let first = words.first(where: { !Self.politeness.contains($0) }),
            let start = words.firstIndex(of: first)
        else { return nil }
        let rest = Array(clause.tokens[start...])
        let lower = rest.map(\.lower)
        // "remind me to X", "set a reminder to X"
        if lower.starts(with: ["remind", "me"]) {
            let body = Array(rest.dropFirst(lower.count > 2 && ["to", "that", "about"].contains(lower[2]) ? 3 : 2))
            return reading("remind", body, option: "--due")
        }
        for opener in [
            ["set", "a", "reminder", "to"], ["add", "a", "reminder", "to"], ["create", "a", "task", "to"],
        ]
        where lower.starts(with: opener) {
            return reading("remind", Array(rest.dropFirst(opener.count)), option: "--due")
        }
        // "add dentist thursday 3pm", "schedule lunch with sam friday at noon", "put X on my calendar"
        if ["add", "schedule", "book", "put"].contains(first), rest.count > 1 {
            var body = strip(Array(rest.dropFirst()), phrases: Self.calendarPlaces)
            // "put the kettle on" is no event; "put lunch on my calendar" is.
            if first == "put", body.count == rest.count - 1 { return nil }
            if let article = body.first, ["a", "an"].contains(article.lower) { body.removeFirst() }
            // "schedule for the lakers", "add 5 to 10": no day or time, no event.
            guard let found = reading("add", body, option: "--at"), found.words.count > 2 else { return nil }
            return found
        }
        // "move my 3pm to 4", "reschedule the dentist to friday 2pm"
        if ["move", "reschedule", "push", "shift"].contains(first), let to = lower.lastIndex(of: "to"), to > 1 {
            let what = Array(rest[1..<to]).filter { !["my", "the", "back"].contains($0.lower) }
            let target = Array(rest[(to + 1)...])
            guard !what.isEmpty, let when = When(target, after: When(what, after: nil)?.hour), when.consumed else {
                return nil
            }
            let item = When(what, after: nil).flatMap { $0.consumed && $0.hour != nil ? $0.clockText : nil }
            let words = ["move", item ?? what.map(\.original).joined(separator: " "), "--to", when.text]
            return ToolReading(words, weight: .dominant)
        }
        // "I finished the tax return", "I'm done with the slides", "mark the tax return done"
        if let task = finishedTask(rest) {
            return ToolReading(["done", task], weight: .dominant)
        }
        return nil
    }

    /// A new item's command: its title, then WHEN from the day and time words it ends with.
    private static func reading(_ command: String, _ body: [QuestionToken], option: String) -> ToolReading? {
        var title = body
        var when: When?
        // The time words are at the end ("call mom tomorrow at 6") or the start ("tomorrow at 6 call mom").
        for cut in (1...max(1, body.count)).reversed() where cut < body.count {
            if let found = When(Array(body[cut...]), after: nil), found.consumed {
                when = found
                title = Array(body[..<cut])
            }
        }
        if when == nil {
            for cut in (1...max(1, body.count)).reversed() where cut < body.count {
                if let found = When(Array(body[..<cut]), after: nil), found.consumed {
                    when = found
                    title = Array(body[cut...])
                    break
                }
            }
        }
        while let last = title.last, ["at", "on", "for", "by"].contains(last.lower) { title.removeLast() }
        // "remind me tomorrow at 9 to send the invoice"
        while let head = title.first, ["to", "that", "about"].contains(head.lower) { title.removeFirst() }
        let joiners: Set<String> = ["to", "at", "on", "and", "from", "with"]
        guard title.contains(where: { !joiners.contains($0.lower) && $0.lower.contains(where: \.isLetter) }) else {
            return nil
        }
        var words = [command, title.map(\.original).joined(separator: " ")]
        if let when {
            words += [option, when.text]
            if command == "add", when.hour == nil { words.append("--all-day") }
        }
        return ToolReading(words, weight: .dominant)
    }

    /// "I finished X", "I'm done with X", "I did X", "I completed X", "mark X (as) done", "X is done".
    private static func finishedTask(_ tokens: [QuestionToken]) -> String? {
        let lower = tokens.map(\.lower)
        var body: ArraySlice<QuestionToken>?
        for opener in [
            ["i", "finished"], ["i", "completed"], ["i", "have", "finished"], ["ive", "finished"],
            ["im", "done", "with"], ["i", "am", "done", "with"], ["i", "did"], ["finished"], ["completed"],
        ] where lower.starts(with: opener) {
            body = tokens.dropFirst(opener.count)
            break
        }
        if body == nil, lower.first == "mark", let done = lower.lastIndex(of: "done"), done > 1 {
            body = tokens[1..<done]
            if body?.last?.lower == "as" { body = body?.dropLast() }
        }
        if body == nil, lower.count > 2, lower.suffix(2) == ["is", "done"] {
            body = tokens.dropLast(2)
        }
        guard var words = body.map(Array.init) else { return nil }
        while let head = words.first, ["the", "my", "a", "an", "off"].contains(head.lower) { words.removeFirst() }
        while let last = words.last, ["today", "yesterday", "already", "now", "finally"].contains(last.lower) {
            words.removeLast()
        }
        guard !words.isEmpty else { return nil }
        return words.map(\.original).joined(separator: " ")
    }

    private static func strip(_ tokens: [QuestionToken], phrases: [[String]]) -> [QuestionToken] {
        for phrase in phrases {
            let lower = tokens.map(\.lower)
            guard lower.count >= phrase.count else { continue }
            for index in 0...(lower.count - phrase.count) where Array(lower[index..<(index + phrase.count)]) == phrase {
                return Array(tokens[..<index] + tokens[(index + phrase.count)...])
            }
        }
        return tokens
    }

    static let politeness: Set<String> = ["please", "pls", "can", "could", "you", "hey", "almanac", "ok", "okay"]
    static let calendarPlaces = [
        ["to", "my", "calendar"], ["on", "my", "calendar"], ["in", "my", "calendar"], ["to", "the", "calendar"],
        ["on", "the", "calendar"], ["to", "my", "agenda"],
    ]

    /// Day and time words ("tomorrow at 6", "thursday 3pm", "4", "at noon"), all of them read.
    struct When {
        var day: String?
        var hour: Int?
        var minute = 0
        /// Every token was a day or time word.
        var consumed: Bool

        /// Reads `tokens`; a bare hour after `after` (the hour moved from) is the next one after it,
        /// else 1–7 is the afternoon ("at 6": 18:00).
        init?(_ tokens: [QuestionToken], after: Int?) {
            var words = tokens.map(\.lower)
            words.removeAll { ["at", "on", "by", "for", "this", "o", "clock", "oclock"].contains($0) }
            guard !words.isEmpty else { return nil }
            consumed = true
            var index = 0
            while index < words.count {
                let word = words[index]
                index += 1
                if day == nil, Self.days.contains(word) {
                    day = word == "tmrw" ? "tomorrow" : word
                    continue
                }
                if day == nil, word == "next", index < words.count, Self.weekdays.contains(words[index]) {
                    day = "next " + words[index]
                    index += 1
                    continue
                }
                if hour == nil, let found = Self.clock(word, next: index < words.count ? words[index] : nil) {
                    (hour, minute) = (found.hour, found.minute)
                    if found.usedNext { index += 1 }
                    if !found.marked, let value = hour {
                        // "move my 11am to 1": the first of 1:00 and 13:00 after 11:00.
                        if let after, value < 12, value <= after, value + 12 > after { hour = value + 12 }
                        if after == nil, (1...7).contains(value) { hour = value + 12 }
                    }
                    continue
                }
                consumed = false
                return
            }
            if day == nil && hour == nil { return nil }
            // "tonight at 8": the evening.
            if day == "tonight", let value = hour, value < 12 { hour = value + 12 }
        }

        /// `18:00`.
        var clockText: String? { hour.map { String(format: "%02d:%02d", $0, minute) } }

        /// WHEN for the command: `tomorrow 18:00`, `thursday 15:00`, `16:00`, `friday`.
        var text: String { [day, clockText].compactMap { $0 }.joined(separator: " ") }

        static let weekdays: Set<String> = [
            "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
        ]
        static let days: Set<String> = weekdays.union(["today", "tonight", "tomorrow", "tmrw"])

        /// "6", "6pm", "6:30", "6:30pm", "6 pm", "15:00", "noon", "midnight".
        static func clock(_ word: String, next: String?) -> (hour: Int, minute: Int, marked: Bool, usedNext: Bool)? {
            guard let clock = ClockWords(word, next: next) else { return nil }
            // "15:00" and "0" say which half of the day as plainly as "3pm" does.
            let marked = clock.said == .marked || (clock.said == .minutes && clock.hour >= 13) || clock.hour == 0
            return (clock.hour, clock.minute, marked, clock.usedNext)
        }
    }
}
