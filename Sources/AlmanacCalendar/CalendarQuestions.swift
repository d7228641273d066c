public import AlmanacCore
import Foundation

/// How the calendar tool reads a clause of a question: a day or range (`today`, `tomorrow`,
/// `week`, `--from/--to`), `next N`, `tasks`, `--search` for a name, a possessive or an
/// appointment ("mom's birthday", "the dentist"), and the free/busy view for "am I free ..."
/// when the schema offers one (`free` range with `--hours`).
struct CalendarQuestionReader: QuestionReader {
    /// The range words the schema accepts.
    let ranges: Set<String>
    /// Options the schema declares.
    let declared: Set<String>

    init(schema: ToolSchema) {
        declared = Set(schema.parameters.map(\.name))
        if case .choice(let values)? = schema.parameter(named: CalendarParameter.range.rawValue)?.kind {
            ranges = Set(values)
        } else {
            ranges = []
        }
    }

    /// The calendar reading of `clause`, or nil when it is not about the user's own time.
    func read(_ clause: QuestionClause) -> ToolReading? {
        // "remind me to ...", "add dentist thursday 3pm": the write commands, when the schema has them.
        if ranges.contains("add"), let write = CalendarWriteQuestion.read(clause) { return write }
        typealias Words = CalendarQuestionWords
        let personal = clause.hasAny(Words.personalWords)
        let subject = Self.searchSubject(clause)
        let strong = clause.hasAny(Words.strongWords) || subject != nil
        let calendar =
            strong || Words.phrases.contains { clause.text.contains(" \($0)") }
            || (personal && clause.hasAny(Words.calendarWords)) || clause.has("to do") || clause.has("to-do")
        guard calendar else { return nil }
        return ToolReading(words(clause, subject: subject), weight: strong ? .strong : .weak)
    }

    func words(_ clause: QuestionClause, subject: String?) -> [String] {
        if clause.hasAny(CalendarQuestionWords.taskWords) || clause.has("to do") { return ["tasks"] }
        let clock = clause.clock
        if let index = clause.find("next"), index + 1 < clause.words.count {
            let following = clause.words[index + 1]
            if let count = Int(following) ?? QuestionWords.numbers[following] { return ["next", String(count)] }
            if CalendarQuestionWords.eventNouns.contains(following) { return ["next", "1"] }
        }
        if let subject { return ["next", "5", "--search", subject] }
        let day = clause.day
        // "Am I free friday afternoon?": the busy blocks and free gaps of that window.
        if ranges.contains("free"), clause.hasAnyPhrase(CalendarQuestionWords.freeBusyPhrases) {
            let (from, to) = span(day, clause)
            var words = ["free", "--from", clock.iso(from), "--to", clock.iso(to)]
            if declared.contains(CalendarParameter.hours.rawValue) {
                if let hour = Self.clockHour(clause) {
                    words += ["--hours", String(format: "%02d-%02d", hour, hour + 1)]
                } else if let hours = CalendarQuestionWords.hours.first(where: { clause.has($0.phrase) }) {
                    words += ["--hours", hours.range]
                }
            }
            return words
        }
        func range(_ from: Date, _ to: Date) -> [String] { ["--from", clock.iso(from), "--to", clock.iso(to)] }
        switch day {
        case .tomorrow: return ["tomorrow"]
        case .thisWeek: return ["week"]
        case .today, .tonight, nil: return ["today"]
        default:
            let (from, to) = span(day, clause)
            return range(from, to)
        }
    }

    /// The hour a clause names ("at 3pm", "15:00", "at 9 am"), 0–22.
    static func clockHour(_ clause: QuestionClause) -> Int? {
        let words = clause.words
        for (index, word) in words.enumerated() {
            guard let clock = ClockWords(word, next: index + 1 < words.count ? words[index + 1] : nil) else {
                continue
            }
            var hour = clock.hour
            if clock.said == .hour {
                // A bare number is an hour only after "at" ("free at 3"), and then the afternoon.
                guard index > 0 && words[index - 1] == "at" else { continue }
                if hour < 8 { hour += 12 }
            }
            if (0...22).contains(hour) { return hour }
        }
        return nil
    }

    /// The first and last day `day` names.
    func span(_ day: QuestionDay?, _ clause: QuestionClause) -> (Date, Date) {
        let clock = clause.clock
        switch day {
        case .tomorrow: return (clock.offset(1), clock.offset(1))
        case .thisWeek: return (clock.today, clock.offset(6))
        case .nextWeek:
            let start = clock.resolve(weekday: 1, past: false)
            let monday = start == clock.today ? clock.offset(7) : start
            return (monday, clock.calendar.date(byAdding: .day, value: 6, to: monday) ?? monday)
        case .weekend:
            let saturday = clock.resolve(weekday: 6, past: false)
            let sunday =
                clock.calendar.component(.weekday, from: clock.today) == 1
                ? clock.today : clock.offset(clock.daysThroughSunday - 1)
            return (min(saturday, sunday), sunday)
        case .yesterday: return (clock.offset(-1), clock.offset(-1))
        case .weekday(let index):
            let date = clock.resolve(weekday: index, past: clause.isPast)
            return (date, date)
        case .date(let year, let month, let day):
            let date = clock.resolve(year: year, month: month, day: day) ?? clock.today
            return (date, date)
        case .today, .tonight, nil: return (clock.today, clock.today)
        }
    }

