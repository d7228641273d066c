import AlmanacCalendar
import AlmanacCore
import AlmanacSearch
import AlmanacSports
import AlmanacWeather
import Foundation

/// Rule-based intent detection: a question in, the tool runs that answer it out.
///
/// Deterministic for a given question, reference time and zone (relative days such as "saturday"
/// are resolved against `now`), and quick: word lists and a few passes over the words, no model.
/// A question may need several tools ("weather in Lisbon and my calendar today"); it is split
/// into clauses at "and"/"also"/";" and each clause is routed on its own. Whatever is not about
/// sports, weather or the calendar goes to web search.
public struct Router: Sendable {
    /// The tools that may be chosen; nil means any. A route to a missing tool falls back to search.
    public var available: Set<String>?
    /// The reference time for relative days.
    public var now: Date
    /// The zone relative days are counted in.
    public var timeZone: TimeZone

    /// Creates a router.
    public init(tools: [String]? = nil, now: Date, timeZone: TimeZone) {
        self.available = tools.map(Set.init)
        self.now = now
        self.timeZone = timeZone
    }

    /// The tool runs for `question`, in the order they appear in it, without duplicates.
    public func route(_ question: String) -> [Route] {
        let tokens = Self.tokenize(question)
        guard !tokens.isEmpty else { return [] }
        let whole = Analysis(tokens: tokens, router: self)
        // A clause with nothing to route belongs to the one before it ("weather in Lisbon and Porto"),
        // unless it is a question of its own, which goes to search.
        var merged: [[Token]] = []
        for raw in Self.split(tokens) {
            let body = Array(raw.drop { Self.connectors.contains($0.lower) })
            let clause = Analysis(tokens: body, router: self)
            if clause.intents.isEmpty, let last = merged.last, !clause.isStandaloneQuestion {
                merged[merged.count - 1] = last + raw
            } else {
                merged.append(body)
            }
        }
        let clauses = merged.map { Analysis(tokens: $0, router: self) }
        var routes: [Route] = []
        if clauses.allSatisfy({ $0.intents.isEmpty }) {
            routes = [whole.searchRoute(question: question)]
        } else {
            for clause in clauses {
                let clauseRoutes = clause.intents.isEmpty
                    ? [clause.searchRoute(question: nil)] : clause.routes(context: whole)
                routes.append(contentsOf: clauseRoutes)
            }
        }
        var seen = Set<Route>()
        var result: [Route] = []
        for route in routes {
            let resolved: Route
            if let available, !available.contains(route.tool) {
                guard available.contains(Self.searchTool) else { continue }
                resolved = whole.searchRoute(question: question)
            } else {
                resolved = route
            }
            if seen.insert(resolved).inserted { result.append(resolved) }
        }
        return result
    }

    // MARK: Words

    struct Token: Hashable {
        /// As typed, without surrounding punctuation.
        var original: String
        /// Lowercased, apostrophes removed.
        var lower: String
        /// A comma followed the word ("Paris, France").
        var comma: Bool
        /// A semicolon followed the word (a clause break).
        var semicolon: Bool
    }

    static func tokenize(_ text: String) -> [Token] {
        let trim = CharacterSet(charactersIn: "?!.,;:\"()[]{}“”‘’'`*")
        var tokens: [Token] = []
        for raw in text.split(whereSeparator: { $0.isWhitespace }) {
            let word = String(raw)
            let core = word.trimmingCharacters(in: trim)
            guard !core.isEmpty else { continue }
            let tail = word.reversed().prefix { trim.contains($0.unicodeScalars.first ?? " ") }
            // Accents folded as in the sports vocabulary ("CF Montréal").
            let lower = core.folding(options: .diacriticInsensitive, locale: nil).lowercased()
                .replacingOccurrences(of: "'", with: "")
                .replacingOccurrences(of: "’", with: "")
            tokens.append(Token(original: core, lower: lower, comma: tail.contains(","), semicolon: tail.contains(";")))
        }
        return tokens
    }

    /// Clauses; each after the first starts with the word that split it ("and"), which routing
    /// ignores but merging back keeps ("Lisbon and Porto" stays one place phrase that ends at "and").
    static func split(_ tokens: [Token]) -> [[Token]] {
        var clauses: [[Token]] = [[]]
        for token in tokens {
            if connectors.contains(token.lower) {
                if !(clauses.last?.isEmpty ?? true) { clauses.append([token]) }
                continue
            }
            clauses[clauses.count - 1].append(token)
            if token.semicolon { clauses.append([]) }
        }
        return clauses.filter { clause in clause.contains { !connectors.contains($0.lower) } }
    }

