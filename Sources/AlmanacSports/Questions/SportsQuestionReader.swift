import AlmanacCore
import Foundation

/// How the sports tool reads a clause of a question into its CLI words: the league from names,
/// nicknames, aliases, a team, a named event ("super bowl") or a well-known athlete; `--team`,
/// `--player`, `--date`, `--next`; `standings` (with `--group` for a division or conference when
/// the schema declares it), `news`, `schedule`. The words are ``SportsVocabulary`` and
/// ``SportsQuestionWords``.
struct SportsQuestionReader: QuestionReader {
    /// Options the sports schema declares (later capabilities are emitted only once declared).
    let declared: Set<SportsParameter>

    /// Creates the reader for a tool with `schema`.
    init(schema: ToolSchema) {
        declared = Set(schema.parameters.compactMap { SportsParameter(rawValue: $0.name) })
    }

    /// The sports reading of `clause`, or nil when it is not about sports.
    func read(_ clause: QuestionClause) -> ToolReading? {
        let reading = SportsClause(clause, declared: declared)
        if let mine = mineReading(clause, reading) { return mine }
        guard reading.isSports else { return nil }
        let words = reading.cliWords()
        // "who won the qatar open": golf's and tennis's days both, each tool run says whether it has it.
        let more = reading.otherTour.map { other in [[other.word] + words.dropFirst()] } ?? []
        return ToolReading(words, weight: .dominant, more: more)
    }

    // MARK: Vocabulary, sorted once

    /// League phrases, longest first; common English words are left out.
    static let leaguePhrases: [SportsVocabulary.LeagueName] = SportsVocabulary.leagueNames
        .filter { !SportsQuestionWords.commonWords.contains($0.phrase) }
        .enumerated().sorted { ($0.element.phrase.count, $1.offset) > ($1.element.phrase.count, $0.offset) }
        .map(\.element)

    /// A way to say a team, as questions are matched against it.
    struct TeamSpelling {
        var spelling: String
        var team: SportsVocabulary.Team
        /// Needs a question about sports: a place ("georgia") or a common English word ("heat").
        var weak: Bool
    }

    /// Every team spelling, longest first ("miami heat" before "miami"); ties keep the vocabulary's
    /// order, pro leagues first.
    static let teamSpellings: [TeamSpelling] = SportsVocabulary.teams.flatMap { team in
        team.spellings.map { spelling in
            let oneWord = !spelling.contains(" ")
            let common =
                oneWord
                && (SportsQuestionWords.commonWords.contains(spelling)
                    || SportsQuestionWords.commonWords.contains(team.name))
            return TeamSpelling(spelling: spelling, team: team, weak: common || team.placeSpellings.contains(spelling))
        }
    }
    .enumerated().sorted { ($0.element.spelling.count, $1.offset) > ($1.element.spelling.count, $0.offset) }
    .map(\.element)

    /// One-word team spellings a typo may stand for: seven letters or more, or five or more for
    /// a swap of two letters; strong spellings only (a place or an English word is not guessed at).
    static let typoSpellings: [TeamSpelling] = teamSpellings.filter {
        !$0.weak && !$0.spelling.contains(" ") && $0.spelling.count >= 5
    }

    /// Words a typo is never read in: the question words every reader shares and the sports words
    /// around a team ("scores" is not "spurs" mistyped).
    static let notTypos: Set<String> = SportsQuestionWords.notNames.union(SportsQuestionWords.commonWords)
        .union(SportsQuestionWords.standingsWords).union(SportsQuestionWords.newsWords)
        .union(SportsQuestionWords.scheduleWords).union(SportsQuestionWords.individualContext)
        .union(SportsVocabulary.sports)

    /// The team `word` is a typo of: one slip from exactly one team's spelling. A slip is two
    /// neighbouring letters swapped ("lakres"), or for words of seven letters or more one letter
    /// left out, added or changed ("warrios"): short words are too often another real word one
    /// letter away ("lakes", "bolts"). Words that name something else are never read as typos.
    static func typoTeam(_ word: String) -> TeamSpelling? {
        guard word.count >= 5, word.allSatisfy(\.isLetter), !notTypos.contains(word),
            !teamSpellings.contains(where: { $0.spelling == word }),
            !athleteSpellings.contains(where: { $0.spelling == word }),
            !leaguePhrases.contains(where: { $0.phrase == word })
        else { return nil }
        let near = typoSpellings.filter { candidate in
            Suggest.isSwap(word, candidate.spelling)
                || min(word.count, candidate.spelling.count) >= 7
                    && Suggest.editDistance(word, candidate.spelling) == 1
        }
        let teams = Set(near.map(\.team.name))
        return teams.count == 1 ? near.first : nil
    }

