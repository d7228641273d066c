import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacSports

/// `--mine` reads each league's scoreboard through the plain run's own request (#34): one key, one
/// freshness, so `tools run sports nba` and `tools run sports --mine` share a cache entry.
@Suite("sports --mine: the plain run's key and freshness")
struct MineKeyTests {
    @Test(
        "a league's scoreboard of a day: the same query, key and TTL as `sports LEAGUE --date DAY`",
        arguments: [
            ("nba", "2024-12-15", "2024-12-16T04:30:00Z"), ("nba", "2024-12-14", "2024-12-16T12:00:00Z"),
            ("epl", "2025-05-25", "2025-05-26T11:00:00Z"), ("mlb", "2025-06-04", "2025-06-04T20:00:00Z"),
        ])
    func samePath(_ league: String, _ date: String, _ now: String) throws {
        let tool = SportsTool()
        let arguments = try ToolArguments.parse(cli: [league, "--date", date], schema: tool.schema, tool: tool.name)
        let plain = try SportsRequest(arguments, now: instant(now), zone: zone("America/New_York"))
        let mine = MineScores(league: plain.league, day: plain.day)
        #expect(mine.cacheKey == plain.cacheKey(team: nil))
        #expect(mine.query == plain.query(team: nil))
        #expect(mine.ttl(now: instant(now)) == plain.ttl(now: instant(now)))
    }
}
