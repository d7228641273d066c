import AlmanacTesting
import Foundation
import Testing

/// Trust around plugins (issue 32, point 5): a secret in a plugin's `env` needs a private
/// config.toml, and JSON callers' array and object arguments are checked against the plugin's
/// input schema (Fixtures/plugins/fault_plugin.py).
@Suite("plugins: trust, end to end", .serialized)
struct PluginTrustEndToEndTests {
    @Test("a secret-looking variable in a plugin's env: config.toml readable by others is refused, 0600 runs")
    func secretNeedsPrivateConfig() async throws {
        let setup = try PluginPeers.Setup { _ in
            """
            [plugins.ok]
            command = ["python3", "\(PluginPeers.faultPlugin.path)", "ok"]
            env = { GITHUB_TOKEN = "s3cr3t-value", PYTHONDONTWRITEBYTECODE = "1" }
            """
        }
        let config = setup.scratch.url.appendingPathComponent("config.toml").path
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: config)
        let refused = try await setup.run(["run", "ok.echo", "--text", "hi"])
        #expect(refused.status == 64, "\(refused.stderr)")
        let lines = refused.stderr.split(separator: "\n")
        #expect(lines.first?.contains("[plugins.ok] env holds GITHUB_TOKEN, a secret, but others can read") == true)
        #expect(refused.stderr.contains("chmod 600"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("s3cr3t"))
        #expect(setup.startedPids.isEmpty)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: config)
        let ran = try await setup.run(["run", "ok.echo", "--text", "hi"])
        #expect(ran.status == 0, "\(ran.stderr)")
    }

    @Test("arrays and objects from an MCP caller reach the plugin when they fit its schema, else a tool error")
    func jsonArguments() async throws {
        let setup = try PluginPeers.Setup { starts in
            """
            [plugins.ok]
            command = ["python3", "\(PluginPeers.faultPlugin.path)", "arrays"]
            env = { FAULT_STARTS = "\(starts)" }
            """
        }
        let calls = """
            [["ok.sum", {"numbers": [1, 2, 3]}], ["ok.sum", {"numbers": [4], "options": {"label": "total"}}],
             ["ok.sum", {"numbers": [1, "x"]}], ["ok.sum", {"numbers": [1], "options": {"colour": "red"}}],
             ["ok.sum", {"numbers": "[5, 6]"}]]
            """
        let output = try await Command.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3", PluginPeers.root.appendingPathComponent("Fixtures/plugins/mcp_sequence.py").path,
                ToolsBinary.url.path, calls,
            ],
            environment: setup.environment(), timeout: 120)
        #expect(output.status == 0, "\(output.stderr)")
        let answers = try #require(try PluginPeers.json(output.stdout)["calls"] as? [[String: Any]])
        #expect(answers.count == 5)
        func text(_ index: Int) -> String { (answers[index]["text"] as? [String] ?? []).joined(separator: "\n") }
        func failed(_ index: Int) -> Bool { answers[index]["isError"] as? Bool ?? false }
        #expect(!failed(0) && text(0).contains("sum 6"), "\(text(0))")
        #expect(!failed(1) && text(1).contains("total 4"), "\(text(1))")
        #expect(failed(2) && text(2).contains("'numbers[1]' must be integer, got a string"), "\(text(2))")
        #expect(failed(3) && text(3).contains("'options.colour' is not allowed"), "\(text(3))")
        // JSON text still works (the published schema describes arrays as JSON text).
        #expect(!failed(4) && text(4).contains("sum 11"), "\(text(4))")
    }
}