    /// Event phrases, longest first.
    static let eventPhrases: [(phrase: String, event: SportsQuestionWords.NamedEvent)] = SportsQuestionWords.events
        .flatMap { event in event.phrases.map { (phrase: $0, event: event) } }
        .sorted { $0.phrase.count > $1.phrase.count }

    /// Athlete spellings, longest first.
    static let athleteSpellings: [(spelling: String, athlete: SportsQuestionWords.Athlete)] = SportsQuestionWords
        .athletes
        .flatMap { athlete in athlete.spellings.map { (spelling: $0, athlete: athlete) } }
        .sorted { $0.spelling.count > $1.spelling.count }

    /// Group phrases, longest first.
    static let groupPhrases: [(phrase: String, group: SportsQuestionWords.Group)] = SportsQuestionWords.groups
        .flatMap { group in group.phrases.map { (phrase: $0, group: group) } }
        .sorted { $0.phrase.count > $1.phrase.count }

    static let individualSports: Set<String> = ["golf", "tennis", "racing", "mma"]
}

/// What one clause says about sports.
struct SportsClause {
    typealias Words = SportsQuestionWords
    let clause: QuestionClause
    let declared: Set<SportsParameter>
    var league: League?
    var sportHint: League?
    var team: SportsVocabulary.Team?
    var event: SportsQuestionWords.NamedEvent?
    var group: SportsQuestionWords.Group?
    var athlete: SportsQuestionWords.Athlete?
    var individualLeague: League?
    /// The other tour a name fits as well ("who won the qatar open": golf's or tennis's), run too.
    var otherTour: League?
    var player: String?
    /// An event the table does not list, by the words of its name (`--event`).
    var unlisted: UnlistedEvent?
    var isSports = false

    /// A tournament named by words the table does not hold: "the rocket classic", "at the truist".
    struct UnlistedEvent {
        /// The name's words, lower-case ("rocket classic").
        var words: [String]
        /// The word that made them a name ("classic"), nil for "at the …".
        var suffix: String?
    }

    init(_ clause: QuestionClause, declared: Set<SportsParameter>) {
        self.clause = clause
        self.declared = declared
        detect()
    }

    func has(_ phrase: String) -> Bool { clause.has(phrase) }
    func hasAny(_ set: Set<String>) -> Bool { clause.hasAny(set) }
    var words: [String] { clause.words }

    private mutating func detect() {
        let leaguePhrase = SportsQuestionReader.leaguePhrases.first { has($0.phrase) }
        league = leaguePhrase?.league
        if league == nil, hasAny(Words.leagueWords),
            let country = Words.countryLeagues.first(where: { has($0.phrase) }), !has("grand prix")
        {
            league = League.named(country.league)
        }
        sportHint =
            words.lazy.compactMap { SportsVocabulary.sports.contains($0) ? SportsVocabulary.league(forSport: $0) : nil }
            .first
        var eventMatch = SportsQuestionReader.eventPhrases.first { has($0.phrase) }
        if let found = eventMatch {
            // A name two events share ("us open": golf in June, tennis in September): the nearer edition.
            let sharing = SportsQuestionReader.eventPhrases.filter { $0.phrase == found.phrase }
            eventMatch = sharing.min { distance($0.event) < distance($1.event) } ?? found
        }
        // "world cup qualifiers": not the tournament's days. (Racing's qualifying is the race weekend.)
        if let found = eventMatch, hasAny(Words.beforeEvent), League.named(found.event.league)?.sport != "racing" {
            eventMatch = nil
        }
        event = eventMatch.flatMap { found in
            // "club world cup", "us open cup": a longer league name holding the event's name is that league.
            guard let leaguePhrase, leaguePhrase.phrase.contains(found.phrase), leaguePhrase.phrase != found.phrase,
                leaguePhrase.league.slug != found.event.league
            else { return found.event }
            return nil
        }
        group = SportsQuestionReader.groupPhrases.first { has($0.phrase) }?.group
        // "how did the jets do": the shape of a question about a result.
        let resultShape =
            clause.words.first == "how" && clause.has("did") && clause.words.last == "do"
            || clause.has("how did")
                && (clause.words.last == "do"
                    || ["do today", "do tonight", "do yesterday", "do last night", "get on"].contains { clause.has($0) })
        let sportsy = league != nil || sportHint != nil || hasAny(Words.sportsContext) || event != nil || resultShape
        // A surname that is also a word or a place ("sinner", "osaka") needs words about a contest.
        let contest =
            sportsy || hasAny(Words.individualContext) || Words.individualSportWords.contains { has($0.phrase) }
        athlete =
            SportsQuestionReader.athleteSpellings.first {
                has($0.spelling) && (contest || !Words.weakAthleteSpellings.contains($0.spelling))
            }?.athlete
        let teamMatch = firstTeam(sportsy: sportsy || athlete != nil)
        if teamMatch == nil, event == nil, group == nil {
            unlisted = findUnlistedEvent(contest: contest || athlete != nil)
        }
        // "miami open": the event's name holds a team's ("miami"); the event is meant.
        if let teamMatch, let eventMatch, event != nil, " \(eventMatch.phrase) ".contains(" \(teamMatch.spelling) ") {
            team = nil
        } else {
            team = teamMatch?.team
        }
        // A group needs its league named, or words about a table ("al east standings", "who leads the nfc north").
        if group != nil, !(sportsy || hasAny(Words.standingsWords) || has("leads") || has("leading")) { group = nil }
        detectIndividualSport()
        let conditions = hasAny(Words.conditions)
        let individual =
            individualLeague != nil
            && (player != nil
                || !conditions
                    && (hasAny(Words.sportsContext) || hasAny(Words.individualContext) || event != nil))
        isSports =
            league != nil || team != nil || group != nil || athlete != nil
            || (event != nil && (!conditions || player != nil))
            || (sportHint != nil && hasAny(Words.sportsContext)) || individual || unlisted != nil
    }

