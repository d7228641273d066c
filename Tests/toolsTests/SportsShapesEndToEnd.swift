import AlmanacTesting
import Foundation
import Testing

/// The built `tools` binary: `tools list sports`, the event shapes on recorded answers, one-line usage errors.
@Suite("tools list sports and the event shapes, end to end", .serialized)
struct SportsShapesEndToEndTests {
    @Test("tools list sports golf lists the tours; an unknown sport is one line, exit 64")
    func listing() async throws {
        let scratch = try Scratch()
        let golf = try await ToolsBinary.run(["list", "sports", "golf"], environment: scratch.environment())
        #expect(golf.status == 0, "stderr: \(golf.stderr)")
        #expect(golf.stdout.hasPrefix("golf: 9 leagues · leaderboards\n  golf/pga  PGA Tour"))
        let all = try await ToolsBinary.run(["list", "sports"], environment: scratch.environment())
        #expect(all.status == 0 && all.stdout.contains("  soccer/bra.1  Brasileirão Série A"))
        let bad = try await ToolsBinary.run(["list", "sports", "curlin"], environment: scratch.environment())
        #expect(bad.status == 64)
        #expect(bad.stderr.split(separator: "\n").count == 2, "\(bad.stderr)")  // the message, then the suggestion
        #expect(bad.stderr.contains("unknown sport 'curlin'"))
    }

    @Test("golf on recorded answers (scoreboard + leaderboard endpoint), and a new league word with a bad date")
    func golf() async throws {
        let scratch = try Scratch()
        let environment = scratch.environment([
            "ALMANAC_REPLAY": Fixtures.directory.path, "ALMANAC_NOW": "2026-04-05T23:30:00Z",
        ])
        let run = try await ToolsBinary.run(
            ["run", "sports", "pga", "--tz", "America/New_York"], environment: environment)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdout.contains("Valero Texas Open · Final · Round 4 of 4"))
        #expect(run.stdout.contains("  1 J.J. Spaun -17\n  T2 Matt Wallace -16\n"))
        let cricket = try await ToolsBinary.run(["run", "sports", "cricket"], environment: environment)
        #expect(cricket.status == 64)
        #expect(
            cricket.stderr.hasPrefix("error: cricket is not supported: ESPN lists no cricket leagues"),
            "\(cricket.stderr)")
        let unknown = try await ToolsBinary.run(["run", "sports", "bra1"], environment: environment)
        #expect(unknown.status == 64 && unknown.stderr.contains("did you mean 'bra.1'?"))
        #expect(unknown.stderr.contains("tools list sports"))
    }
}
