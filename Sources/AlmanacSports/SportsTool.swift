public import AlmanacCore
import Foundation

/// Scores, schedules, standings and news from ESPN, for the viewer's own day and zone.
///
/// ```
/// tools run sports nba                          # today's NBA games
/// tools run sports epl --date yesterday         # Premier League results
/// tools run sports nfl --team chiefs --next     # the Chiefs' next game
/// tools run sports nba standings
/// tools run sports nba news
/// ```
///
/// Providers, in order: ``ESPNProvider`` (`espn`); for MLB ``MLBStatsAPIProvider`` and for the NHL
/// ``NHLProvider`` (scores and standings); then, when web search is configured, the shared web-search
/// chain (priority 100 on; `provider` is the searcher that answered: `brave`, `searxng`).
public struct SportsTool: Tool {
    /// `sports`.
    public let name = "sports"
    /// One line for `tools list`.
    public let summary =
        "Scores, schedules, standings and news for every league ESPN serves (team sports, golf, tennis, racing, MMA), in your time zone"

    /// Provider plugins of this tool (`provides = "sports"`), in the chain at their priority.
    public var scoreboardSources: [any ScoreboardSource] = []

    /// Creates the tool.
    public init() {}

    /// Creates the tool with provider plugins.
    init(scoreboardSources: [any ScoreboardSource]) {
        self.scoreboardSources = scoreboardSources
    }

    /// `league [scores|standings|news|schedule] [--team T] [--date D] [--next] [--limit N]`.
    public var schema: ToolSchema {
        ToolSchema([
            ToolParameter(
                SportsParameter.league, .string,
                help:
                    "league: nba, nfl, mlb, nhl, ncaaf, epl, mls, pga, lpga, atp, wta, f1, nascar, ufc, ... (tools list sports), or an ESPN sport/league path like soccer/bra.1",
                // Optional only for --mine (the user's teams in every league); SportsRequest says so.
                placement: .positional),
            ToolParameter(
                SportsParameter.view, .choice(SportsView.allCases.map(\.rawValue)),
                help: "what to show: scores (default), standings, news, or a team's schedule", placement: .positional),
            ToolParameter(
                SportsParameter.team, .string,
                help: "a team name, city or abbreviation (lakers, LAL, los angeles lakers)",
                aliases: ["-t"]),
            ToolParameter(
                SportsParameter.date, .string, help: "today (default), yesterday, tomorrow, a weekday, or YYYY-MM-DD",
                aliases: ["-d"]),
            ToolParameter(
                SportsParameter.player, .string,
                help:
                    "a player in any sport (scheffler, sinner, mahomes): golf fields, tennis draws, race grids, fight cards, and in team sports the day's game leaders",
                aliases: ["-p"]),
            ToolParameter(
                SportsParameter.event, .string,
                help: "golf, tennis, racing, MMA: the tournament, race or card by words of its name "
                    + "(\"myrtle beach\", \"qatar open\"), matched against that day's events",
                aliases: ["-e"]),
            ToolParameter(
                SportsParameter.group, .string,
                help:
                    "standings of one division or conference (\"AL East\", \"NFC North\", \"Eastern Conference\"); implies standings",
                aliases: ["-g"]),
            ToolParameter(
                SportsParameter.next, .boolean,
                help: "the team's next game (with --team), or the next tournament, race or card"),
            ToolParameter(SportsParameter.limit, .integer, help: "at most this many games, headlines or table rows"),
            ToolParameter(
                SportsParameter.mine, .boolean,
                help: "your teams ([me] teams in config.toml): each league's games of the day, filtered to them"),
        ])
    }

    /// The chain, in the order tried (web search comes last, when configured).
    static let chain: [any DescribedProvider<SportsQuery, SportsData>] = [
        ESPNProvider(), MLBStatsAPIProvider(), NHLProvider(),
    ]

    /// Every sports provider.
    public var providerDescriptors: [ProviderDescriptor] { Self.chain.map(\.descriptor) }

