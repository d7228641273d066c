import AlmanacCore
import Foundation

/// The NHL's own keyless web API (`api-web.nhle.com`): NHL scores and standings when ESPN fails.
///
/// Scores ask `/v1/schedule/{date}` for the first US-Eastern date overlapping the viewer's day: the
/// answer is the week starting that date (`gameWeek[]`, each game with its `startTimeUTC`), so one
/// request covers every game starting in the viewer's day, which are kept. Standings ask
/// `/v1/standings/{date}` for today's Eastern date (empty before the season's first game). Answers only
/// the NHL, and only scores and standings.
struct NHLProvider: DescribedProvider {
    /// `nhl-api`, behind ESPN.
    static let descriptor = ProviderDescriptor(
        name: "nhl-api", tool: "sports", priority: 10, summary: "NHL web API (NHL scores and standings)",
        endpoints: [ProviderEndpoint(env: "ALMANAC_NHL_API_URL", defaultBase: "https://api-web.nhle.com")],
        probe: HealthProbe(path: "/v1/standings/now", essential: false),
        decoders: [
            UpstreamDecoder(name: "nhl-api", seeds: ["Fixtures/sports/nhl-api/*.response.json"]) { data in
                if let league = League.named("nhl") {
                    _ = try? NHLDecoder.games(data, league: league)
                    _ = try? NHLDecoder.decode(NHLStandingsWire.self, from: data).standings(league: league)
                }
            }
        ],
        sampleCall: SampleCall(words: ["run", "sports", "nhl", "--date", "2025-10-07", "--tz", "America/New_York"]),
        fixtureFolder: "nhl-api")

    static let service = "NHL API"

    /// NHL scores and standings only.
    func supports(_ query: SportsQuery) -> Bool {
        query.league.path == "hockey/nhl" && (query.view == .scores || query.view == .standings)
    }

    func fetch(_ query: SportsQuery, in environment: ProviderEnvironment) async throws -> SportsData {
        let base = try descriptor.baseURL(environment.settings)
        switch query.view {
        case .scores:
            guard let day = query.day, let first = day.easternDates.first else {
                throw ProviderFailure(.notFound, "\(Self.service): no day to look up")
            }
            let body = try await get(ESPNProvider.url(base, "/v1/schedule/\(FeedTeams.isoDate(first))"), environment)
            return .games(ESPNProvider.merge([try NHLDecoder.games(body, league: query.league)], day: day))
        case .standings:
            let today = LocalDay.easternISODate(environment.now)
            let body = try await get(ESPNProvider.url(base, "/v1/standings/\(today)"), environment)
            return .standings(
                try NHLDecoder.decode(NHLStandingsWire.self, from: body).standings(
                    league: query.league, divisions: query.divisions))
        case .news, .schedule:
            throw ProviderFailure(.notFound, "\(Self.service): no \(query.view.rawValue) view")
        }
    }

    private func get(_ url: URL, _ environment: ProviderEnvironment) async throws -> Data {
        try await environment.transport.fetch(
            HTTPRequest(url: url), timeout: environment.timeout, service: Self.service
        )
        .body
    }
}
