import AlmanacCore
import Foundation

/// One sports question, as every sports provider receives it.
struct SportsQuery: Sendable, Hashable {
    var league: League
    var view: SportsView
    /// For scores: the viewer's day.
    var day: LocalDay?
    /// For schedules (and web search wording): the team.
    var team: TeamRef?
    /// For schedules: the first season to ask for.
    var season: Int?
    /// For golf, tennis, racing and MMA scores: the next event from `day` on instead of `day`'s.
    var next: Bool
    /// For standings: division tables (ESPN `level=3`) rather than the league's default grouping.
    var divisions: Bool

    init(
        league: League, view: SportsView, day: LocalDay? = nil, team: TeamRef? = nil, season: Int? = nil,
        next: Bool = false, divisions: Bool = false
    ) {
        self.league = league
        self.view = view
        self.day = day
        self.team = team
        self.season = season
        self.next = next
        self.divisions = divisions
    }
}

/// ESPN's public site API (`site.api.espn.com`): scoreboards, standings, news and team schedules.
///
/// Scoreboards are asked one US-Eastern date at a time (`dates=YYYYMMDD`; ranges answer 400) and without
/// `limit` (the default answers a whole day; `limit` ≥ 600 silently truncates). The viewer's day usually
/// overlaps two Eastern dates: both are fetched concurrently, merged by event id and cut to the day.
/// If one date fails the whole attempt fails, so a partial day never looks like a complete one.
struct ESPNProvider: DescribedProvider {
    /// `espn`, the first choice for every league.
    static let descriptor = ProviderDescriptor(
        name: "espn", tool: "sports", priority: 0, summary: "ESPN site API (scores, standings, news, schedules)",
        endpoints: [ProviderEndpoint(env: "ALMANAC_ESPN_URL", defaultBase: "https://site.api.espn.com")],
        probe: HealthProbe(path: "/apis/site/v2/sports/basketball/nba/scoreboard"),
        decoders: [
            UpstreamDecoder(name: "espn", seeds: ["Fixtures/sports/espn/*.response.json"]) { data in
                for league in League.all.prefix(3) { _ = try? ESPNScoreboard.decode(data, league: league) }
            },
            // Golf, tennis, racing and MMA bodies (and the golf leaderboard endpoint), read as loose JSON.
            UpstreamDecoder(name: "espn-events", seeds: ["Fixtures/sports/espn/*.response.json"]) { data in
                for slug in ["pga", "atp", "wta", "f1", "ufc"] {
                    if let league = League.named(slug) { _ = try? ESPNEventsDecoder.decode(data, league: league) }
                }
                _ = try? ESPNEventsDecoder.leaderboardEvent(data, id: "0")
            },
        ],
        sampleCall: SampleCall(words: ["run", "sports", "nba", "--date", "2024-12-15", "--tz", "America/New_York"]))

    static let service = "ESPN"

    func fetch(_ query: SportsQuery, in environment: ProviderEnvironment) async throws -> SportsData {
        let base = try descriptor.baseURL(environment.settings)
        let league = query.league
        switch query.view {
        case .scores:
            guard let day = query.day else { throw ProviderFailure(.notFound, "ESPN: no day to look up") }
            if league.shape != .team {
                return .events(try await events(query, day: day, base: base, environment: environment))
            }
            let (games, name) = try await games(league: league, day: day, base: base, environment: environment)
            return .games(games, leagueName: name)
        case .standings:
            // `level=3` answers divisions nested in their conferences (ESPN's standings `children`).
            let url = Self.url(
                base, "/apis/v2/sports/\(league.path)/standings", query: query.divisions ? "level=3" : nil)
            let wire = try await get(StandingsWire.self, url, environment)
            return .standings(wire.standings(league: league))
        case .news:
            let url = Self.url(base, "/apis/site/v2/sports/\(league.path)/news")
            return .news(try await get(NewsWire.self, url, environment).items)
        case .schedule:
            guard let team = query.team else { throw ProviderFailure(.notFound, "ESPN: no team to look up") }
            return .schedule(try await schedule(query, team: team, base: base, environment: environment))
        }
    }