    /// Web search stands in when every sports API fails.
    public var usesWebSearchFallback: Bool { true }

    /// Runs one request.
    public func run(_ arguments: ToolArguments, context: ToolContext) async throws -> ToolResult {
        if arguments.flag(SportsParameter.mine) { return try await runMine(arguments, context: context) }
        // A league no catalog knows ("pwhl") may be one a provider plugin serves: only plugins answer it.
        var pluginLeague: League?
        if !scoreboardSources.isEmpty, let word = arguments.string(SportsParameter.league), League.named(word) == nil {
            pluginLeague = try await Self.pluginLeague(word, sources: scoreboardSources)
        }
        let request = try SportsRequest(arguments, now: context.now, zone: context.timeZone, league: pluginLeague)
        if let pluginLeague, request.view != .scores || request.next {
            throw AlmanacError.usage(
                "\(pluginLeague.name) comes from a provider plugin, which answers a day's scores only",
                suggestion: "tools run sports \(pluginLeague.slug) [--date DAY] [--team NAME]")
        }
        // A bad base URL is the user's to fix: say so before any provider runs.
        _ = try ESPNProvider.descriptor.baseURL(context.settings)
        let team: TeamRef? =
            if let word = request.teamWord, pluginLeague != nil {
                // No team list but the day's games: they name the team (matched below).
                TeamRef(id: nil, abbreviation: word.uppercased(), displayName: nil, query: word)
            } else if let word = request.teamWord {
                try await resolveTeam(word, league: request.league, context: context)
            } else {
                nil
            }
        // At equal priority, plugins whose stored catalog names the league go before those never listed
        // (which are started to ask): the coordinator keeps this order on ties.
        let path = request.league.path
        let plugins =
            (scoreboardSources.filter { $0.knownLeagues?.contains(path) == true }
            + scoreboardSources.filter { $0.knownLeagues == nil }).map(ScoreboardPluginProvider.init(source:))
        let providers: [any Provider<SportsQuery, SportsData>] =
            (pluginLeague != nil ? [] : Self.chain) + plugins + Self.webFallback(context.environment.webSearch)
        let query = request.query(team: team)
        let fetched = try await context.fetch(
            tool: name, key: Self.cacheKey(.answer(query)), query: query, providers: providers,
            ttl: request.ttl(now: context.now))
        let league = request.league
        var metadata = fetched.metadata
        let payload: any ToolPayload
        switch fetched.value {
        case .games(let games, let leagueName):
            var team = team
            var shown = team.map { team in games.filter { $0.involves(team) } } ?? games
            // Without ESPN's team list the word was taken as an abbreviation ("spain", "stars"): the
            // day's own teams may still name it, which beats saying there is no game.
            if let guess = team, guess.id == nil, shown.isEmpty,
                let found = Self.team(guess.query, in: games, league: league)
            {
                team = found
                shown = games.filter { $0.involves(found) }
            }
            var player: ScoresPayload.PlayerLookup?
            if let word = request.playerWord {
                let lookup = Self.player(word, in: shown)
                player = lookup
                if !lookup.games.isEmpty { shown = shown.filter { lookup.games.contains($0.id) } }
            }
            payload = ScoresPayload(
                league: league.titled(leagueName), day: request.day, games: shown, team: team, limit: request.limit,
                player: player)
        case .schedule(let schedule):
            payload = SchedulePayload(
                league: league, schedule: schedule, nextOnly: request.next, limit: request.limit ?? 5,
                from: request.dayGiven ? request.day.start : context.now)
        case .standings(let standings):
            var standings = standings
            if let group = request.group {
                standings = try await self.standings(of: group, in: standings, request: request, context: context)
            }
            payload = StandingsPayload(league: league, standings: standings, team: team, limit: request.limit)
        case .news(let items):
            payload = NewsPayload(league: league, items: items, limit: request.limit ?? 5)
        case .web(let answer):
            payload = WebFallbackPayload(league: league, view: query.view, answer: answer)
        case .events(let events):
            var events = events
            var league = league
            var player: String?
            // "how is scheffler doing at the myrtle beach classic": the day's event of that name only.
            func named(_ list: SportEvents) -> SportEvents {
                guard let words = request.eventWords else { return list }
                var list = list
                list.events = EventMatcher.events(named: words, in: list.events)
                return list
            }
            let day = events.events.map(\.name)
            events = named(events)
            // None of that name: the day's events are named instead, so the answer can say what is on.
            let elsewhere = request.eventWords != nil && events.events.isEmpty ? day : []
            if let word = request.playerWord, !events.events.isEmpty || request.eventWords == nil {
                do {
                    player = try Self.resolvePlayer(word, in: events, league: league)
                } catch let error as AlmanacError where error.kind == .usage {
                    // "sinner" asked of the WTA, "korda" of the PGA: the other tour's field may have them.
                    guard let other = league.otherTour else { throw error }
                    var otherRequest = request
                    otherRequest.league = other
                    let otherQuery = otherRequest.query(team: nil)
                    guard
                        let found = try? await context.fetch(
                            tool: name, key: Self.cacheKey(.answer(otherQuery)), query: otherQuery,
                            providers: providers, ttl: otherRequest.ttl(now: context.now)),
                        case .events(let otherEvents) = found.value,
                        let resolved = try? Self.resolvePlayer(word, in: named(otherEvents), league: other)
                    else { throw error }
                    (events, league, player, metadata) = (named(otherEvents), other, resolved, found.metadata)
                }
            }
            var eventsPayload = EventsPayload(
                league: league.titled(events.leagueName), day: request.day, events: events, next: request.next,
                player: player, limit: request.limit, now: context.now)
            eventsPayload.eventAsked = request.eventWords
            eventsPayload.elsewhere = elsewhere
            payload = eventsPayload
        }
        return ToolResult(metadata: metadata, payload: payload)
    }

