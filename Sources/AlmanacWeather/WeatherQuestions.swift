public import AlmanacCore
import Foundation

/// How the weather tool reads a clause of a question: the places (after in/for/at/near, or before
/// the weather word; "Lisbon and Porto" is two), one day or `--days N`, `--hourly` for a part of a
/// day, units, and the alerts, air-quality and next-hour views when the schema declares them.
struct WeatherQuestionReader: QuestionReader {
    /// Options the weather schema declares.
    let declared: Set<String>

    /// Creates the reader for a tool with `schema`.
    init(schema: ToolSchema) {
        declared = Set(schema.parameters.map(\.name))
    }

    /// The weather reading of `clause`, or nil when it asks nothing about the weather.
    func read(_ clause: QuestionClause) -> ToolReading? {
        let viewWords = WeatherQuestionWords.views.filter { clause.hasAnyPhrase($0.phrases) }
        guard
            clause.hasAny(WeatherQuestionWords.weatherWords) || !viewWords.isEmpty
                || clause.hasAnyPhrase(WeatherQuestionWords.weatherPhrases)
        else { return nil }
        let strong =
            clause.hasAny(WeatherQuestionWords.strongWords) || viewWords.contains { $0.strong }
            || clause.hasAnyPhrase(WeatherQuestionWords.weatherPhrases)
        var options: [String] = []
        var dayWord: String?
        let clock = clause.clock
        let parts = WeatherQuestionWords.partsOfDay.contains { clause.has($0) }
        switch clause.day {
        case .today: dayWord = "today"
        case .tonight:
            dayWord = "today"
            options.append("--hourly")
        case .tomorrow: dayWord = "tomorrow"
        case .weekday(let index): dayWord = QuestionWords.weekdays[index]
        case .date(let year, let month, let day):
            dayWord = clock.resolve(year: year, month: month, day: day).map(clock.iso)
        case .weekend: options += ["--days", String(clock.daysThroughSunday)]
        case .thisWeek, .nextWeek: options += ["--days", "7"]
        case .yesterday, nil: break
        }
        if let count = Self.dayCount(clause), !options.contains("--days") {
            options = options.filter { $0 != "--hourly" }
            options += ["--days", String(count)]
            dayWord = nil
        }
        if (parts || clause.hasAny(["hourly"]) || clause.has("hour by hour")) && !options.contains("--hourly")
            && !options.contains("--days")
        {
            options.append("--hourly")
        }
        if clause.hasAny(["fahrenheit", "imperial"]) { options += ["--units", "imperial"] }
        if clause.hasAny(["celsius", "metric"]) { options += ["--units", "metric"] }
        for view in viewWords where declared.contains(view.flag.rawValue) && !options.contains(view.flag.option) {
            options.append(view.flag.option)
        }
        var places = Self.places(clause)
        if let own = Self.personalPlace(clause) { places = [[own]] + places.filter { $0.last?.lowercased() != own } }
        func run(_ place: [String]) -> [String] {
            guard let dayWord else { return place + options }
            return place.isEmpty ? ["--day", dayWord] + options : place + [dayWord] + options
        }
        let runs = places.isEmpty ? [run([])] : places.map(run)
        return ToolReading(runs[0], weight: strong ? .strong : .weak, more: Array(runs.dropFirst()))
    }

    /// "next 5 days", "5 day forecast", "7-day", "the next few days", "a week" → days to show.
    static func dayCount(_ clause: QuestionClause) -> Int? {
        let words = clause.words
        for (index, word) in words.enumerated() {
            var number = Int(word) ?? QuestionWords.numbers[word]
            var unitIndex = index + 1
            if number == nil, word.hasSuffix("-day"), let value = Int(word.dropLast(4)) {
                number = value
                unitIndex = index
            }
            guard let count = number, (1...16).contains(count), unitIndex < words.count || unitIndex == index else {
                continue
            }
            let unit = unitIndex == index ? "day" : words[unitIndex]
            if ["day", "days", "dayforecast"].contains(unit) { return count }
            if ["week", "weeks"].contains(unit) { return min(16, count * 7) }
        }
        if clause.has("next few days") || clause.has("coming days") || clause.has("few days") { return 3 }
        if clause.has("next couple of days") || clause.has("next couple days") { return 2 }
        if clause.has("next week") || clause.has("for the week") { return 7 }
        if clause.has("two weeks") || clause.has("fortnight") { return 14 }
        return nil
    }

    /// "at work", "at my office", "at home": a word the profile names a place by (`[me] places`,
    /// `[me] home`), which the tool resolves; "work" is otherwise no place name.
    static func personalPlace(_ clause: QuestionClause) -> String? {
        let words = clause.words
        for index in words.indices where ["at", "near", "around"].contains(words[index]) {
            var next = index + 1
            if next < words.count, ["my", "the"].contains(words[next]) { next += 1 }
            if next < words.count, WeatherRequest.personalPlaces.contains(words[next]) { return words[next] }
        }
        return nil
    }