    /// Every game starting in `day`, from the Eastern dates overlapping it, and ESPN's name for the league.
    func games(
        league: League, day: LocalDay, base: URL, environment: ProviderEnvironment
    ) async throws
        -> (games: [Game], leagueName: String?)
    {
        let dates = day.easternDates
        let pages = try await withThrowingTaskGroup(of: (Int, (games: [Game], leagueName: String?)).self) { group in
            for (index, date) in dates.enumerated() {
                let groups = league.scoreboardGroups.map { "&groups=\($0)" } ?? ""
                let url = Self.url(
                    base, "/apis/site/v2/sports/\(league.path)/scoreboard", query: "dates=\(date)\(groups)")
                group.addTask {
                    let response = try await environment.transport.fetch(
                        HTTPRequest(url: url), timeout: environment.timeout, service: Self.service)
                    return (index, try ESPNScoreboard.page(response.body, league: league))
                }
            }
            var pages = [(games: [Game], leagueName: String?)](repeating: ([], nil), count: dates.count)
            for try await (index, page) in group { pages[index] = page }
            return pages
        }
        return (Self.merge(pages.map { $0.games }, day: day), pages.lazy.compactMap { $0.leagueName }.first)
    }

    /// Merges pages by event id (the more advanced state wins) and keeps games starting in `day`.
    static func merge(_ pages: [[Game]], day: LocalDay) -> [Game] {
        var byId: [String: Game] = [:]
        var order: [String] = []
        for game in pages.joined() {
            if let existing = byId[game.id] {
                if rank(game.state) > rank(existing.state) { byId[game.id] = game }
            } else {
                byId[game.id] = game
                order.append(game.id)
            }
        }
        let localDate = day.isoDate
        return order.compactMap { byId[$0] }
            .filter { game in
                // A placeholder time ("TBD") only says which Eastern date the game is on.
                game.timeValid ? day.contains(game.start) : LocalDay.easternISODate(game.start) == localDate
            }
            .enumerated()
            .sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }
            .map(\.element)
    }

    private static func rank(_ state: Game.State) -> Int {
        switch state {
        case .pre: 0
        case .in: 1
        case .post: 2
        }
    }

    /// A team's schedule for the query's season; when that season has nothing left to play (the
    /// off-season), the next season's schedule instead.
    func schedule(
        _ query: SportsQuery, team: TeamRef, base: URL, environment: ProviderEnvironment
    ) async throws
        -> TeamSchedule
    {
        if query.league.sport == "soccer", let id = team.id, !id.isEmpty, id.allSatisfy(\.isNumber),
            let every = try await allCompetitions(query, teamId: id, base: base, environment: environment)
        {
            return every
        }
        let path = "/apis/site/v2/sports/\(query.league.path)/teams/\(team.pathComponent)/schedule"
        let season = query.season ?? query.league.season(containing: environment.now)
        let first = try await scheduleWire(base, path, season: season, environment)
        guard var schedule = first.schedule(league: query.league) else {
            throw ProviderFailure(.decoding, "ESPN: schedule without a team")
        }
        if schedule.games.contains(where: { Self.isUpcoming($0, now: environment.now) }) { return schedule }
        // The regular season is over: the playoffs (`seasontype=3`, ESPN's postseason document) may hold the
        // next game, or the last one. Optional: a team out of the playoffs has none, and ESPN may say so
        // with an error.
        let postseason = try? await get(
            TeamScheduleWire.self, Self.url(base, path, query: "season=\(season)&seasontype=3"), environment)
        if let playoffs = postseason?.schedule(league: query.league)?.games, !playoffs.isEmpty {
            let known = Set(schedule.games.map(\.id))
            schedule.games = (schedule.games + playoffs.filter { !known.contains($0.id) }).sorted {
                $0.start < $1.start
            }
            if schedule.games.contains(where: { Self.isUpcoming($0, now: environment.now) }) { return schedule }
        }
        do {
            let next = try await scheduleWire(base, path, season: season + 1, environment)
            if let later = next.schedule(league: query.league), !later.games.isEmpty { return later }
        } catch let failure as ProviderFailure where failure.kind == .notFound {
            // No schedule published for next season yet: this season's (finished) schedule is the answer.
        }
        return schedule
    }

    /// A soccer club's games in every competition it plays (league, cups, continental): ESPN's
    /// `soccer/all/teams/{id}/schedule` (results) and the same with `fixture=true` (games to come), the two
    /// URLs other ESPN clients use for a club's whole season. Nil when ESPN has no such schedule for the
    /// team (404), so the league's own schedule answers instead.
    func allCompetitions(
        _ query: SportsQuery, teamId: String, base: URL, environment: ProviderEnvironment
    )
        async throws -> TeamSchedule?
    {
        let path = "/apis/site/v2/sports/soccer/all/teams/\(teamId)/schedule"
        async let played = optionalWire(Self.url(base, path), environment)
        async let coming = optionalWire(Self.url(base, path, query: "fixture=true"), environment)
        let bodies = try await [played, coming].compactMap { $0 }
        guard let first = bodies.compactMap({ $0.schedule(league: query.league) }).first else { return nil }
        var byId: [String: Game] = [:]
        for body in bodies {
            for game in body.schedule(league: query.league)?.games ?? []
            where byId[game.id] == nil || game.state != .pre {
                byId[game.id] = game
            }
        }
        let games = byId.values.sorted { ($0.start, $0.id) < ($1.start, $1.id) }
        return TeamSchedule(team: first.team, season: nil, games: games)
    }

    private func optionalWire(_ url: URL, _ environment: ProviderEnvironment) async throws -> TeamScheduleWire? {
        do {
            return try await get(TeamScheduleWire.self, url, environment)
        } catch let failure as ProviderFailure where failure.kind == .notFound {
            return nil
        }
    }

    private func scheduleWire(
        _ base: URL, _ path: String, season: Int, _ environment: ProviderEnvironment
    )
        async throws -> TeamScheduleWire
    {
        try await get(TeamScheduleWire.self, Self.url(base, path, query: "season=\(season)"), environment)
    }

    /// Not finished, and not a stale "scheduled" entry from long ago.
    static func isUpcoming(_ game: Game, now: Date) -> Bool {
        switch game.state {
        case .in: true
        case .pre: game.start > now.addingTimeInterval(-6 * 3600)
        // A suspended game is over for today but still to be finished: it stays on the schedule.
        case .post: GamePeriod.isHalted(game)
        }
    }

    private func get<T: Decodable>(_ type: T.Type, _ url: URL, _ environment: ProviderEnvironment) async throws -> T {
        let response = try await environment.transport.fetch(
            HTTPRequest(url: url), timeout: environment.timeout, service: Self.service)
        return try ESPNDecoder.decode(type, from: response.body)
    }

    static func url(_ base: URL, _ path: String, query: String? = nil) -> URL {
        let text = base.absoluteString + path + (query.map { "?\($0)" } ?? "")
        return URL(string: text) ?? base
    }
}

