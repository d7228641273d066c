import AlmanacCore
import AlmanacRuntime
import AlmanacTesting
import Foundation
import Testing

/// `tools plugin list`, `tools plugin check NAME` and `tools doctor`'s plugin lines, against the
/// built binary and Fixtures/plugins/fault_plugin.py.
@Suite("plugins: tools plugin list / check and the doctor, end to end", .serialized)
struct PluginCommandsEndToEndTests {
    /// Plugins `ok`, `crashstart` and `outsideschema`.
    static func setup() throws -> PluginPeers.Setup {
        try PluginPeers.Setup { starts in
            ["ok", "crash-start", "outside-schema"].map { mode in
                """
                [plugins.\(mode.replacingOccurrences(of: "-", with: ""))]
                command = ["python3", "\(PluginPeers.faultPlugin.path)", "\(mode)"]
                env = { FAULT_STARTS = "\(starts)" }
                """
            }.joined(separator: "\n\n")
        }
    }

    func lines(_ output: CommandOutput) -> [String] { output.stdout.split(separator: "\n").map(String.init) }

    @Test("plugin list: each plugin's state, tools and last error")
    func list() async throws {
        let setup = try Self.setup()
        let output = try await setup.run(["plugin", "list"])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = lines(output)
        #expect(lines.contains("ok (python3): listed, 4 tool(s)"), "\(output.stdout)")
        #expect(lines.contains("  ok.echo") && lines.contains("  ok.env") && lines.contains("  ok.count"))
        #expect(lines.contains("  ok.wipe [destructive: command line only]"))
        #expect(lines.contains("crashstart (python3): failing, 0 tool(s)"), "\(output.stdout)")
        #expect(
            lines.contains {
                $0.hasPrefix("  last error: ") && $0.contains("exited with status 3 during the handshake")
            })
        // The error is kept for later runs, as `tools plugin list` shows it.
        let again = try await setup.run(["plugin", "list"])
        #expect(again.stdout.contains("exited with status 3 during the handshake"))
    }

    @Test(
        "plugin check: handshake, schemas and a sample call (the first tool that needs no arguments, or the one named)")
    func check() async throws {
        let setup = try Self.setup()
        let plain = try await setup.run(["plugin", "check", "ok"])
        #expect(plain.status == 0, "\(plain.stdout)\(plain.stderr)")
        let lines = lines(plain)
        #expect(lines.first?.hasPrefix("ok    start and handshake (MCP 2025-06-18): ") == true)
        #expect(lines.contains("ok    tools/list: 4 usable tool(s)"))
        #expect(lines.contains("ok    ok.echo: options --text --times --tone"))
        #expect(lines.contains("ok    ok.count: options none (output schema)"))
        #expect(lines.last?.hasPrefix("ok    sample call ok.env: structured content in ") == true)

        let named = try await setup.run(["plugin", "check", "ok", "--call", "echo", "--arguments", #"{"text": "hi"}"#])
        #expect(named.status == 0, "\(named.stdout)")
        #expect(named.stdout.contains("ok    sample call ok.echo: text of 2 bytes in "))

        let outside = try await setup.run(["plugin", "check", "outsideschema", "--call", "count"])
        #expect(outside.status == 69)
        #expect(
            outside.stdout.contains(
                "fail  sample call outsideschema.count: its answer is outside the tool's output schema"))

        let crash = try await setup.run(["plugin", "check", "crashstart"])
        #expect(crash.status == 69)
        #expect(
            crash.stdout.contains("fail  start and handshake: the plugin exited with status 3 during the handshake"))

        let unknown = try await setup.run(["plugin", "check", "nope"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("no plugin 'nope' is configured"))
        #expect(unknown.stderr.contains("plugins: crashstart, ok, outsideschema"))
    }

    @Test("doctor: one line per plugin, a plugin that cannot start fails the doctor")
    func doctor() async throws {
        let setup = try Self.setup()
        // Every provider at a closed loopback port: nothing reaches outside.
        var variables: [String: String] = [:]
        for endpoint in Runtime.defaultProviders().descriptors.flatMap(\.endpoints) {
            variables[endpoint.env] = "http://127.0.0.1:9"
        }
        variables["ALMANAC_LLM_URL"] = "http://127.0.0.1:9"
        let output = try await setup.run(["doctor"], variables)
        #expect(output.status == 69)
        let lines = lines(output)
        #expect(lines.contains("ok    plugin ok: 4 tool(s) listed, schemas read"), "\(output.stdout)")
        #expect(
            lines.contains(
                "fail  plugin crashstart: start and handshake: the plugin exited with status 3 during the handshake"))
    }
}
