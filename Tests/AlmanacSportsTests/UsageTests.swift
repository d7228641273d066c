import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCore
@testable import AlmanacSports

@Suite("Sports usage: bad input fails before any request, with a suggestion")
struct UsageTests {
    let harness = Harness(
        transport: StubTransport { _ in HTTPResponse(status: 500, body: Data()) }, now: instant("2024-12-16T04:30:00Z"),
        zone: zone("America/New_York"))

    @Test(
        "league spellings normalize to one league",
        arguments: [
            ("NBA", "nba"), ("nba", "nba"), ("basketball/nba", "nba"), (" Nba ", "nba"), ("epl", "eng.1"),
            ("EPL", "eng.1"), ("soccer/eng.1", "eng.1"), ("premier league", "eng.1"), ("mls", "usa.1"),
            ("ucl", "uefa.champions"), ("laliga", "esp.1"), ("bundesliga", "ger.1"), ("seriea", "ita.1"),
            ("ligue1", "fra.1"), ("ncaaf", "college-football"), ("ncaab", "mens-college-basketball"),
            ("womens-college-basketball", "womens-college-basketball"), ("hockey/nhl", "nhl"),
        ])
    func leagueNames(_ word: String, _ slug: String) {
        #expect(League.named(word)?.slug == slug)
    }

    @Test("a league under the wrong sport is not that league")
    func wrongSport() {
        #expect(League.named("basketball/eng.1") == nil)
        #expect(League.named("football/nba") == nil)
    }

    @Test("unknown league: named, with the closest names and how to list them (exit 64)")
    func unknownLeague() async {
        let error = await usageError { _ = try await harness.run(["nbaa"]) }
        #expect(error?.message == "unknown league 'nbaa'")
        #expect(error?.suggestion?.hasPrefix("did you mean 'nba'? also close: 'wnba'") == true)
        #expect(error?.suggestion?.hasSuffix("list them with: tools list sports [SPORT]") == true)
        #expect(error?.exitStatus == 64)
    }

    @Test("bad date: names the word and the expected format", arguments: ["2024-13-45", "someday", "15/12/2024"])
    func badDate(_ word: String) async {
        let error = await usageError { _ = try await harness.run(["nba", "--date", word]) }
        #expect(error?.message == "bad date '\(word)'")
        #expect(error?.suggestion == "expected today, yesterday, tomorrow, a weekday, or YYYY-MM-DD (e.g. 2024-12-15)")
    }

    @Test("unknown team: checked against ESPN's team list, with a suggestion")
    func unknownTeamFromList() async throws {
        let replay = Harness(transport: try Fixtures.replay(), now: harness.now, zone: harness.zone)
        let error = await usageError { _ = try await replay.run(["nba", "--team", "lakerz"]) }
        #expect(error?.message == "unknown NBA team 'lakerz'")
        #expect(error?.suggestion == "did you mean 'Lakers'?")
    }

    @Test("unknown team with ESPN down: the offline directory still catches it (NFL is complete)")
    func unknownTeamOffline() async {
        let error = await usageError { _ = try await harness.run(["nfl", "--team", "chefs", "--next"]) }
        #expect(error?.message == "unknown NFL team 'chefs'")
        #expect(error?.suggestion == "did you mean 'Chiefs'?")
    }

    @Test("a city with two teams is ambiguous and lists both")
    func ambiguousTeam() async {
        let error = await usageError { _ = try await harness.run(["nfl", "--team", "new york", "--next"]) }
        #expect(error?.message == "team 'new york' is ambiguous in NFL")
        #expect(error?.suggestion == "one of: New York Giants (NYG), New York Jets (NYJ)")
    }

    @Test("--next and schedule need a team; --limit must be positive")
    func missingTeam() async {
        let next = await usageError { _ = try await harness.run(["nfl", "--next"]) }
        #expect(next?.message == "--next needs --team")
        #expect(next?.suggestion == "e.g. tools run sports nfl --team <name> --next")
        let schedule = await usageError { _ = try await harness.run(["nfl", "schedule"]) }
        #expect(schedule?.message == "schedule needs --team")
        let limit = await usageError { _ = try await harness.run(["nba", "--limit", "0"]) }
        #expect(limit?.message == "limit must be 1 or more, got '0'")
        let standingsNext = await usageError {
            _ = try await harness.run(["nba", "standings", "--team", "LAL", "--next"])
        }
        #expect(standingsNext?.message == "--next works with scores or schedule, not standings")
    }

    @Test("a bad ALMANAC_ESPN_URL is a usage error, not a provider failure")
    func badBaseURL() async {
        let bad = Harness(
            transport: harness.context.environment.transport, now: harness.now, zone: harness.zone,
            settings: Settings(environment: ["ALMANAC_ESPN_URL": "ftp://example"]))
        let error = await usageError { _ = try await bad.run(["nba"]) }
        #expect(error?.message == "ALMANAC_ESPN_URL is not an http(s) URL: 'ftp://example'")
    }

    @Test(
        "team words resolve fuzzily against the recorded NBA team list",
        arguments: [
            ("lakers", "LAL"), ("LAL", "LAL"), ("los angeles lakers", "LAL"), ("Los Angeles", "LAL"), ("la", "LAC"),
            ("golden state", "GS"), ("sixers", "PHI"), ("76ers", "PHI"), ("trail blazers", "POR"), ("knicks", "NY"),
            ("cavs", "CLE"), ("dubs", "GS"), ("okc thunder", "OKC"), ("nonsense", nil),
        ] as [(String, String?)])
    func teamMatching(_ word: String, _ abbreviation: String?) throws {
        let teams = try ESPNDecoder.decode(TeamsWire.self, from: Fixtures.data("sports/espn/nba-teams.response.json"))
            .entries
        #expect(teams.count == 30)
        switch TeamMatcher.match(word, in: teams, league: League.named("nba")) {
        case .team(let entry): #expect(entry.abbreviation == abbreviation)
        default: #expect(abbreviation == nil)
        }
    }
}