/// The league's team directory (`/teams`), used to resolve "lakers" to an id and abbreviation.
struct ESPNTeamsProvider: Provider {
    let name = "espn"
    let priority = 0

    func fetch(_ league: League, in environment: ProviderEnvironment) async throws -> [TeamEntry] {
        let base = try ESPNProvider.descriptor.baseURL(environment.settings)
        // College directories are long and paged by default; pro leagues answer in full without a limit.
        let query = league.style == .college ? "limit=500" : nil
        let url = ESPNProvider.url(base, "/apis/site/v2/sports/\(league.path)/teams", query: query)
        let response = try await environment.transport.fetch(
            HTTPRequest(url: url), timeout: environment.timeout, service: ESPNProvider.service)
        let entries = try ESPNDecoder.decode(TeamsWire.self, from: response.body).entries
        guard !entries.isEmpty else { throw ProviderFailure(.decoding, "ESPN: empty team list") }
        return entries
    }
}

extension League {
    /// The season ESPN files games of `instant` under (or the next one in the off-season): football and
    /// European soccer name a season by its first year, NBA/NHL/college basketball by its last, summer
    /// leagues by the calendar year.
    func season(containing instant: Date) -> Int {
        let parts = TimeText.calendar(LocalDay.eastern).dateComponents([.year, .month], from: instant)
        let year = parts.year ?? 2000
        let month = parts.month ?? 1
        switch (sport, slug) {
        case ("football", _): return month >= 3 ? year : year - 1
        case ("basketball", "wnba"), ("baseball", _), ("soccer", "usa.1"), ("soccer", "usa.nwsl"),
            ("soccer", "fifa.world"):
            return year
        case ("basketball", _), ("hockey", _): return month >= 7 ? year + 1 : year
        case ("soccer", _): return month >= 7 ? year : year - 1
        default: return year
        }
    }
}