    /// The sports this reader names unlisted events in: their events change names every week.
    static let namedEventSports: Set<String> = ["golf", "tennis"]

    /// An event the table does not list: words before "open", "classic", "championship"… in a
    /// question about a contest ("who won the rocket classic"), or "at/in the …" to the clause's end
    /// once golf or tennis is named ("how is scheffler doing at the truist").
    private func findUnlistedEvent(contest: Bool) -> UnlistedEvent? {
        guard declared.contains(.event) else { return nil }
        // Another sport named (a league, a team sport's athlete): its events are not these.
        if let league, !Self.namedEventSports.contains(league.sport) { return nil }
        let athleteSport = athlete.flatMap { League.named($0.league) }?.sport
        if let athleteSport, !Self.namedEventSports.contains(athleteSport) { return nil }
        let sportWord = Words.individualSportWords.first { has($0.phrase) }?.sport
        if let sportWord, !Self.namedEventSports.contains(sportWord) { return nil }
        let athletes = Set(SportsQuestionReader.athleteSpellings.map(\.spelling))
        func nameWord(_ word: String) -> Bool {
            // "the qatar womens open": the draw's words are part of the name people say.
            if Words.womenWords.contains(word) || word == "mens" { return true }
            return !Words.notNames.contains(word) && !Words.notEventNames.contains(word) && !athletes.contains(word)
                && QuestionWords.findDay([word]) == nil && word.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
        }
        let words = self.words
        if contest, let suffix = words.firstIndex(where: { Words.eventSuffixes.contains($0) }) {
            var start = suffix
            while start > 0, suffix - start < 4, nameWord(words[start - 1]) { start -= 1 }
            if start < suffix, !(start > 0 && Words.notEventNames.contains(words[start - 1])) {
                return UnlistedEvent(words: Array(words[start...suffix]), suffix: words[suffix])
            }
        }
        let known = league != nil || athleteSport != nil || sportWord != nil
        guard known else { return nil }
        for lead in ["at the", "in the"] {
            guard let at = clause.find(lead) else { continue }
            var end = at + 2
            while end < words.count, QuestionWords.findDay([words[end]]) == nil { end += 1 }
            let name = Array(words[(at + 2)..<end])
            if (1...4).contains(name.count), name.allSatisfy(nameWord) {
                return UnlistedEvent(words: name, suffix: nil)
            }
        }
        return nil
    }

    /// The team named first in the clause ("did nycfc beat the red bulls": NYCFC), the longest spelling
    /// at that word ("miami heat" over "miami"); a weak spelling only in a question about sports. With
    /// none, a word one slip from a team's name in a question about sports ("lakres score").
    private func firstTeam(sportsy: Bool) -> SportsQuestionReader.TeamSpelling? {
        var best: (index: Int, spelling: SportsQuestionReader.TeamSpelling)?
        // Longest first, so at one start index the first found is kept.
        for spelling in SportsQuestionReader.teamSpellings where !spelling.weak || sportsy {
            guard let index = clause.find(spelling.spelling), index < (best?.index ?? Int.max) else { continue }
            best = (index, spelling)
        }
        if let best { return best.spelling }
        guard sportsy else { return nil }
        return words.lazy.compactMap(SportsQuestionReader.typoTeam).first
    }