    /// The tables of the division or conference `group` names: from the league's usual standings when one
    /// of their tables is it ("Eastern Conference"), else from the division tables (ESPN `level=3`: "AL
    /// East", "NFC North"). An unknown name is a usage error listing every group both answers name.
    func standings(
        of group: String, in standings: Standings, request: SportsRequest, context: ToolContext
    ) async throws
        -> Standings
    {
        var known = standings.groups
        var season = standings.season
        // Exact names first, then every group whose name has all the words ("east": AL East and NL East).
        func pick(_ groups: [Standings.Group]) -> [Standings.Group] {
            let exact = groups.filter { $0.isNamed(group) }
            return exact.isEmpty ? groups.filter { $0.isLooselyNamed(group) } : exact
        }
        var found = pick(known)
        if found.isEmpty {
            let query = SportsQuery(league: request.league, view: .standings, divisions: true)
            do {
                let fetched = try await context.fetch(
                    tool: name, key: Self.cacheKey(.answer(query)), query: query, providers: Self.chain, ttl: nil)
                if case .standings(let divisions) = fetched.value {
                    found = pick(divisions.groups)
                    known += divisions.groups
                    season = season ?? divisions.season
                }
            } catch let error as AlmanacError where error.kind == .unavailable {
                // The division tables could not be fetched: the name may well be one of them
                // ("Metropolitan"), so this is the upstream's failure (exit 69), not the user's.
                throw error
            }
        }
        guard !found.isEmpty else {
            var seen = Set<String>()
            let names = known.map(\.name).filter { seen.insert($0).inserted }
            throw AlmanacError.usage(
                "no \(request.league.name) division or conference '\(group)'",
                suggestion: names.isEmpty
                    ? "ask for the whole table: tools run sports \(request.league.word) standings"
                    : "one of: " + names.joined(separator: ", "))
        }
        return Standings(season: season, groups: found)
    }

