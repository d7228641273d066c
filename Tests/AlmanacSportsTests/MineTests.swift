import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCore
@testable import AlmanacSports

/// `tools run sports --mine` (issue #34): `[me] teams` against recorded ESPN scoreboards
/// (NBA 2024-12-15 with the NBA team list; Premier League 2025-05-25, whose team list is not recorded).
@Suite("Sports --mine: the profile's teams")
struct MineTests {
    static func harness(_ teams: [String], now: String) throws -> Harness {
        let settings = Settings(config: ["me": .table(["teams": .array(teams.map { .string($0) })])])
        return Harness(
            transport: try Fixtures.replay(), now: instant(now), zone: AlmanacSportsTests.zone("America/New_York"),
            settings: settings)
    }

    @Test("each league's scoreboard filtered to the teams; bad entries are warnings and the rest answers")
    func filtered() async throws {
        let harness = try Self.harness(
            ["nba:lakers", "nba:lakerz", "lakers", "xyz:foo", "epl:arsenal"], now: "2024-12-16T04:30:00Z")
        let result = try await harness.run(["--mine", "--date", "2024-12-15"])
        let lines = try harness.render(result).components(separatedBy: "\n")
        #expect(lines.first?.hasPrefix("[sports] Your teams · Sun 15 Dec 2024 (today) · source: espn") == true)
        // The recorded scoreboard's Lakers game, and none of the other six.
        #expect(lines.dropFirst().first == "NBA: Final: Grizzlies (18-9) 110 @ Lakers (14-12) 116 · Lakers won")
        #expect(lines.filter { $0.hasPrefix("NBA:") }.count == 1)
        // No Premier League scoreboard of that day is recorded: that league says so, the NBA still answers.
        #expect(lines.contains { $0.hasPrefix("Premier League: could not be fetched (") })
        let payload = try #require(result.payload as? MyTeamsPayload)
        #expect(payload.warnings.count == 3)
        #expect(payload.warnings.contains { $0.hasPrefix("[me] teams: 'nba:lakerz': unknown NBA team 'lakerz'") })
        #expect(payload.warnings.contains { $0.hasPrefix("[me] teams: 'lakers' is not LEAGUE:TEAM") })
        #expect(payload.warnings.contains { $0.hasPrefix("[me] teams: 'xyz:foo': unknown league 'xyz'") })
        // Warnings are not in the context (stderr on the command line), and are in JSON's data.
        #expect(!lines.contains { $0.contains("lakerz") })
        let data = try #require(
            try JSONSerialization.jsonObject(with: Data(Envelope.dataJSON(result.payload).utf8)) as? [String: Any])
        #expect(data["view"] as? String == "mine")
        #expect((data["warnings"] as? [String])?.count == 3)
        let leagues = try #require(data["leagues"] as? [[String: Any]])
        #expect(leagues.map { $0["league"] as? String } == ["nba", "eng.1"])
        #expect((leagues[0]["games"] as? [Any])?.count == 1)
        #expect(((leagues[0]["teams"] as? [[String: Any]])?.first?["abbreviation"] as? String) == "LAL")
        #expect(leagues[1]["error"] is String)
    }

    @Test("a league word keeps to that league; games in profile order; a team with no game says so")
    func oneLeague() async throws {
        let harness = try Self.harness(
            ["epl:arsenal", "nba:lakers", "nba:celtics", "nba:heat"], now: "2024-12-16T04:30:00Z")
        let result = try await harness.run(["nba", "--mine", "--date", "2024-12-15"])
        let lines = try harness.render(result).components(separatedBy: "\n").dropFirst()
        #expect(
            Array(lines) == [
                "NBA: Final: Grizzlies (18-9) 110 @ Lakers (14-12) 116 · Lakers won",
                "NBA: Final: Celtics (21-5) 112 @ Wizards (3-21) 98 · Celtics won",
                "NBA: no Miami Heat game on Sun 15 Dec 2024 (today)",
            ])
    }

    @Test("--limit reads as for one league: at least 1, over 100 is all, the rest counted")
    func limit() async throws {
        let harness = try Self.harness(["nba:lakers", "nba:celtics", "nba:heat"], now: "2024-12-16T04:30:00Z")
        let all = try harness.render(try await harness.run(["--mine", "--date", "2024-12-15"]))
        let huge = try harness.render(try await harness.run(["--mine", "--date", "2024-12-15", "--limit", "1000"]))
        #expect(huge == all)
        let two = try harness.render(try await harness.run(["--mine", "--date", "2024-12-15", "--limit", "2"]))
        #expect(two.components(separatedBy: "\n").last == "… 1 more omitted")
        do {
            _ = try await harness.run(["--mine", "--limit", "0"])
            Issue.record("--limit 0 was accepted")
        } catch let error as AlmanacError {
            #expect(error.message == "limit must be 1 or more, got '0'")
        }
    }

    @Test("a club is found among the day's games when the league's team list is not recorded")
    func soccer() async throws {
        let harness = try Self.harness(["epl:arsenal", "epl:man city"], now: "2025-05-25T18:00:00Z")
        let result = try await harness.run(["--mine"])
        let lines = try harness.render(result).components(separatedBy: "\n").dropFirst()
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.hasPrefix("Premier League: FT: ") })
        #expect(lines.contains { $0.contains("Arsenal") })
        #expect(lines.contains { $0.contains("Man City") })
    }

    @Test("no teams set, or --mine with --team, is one usage line")
    func usage() async throws {
        let none = Harness(
            transport: try Fixtures.replay(), now: instant("2024-12-16T04:30:00Z"),
            zone: AlmanacSportsTests.zone("America/New_York"))
        await #expect(throws: AlmanacError.self) { try await none.run(["--mine"]) }
        do {
            _ = try await none.run(["--mine"])
        } catch let error as AlmanacError {
            #expect(error.message == "sports --mine: no teams are set")
            #expect(error.exitStatus == 64)
        }
        let some = try Self.harness(["nba:lakers"], now: "2024-12-16T04:30:00Z")
        do {
            _ = try await some.run(["--mine", "--team", "celtics"])
            Issue.record("--mine --team was accepted")
        } catch let error as AlmanacError {
            #expect(error.message == "--mine shows your teams' games; it does not combine with --team")
        }
        // Without --mine a league is still needed.
        do {
            _ = try await some.run([])
            Issue.record("no league was accepted")
        } catch let error as AlmanacError {
            #expect(error.message == "missing league for sports")
        }
    }
}