    /// Golf, tennis, racing or MMA, by league, event, athlete or sport word, and the person asked about.
    private mutating func detectIndividualSport() {
        if let league, SportsQuestionReader.individualSports.contains(league.sport) {
            individualLeague = league
        } else if league == nil {
            if let event, let eventLeague = League.named(event.league),
                SportsQuestionReader.individualSports.contains(eventLeague.sport)
            {
                individualLeague = eventLeague
            } else if let athlete, let athleteLeague = League.named(athlete.league),
                SportsQuestionReader.individualSports.contains(athleteLeague.sport)
            {
                individualLeague = athleteLeague
            } else if event == nil, team == nil,
                let sport = Words.individualSportWords.first(where: { has($0.phrase) })?.sport
            {
                individualLeague = SportsVocabulary.league(forSport: sport)
            } else if let unlisted {
                // "classic", "invitational", "championship" are golf's words; "open", "masters",
                // "championships" name golf and tennis events alike: both tours' days are asked.
                let golfOnly = unlisted.suffix.map { Words.golfEventSuffixes.contains($0) } ?? true
                individualLeague = League.named("pga")
                if !golfOnly { otherTour = League.named("atp") }
            }
        }
        if var league = individualLeague {
            // "roland garros women's results", "lpga": the women's tour.
            if hasAny(Words.womenWords), let slug = Words.womensLeague[league.slug], let women = League.named(slug) {
                league = women
                otherTour = otherTour.flatMap { Words.womensLeague[$0.slug] }.flatMap(League.named) ?? otherTour
            }
            // An athlete of the other tour of the same sport ("swiatek at the french open").
            if let athlete, let own = League.named(athlete.league), own.sport == league.sport { league = own }
            individualLeague = league
        }
        if let athlete {
            player = athlete.player
            return
        }
        guard individualLeague != nil else { return }
        findPlayerByShape()
    }

    /// The words between "is/did/how" and "doing/winning/finish" ("how is scheffler doing"), else a
    /// capitalised name ("Scheffler score at the Masters").
    private mutating func findPlayerByShape() {
        let leagueWords = Set(
            SportsQuestionReader.leaguePhrases.flatMap { $0.phrase.split(separator: " ").map(String.init) })
        let eventWords = Set(
            SportsQuestionReader.eventPhrases.flatMap { $0.phrase.split(separator: " ").map(String.init) })
        let sportWords = Set(Words.individualSportWords.flatMap { $0.phrase.split(separator: " ").map(String.init) })
        let words = self.words
        let unlistedWords = Set(unlisted?.words ?? [])
        func nameWord(_ index: Int) -> Bool {
            let word = words[index]
            return !Words.notNames.contains(word) && !leagueWords.contains(word) && !eventWords.contains(word)
                && !sportWords.contains(word) && !unlistedWords.contains(word) && word.allSatisfy(\.isLetter)
        }
        for verb in words.indices where Words.afterPlayer.contains(words[verb]) {
            var start = verb
            while start > 0, verb - start < 3, nameWord(start - 1) { start -= 1 }
            if start < verb, start > 0, Words.beforePlayer.contains(words[start - 1]) {
                player = words[start..<verb].joined(separator: " ")
                return
            }
        }
        // A capitalised word in a weather question, or after "in"/"at", is a place ("golf in Augusta").
        guard !hasAny(Words.conditions) else { return }
        let beforePlace: Set<String> = ["in", "at", "near", "from", "to", "for"]
        var run: [String] = []
        for (index, token) in clause.tokens.enumerated() {
            let afterPlaceWord = run.isEmpty && index > 0 && beforePlace.contains(words[index - 1])
            if token.original.first?.isUppercase == true, nameWord(index), !afterPlaceWord, run.count < 3 {
                run.append(words[index])
            } else if !run.isEmpty {
                break
            }
        }
        if !run.isEmpty { player = run.joined(separator: " ") }
    }

    // MARK: Words

    var past: Bool { clause.isPast || clause.questionIsPast }

