import AlmanacTesting
import Foundation
import Testing

/// The built `tools` binary with ESPN answering 500 and the league-official feeds served from their
/// recorded answers by a second loopback fixture server.
@Suite("tools run sports: the official feeds answer when ESPN fails, end to end", .serialized)
struct OfficialFeedsEndToEndTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var league: String
        var date: String
        var provider: String
        var games: Int
        var line: String
        var testDescription: String { "\(league) \(date) → \(provider)" }
    }

    static let cases = [
        // Facts from the recorded bytes: gamePk 716806, Angels 5 @ Phillies 8, records 63-69 and 73-58.
        Case(
            league: "mlb", date: "2023-08-29", provider: "mlb-statsapi", games: 15,
            line: "LIVE In Progress: Angels (63-69) 5 @ Phillies (73-58) 8"),
        // Game 2025020003: COL 4 @ LAK 1, final, 02:30 UTC on 8 Oct (22:30 EDT on the 7th).
        Case(
            league: "nhl", date: "2025-10-07", provider: "nhl-api", games: 3,
            line: "Final: Avalanche 4 @ Kings 1 · Avalanche won"),
    ]

    @Test(
        "ESPN 500: the official feed answers; ESPN's failure is in attempts and the context names the source",
        arguments: cases)
    func fallback(_ testCase: Case) async throws {
        let espn = try FixtureServer()
        defer { espn.stop() }
        try await espn.setFault("500")
        let feeds = try FixtureServer()
        defer { feeds.stop() }
        let scratch = try Scratch()
        let environment = scratch.environment([
            "ALMANAC_ESPN_URL": espn.baseURL, "ALMANAC_MLB_STATSAPI_URL": feeds.baseURL,
            "ALMANAC_NHL_API_URL": feeds.baseURL, "ALMANAC_TIMEOUT": "5",
        ])
        let words = ["run", "sports", testCase.league, "--date", testCase.date, "--tz", "America/New_York"]

        let json = try await ToolsBinary.run(words + ["--format", "json", "--no-cache"], environment: environment)
        #expect(json.status == 0, "stderr: \(json.stderr)")
        let envelope = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(envelope["provider"] as? String == testCase.provider)
        let attempts = envelope["attempts"] as? [[String: Any]] ?? []
        #expect(attempts.compactMap { $0["provider"] as? String } == ["espn", testCase.provider])
        #expect(attempts.compactMap { $0["outcome"] as? String } == ["failed", "ok"])
        #expect((attempts.first?["detail"] as? String)?.contains("HTTP 500") == true, "\(attempts)")
        let games = (envelope["data"] as? [String: Any])?["games"] as? [[String: Any]] ?? []
        #expect(games.count == testCase.games)
        #expect(games.allSatisfy { ($0["home"] as? [String: Any])?["abbreviation"] as? String != "" })

        let context = try await ToolsBinary.run(words, environment: environment)
        #expect(context.status == 0, "stderr: \(context.stderr)")
        let lines = context.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("source: \(testCase.provider)") == true, "\(lines.first ?? "")")
        #expect(lines.contains(testCase.line), "\(context.stdout)")
        #expect(context.stderr.isEmpty)
    }
}