    static let connectors: Set<String> = ["and", "also", "plus", "&"]

    // MARK: Tools and sports words

    // The tools' own names, so a renamed tool cannot leave the router routing to a ghost.
    static let sportsTool = SportsTool().name
    static let weatherTool = WeatherTool().name
    static let calendarTool = CalendarTool().name
    static let searchTool = SearchTool().name

    /// League phrases from the sports vocabulary, longest first; common English words are left out
    /// (see `Lexicon.commonWords`).
    static let leaguePhrases: [SportsVocabulary.LeagueName] = SportsVocabulary.leagueNames
        .filter { !Lexicon.commonWords.contains($0.phrase) }
        .enumerated().sorted { ($0.element.phrase.count, $1.offset) > ($1.element.phrase.count, $0.offset) }
        .map(\.element)

    /// A way to say a team, as the router matches it.
    struct TeamSpelling {
        var spelling: String
        var team: SportsVocabulary.Team
        /// Needs a question about sports: a place ("georgia") or a common English word ("heat", or
        /// "isles" for the Islanders).
        var weak: Bool
    }

    /// Every team spelling from the sports vocabulary, longest first (the most specific phrase
    /// wins: "miami heat" before "miami"); ties keep the vocabulary's order, pro leagues first.
    static let teamSpellings: [TeamSpelling] = SportsVocabulary.teams.flatMap { team in
        team.spellings.map { spelling in
            let oneWord = !spelling.contains(" ")
            let common = oneWord && (Lexicon.commonWords.contains(spelling) || Lexicon.commonWords.contains(team.name))
            return TeamSpelling(spelling: spelling, team: team, weak: common || team.placeSpellings.contains(spelling))
        }
    }
    .enumerated().sorted { ($0.element.spelling.count, $1.offset) > ($1.element.spelling.count, $0.offset) }
    .map(\.element)

    // MARK: Days

    enum Day: Equatable {
        case today, tonight, tomorrow, yesterday, weekend, thisWeek, nextWeek
        case weekday(Int)
        case date(year: Int?, month: Int, day: Int)

        /// Days that only make sense looking forward.
        var looksAhead: Bool {
            switch self {
            case .tomorrow, .nextWeek: true
            default: false
            }
        }
    }

    var calendar: Calendar { TimeText.calendar(timeZone) }
    var today: Date { calendar.startOfDay(for: now) }

    func iso(_ date: Date) -> String { TimeText.isoDay(date, in: timeZone) }

    func offset(_ days: Int) -> Date { calendar.date(byAdding: .day, value: days, to: today) ?? today }

    /// The date a weekday names: the next one (today included), or the last one before today.
    func resolve(weekday index: Int, past: Bool) -> Date {
        let current = calendar.component(.weekday, from: today) - 1
        if past {
            let back = (current - index + 7) % 7
            return offset(-(back == 0 ? 7 : back))
        }
        return offset((index - current + 7) % 7)
    }

    func resolve(year: Int?, month: Int, day: Int) -> Date? {
        let year = year ?? calendar.component(.year, from: today)
        return calendar.date(from: DateComponents(year: year, month: month, day: day))
    }

    /// Days from today to the coming Sunday, inclusive (for "this weekend").
    var daysThroughSunday: Int {
        let current = calendar.component(.weekday, from: today) - 1
        return current == 0 ? 1 : 8 - current
    }
}

/// What one clause (or the whole question) is about.
struct Analysis {
    enum Intent: Hashable { case sports, weather, calendar }

    let tokens: [Router.Token]
    let router: Router
    let words: [String]
    let text: String
    var intents: [Intent] = []
    /// The league the clause names ("nba", "premier league").
    var league: League?
    /// The league a sport word alone means ("football": NFL).
    var sportHint: League?
    var team: SportsVocabulary.Team?
    /// The league of a sport played by individuals (golf, tennis, racing, MMA) the clause is about.
    var individualLeague: League?
    /// A person the clause asks about in that sport ("scheffler", "rory mcilroy"), lowercased.
    var player: String?
    var day: Router.Day?