    /// The day asked about: the clause's, else the named event's when it is not being played now
    /// ("who won the super bowl" in December: February's).
    var day: QuestionDay? {
        if let day = clause.day { return day }
        guard let event, let final = eventDay(event) else { return nil }
        let parts = clause.clock.iso(final).split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        return .date(year: parts[0], month: parts[1], day: parts[2])
    }

    /// Days between today and `event`'s nearest edition (0 while it is on; large when unknown).
    func distance(_ event: SportsQuestionWords.NamedEvent) -> Int {
        let clock = clause.clock
        if case .months(let months) = event.rule {
            let month = clock.calendar.component(.month, from: clock.today)
            return months.contains(month) ? 0 : 365
        }
        let days = finals(event).map { final -> Int in
            let first = clock.calendar.date(byAdding: .day, value: -(event.days - 1), to: final) ?? final
            if first <= clock.today && clock.today <= final { return 0 }
            return abs(clock.calendar.dateComponents([.day], from: clock.today, to: final).day ?? 365)
        }
        return days.min() ?? 365
    }

    /// The last days of `event`'s editions last year, this year and next year.
    func finals(_ event: SportsQuestionWords.NamedEvent) -> [Date] {
        let clock = clause.clock
        let calendar = clock.calendar
        let year = calendar.component(.year, from: clock.today)
        switch event.rule {
        case .months: return []
        case .fixed(let days):
            return days.compactMap { day in
                let parts = day.split(separator: "-").compactMap { Int($0) }
                return parts.count == 3 ? clock.resolve(year: parts[0], month: parts[1], day: parts[2]) : nil
            }
        case .nth(let month, let weekday, let n):
            return (year - 1...year + 1).compactMap {
                Self.nth(month: month, weekday: weekday, n: n, year: $0, calendar)
            }
        case .after(let month, let weekday, let n, let days):
            return (year - 1...year + 1).compactMap {
                Self.nth(month: month, weekday: weekday, n: n, year: $0, calendar)
                    .flatMap { calendar.date(byAdding: .day, value: days, to: $0) }
            }
        }
    }

    /// The last day of `event`'s edition asked about, or nil when it is being played now or its day
    /// cannot be known (a series: the league's day is today's).
    func eventDay(_ event: SportsQuestionWords.NamedEvent) -> Date? {
        let clock = clause.clock
        let calendar = clock.calendar
        if case .months = event.rule { return nil }
        let finals = finals(event)
        let today = clock.today
        // Being played now (its first day through its last): today's scoreboard.
        for final in finals {
            let first = calendar.date(byAdding: .day, value: -(event.days - 1), to: final) ?? final
            if first <= today && today <= final { return nil }
        }
        // "when does the world cup start": its first day.
        let days =
            hasAny(Words.startWords)
            ? finals.map { calendar.date(byAdding: .day, value: -(event.days - 1), to: $0) ?? $0 } : finals
        let last = days.filter { $0 < today }.max()
        let next = days.filter { $0 > today }.min()
        return past ? (last ?? next) : (next ?? last)
    }

    /// The `n`th `weekday` (0 = Sunday) of `month` in `year`; -1 is the last.
    static func nth(month: Int, weekday: Int, n: Int, year: Int, _ calendar: Calendar) -> Date? {
        guard let first = calendar.date(from: DateComponents(year: year, month: month, day: 1)),
            let days = calendar.range(of: .day, in: .month, for: first)?.count
        else { return nil }
        let matching = (0..<days).compactMap { calendar.date(byAdding: .day, value: $0, to: first) }
            .filter { calendar.component(.weekday, from: $0) - 1 == weekday }
        if n < 0 { return matching.last }
        return n >= 1 && n <= matching.count ? matching[n - 1] : nil
    }

