import AlmanacCore
import Foundation

// `tools run sports --mine [LEAGUE] [--date DAY]`: the user's teams (`[me] teams`, "LEAGUE:TEAM"),
// each league's scoreboard of the day filtered to them. An entry that names no league, an unknown
// league or an unknown team is a warning naming it; the other teams still answer.

extension SportsTool {
    /// One league's part of the answer.
    struct MineLeague: Sendable {
        var league: League
        /// The teams resolved in this league, in profile order.
        var teams: [TeamRef] = []
        /// The day's games involving any of them.
        var games: [Game] = []
        /// Teams with no game on the day (labels).
        var idle: [String] = []
        /// Why the scoreboard could not be had, when it could not.
        var failure: String?
    }

    /// Options that pick something else than the user's teams' day.
    static let mineConflicts: [SportsParameter] = [.team, .player, .event, .group, .next]

    /// Runs `--mine`.
    func runMine(_ arguments: ToolArguments, context: ToolContext) async throws -> ToolResult {
        if let other = Self.mineConflicts.first(where: {
            $0 == .next ? arguments.flag($0) : arguments.string($0) != nil
        }) {
            throw AlmanacError.usage(
                "--mine shows your teams' games; it does not combine with \(other.option)",
                suggestion: "tools run sports --mine [--date DAY], or tools run sports LEAGUE \(other.option) ...")
        }
        if let view = arguments.string(SportsParameter.view), view.lowercased() != SportsView.scores.rawValue {
            throw AlmanacError.usage(
                "--mine shows scores, not \(view)", suggestion: "tools run sports --mine [--date DAY]")
        }
        let profile = try Profile.read(context.settings)
        guard !profile.teams.isEmpty else {
            throw AlmanacError.configuration(
                "sports --mine: no teams are set",
                suggestion: "add teams = [\"nba:lakers\", \"epl:arsenal\"] under [me] in config.toml")
        }
        let only = try arguments.string(SportsParameter.league).map { word -> League in
            guard let league = League.named(word) else { throw League.unknown(word) }
            return league
        }
        let day =
            try arguments.day(SportsParameter.date, now: context.now, in: context.timeZone).map {
                LocalDay.containing($0, in: context.timeZone)
            } ?? LocalDay.containing(context.now, in: context.timeZone)
        let limit = try SportsRequest.limit(arguments)

        var warnings: [String] = []
        var wanted: [(league: League, words: [(entry: String, team: String)])] = []
        for entry in profile.teams {
            let shown = UntrustedText.clean(entry, limit: 60)
            guard let (word, team) = Profile.team(entry) else {
                warnings.append("[me] teams: '\(shown)' is not LEAGUE:TEAM (e.g. nba:lakers); skipped")
                continue
            }
            guard let league = League.named(word) else {
                warnings.append("[me] teams: '\(shown)': unknown league '\(word)' (tools list sports); skipped")
                continue
            }
            guard league.shape == .team else {
                warnings.append("[me] teams: '\(shown)': \(league.name) has no teams; skipped")
                continue
            }
            if let only, only.path != league.path { continue }
            if let index = wanted.firstIndex(where: { $0.league.path == league.path }) {
                wanted[index].words.append((entry, team))
            } else {
                wanted.append((league, [(entry, team)]))
            }
        }
        if let only, wanted.isEmpty, warnings.isEmpty {
            throw AlmanacError.usage(
                "none of your teams ([me] teams) plays in \(only.name)",
                suggestion: "tools run sports --mine, or add \"\(only.word):TEAM\" to [me] teams")
        }

        var parts: [MineLeague] = []
        var fetchedParts: [ResultMetadata] = []
        var attempts: [ProviderAttempt] = []
        for (league, words) in wanted {
            var part = MineLeague(league: league)
            let request = MineScores(league: league, day: day)
            let games: [Game]
            do {
                let fetched = try await context.fetch(
                    tool: name, key: request.cacheKey, query: request.query, providers: mineProviders(),
                    ttl: request.ttl(now: context.now))
                guard case .games(let found, _) = fetched.value else {
                    part.failure = "no scoreboard in the answer"
                    parts.append(part)
                    continue
                }
                games = found
                fetchedParts.append(fetched.metadata)
                attempts += fetched.metadata.attempts
            } catch let error as AlmanacError where error.kind == .unavailable {
                attempts += error.attempts
                part.failure =
                    error.attempts.map { "\($0.provider) failed: \($0.detail ?? $0.outcome.rawValue)" }
                    .joined(separator: "; ")
                parts.append(part)
                continue
            }
            for (entry, word) in words {
                let shown = UntrustedText.clean(entry, limit: 60)
                var team: TeamRef?
                do {
                    team = try await resolveTeam(word, league: league, context: context)
                } catch let error as AlmanacError where error.kind == .usage {
                    // The day's own games may still name it (a club the offline directory lacks).
                    if let found = Self.team(word, in: games, league: league) {
                        team = found
                    } else {
                        let hint = error.suggestion.map { " (\($0))" } ?? ""
                        warnings.append("[me] teams: '\(shown)': \(error.message)\(hint); skipped")
                    }
                } catch let error as AlmanacError where error.kind == .unavailable {
                    // No team list: the day's games name the team, or it has no game that day.
                    team =
                        Self.team(word, in: games, league: league)
                        ?? TeamRef(id: nil, abbreviation: word.uppercased(), displayName: word, query: word)
                }
                guard let team, !part.teams.contains(team) else { continue }
                part.teams.append(team)
                let theirs = games.filter { $0.involves(team) }
                if theirs.isEmpty { part.idle.append(team.label) }
                for game in theirs where !part.games.contains(where: { $0.id == game.id }) {
                    part.games.append(game)
                }
            }
            parts.append(part)
        }
        guard let first = fetchedParts.first else {
            if attempts.isEmpty {
                throw AlmanacError.usage(
                    "sports --mine: none of [me] teams could be used: " + warnings.joined(separator: "; "),
                    suggestion: "write each as LEAGUE:TEAM, e.g. teams = [\"nba:lakers\", \"epl:arsenal\"]")
            }
            throw AlmanacError.unavailable(tool: name, attempts: attempts)
        }
        // The oldest part decides the age shown; any stale part makes the answer stale.
        let oldest = fetchedParts.max { $0.ageSeconds < $1.ageSeconds } ?? first
        var providers: [String] = []
        for part in fetchedParts where !providers.contains(part.provider) { providers.append(part.provider) }
        let metadata = ResultMetadata(
            tool: name, provider: providers.joined(separator: ", "), fetchedAt: oldest.fetchedAt,
            ageSeconds: oldest.ageSeconds, stale: fetchedParts.contains(where: \.stale), attempts: attempts)
        let payload = MyTeamsPayload(day: day, leagues: parts, warnings: warnings, limit: limit)
        return ToolResult(metadata: metadata, payload: payload)
    }

