import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCore
@testable import AlmanacSports

@Suite("Sports cache keys: the same question gives the same key")
struct CacheKeyTests {
    let now = instant("2024-12-16T04:30:00Z")  // Sun 15 Dec 2024, 23:30 in New York
    let newYork = zone("America/New_York")

    func key(_ words: [String], zone: TimeZone? = nil, team: TeamRef? = nil) throws -> String {
        let tool = SportsTool()
        let arguments = try ToolArguments.parse(cli: words, schema: tool.schema, tool: tool.name)
        return try SportsRequest(arguments, now: now, zone: zone ?? newYork).cacheKey(team: team)
    }

    @Test("league spelling and date wording do not change the key")
    func sameQuestion() throws {
        let expected = "scores:basketball/nba:2024-12-15:America/New_York"
        for words in [
            ["nba"], ["NBA"], ["basketball/nba"], ["nba", "scores"], ["nba", "--date", "today"],
            ["nba", "--date", "2024-12-15"], ["Nba", "--date", "sunday"],
        ] {
            #expect(try key(words) == expected, "\(words)")
        }
        #expect(try key(["epl", "standings"]) == key(["soccer/eng.1", "standings"]))
        #expect(try key(["mls", "news"]) == "news:soccer/usa.1")
    }

    @Test("a team filter shares the day's scoreboard entry; other days and zones do not")
    func differentQuestions() throws {
        let lakers = TeamRef(id: "13", abbreviation: "LAL", displayName: "Los Angeles Lakers", query: "lakers")
        #expect(try key(["nba", "--team", "lakers"], team: lakers) == key(["nba"]))
        #expect(try key(["nba", "--date", "yesterday"]) == "scores:basketball/nba:2024-12-14:America/New_York")
        #expect(try key(["nba"], zone: zone("Europe/Berlin")) == "scores:basketball/nba:2024-12-16:Europe/Berlin")
        let chiefs = TeamRef(id: "12", abbreviation: "KC", displayName: "Kansas City Chiefs", query: "chiefs")
        #expect(try key(["nfl", "--team", "chiefs", "--next"], team: chiefs) == "schedule:football/nfl:kc:2024")
        #expect(try key(["nfl", "schedule", "--team", "KC"], team: chiefs) == "schedule:football/nfl:kc:2024")
    }

    @Test("every kind of sports entry is keyed by the one function: next event, division tables, team lists")
    func everyKind() throws {
        #expect(try key(["pga", "--next"]) == "scores:golf/pga:2024-12-15:America/New_York:next")
        #expect(try key(["nba", "standings"]) == "standings:basketball/nba")
        let nba = try #require(League.named("nba"))
        let divisions = SportsQuery(league: nba, view: .standings, divisions: true)
        #expect(SportsTool.cacheKey(.answer(divisions)) == "standings:basketball/nba:divisions")
        #expect(SportsTool.cacheKey(.teams(nba)) == "teams:basketball/nba")
    }

    @Test("asking again with another spelling is served from the cache")
    func servedFromCache() async throws {
        let harness = Harness(transport: try Fixtures.replay(), now: now, zone: newYork)
        let first = try await harness.run(["NBA", "--date", "2024-12-15"])
        let second = try await harness.run(["basketball/nba", "--date", "today"])
        #expect(first.metadata.attempts.map(\.outcome) == [.ok])
        #expect(second.metadata.attempts.map(\.outcome) == [.cached])
        #expect(await harness.context.coordinator.providerCallCount == 1)
        #expect(try harness.render(first) == harness.render(second))
    }
}