    /// The golfer, player, driver or fighter `word` names in the fetched events, or a usage error.
    static func resolvePlayer(_ word: String, in events: SportEvents, league: League) throws -> String {
        let names = events.events.flatMap(\.people)
        let role =
            ["golf": "golfer", "tennis": "player", "racing": "driver", "mma": "fighter"][league.sport] ?? "player"
        guard !names.isEmpty else {
            throw AlmanacError.usage(
                "no \(role) '\(word)': no \(league.name) event on that day",
                suggestion: "ask without --player, or with --next")
        }
        switch PlayerMatcher.match(word, in: names) {
        case .player(let name): return name
        case .ambiguous(let names):
            throw AlmanacError.usage(
                "\(role) '\(word)' is ambiguous", suggestion: "one of: " + names.joined(separator: ", "))
        case .none(let suggestion):
            throw AlmanacError.usage(
                "no \(role) '\(word)' in \(events.events.map(\.name).joined(separator: ", "))",
                suggestion: suggestion.map { "did you mean '\($0)'?" } ?? "use a name from the \(league.name) field")
        }
    }

    /// The player `word` names among the day's game leaders (ESPN's scoreboards name each game's leaders,
    /// not whole rosters), with the games they lead in; no games when none of the leaders is them.
    static func player(_ word: String, in games: [Game]) -> ScoresPayload.PlayerLookup {
        let names = games.flatMap { $0.leaders ?? [] }.map(\.athlete)
        switch PlayerMatcher.match(word, in: names) {
        case .player(let name):
            let ids = games.filter { ($0.leaders ?? []).contains { $0.athlete == name } }.map(\.id)
            return ScoresPayload.PlayerLookup(query: word, name: name, games: ids, candidates: [])
        case .ambiguous(let names):
            return ScoresPayload.PlayerLookup(query: word, name: nil, games: [], candidates: names)
        case .none(let suggestion):
            return ScoresPayload.PlayerLookup(
                query: word, name: nil, games: [], candidates: suggestion.map { [$0] } ?? [])
        }
    }

    /// The one team among `games`' sides that `word` names, if exactly one does.
    static func team(_ word: String, in games: [Game], league: League) -> TeamRef? {
        var seen = Set<String>()
        let entries = games.flatMap { [$0.home, $0.away] }.filter { seen.insert($0.id).inserted }.map { side in
            TeamEntry(
                id: side.id, abbreviation: side.abbreviation, displayName: side.displayName,
                shortDisplayName: side.name,
                location: "")
        }
        guard case .team(let entry) = TeamMatcher.match(word, in: entries, league: league) else { return nil }
        return TeamRef(id: entry.id, abbreviation: entry.abbreviation, displayName: entry.displayName, query: word)
    }