    /// The places a clause names: after "in/for/at/near", else right before the weather word;
    /// places joined by "and"/"or" are each a place.
    static func places(_ clause: QuestionClause) -> [[String]] {
        let tokens = clause.tokens
        let words = clause.words
        let stop = WeatherQuestionWords.placeStop
        // "in" names a place more surely than "for" ("weather for golf on saturday in Augusta").
        // Every "in" counts ("weather in lisbon today and what will it be like in porto").
        for intro in WeatherQuestionWords.placeIntros {
            var places: [[QuestionToken]] = []
            for index in words.indices where words[index] == intro {
                var place: [QuestionToken] = []
                var cursor = index + 1
                while cursor < tokens.count {
                    let token = tokens[cursor]
                    if ["and", "or", "&"].contains(token.lower), !place.isEmpty, cursor + 1 < tokens.count,
                        !stop.contains(tokens[cursor + 1].lower)
                    {
                        places.append(place)
                        place = []
                        cursor += 1
                        continue
                    }
                    if stop.contains(token.lower) {
                        if token.lower == "the" && place.isEmpty {
                            cursor += 1
                            continue
                        }
                        break
                    }
                    place.append(token)
                    if token.semicolon { break }
                    cursor += 1
                }
                if !place.isEmpty { places.append(place) }
            }
            var seen = Set<[String]>()
            let found = places.map { QuestionClause.typed($0) }.filter {
                seen.insert($0.map { $0.lowercased() }).inserted
            }
            if !found.isEmpty { return found }
        }
        guard let keyword = words.firstIndex(where: { WeatherQuestionWords.weatherWords.contains($0) }) else {
            return []
        }
        var places: [[String]] = []
        var end = keyword
        while end > 0 {
            var start = end
            while start > 0 {
                let word = words[start - 1]
                if WeatherQuestionWords.questionWords.contains(word) || stop.contains(word) || isCount(word) { break }
                start -= 1
            }
            guard start < end else { break }
            places.insert(QuestionClause.typed(tokens[start..<end]), at: 0)
            // "lisbon and porto weather": the place before "and" too.
            guard start >= 2, ["and", "or"].contains(words[start - 1]) else { break }
            end = start - 1
        }
        if places.isEmpty {
            // "7-day forecast seattle": the place after the weather word.
            let after = tokens[(keyword + 1)...].prefix { !stop.contains($0.lower) && !isCount($0.lower) }
            if !after.isEmpty { places.append(QuestionClause.typed(after)) }
        }
        return places
    }

    /// "7-day", "10": a count of days, not a place.
    static func isCount(_ word: String) -> Bool {
        Int(word) != nil || word.hasSuffix("-day") || QuestionWords.numbers[word] != nil
    }
}

/// The weather tool's words: data, no logic.
enum WeatherQuestionWords {
    static let weatherWords: Set<String> = [
        "weather", "forecast", "temperature", "temperatures", "temp", "rain", "raining", "rainy", "snow",
        "snowing", "snowy", "sunny", "hot", "cold", "warm", "chilly", "humid", "humidity", "wind", "windy",
        "umbrella", "jacket", "coat", "degrees", "storm", "storms", "stormy", "thunderstorm", "thunderstorms",
        "cloudy", "clouds", "uv", "frost", "freezing", "sunrise", "sunset", "precipitation", "drizzle", "hail",
        "fog", "foggy", "heatwave", "pollen", "weahter", "wether", "forcast", "temps", "sunscreen", "rainfall", "wear",
    ]

    /// Words only the weather answers.
    static let strongWords: Set<String> = [
        "weather", "forecast", "weahter", "wether", "forcast", "temperature", "pollen", "uv",
    ]

    /// Phrases that ask about the weather without a weather word.
    static let weatherPhrases = ["air quality", "heat index", "feels like", "wind chill"]

    /// A view of the weather tool and the phrases asking for it (flags on branch `weather`).
    struct View {
        var flag: WeatherParameter
        var phrases: [String]
        var strong: Bool
    }

    static let views: [View] = [
        View(
            flag: .alerts,
            phrases: ["warnings", "warning", "alerts", "alert", "storm", "storms", "advisory", "advisories"],
            strong: false),
        View(
            flag: .air, phrases: ["air quality", "aqi", "pollen", "uv", "uv index", "smog", "air pollution"],
            strong: true),
        View(
            flag: .nextHour,
            phrases: ["in the next hour", "next hour", "right now", "next 30 minutes", "minute by minute"],
            strong: false),
    ]

    /// Parts of a day that want the hours.
    static let partsOfDay = [
        "this morning", "this afternoon", "this evening", "next few hours", "later today",
        "next hours", "morning", "afternoon", "evening", "overnight", "tonight", "night", "later",
    ]

    static let placeIntros = ["in", "at", "near", "around", "for", "to"]

    /// Words that end a place name.
    static let placeStop: Set<String> = Set([
        "today", "tonight", "tomorrow", "yesterday", "this", "next", "on", "and", "right", "now", "hourly",
        "celsius", "fahrenheit", "during", "over", "with", "like", "be", "is", "will", "morning", "afternoon",
        "evening", "weekend", "week", "later", "currently", "in", "for", "at", "by", "the", "going", "gonna",
        "should", "do", "does", "i", "it", "get", "look", "looking", "forecast", "weather", "tomorrows",
        "todays", "tonights", "hour", "hours", "days", "day", "a", "to", "or", "but", "then", "also", "tmrw",
        "quality", "index", "alerts", "warnings", "air", "any", "overnight", "from", "until", "all", "through",
        "coming", "heading", "headed", "hitting", "expected", "night", "wear", "work",
    ]).union(QuestionWords.weekdays).union(weatherWords)

    /// Words skipped when a place stands before the weather word ("Lisbon weather").
    static let questionWords: Set<String> = [
        "what", "whats", "how", "hows", "is", "the", "will", "whatll", "give", "me", "tell", "show", "get", "a",
        "current", "check", "todays", "tomorrows", "tonights", "local", "there", "theres", "it", "be", "any",
        "do", "does", "i", "need", "an", "going", "to", "please", "can", "you", "and", "s", "or",
    ]
}

extension WeatherTool {
    /// Reads questions about the weather (``WeatherQuestionReader``).
    public var questionReader: (any QuestionReader)? { WeatherQuestionReader(schema: schema) }
}
