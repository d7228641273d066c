import AlmanacCore
import Foundation

/// MLB's own keyless Stats API (`statsapi.mlb.com`): MLB scores and standings when ESPN fails.
///
/// Scores ask `/api/v1/schedule?sportId=1&date=YYYY-MM-DD&hydrate=linescore` once per US-Eastern date
/// overlapping the viewer's day (the feed files a game under its local `officialDate`, which is the
/// Eastern date for every US venue), merged and cut to the day like ESPN's pages; if one date fails the
/// attempt fails. Standings ask `/api/v1/standings?leagueId=103,104&season=YYYY` (American and
/// National League). Answers only MLB, and only scores and standings.
struct MLBStatsAPIProvider: DescribedProvider {
    /// `mlb-statsapi`, behind ESPN.
    static let descriptor = ProviderDescriptor(
        name: "mlb-statsapi", tool: "sports", priority: 10, summary: "MLB Stats API (MLB scores and standings)",
        endpoints: [ProviderEndpoint(env: "ALMANAC_MLB_STATSAPI_URL", defaultBase: "https://statsapi.mlb.com")],
        terms: UpstreamTerms(
            attribution: "Copyright MLB Advanced Media, L.P. (terms: http://gdx.mlb.com/components/copyright.txt)"),
        probe: HealthProbe(path: "/api/v1/schedule?sportId=1", essential: false),
        decoders: [
            UpstreamDecoder(name: "mlb-statsapi", seeds: ["Fixtures/sports/mlb-statsapi/*.response.json"]) { data in
                if let league = League.named("mlb") { _ = try? MLBStatsAPIDecoder.games(data, league: league) }
                _ = try? MLBStatsAPIDecoder.decode(MLBStandingsWire.self, from: data)
            }
        ],
        sampleCall: SampleCall(words: ["run", "sports", "mlb", "--date", "2023-08-29", "--tz", "America/New_York"]),
        fixtureFolder: "mlb-statsapi")

    static let service = "MLB Stats API"

    /// MLB scores and standings only.
    func supports(_ query: SportsQuery) -> Bool {
        query.league.path == "baseball/mlb" && (query.view == .scores || query.view == .standings)
    }

    func fetch(_ query: SportsQuery, in environment: ProviderEnvironment) async throws -> SportsData {
        let base = try descriptor.baseURL(environment.settings)
        switch query.view {
        case .scores:
            guard let day = query.day else { throw ProviderFailure(.notFound, "\(Self.service): no day to look up") }
            return .games(try await games(league: query.league, day: day, base: base, environment: environment))
        case .standings:
            let season = query.season ?? query.league.season(containing: environment.now)
            let url = ESPNProvider.url(base, "/api/v1/standings", query: "leagueId=103,104&season=\(season)")
            let body = try await get(url, environment)
            let wire = try MLBStatsAPIDecoder.decode(MLBStandingsWire.self, from: body)
            return .standings(wire.standings(league: query.league, season: season))
        case .news, .schedule:
            throw ProviderFailure(.notFound, "\(Self.service): no \(query.view.rawValue) view")
        }
    }

    /// Every game starting in `day`, from the Eastern dates overlapping it.
    func games(league: League, day: LocalDay, base: URL, environment: ProviderEnvironment) async throws -> [Game] {
        let dates = day.easternDates.map(FeedTeams.isoDate)
        let pages = try await withThrowingTaskGroup(of: (Int, [Game]).self) { group in
            for (index, date) in dates.enumerated() {
                let url = ESPNProvider.url(
                    base, "/api/v1/schedule", query: "sportId=1&date=\(date)&hydrate=linescore")
                group.addTask {
                    let body = try await get(url, environment)
                    return (index, try MLBStatsAPIDecoder.games(body, league: league))
                }
            }
            var pages = [[Game]](repeating: [], count: dates.count)
            for try await (index, games) in group { pages[index] = games }
            return pages
        }
        return ESPNProvider.merge(pages, day: day)
    }

    private func get(_ url: URL, _ environment: ProviderEnvironment) async throws -> Data {
        try await environment.transport.fetch(
            HTTPRequest(url: url), timeout: environment.timeout, service: Self.service
        )
        .body
    }
}