    /// Resolves a team word to an ESPN id and abbreviation.
    ///
    /// The league's team list comes from ESPN `/teams` through the coordinator, cached a day. When it
    /// cannot be fetched, the offline directory of teams seen in recorded responses stands in
    /// (complete for NBA, NFL, MLB); failing both, a word that looks like an abbreviation is used as is.
    func resolveTeam(_ word: String, league: League, context: ToolContext) async throws -> TeamRef {
        var teams: [TeamEntry]?
        var complete = false
        var listFailure: AlmanacError?
        do {
            let fetched = try await context.fetch(
                tool: name, key: Self.cacheKey(.teams(league)), query: league, providers: [ESPNTeamsProvider()],
                ttl: .seconds(86_400))
            teams = fetched.value
            complete = true
        } catch let error as AlmanacError where error.kind == .unavailable {
            // Offline or ESPN down: the offline directory below stands in.
            listFailure = error
        }
        if teams == nil, let known = KnownTeams.directory(for: league) {
            teams = known.teams
            complete = known.complete
        }
        if let teams {
            switch TeamMatcher.match(word, in: teams, league: league) {
            case .team(let entry):
                return TeamRef(
                    id: entry.id, abbreviation: entry.abbreviation, displayName: entry.displayName, query: word)
            case .ambiguous(let entries):
                throw AlmanacError.usage(
                    "team '\(word)' is ambiguous in \(league.name)",
                    suggestion: "one of: "
                        + entries.map { "\($0.displayName) (\($0.abbreviation))" }.joined(separator: ", "))
            case .none(let suggestion):
                // A partial offline directory cannot tell that a name is wrong: the failed list could have.
                if !complete, !TeamMatcher.looksLikeAbbreviation(word), let listFailure { throw listFailure }
                if complete || !TeamMatcher.looksLikeAbbreviation(word) {
                    throw AlmanacError.usage(
                        "unknown \(league.name) team '\(word)'",
                        suggestion: suggestion.map { "did you mean '\($0)'?" }
                            ?? "use a team name, city or abbreviation, e.g. '\(teams.first?.shortDisplayName ?? "")'")
                }
            }
        }
        guard TeamMatcher.looksLikeAbbreviation(word) else {
            if let listFailure { throw listFailure }
            throw AlmanacError.usage(
                "unknown \(league.name) team '\(word)' (the team list could not be fetched)",
                suggestion: "use the team's abbreviation, e.g. LAL")
        }
        return TeamRef(id: nil, abbreviation: word.uppercased(), displayName: nil, query: word)
    }
}

/// A checked sports request: league, view, local day, team word and flags.
struct SportsRequest: Sendable, Hashable {
    var league: League
    var view: SportsView
    var day: LocalDay
    var dayGiven: Bool
    var teamWord: String?
    var playerWord: String?
    var eventWords: String?
    var group: String?
    var next: Bool
    var limit: Int?

    init(_ arguments: ToolArguments, now: Date, zone: TimeZone, league plugin: League? = nil) throws {
        guard let word = arguments.string(SportsParameter.league)?.trimmingCharacters(in: .whitespaces), !word.isEmpty
        else {
            throw AlmanacError.usage("missing league for sports", suggestion: "e.g. tools run sports nba")
        }
        guard let league = plugin ?? League.named(word) else { throw League.unknown(word) }
        self.league = league
        let viewWord = arguments.string(SportsParameter.view).flatMap { SportsView(rawValue: $0.lowercased()) }
        group = try arguments.text(
            SportsParameter.group, needs: "a name", example: "--group \"AL East\", --group \"Eastern Conference\"")
        if group != nil, let viewWord, viewWord != .standings {
            throw AlmanacError.usage(
                "--group picks a division or conference of the standings, not of \(viewWord.rawValue)",
                suggestion: "tools run sports \(league.word) standings --group NAME")
        }
        // A division or conference only has a table: --group alone means its standings.
        view = group != nil ? .standings : viewWord ?? .scores
        next = arguments.flag(SportsParameter.next)
        if let start = try arguments.day(SportsParameter.date, now: now, in: zone) {
            day = LocalDay.containing(start, in: zone)
            dayGiven = true
        } else {
            day = LocalDay.containing(now, in: zone)
            dayGiven = false
        }
        teamWord = try arguments.text(SportsParameter.team, needs: "a name", example: "--team lakers, --team LAL")
        playerWord = try arguments.text(SportsParameter.player, needs: "a name", example: "--player scheffler")
        eventWords = try arguments.text(
            SportsParameter.event, needs: "words of its name", example: "--event \"myrtle beach\"")
        if eventWords != nil, league.shape == .team {
            throw AlmanacError.usage(
                "--event picks a tournament, race or card (golf, tennis, racing, MMA), not a \(league.name) game",
                suggestion: "use --team NAME or --date DAY")
        }
        if league.shape != .team {
            if teamWord != nil {
                throw AlmanacError.usage(
                    "\(league.name) has no teams to pick",
                    suggestion: "use --player NAME (a golfer, player, driver or fighter)")
            }
            if view == .standings {
                // ESPN's golf, tennis, racing and MMA standings list athletes, not teams; no recording shows one.
                throw AlmanacError.usage(
                    "\(league.name) standings are not supported yet (only team sports have tables here)",
                    suggestion: "ask for scores: tools run sports \(league.word)")
            }
            if view == .schedule {
                throw AlmanacError.usage(
                    "\(league.name) has no team schedules",
                    suggestion: "ask for the next event: tools run sports \(league.word) --next")
            }
        } else if playerWord != nil && view != .scores {
            throw AlmanacError.usage(
                "--player works with scores in \(league.name), not \(view.rawValue)",
                suggestion: "tools run sports \(league.word) --player NAME")
        }
        limit = try Self.limit(arguments)
        if next && teamWord == nil && league.shape == .team {
            throw AlmanacError.usage(
                "--next needs --team", suggestion: "e.g. tools run sports \(league.slug) --team <name> --next")
        }
        if next && (view == .standings || view == .news) {
            throw AlmanacError.usage("--next works with scores or schedule, not \(view.rawValue)", suggestion: nil)
        }
        if view == .schedule && teamWord == nil {
            throw AlmanacError.usage(
                "schedule needs --team", suggestion: "e.g. tools run sports \(league.slug) schedule --team <name>")
        }
    }

