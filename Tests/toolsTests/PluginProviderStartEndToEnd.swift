import AlmanacTesting
import Foundation
import Testing

/// A provider plugin of the sports tool whose program cannot start (issue 32, point 4), against
/// the built binary: a league it may serve is not "unknown", and the built-in leagues still answer.
@Suite("plugins: a provider plugin that fails to start, end to end", .serialized)
struct PluginProviderStartEndToEndTests {
    /// `[plugins.NAME]` providing sports with fault_plugin.py in `mode`, or `command` as given.
    static func setup(_ name: String, command: String) throws -> PluginPeers.Setup {
        try PluginPeers.Setup { starts in
            """
            [plugins.\(name)]
            command = \(command)
            env = { FAULT_STARTS = "\(starts)", PYTHONDONTWRITEBYTECODE = "1" }
            provides = "sports"

            """
        }
    }

    static let replay = [
        "ALMANAC_REPLAY": Fixtures.directory.path, "ALMANAC_NOW": "2024-12-16T04:30:00Z",
        "ALMANAC_TZ": "America/New_York",
    ]

    @Test("a plugin that exits at start: its league is one line naming the plugin and why, exit 69; NBA still answers")
    func crashAtStart() async throws {
        let setup = try Self.setup(
            "pwhl", command: "[\"python3\", \"\(PluginPeers.faultPlugin.path)\", \"crash-start\"]")
        let output = try await setup.run(["run", "sports", "pwhl", "--date", "2024-12-15"], Self.replay)
        #expect(output.status == 69, "\(output.stderr)")
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.split(separator: "\n").count == 1, "\(output.stderr)")
        #expect(output.stderr.hasPrefix("error: sports: "), "\(output.stderr)")
        #expect(output.stderr.contains("plugin pwhl"), "\(output.stderr)")
        #expect(output.stderr.contains("exited with status 3 during the handshake"), "\(output.stderr)")
        #expect(!output.stderr.contains("unknown league"), "\(output.stderr)")
        #expect(!output.stderr.contains("fault plugin"), "the plugin's stderr reached the terminal")

        let nba = try await setup.run(["run", "sports", "nba", "--date", "2024-12-15"], Self.replay)
        #expect(nba.status == 0, "\(nba.stderr)")
        #expect(nba.stdout.hasPrefix("[sports] NBA"), "\(nba.stdout)")
    }

    @Test("a plugin whose command does not exist: one line naming the plugin and the missing program, exit 69")
    func badCommand() async throws {
        let setup = try Self.setup("hockey", command: "[\"/nonexistent/almanac-pwhl-plugin\"]")
        let output = try await setup.run(["run", "sports", "pwhl", "--date", "2024-12-15"], Self.replay)
        #expect(output.status == 69, "\(output.stderr)")
        #expect(output.stderr.split(separator: "\n").count == 1, "\(output.stderr)")
        #expect(output.stderr.contains("plugin hockey"), "\(output.stderr)")
        #expect(output.stderr.contains("/nonexistent/almanac-pwhl-plugin"), "\(output.stderr)")
        #expect(!output.stderr.contains("unknown league"), "\(output.stderr)")
    }
}
