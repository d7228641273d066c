import AlmanacTesting
import Foundation
import Testing

/// Plugin tools through `tools mcp`, driven by the official Python `mcp` client
/// (Fixtures/plugins/mcp_plugin_client.py): published like any tool, arguments checked against the
/// plugin's schema, destructive ones kept back unless the operator allows them, programs reused
/// and stopped when the server ends.
@Suite("plugins: through tools mcp, end to end", .serialized)
struct PluginServersEndToEndTests {
    static var python: URL { PluginPeers.root.appendingPathComponent(".venv-mcp/bin/python") }
    static var run: Bool { FileManager.default.isExecutableFile(atPath: python.path) || PluginPeers.isCI }

    @Test(
        "tools/list publishes plugin tools (not a destructive one unless allowed); calls answer, bad arguments are tool errors",
        .enabled(if: run, "skipped: .venv-mcp missing; run scripts/setup-peers (or bash scripts/peers/mcp.sh)"))
    func mcp() async throws {
        let setup = try PluginPeers.Setup { starts in
            """
            [plugins.ok]
            command = ["python3", "\(PluginPeers.faultPlugin.path)", "ok"]
            env = { FAULT_STARTS = "\(starts)" }

            [plugins.loose]
            command = ["python3", "\(PluginPeers.faultPlugin.path)", "ok"]
            env = { FAULT_STARTS = "\(starts)" }
            allow_destructive = ["wipe"]
            """
        }
        let calls = """
            [["ok.echo", {"text": "hi", "times": 2}], ["ok.echo", {"text": "hi", "times": "x"}],
             ["ok.wipe", {}], ["loose.wipe", {}], ["ok.echo", {"text": "bye"}]]
            """
        let output = try await Command.run(
            Self.python,
            [
                PluginPeers.root.appendingPathComponent("Fixtures/plugins/mcp_plugin_client.py").path,
                ToolsBinary.url.path, calls,
            ],
            environment: setup.environment(), timeout: 90)
        #expect(output.status == 0, "\(output.stderr)")
        let result = try PluginPeers.json(output.stdout)
        let tools = try #require(result["tools"] as? [String])
        #expect(tools.contains("sports"))
        #expect(Set(["ok.echo", "ok.env", "ok.count", "loose.wipe", "loose.echo"]).isSubset(of: Set(tools)))
        #expect(!tools.contains("ok.wipe"))
        let answers = try #require(result["calls"] as? [[String: Any]])
        #expect(answers.count == 5)
        func text(_ index: Int) -> String { (answers[index]["text"] as? [String] ?? []).joined(separator: "\n") }
        func failed(_ index: Int) -> Bool { answers[index]["isError"] as? Bool ?? false }
        #expect(!failed(0) && text(0).contains("hi hi"), "\(text(0))")
        #expect(failed(1) && text(1).contains("times must be a whole number, got 'x'"), "\(text(1))")
        #expect(failed(2) && text(2).contains("ok.wipe"), "\(text(2))")
        #expect(!failed(3) && text(3).contains("wiped"), "\(text(3))")
        #expect(!failed(4) && text(4).contains("bye"), "\(text(4))")
        // Listing started one program per plugin; the calls reused them (at most 2 per plugin).
        let pids = setup.startedPids
        #expect((2...4).contains(pids.count), "\(pids)")
        for pid in pids { #expect(PluginPeers.isGone(pid), "plugin \(pid) outlived tools mcp") }
    }
}