    /// The scoreboard chain: the sports APIs, then provider plugins at their priority, as for a
    /// league's scores. Web search is left out: a page of search hits cannot be filtered to teams.
    func mineProviders() -> [any Provider<SportsQuery, SportsData>] {
        Self.chain + scoreboardSources.map(ScoreboardPluginProvider.init(source:))
    }
}

/// A league's scoreboard of one day: the request `tools run sports LEAGUE --date DAY` makes, so its
/// query, cache key and freshness are that run's own functions (one cache entry, one place to change).
struct MineScores {
    /// Made once: the query, key and freshness below all read this one request.
    let request: SportsRequest

    init(league: League, day: LocalDay) { request = SportsRequest(scoresOf: league, day: day) }

    var query: SportsQuery { request.query(team: nil) }
    var cacheKey: String { request.cacheKey(team: nil) }
    func ttl(now: Date) -> Duration? { request.ttl(now: now) }
}

extension SportsRequest {
    /// A plain league scoreboard of `day` (no team, player or event): what `--mine` reads per league.
    init(scoresOf league: League, day: LocalDay) {
        self.league = league
        view = .scores
        self.day = day
        dayGiven = true
        teamWord = nil
        playerWord = nil
        eventWords = nil
        group = nil
        next = false
        limit = nil
    }
}

/// `tools run sports --mine`: the user's teams' games of one day, league by league.
struct MyTeamsPayload: ToolPayload, PayloadWarnings {
    let day: LocalDay
    let leagues: [SportsTool.MineLeague]
    /// Profile entries that could not be used, one line each.
    let warnings: [String]
    let limit: Int?

    func lines(_ rendering: Rendering) -> [String] {
        let when = TimeText.labelledDay(day.start, now: rendering.now, in: day.zone)
        var lines: [String] = []
        for part in leagues {
            if let failure = part.failure {
                lines.append("\(part.league.name): could not be fetched (\(failure))")
                continue
            }
            // Live first, then upcoming, then finished, as for a league's scores.
            let ordered = ScoresPayload(league: part.league, day: day, games: part.games, team: nil).ordered
            for game in ordered {
                lines.append(
                    "\(part.league.name): "
                        + GameText.line(game, style: part.league.style, zone: day.zone, showZone: true))
            }
            for team in part.idle { lines.append("\(part.league.name): no \(team) game on \(when)") }
        }
        if let limit, lines.count > limit {
            lines = Array(lines.prefix(limit)) + ["… \(lines.count - limit) more omitted"]
        }
        return lines
    }

    /// Header, then one line per game or idle team; warnings go to `data.warnings` and stderr.
    func context(_ rendering: Rendering) -> String {
        let header = rendering.header(
            "Your teams · \(TimeText.labelledDay(day.start, now: rendering.now, in: day.zone))", zone: day.zone)
        let kept = rendering.budget.fit(lines(rendering), reserved: header) { "… \($0) more lines omitted" }
        return ([header] + kept).joined(separator: "\n")
    }

    /// The same lines for people.
    func text(_ rendering: Rendering) -> String { context(rendering) }

    enum CodingKeys: String, CodingKey { case view, date, timeZone, leagues, warnings }
    enum LeagueKeys: String, CodingKey { case teams, games, noGame, error }

    /// `{"view":"mine","date","timeZone","leagues":[{"league","leagueName","sport","teams","games",
    /// "noGame","error"}],"warnings":[...]}`.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("mine", forKey: .view)
        try container.encode(day.isoDate, forKey: .date)
        try container.encode(day.zoneIdentifier, forKey: .timeZone)
        try container.encode(leagues.map(LeagueJSONPart.init), forKey: .leagues)
        try container.encode(warnings, forKey: .warnings)
    }

    /// One league in `data.leagues`.
    struct LeagueJSONPart: Encodable {
        let part: SportsTool.MineLeague

        func encode(to encoder: any Encoder) throws {
            try LeagueJSON(part.league).encode(to: encoder)
            var container = encoder.container(keyedBy: LeagueKeys.self)
            try container.encode(
                part.teams.map { TeamJSON(id: $0.id, name: $0.label, abbreviation: $0.abbreviation) }, forKey: .teams)
            let chronological = part.games.sorted { $0.start < $1.start }
            try container.encode(chronological.map(GameJSON.init), forKey: .games)
            try container.encode(part.idle, forKey: .noGame)
            try container.encode(part.failure, forKey: .error)
        }
    }
}
