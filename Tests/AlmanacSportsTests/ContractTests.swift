import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCore
@testable import AlmanacSports

@Suite("provider contract: sports")
struct SportsContractTests {
    @Test("ESPN keeps the provider contract on its recorded scoreboard (a two-date day: either half cut fails it)")
    func espn() async throws {
        let league = try #require(League.named("mlb"))
        // 5 June 2025 in Berlin overlaps two Eastern dates (4 and 5 June), so one answer takes two requests.
        let day = LocalDay.containing(instant("2025-06-05T12:00:00Z"), in: zone("Europe/Berlin"))
        let query = SportsQuery(league: league, view: .scores, day: day)
        let violations = await ProviderContract.check(
            ESPNProvider(), query: query, recorded: try Fixtures.replay(), now: instant("2025-06-05T20:00:00Z"))
        #expect(violations.isEmpty, "\(violations)")
    }

    @Test("the contract kit catches a provider that passes off a partial answer as complete")
    func catchesPartial() async throws {
        struct Lenient: DescribedProvider {
            static let descriptor = ProviderDescriptor(
                name: "lenient", tool: "sports", priority: 5, summary: "keeps whatever decodes")
            func fetch(_ query: SportsQuery, in environment: ProviderEnvironment) async throws -> SportsData {
                guard
                    let url = URL(
                        string: "https://site.api.espn.com/apis/site/v2/sports/basketball/nba/scoreboard?dates=20241215"
                    )
                else { throw ProviderFailure(.notFound, "no URL") }
                let response = try await environment.transport.fetch(
                    HTTPRequest(url: url), timeout: environment.timeout, service: "x")
                // Wrong on purpose: a body that does not decode becomes "no games".
                return .games((try? ESPNScoreboard.decode(response.body, league: query.league)) ?? [])
            }
        }
        let league = try #require(League.named("nba"))
        let query = SportsQuery(
            league: league, view: .scores,
            day: LocalDay.containing(instant("2024-12-15T20:00:00Z"), in: zone("America/New_York")))
        let violations = await ProviderContract.check(
            Lenient(), query: query, recorded: try Fixtures.replay(), now: instant("2024-12-16T04:30:00Z"))
        #expect(violations.contains { $0.hasPrefix("malformed body: returned a value") })
        #expect(violations.contains { $0.hasPrefix("partial answer:") })
    }
}