    /// `--limit`, as every sports answer reads it: more than 100 is "all of them" (a day's
    /// scoreboard holds fewer).
    static func limit(_ arguments: ToolArguments) throws -> Int? {
        try arguments.integer(SportsParameter.limit, in: 1...Int.max, example: "--limit 5").map { min($0, 100) }
    }

    /// The question providers answer (team games come from the team schedule).
    func query(team: TeamRef?) -> SportsQuery {
        switch view {
        case .scores where next && league.shape == .team, .schedule:
            // The day (today unless --date) picks the season; the provider moves on to the next season
            // when this one has nothing left to play.
            return SportsQuery(
                league: league, view: .schedule, team: team, season: league.season(containing: day.start))
        case .scores: return SportsQuery(league: league, view: .scores, day: day, next: next)
        case .standings: return SportsQuery(league: league, view: .standings)
        case .news: return SportsQuery(league: league, view: .news)
        }
    }

    /// The key ``query(team:)`` is cached under (``SportsTool/cacheKey(_:)``).
    func cacheKey(team: TeamRef?) -> String { SportsTool.cacheKey(.answer(query(team: team))) }

    /// Finished days do not change: keep them longer than live ones.
    func ttl(now: Date) -> Duration? {
        if view == .scores, !next, day.end.addingTimeInterval(12 * 3600) < now { return .seconds(6 * 3600) }
        return nil
    }
}

extension SportsTool {
    /// What the sports tool caches: the chain's answers, and each league's team list.
    enum Cached {
        /// An answer of the provider chain to `query`.
        case answer(SportsQuery)
        /// A league's teams (ESPN `/teams`), which team words are matched against.
        case teams(League)
    }

    /// The one place sports cache keys are spelt (the coordinator puts `sports:` before them). Equal
    /// questions give equal keys: the canonical league path, the resolved day and zone, the team, the season.
    static func cacheKey(_ cached: Cached) -> String {
        let query: SportsQuery
        switch cached {
        case .teams(let league): return "teams:\(league.path)"
        case .answer(let answer): query = answer
        }
        let league = query.league.path
        switch query.view {
        case .scores:
            let day = query.day.map { "\($0.isoDate):\($0.zoneIdentifier)" } ?? "-"
            return "scores:\(league):\(day)" + (query.next ? ":next" : "")
        case .standings: return "standings:\(league)" + (query.divisions ? ":divisions" : "")
        case .news: return "news:\(league)"
        case .schedule:
            let team = query.team?.abbreviation.lowercased() ?? "-"
            return "schedule:\(league):\(team):\(query.season.map(String.init) ?? "-")"
        }
    }
}