    init(tokens: [Router.Token], router: Router) {
        self.tokens = tokens
        self.router = router
        words = tokens.map(\.lower)
        text = " " + words.joined(separator: " ") + " "
        detect()
    }

    func has(_ phrase: String) -> Bool { text.contains(" \(phrase) ") }
    func hasAny(_ set: Set<String>) -> Bool { words.contains { set.contains($0) } }

    /// First index of `phrase` (space-separated words) in the clause.
    func find(_ phrase: String) -> Int? {
        let parts = phrase.split(separator: " ").map(String.init)
        guard parts.count <= words.count else { return nil }
        for start in 0...(words.count - parts.count) where Array(words[start..<start + parts.count]) == parts {
            return start
        }
        return nil
    }

    var isStandaloneQuestion: Bool {
        guard let first = words.first, words.count >= 3 else { return false }
        return ["who", "what", "whats", "when", "where", "why", "how", "which", "is", "are", "does", "can"]
            .contains(first)
    }

    var isPast: Bool { hasAny(Lexicon.pastWords) || has("how did") }

    private mutating func detect() {
        day = Self.findDay(words)
        league = Router.leaguePhrases.first { has($0.phrase) }?.league
        sportHint = words.lazy.compactMap { SportsVocabulary.sports.contains($0) ? SportsVocabulary.league(forSport: $0) : nil }
            .first
        let sportsy = league != nil || sportHint != nil || hasAny(Lexicon.sportsContext)
        team = Router.teamSpellings.first { has($0.spelling) && (!$0.weak || sportsy) }?.team
        detectIndividualSport()
        let sports =
            league != nil || team != nil || (sportHint != nil && hasAny(Lexicon.sportsContext))
            || (individualLeague != nil
                && (player != nil
                    || !hasAny(Lexicon.weatherWords)
                        && (hasAny(Lexicon.sportsContext) || hasAny(Lexicon.individualContext))))
        if sports { intents.append(.sports) }

        let strongWeather = has("weather") || has("forecast")
        if hasAny(Lexicon.weatherWords), !sports || strongWeather { intents.append(.weather) }

        let personal = hasAny(["my", "i", "im", "me", "ive"])
        let strongCalendar: Set<String> = [
            "calendar", "agenda", "meeting", "meetings", "appointment", "appointments", "standup", "tasks",
            "todo", "todos", "reminders",
        ]
        let calendar =
            hasAny(strongCalendar) || Lexicon.calendarPhrases.contains(where: { text.contains(" \($0)") })
            || (personal && hasAny(Lexicon.calendarWords)) || has("to do") || has("to-do")
        if calendar, !(sports && !hasAny(strongCalendar)) { intents.append(.calendar) }
    }

    /// Golf, tennis, racing or MMA, by league ("pga", "f1"), sport word or event ("masters"), and the
    /// person asked about: the words between "is/did/how" and "doing/winning/finish" ("how is scheffler
    /// doing"), else a capitalised name ("Scheffler score at the Masters").
    private mutating func detectIndividualSport() {
        if let league, SportsVocabulary.individualSports.contains(league.sport) {
            individualLeague = league
        } else if league == nil, let sport = SportsVocabulary.individualSportPhrases.first(where: { has($0.phrase) })?.sport {
            individualLeague = SportsVocabulary.league(forSport: sport)
        }
        guard individualLeague != nil else { return }
        let leagueWords = Set(Router.leaguePhrases.flatMap { $0.phrase.split(separator: " ").map(String.init) })
        func nameWord(_ index: Int) -> Bool {
            let word = words[index]
            return !Lexicon.notNames.contains(word) && !leagueWords.contains(word) && word.allSatisfy(\.isLetter)
        }
        for verb in words.indices where Lexicon.afterPlayer.contains(words[verb]) {
            var start = verb
            while start > 0, verb - start < 3, nameWord(start - 1) { start -= 1 }
            if start < verb, start > 0, Lexicon.beforePlayer.contains(words[start - 1]) {
                player = words[start..<verb].joined(separator: " ")
                return
            }
        }
        // A capitalised word in a weather question, or after "in"/"at", is a place ("golf in Augusta").
        guard !hasAny(Lexicon.weatherWords) else { return }
        let beforePlace: Set<String> = ["in", "at", "near", "from", "to", "for"]
        var run: [String] = []
        for (index, token) in tokens.enumerated() {
            let afterPlaceWord = run.isEmpty && index > 0 && beforePlace.contains(words[index - 1])
            if token.original.first?.isUppercase == true, nameWord(index), !afterPlaceWord, run.count < 3 {
                run.append(words[index])
            } else if !run.isEmpty {
                break
            }
        }
        if !run.isEmpty { player = run.joined(separator: " ") }
    }

