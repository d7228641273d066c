import AlmanacTesting
import Foundation
import Testing

/// The `[me]` profile through the built `tools` binary, on recorded answers (issue #34).
@Suite("tools run with a [me] profile, end to end")
struct ProfileEndToEndTests {
    @Test("sports --mine: an unknown team is one warning line on stderr; stdout is the answer")
    func mineWarning() async throws {
        let scratch = try Scratch()
        let environment = scratch.environment([
            "ALMANAC_REPLAY": Fixtures.directory.path, "ALMANAC_NOW": "2024-12-16T04:30:00Z",
            "ALMANAC_ME_TEAMS": "nba:lakers,nba:lakerz",
        ])
        let words = ["run", "sports", "--mine", "--date", "2024-12-15", "--tz", "America/New_York"]
        let output = try await ToolsBinary.run(words, environment: environment)
        #expect(output.status == 0, "stderr: \(output.stderr)")
        #expect(output.stdout.contains("NBA: Final: Grizzlies (18-9) 110 @ Lakers (14-12) 116 · Lakers won"))
        #expect(!output.stdout.contains("lakerz"))
        let warnings = output.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: [me]") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("warning: [me] teams: 'nba:lakerz': unknown NBA team 'lakerz'") == true)

        let json = try await ToolsBinary.run(words + ["--format", "json"], environment: environment)
        let envelope = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json.stdout)")
        let data = try #require(envelope["data"] as? [String: Any])
        #expect((data["warnings"] as? [String])?.count == 1)
    }
}