    /// What to search the calendar for: "when is my dentist appointment" → "dentist"; "when is
    /// mom's birthday" → "mom"; "when is the dentist" → "dentist".
    static func searchSubject(_ clause: QuestionClause) -> String? {
        typealias Words = CalendarQuestionWords
        let words = clause.words
        guard Words.askingWhen.contains(where: { clause.text.hasPrefix(" \($0) ") }) else { return nil }
        // A holiday is a date anyone can look up ("when is mother's day").
        if clause.hasAnyPhrase(Words.holidays) { return nil }
        if let my = words.firstIndex(of: "my") {
            let subject = clause.tokens[(my + 1)...].prefix { !Words.subjectStop.contains($0.lower) }.map(\.original)
                .filter { $0.lowercased() != "next" }
            if !subject.isEmpty { return subject.joined(separator: " ") }
        }
        // A possessive before an event word: "mom's birthday", "Sarah's party".
        for (index, token) in clause.tokens.enumerated()
        where index + 1 < clause.tokens.count && !QuestionWords.openers.contains(token.lower)
            && !Words.contractions.contains(token.lower)
        {
            let possessive =
                token.original.hasSuffix("'s") || token.original.hasSuffix("’s")
                || token.original.hasSuffix("s'")
            // "emma's soccer game": an event word within three words.
            let following = clause.tokens[(index + 1)...].prefix(3)
            if possessive, following.contains(where: { Words.eventNouns.contains($0.lower) }) {
                return String(token.original.dropLast(2))
            }
        }
        // "the dentist", "my doctor": an appointment by who it is with.
        if let noun = clause.tokens.first(where: { Words.appointments.contains($0.lower) }) { return noun.original }
        return nil
    }
}

/// The calendar tool's words: data, no logic.
enum CalendarQuestionWords {
    static let calendarWords: Set<String> = [
        "calendar", "agenda", "meeting", "meetings", "appointment", "appointments", "schedule", "busy", "free",
        "events", "event", "tasks", "task", "todo", "todos", "reminders", "plans", "planned", "standup", "1:1",
        "available", "availability",
    ]
    static let strongWords: Set<String> = [
        "calendar", "agenda", "meeting", "meetings", "appointment", "appointments", "standup", "tasks",
        "todo", "todos", "reminders", "calender", "calandar",
    ]
    static let taskWords: Set<String> = ["tasks", "task", "todo", "todos", "to-do", "to-dos", "reminders"]
    static let personalWords: Set<String> = ["my", "i", "im", "me", "ive", "we", "our"]
    /// Phrases that read as "my calendar" even without a calendar word.
    static let phrases = [
        "what do i have", "do i have anything", "whats on my", "what is on my", "am i free", "am i busy",
        "my day look", "my week look", "on my plate", "do i have time", "when am i free", "are we free",
    ]
    static let freeBusyPhrases = [
        "am i free", "am i busy", "when am i free", "do i have time", "are we free",
        "free time", "available", "availability", "free slot", "free slots",
    ]
    /// Parts of a day and the hours they mean.
    static let hours: [(phrase: String, range: String)] = [
        ("morning", "08-12"), ("afternoon", "12-18"), ("evening", "18-22"), ("tonight", "18-23"), ("lunch", "11-14"),
    ]
    /// How a question about one event's day opens.
    static let askingWhen = [
        "when is", "when s", "whens", "when was", "what time is", "what day is", "what date is",
        "when do i have", "when does",
    ]
    /// Words that end a search subject after "my".
    static let subjectStop: Set<String> = [
        "appointment", "meeting", "call", "event", "appt", "session", "class", "reservation", "today",
        "tomorrow", "this", "next",
    ]
    /// Things that happen on a day: after a possessive they make a calendar entry.
    static let eventNouns: Set<String> = [
        "meeting", "appointment", "event", "call", "birthday", "bday", "anniversary", "party", "wedding",
        "recital", "graduation", "flight", "shower", "dinner", "visit", "concert", "appt", "game", "practice",
        "surgery", "funeral", "play", "show",
    ]
    /// Who an appointment is with.
    static let appointments: Set<String> = [
        "dentist", "doctor", "doctors", "vet", "haircut", "therapist", "physio", "orthodontist", "checkup",
        "dermatologist", "optometrist", "pediatrician", "hairdresser", "barber",
    ]
    /// "when's", "it's": not possessives.
    static let contractions: Set<String> = [
        "whens", "whats", "wheres", "whos", "hows", "its", "thats", "lets", "theres",
    ]
    static let holidays = [
        "mothers day", "fathers day", "valentines day", "new years", "st patricks", "presidents day",
        "martin luther king", "veterans day", "all saints", "daylight saving",
    ]
}

extension CalendarTool {
    /// Reads questions about the user's own time (``CalendarQuestionReader``).
    public var questionReader: (any QuestionReader)? { CalendarQuestionReader(schema: schema) }
}
