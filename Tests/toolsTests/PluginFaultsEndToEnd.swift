import AlmanacTesting
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Plugins that misbehave (Fixtures/plugins/fault_plugin.py, one mode each) against the built
/// binary: each gives an error naming the plugin and exit 69 (64 for bad arguments), the cache
/// keeps nothing of it, and no plugin process outlives `tools`.
@Suite("plugins: faults, end to end", .serialized)
struct PluginFaultsEndToEndTests {
    static let modes = ["ok", "crash-start", "crash-call", "hang", "flood", "bad-jsonrpc", "outside-schema"]

    /// One plugin per mode, named after it without the dashes (`crashstart`).
    static func setup() throws -> PluginPeers.Setup {
        try PluginPeers.Setup { starts in
            modes.map { mode in
                """
                [plugins.\(mode.replacingOccurrences(of: "-", with: ""))]
                command = ["python3", "\(PluginPeers.faultPlugin.path)", "\(mode)"]
                env = { FAULT_STARTS = "\(starts)", PYTHONDONTWRITEBYTECODE = "1" }
                """
            }.joined(separator: "\n\n")
        }
    }

    /// The error printed for a failing plugin call: exit 69, the tool and plugin named, no trace.
    static func expectPluginFailure(_ output: CommandOutput, plugin: String, saying detail: String) {
        #expect(output.status == 69, "\(output.stderr)")
        #expect(output.stdout.isEmpty)
        let lines = output.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(output.stderr)")
        #expect(lines.first?.hasPrefix("error: \(plugin).") == true, "\(output.stderr)")
        #expect(lines.last?.hasPrefix("  \(plugin): ") == true, "\(output.stderr)")
        #expect(output.stderr.contains(detail), "\(output.stderr)")
        #expect(!output.stderr.contains("fault plugin"), "the plugin's stderr reached the terminal")
        #expect(!output.stderr.contains("Fatal error"))
    }

    @Test("a plugin that exits at start: 69 naming it, and its stderr in its log, not on the terminal")
    func crashAtStart() async throws {
        let setup = try Self.setup()
        let output = try await setup.run(["run", "crashstart.echo", "--text", "hi"])
        Self.expectPluginFailure(output, plugin: "crashstart", saying: "exited with status 3 during the handshake")
        let log = try String(
            contentsOf: setup.cache.appendingPathComponent("plugins/crashstart.log"), encoding: .utf8)
        #expect(log.contains("fault plugin (crash-start) started"))
    }

    @Test("a plugin that dies during a call: 69 naming it; the next call starts it again")
    func crashMidCall() async throws {
        let setup = try Self.setup()
        for _ in 0..<2 {
            let output = try await setup.run(["run", "crashcall.echo", "--text", "hi"])
            Self.expectPluginFailure(output, plugin: "crashcall", saying: "exited with status 4 during the call")
        }
        #expect(setup.startedPids.count == 2)
    }