    /// The CLI words: league, view, then options.
    func cliWords() -> [String] {
        let day = self.day
        let standings = hasAny(Words.standingsWords) || group != nil || clause.hasAnyPhrase(Words.seasonTitle)
        let news = hasAny(Words.newsWords)
        // A league or sport word with a table or news ("f1 standings", "tennis news") takes the ordinary path.
        if let individualLeague, !standings && !news && (player != nil || team == nil) {
            var words = [individualLeague.word]
            if let player { words += [SportsParameter.player.option, player] }
            if let unlisted { words += [SportsParameter.event.option, unlisted.words.joined(separator: " ")] }
            // Tournaments, race weekends and cards span days: a week or "next" asks for the next event.
            var dates = dateWords(day: day)
            // An unlisted event's days are unknown: "who won" means the last edition's final day, and
            // tours end their weeks on Sundays (today's board on a Sunday, while it may still be on).
            if unlisted != nil, day == nil, past {
                let clock = clause.clock
                let sinceSunday = clock.calendar.component(.weekday, from: clock.today) - 1
                dates = [SportsParameter.date.option, clock.iso(clock.offset(-sinceSunday))]
            }
            if dates == nil && day == .nextWeek || day == nil && has("next") {
                words.append(SportsParameter.next.option)
            }
            return words + (dates ?? [])
        }
        let eventLeague = event.flatMap { League.named($0.league) }
        let groupLeague = group.flatMap { $0.league.isEmpty ? nil : League.named($0.league) }
        let athleteLeague = athlete.flatMap { League.named($0.league) }
        var league = self.league ?? team.flatMap(chooseLeague) ?? eventLeague ?? groupLeague ?? athleteLeague
        if league == nil, group != nil { league = conferenceLeague() }
        league = league ?? sportHint
        if let current = league, hasAny(Words.womenWords), let slug = Words.womensLeague[current.slug] {
            league = League.named(slug) ?? current
        }
        var words = league.map { [$0.word] } ?? []
        let schedule = hasAny(Words.scheduleWords)
        let next =
            has("next game") || has("next match") || has("play next") || has("next") && hasAny(["play", "game"])
            || (!words.isEmpty && self.words.first == "when" && hasAny(["play", "plays", "playing", "game"]))
        if standings {
            words.append("standings")
            if let group, !group.name.isEmpty, declared.contains(.group) {
                words += [SportsParameter.group.option, group.name]
            }
        } else if news {
            words.append("news")
        } else if schedule && day == nil {
            words.append("schedule")
        }
        if let team { words += [SportsParameter.team.option, team.name] }
        if standings || news { return words }
        if team == nil, let athlete { words += [SportsParameter.player.option, athlete.player] }
        if next && (team != nil || athlete != nil) && day == nil {
            words.append(SportsParameter.next.option)
            return words
        }
        if schedule && day == nil { return words }
        if let date = dateWords(day: day) {
            words += date
        } else if !words.contains("schedule") {
            words.insert("schedule", at: min(1, words.count))
        }
        return words
    }

    /// `--date` words for `day`, or nil for a span of days (weekend, week).
    func dateWords(day: QuestionDay?) -> [String]? {
        let clock = clause.clock
        switch day {
        case .today, .tonight: return [SportsParameter.date.option, "today"]
        case .tomorrow: return [SportsParameter.date.option, "tomorrow"]
        case .yesterday: return [SportsParameter.date.option, "yesterday"]
        case .weekday(let index):
            return [SportsParameter.date.option, clock.iso(clock.resolve(weekday: index, past: past))]
        case .date(let year, let month, let day):
            return clock.resolve(year: year, month: month, day: day).map {
                [SportsParameter.date.option, clock.iso($0)]
            } ?? []
        case .weekend, .thisWeek, .nextWeek: return nil
        case nil:
            // "Did the Lakers win?" means the last game: yesterday's, unless it is late enough in
            // the evening that today's game is probably over.
            return past ? [SportsParameter.date.option, clock.hour >= 20 ? "today" : "yesterday"] : []
        }
    }

    /// For a nickname several leagues share (Giants, Rangers), the league of the sport named, else
    /// the one in season this month.
    func chooseLeague(_ team: SportsVocabulary.Team) -> League? {
        if let sportHint {
            if let league = team.leagues.first(where: { $0.sport == sportHint.sport }) { return league }
            // A school plays every sport, though the recordings name it in only some leagues.
            if team.leagues.contains(where: { $0.style == .college }),
                let league = League.all.first(where: { $0.sport == sportHint.sport && $0.style == .college })
            {
                return league
            }
        }
        guard let first = team.leagues.first, team.leagues.count > 1 else { return team.leagues.first }
        let month = clause.clock.calendar.component(.month, from: clause.clock.now)
        return team.leagues.first { SportsVocabulary.isInSeason($0, month: month) } ?? first
    }

    /// "Eastern Conference" alone: the league of the sport named, else the NBA or NHL in season.
    func conferenceLeague() -> League? {
        if let sportHint { return sportHint.sport == "hockey" || sportHint.sport == "basketball" ? sportHint : nil }
        let month = clause.clock.calendar.component(.month, from: clause.clock.now)
        return ["nba", "nhl", "usa.1"].compactMap(League.named).first { SportsVocabulary.isInSeason($0, month: month) }
            ?? League.named("nba")
    }
}