    static func findDay(_ words: [String]) -> Router.Day? {
        let text = " " + words.joined(separator: " ") + " "
        if text.contains(" last night ") { return .yesterday }
        if text.contains(" next week ") { return .nextWeek }
        if text.contains(" this week ") || text.contains(" the week ") { return .thisWeek }
        if text.contains(" weekend ") { return .weekend }
        for (index, word) in words.enumerated() {
            switch word {
            case "today", "todays": return .today
            case "tonight", "tonights": return .tonight
            case "tomorrow", "tomorrows": return .tomorrow
            case "yesterday", "yesterdays": return .yesterday
            default: break
            }
            let stem = word.hasSuffix("s") ? String(word.dropLast()) : word
            if let weekday = Lexicon.weekdays.firstIndex(of: stem) { return .weekday(weekday) }
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

    static func monthIndex(_ word: String) -> Int? {
        guard word.count >= 3 else { return nil }
        return Lexicon.months.firstIndex { $0 == word || ($0.hasPrefix(word) && word.count == 3) }
    }

    static func dayNumber(_ word: String) -> Int? {
        let digits = word.prefix { $0.isNumber }
        guard let day = Int(digits), (1...31).contains(day),
            word.count == digits.count || ["st", "nd", "rd", "th"].contains(String(word.dropFirst(digits.count)))
        else { return nil }
        return day
    }

    // MARK: Routes

    func routes(context: Analysis) -> [Route] {
        // A past-tense clause does not take a forward-looking day from another clause:
        // "weather tomorrow and did the celtics win?" asks about the last game, not tomorrow's.
        let inherited = context.day.flatMap { isPast && $0.looksAhead ? nil : $0 }
        let day = self.day ?? inherited
        return intents.map { intent in
            switch intent {
            case .sports: sportsRoute(day: day, past: isPast || context.isPast)
            case .weather: weatherRoute(day: day)
            case .calendar: calendarRoute(day: day)
            }
        }
    }

    func sportsRoute(day: Router.Day?, past: Bool) -> Route {
        // A sports clause names a league, a team or a sport, so a league is always found.
        // With a player, or an event alone ("who won the masters"); a league or sport word without one
        // ("f1 standings", "tennis news") takes the ordinary path below.
        if let individualLeague, player != nil || (team == nil && self.league == nil && sportHint == nil) {
            var words = [individualLeague.word]
            if let player { words += ["--player", player] }
            // Tournaments, race weekends and cards span days: a week or "next" asks for the next event.
            let dates = dateWords(day: day, past: past)
            if dates == nil && day == .nextWeek || day == nil && has("next") { words.append("--next") }
            return Route(Router.sportsTool, words + (dates ?? []))
        }
        let league = self.league ?? team.flatMap(chooseLeague) ?? sportHint
        var words = league.map { [$0.word] } ?? []
        let standings = hasAny(["standings", "table", "rankings", "seed", "seeding", "seeds"])
        let news = hasAny(["news", "injury", "injuries", "trade", "trades", "rumors", "rumours", "headlines"])
        let schedule = hasAny(["schedule", "fixtures", "calendar"])
        let next =
            has("next game") || has("next match") || has("play next") || has("next") && hasAny(["play", "game"])
            || (words.first != nil && self.words.first == "when" && hasAny(["play", "plays", "playing", "game"]))
        if standings {
            words.append("standings")
        } else if news {
            words.append("news")
        } else if schedule && day == nil {
            words.append("schedule")
        }
        if let team { words += ["--team", team.name] }
        if standings || news { return Route(Router.sportsTool, words) }
        if next && team != nil && day == nil {
            words.append("--next")
            return Route(Router.sportsTool, words)
        }
        if schedule && day == nil { return Route(Router.sportsTool, words) }
        if let date = dateWords(day: day, past: past) {
            words += date
        } else if !words.contains("schedule") {
            words.insert("schedule", at: 1)
        }
        return Route(Router.sportsTool, words)
    }

    /// `--date` words for `day`, or nil for a span of days (weekend, week), which each caller shows its own way.
    func dateWords(day: Router.Day?, past: Bool) -> [String]? {
        switch day {
        case .today, .tonight: ["--date", "today"]
        case .tomorrow: ["--date", "tomorrow"]
        case .yesterday: ["--date", "yesterday"]
        case .weekday(let index): ["--date", router.iso(router.resolve(weekday: index, past: past))]
        case .date(let year, let month, let day):
            router.resolve(year: year, month: month, day: day).map { ["--date", router.iso($0)] } ?? []
        case .weekend, .thisWeek, .nextWeek: nil
        case nil:
            // "Did the Lakers win?" means the last game: yesterday's, unless it is late enough in
            // the evening that today's game is probably over.
            past ? ["--date", router.calendar.component(.hour, from: router.now) >= 20 ? "today" : "yesterday"] : []
        }
    }

    /// For a nickname several leagues share (Giants, Rangers), the league of the sport named, else
    /// the one in season this month.
    func chooseLeague(_ team: SportsVocabulary.Team) -> League? {
        if let sportHint {
            if let league = team.leagues.first(where: { $0.sport == sportHint.sport }) { return league }
            // A school plays every sport, though the recordings name it in only some leagues:
            // "kentucky basketball" is college basketball.
            if team.leagues.contains(where: { $0.style == .college }),
                let league = League.all.first(where: { $0.sport == sportHint.sport && $0.style == .college })
            {
                return league
            }
        }
        guard let first = team.leagues.first, team.leagues.count > 1 else { return team.leagues.first }
        let month = router.calendar.component(.month, from: router.now)
        return team.leagues.first { SportsVocabulary.isInSeason($0, month: month) } ?? first
    }

    func weatherRoute(day: Router.Day?) -> Route {
        var words = placeWords()
        var options: [String] = []
        var dayWord: String?
        let hourly =
            hasAny(["hourly"]) || has("hour by hour") || has("this afternoon") || has("this evening")
            || has("this morning") || has("next few hours") || has("later today") || has("next hours")
        switch day {
        case .today: dayWord = "today"
        case .tonight:
            dayWord = "today"
            options.append("--hourly")
        case .tomorrow: dayWord = "tomorrow"
        case .weekday(let index): dayWord = Lexicon.weekdays[index]
        case .date(let year, let month, let day):
            dayWord = router.resolve(year: year, month: month, day: day).map(router.iso)
        case .weekend: options += ["--days", String(router.daysThroughSunday)]
        case .thisWeek, .nextWeek: options += ["--days", "7"]
        case .yesterday, nil: break
        }
        if hourly, !options.contains("--hourly") { options.append("--hourly") }
        if hasAny(["fahrenheit", "imperial"]) { options += ["--units", "imperial"] }
        if hasAny(["celsius", "metric"]) { options += ["--units", "metric"] }
        if let dayWord {
            if words.isEmpty { options = ["--day", dayWord] + options } else { words.append(dayWord) }
        }
        return Route(Router.weatherTool, words + options)
    }

    /// The place a weather clause names: after "in/for/at/near", else right before the weather word.
    func placeWords() -> [String] {
        for (index, word) in words.enumerated() where ["in", "for", "at", "near", "around"].contains(word) {
            var place: [Router.Token] = []
            var cursor = index + 1
            while cursor < tokens.count {
                let token = tokens[cursor]
                if Lexicon.placeStop.contains(token.lower), !(place.isEmpty == false && token.lower == "the") {
                    if token.lower == "the" && place.isEmpty { cursor += 1; continue }
                    break
                }
                place.append(token)
                if token.semicolon { break }
                cursor += 1
            }
            if !place.isEmpty { return Self.words(place) }
        }
        guard let keyword = words.firstIndex(where: { Lexicon.weatherWords.contains($0) }) else { return [] }
        var start = keyword
        while start > 0 {
            let word = words[start - 1]
            if Lexicon.questionWords.contains(word) || Lexicon.placeStop.contains(word) { break }
            start -= 1
        }
        return Self.words(Array(tokens[start..<keyword]))
    }

    /// Words as typed, with the commas that qualify a place kept ("Paris," "TX").
    static func words(_ tokens: [Router.Token]) -> [String] {
        tokens.enumerated().map { index, token in
            token.comma && index < tokens.count - 1 ? token.original + "," : token.original
        }
    }

    func calendarRoute(day: Router.Day?) -> Route {
        if hasAny(Lexicon.taskWords) || has("to do") { return Route(Router.calendarTool, ["tasks"]) }
        let numbers = ["one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
            "nine": 9, "ten": 10]
        if let index = find("next"), index + 1 < words.count {
            let following = words[index + 1]
            if let count = Int(following) ?? numbers[following] { return Route(Router.calendarTool, ["next", String(count)]) }
            if ["meeting", "appointment", "event", "call"].contains(following) {
                return Route(Router.calendarTool, ["next", "1"])
            }
        }
        if let subject = searchSubject() { return Route(Router.calendarTool, ["next", "5", "--search", subject]) }
        func range(_ from: Date, _ to: Date) -> Route {
            Route(Router.calendarTool, ["--from", router.iso(from), "--to", router.iso(to)])
        }
        switch day {
        case .tomorrow: return Route(Router.calendarTool, ["tomorrow"])
        case .thisWeek: return Route(Router.calendarTool, ["week"])
        case .nextWeek:
            let start = router.resolve(weekday: 1, past: false)
            let monday = start == router.today ? router.offset(7) : start
            return range(monday, router.calendar.date(byAdding: .day, value: 6, to: monday) ?? monday)
        case .weekend:
            let saturday = router.resolve(weekday: 6, past: false)
            let sunday = router.calendar.component(.weekday, from: router.today) == 1 ? router.today : router.offset(router.daysThroughSunday - 1)
            return range(min(saturday, sunday), sunday)
        case .yesterday: return range(router.offset(-1), router.offset(-1))
        case .weekday(let index):
            let date = router.resolve(weekday: index, past: isPast)
            return range(date, date)
        case .date(let year, let month, let day):
            if let date = router.resolve(year: year, month: month, day: day) { return range(date, date) }
            return Route(Router.calendarTool, ["today"])
        case .today, .tonight, nil: return Route(Router.calendarTool, ["today"])
        }
    }

    /// "when is my dentist appointment" -> "dentist".
    func searchSubject() -> String? {
        guard words.first == "when" || has("what time is") else { return nil }
        guard let my = words.firstIndex(of: "my") else { return nil }
        let stop: Set<String> = [
            "appointment", "meeting", "call", "event", "appt", "session", "class", "reservation", "today",
            "tomorrow", "this", "next",
        ]
        let subject = tokens[(my + 1)...].prefix { !stop.contains($0.lower) }.map(\.original)
            .filter { $0.lowercased() != "next" }
        return subject.isEmpty ? nil : subject.joined(separator: " ")
    }

    func searchRoute(question: String?) -> Route {
        var tokens = self.tokens
        let news = hasAny(["news", "headlines"]) || has("latest on")
        let leadIns = [
            "search the web for", "search for", "search", "look up", "lookup", "google", "web search", "find me",
            "tell me about",
        ]
        for leadIn in leadIns {
            let parts = leadIn.split(separator: " ").map(String.init)
            if tokens.count > parts.count, Array(tokens.prefix(parts.count).map(\.lower)) == parts {
                tokens.removeFirst(parts.count)
                break
            }
        }
        var options: [String] = []
        if news {
            options.append("--news")
            let filler: Set<String> = [
                "whats", "what", "is", "the", "latest", "news", "headlines", "about", "on", "for", "any", "in",
                "top", "todays", "today", "recent", "are", "give", "me", "show",
            ]
            let trimmed = Array(tokens.drop { filler.contains($0.lower) })
            if !trimmed.isEmpty { tokens = trimmed }
        }
        if let top = self.words.firstIndex(of: "top"), top + 1 < self.words.count, let count = Int(self.words[top + 1]),
            (1...20).contains(count)
        {
            options += ["--count", String(count)]
            tokens.removeAll { $0.lower == "top" || $0.lower == String(count) }
        }
        let query = tokens.map(\.original)
        if query.contains(where: { $0.hasPrefix("-") && Double($0) == nil }) {
            return Route(Router.searchTool, options + ["--"] + query)
        }
        return Route(Router.searchTool, query + options)
    }
}