    @Test("a plugin that hangs (and ignores the end of its input): the deadline ends the call, the plugin is killed")
    func hang() async throws {
        let setup = try Self.setup()
        let output = try await setup.run(["run", "hang.echo", "--text", "hi"], ["ALMANAC_TIMEOUT": "2"])
        Self.expectPluginFailure(output, plugin: "hang", saying: "no answer within 2 s")
        let pids = setup.startedPids
        #expect(pids.count == 1)
        for pid in pids { #expect(PluginPeers.isGone(pid), "plugin \(pid) outlived tools") }
    }

    @Test("SIGTERM to tools during a plugin call kills the plugin's process group")
    func sigterm() throws {
        let setup = try Self.setup()
        let process = Process()
        process.executableURL = ToolsBinary.url
        process.arguments = ["run", "hang.echo", "--text", "hi"]
        process.environment = setup.environment(["ALMANAC_TIMEOUT": "60"])
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Bounded wait for the plugin to start and be listed, then for the call to be in flight.
        for _ in 0..<300 where setup.startedPids.isEmpty { usleep(20_000) }
        let pids = setup.startedPids
        #expect(pids.count == 1)
        usleep(300_000)
        kill(process.processIdentifier, SIGTERM)
        ChildProcess.stop(process, grace: 5)
        #expect(process.terminationReason == .uncaughtSignal)
        for pid in pids { #expect(PluginPeers.isGone(pid), "plugin \(pid) outlived tools") }
    }

    @Test("a 50 MB answer is cut at the message limit: 69 naming the plugin")
    func flood() async throws {
        let setup = try Self.setup()
        let output = try await setup.run(["run", "flood.echo", "--text", "hi"])
        Self.expectPluginFailure(output, plugin: "flood", saying: "larger than 4 MB")
    }

    @Test("a line that is not JSON-RPC: 69 naming the plugin")
    func badJSONRPC() async throws {
        let setup = try Self.setup()
        let output = try await setup.run(["run", "badjsonrpc.echo", "--text", "hi"])
        Self.expectPluginFailure(output, plugin: "badjsonrpc", saying: "not JSON during the call")
    }

    @Test("an answer outside the tool's declared output schema: 69, and nothing of it is cached")
    func outsideSchema() async throws {
        let setup = try Self.setup()
        for _ in 0..<2 {
            let output = try await setup.run(["run", "outsideschema.count"])
            Self.expectPluginFailure(
                output, plugin: "outsideschema",
                saying: "outside the tool's output schema: 'count' must be integer, got a string")
        }
        let good = try await setup.run(["run", "ok.count", "--format", "json"])
        #expect(good.status == 0, "\(good.stderr)")
        let data = try #require(try PluginPeers.json(good.stdout)["data"] as? [String: Any])
        #expect(data["count"] as? Int == 3)
    }

    @Test("arguments against the plugin's input schema: 64 before any process starts")
    func badArguments() async throws {
        let setup = try Self.setup()
        _ = try await setup.run(["run", "ok.echo", "--text", "hi"])
        let starts = setup.startedPids.count
        let cases: [([String], String)] = [
            (["--text", "hi", "--times", "many"], "times must be a whole number, got 'many'"),
            (["--text", "hi", "--tone", "LOUD"], "'tone' must be one of 'plain', 'Loud'"),
            (["--txt", "hi"], "unknown option '--txt' for ok.echo"),
            ([], "missing text for ok.echo"),
        ]
        for (words, message) in cases {
            let output = try await setup.run(["run", "ok.echo"] + words)
            #expect(output.status == 64, "\(words): \(output.stderr)")
            #expect(output.stderr.contains(message), "\(words): \(output.stderr)")
        }
        #expect(setup.startedPids.count == starts)
    }

    @Test(
        "a good plugin: answered, then answered from the cache with no process started; it gets only PATH, HOME and its env"
    )
    func goodPlugin() async throws {
        let setup = try Self.setup()
        let first = try await setup.run(["run", "ok.echo", "--text", "hi", "--times", "2", "--format", "json"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try PluginPeers.json(first.stdout)["data"] as? String == "hi hi")
        #expect(first.stderr.isEmpty, "\(first.stderr)")
        #expect(setup.startedPids.count == 1)
        let second = try await setup.run(["run", "ok.echo", "--text", "hi", "--times", "2"])
        #expect(second.status == 0)
        #expect(second.stdout.contains("hi hi"))
        #expect(setup.startedPids.count == 1)

        let env = try await setup.run(
            ["run", "ok.env", "--format", "json"], ["BRAVE_API_KEY": "secret-key", "ALMANAC_SERVE_TOKEN": "t"])
        #expect(env.status == 0, "\(env.stderr)")
        let data = try #require(try PluginPeers.json(env.stdout)["data"] as? [String: Any])
        let names = Set(try #require(data["names"] as? [String]))
        #expect(names.isSuperset(of: ["PATH", "HOME", "FAULT_STARTS", "PYTHONDONTWRITEBYTECODE"]))
        #expect(!names.contains("BRAVE_API_KEY"))
        #expect(!names.contains { $0.hasPrefix("ALMANAC_") })
        for pid in setup.startedPids { #expect(PluginPeers.isGone(pid), "plugin \(pid) outlived tools") }
    }
}
