import AlmanacCore
import AlmanacSports
import AlmanacTesting
import Foundation
import Testing

/// The public synchronous entry point the benchmark calls (no @testable import: public API only).
@Suite("ESPNScoreboard public entry point")
struct EntryPointTests {
    @Test("decodes and formats the largest recorded body (college football, 878 KB)")
    func largest() throws {
        let body = try Fixtures.data("sports/espn/college-football-scoreboard-live-halftime-2022.response.json")
        #expect(body.count == 878_332)
        let league = try #require(League.named("college-football"))
        let text = try ESPNScoreboard.decodeAndFormat(
            body, league: league, now: instant("2022-09-17T17:30:00Z"), timeZone: zone("America/New_York"))
        let lines = text.split(separator: "\n")
        #expect(lines.count == 26)
        #expect(lines[0].hasPrefix("[sports] College Football · Sat 17 Sep 2022 (today) · times "))
        #expect(lines[1] == "LIVE Halftime: #1 Georgia (2-0) 24 @ South Carolina (1-1) 0")
    }
}
