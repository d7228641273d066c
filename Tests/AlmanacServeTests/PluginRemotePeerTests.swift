import AlmanacTesting
import Foundation
import Testing

/// The official Python MCP SDK serving streamable HTTP on 127.0.0.1 (Fixtures/plugins/remote_http_server.py),
/// started with the settings it reads and stopped by its pid.
final class RemotePeer: @unchecked Sendable {
    // @unchecked: the process handle is touched by the owning test only, and stopped once.
    let process = Process()
    let port: Int
    var url: String { "http://127.0.0.1:\(port)/mcp" }

    struct NotReady: Error, CustomStringConvertible { var description: String }

    init(_ settings: [String: String] = [:]) throws {
        process.executableURL = ServePeers.mcpPython
        process.arguments = [
            "-W", "ignore", ServePeers.root.appendingPathComponent("Fixtures/plugins/remote_http_server.py").path,
        ]
        process.environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
            .merging(settings) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard let port = Int(ChildProcess.firstLine(of: out, seconds: 30)) else {
            ChildProcess.stop(process)
            throw NotReady(description: "the remote MCP peer did not start")
        }
        self.port = port
    }

    func stop() { ChildProcess.stop(process, grace: 3) }

    deinit { stop() }
}

/// Remote plugins against a real streamable HTTP server (issue 32, point 1): a bearer token from the
/// environment reaches the server and never our output, errors or cache.
@Suite("plugins: a remote MCP server of the Python SDK", .serialized)
struct PluginRemotePeerTests {
    private func client(
        _ folder: URL, _ entry: String, extra: [String: String] = [:], mode: Int = 0o600
    ) throws
        -> [String: String]
    {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let config = folder.appendingPathComponent("config.toml")
        try "[plugins.remote]\n\(entry)\n".write(to: config, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: config.path)
        return ToolsBinary.environment(
            cacheDirectory: folder.appendingPathComponent("cache"),
            extra: ["ALMANAC_CONFIG": config.path].merging(extra) { $1 })
    }

    /// Every file under `folder` (cache, catalog, log), as text, to look for a secret in.
    private func everything(under folder: URL) -> String {
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        var text = ""
        while let file = files?.nextObject() as? URL {
            if let data = try? Data(contentsOf: file) { text += String(decoding: data, as: UTF8.self) }
        }
        return text
    }

    @Test(
        "token_env's bearer token reaches the server; a refused one is one line naming the plugin, never the token",
        .enabled(if: ServePeers.runMCP, "skipped: .venv-mcp missing; run scripts/setup-peers"))
    func bearerToken() async throws {
        let secret = "s3cret-\(UUID().uuidString)"
        let peer = try RemotePeer(["EXPECT_TOKEN": secret])
        defer { peer.stop() }
        let scratch = try TempDirectory()
        let entry = "url = \"\(peer.url)\"\ntoken_env = \"REMOTE_TOKEN\""

        let good = scratch.url.appendingPathComponent("good")
        let environment = try client(good, entry, extra: ["REMOTE_TOKEN": secret])
        let run = try await ToolsBinary.run(["run", "remote.echo", "--text", "hello there"], environment: environment)
        #expect(run.status == 0 && run.stdout.contains("hello there"), "\(run.stdout)\(run.stderr)")
        let json = try await ToolsBinary.run(
            ["run", "remote.echo", "--text", "hello there", "--format", "json"], environment: environment)
        #expect(json.status == 0, "\(json.stderr)")
        for text in [run.stdout, run.stderr, json.stdout, json.stderr, everything(under: good)] {
            #expect(!text.contains(secret))
        }

        let wrong = "wrong-\(UUID().uuidString)"
        let refused = try await ToolsBinary.run(
            ["run", "remote.echo", "--text", "hi"],
            environment: client(scratch.url.appendingPathComponent("wrong"), entry, extra: ["REMOTE_TOKEN": wrong]))
        #expect([64, 69].contains(refused.status), "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("remote") && refused.stderr.contains("HTTP 401"), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count <= 2, "\(refused.stderr)")
        #expect(!refused.stderr.contains(wrong) && !refused.stdout.contains(wrong))
        #expect(!everything(under: scratch.url.appendingPathComponent("wrong")).contains(wrong))

        let none = try await ToolsBinary.run(
            ["run", "remote.echo", "--text", "hi"],
            environment: client(scratch.url.appendingPathComponent("none"), "url = \"\(peer.url)\""))
        #expect([64, 69].contains(none.status) && none.stderr.contains("token_env"), "\(none.stderr)")

        let unset = try await ToolsBinary.run(
            ["run", "remote.echo", "--text", "hi"],
            environment: client(scratch.url.appendingPathComponent("unset"), entry))
        #expect(unset.status != 0 && unset.stderr.contains("REMOTE_TOKEN"), "\(unset.stderr)")
    }

    @Test(
        "token in the config file: refused while others can read the file, sent once it is 0600",
        .enabled(if: ServePeers.runMCP, "skipped: .venv-mcp missing; run scripts/setup-peers"))
    func tokenInFile() async throws {
        let secret = "f1le-\(UUID().uuidString)"
        let peer = try RemotePeer(["EXPECT_TOKEN": secret])
        defer { peer.stop() }
        let scratch = try TempDirectory()
        let entry = "url = \"\(peer.url)\"\ntoken = \"\(secret)\""
        let open = try await ToolsBinary.run(
            ["run", "remote.echo", "--text", "hi"],
            environment: client(scratch.url.appendingPathComponent("open"), entry, mode: 0o644))
        #expect(open.status == 64 && open.stderr.contains("chmod 600"), "\(open.stderr)")
        #expect(!open.stderr.contains(secret))
        let closed = try await ToolsBinary.run(
            ["run", "remote.echo", "--text", "hi"],
            environment: client(scratch.url.appendingPathComponent("closed"), entry))
        #expect(closed.status == 0 && closed.stdout.contains("hi"), "\(closed.stderr)")
        #expect(!closed.stdout.contains(secret) && !closed.stderr.contains(secret))
    }

    @Test(
        "a server's ping and roots/list inside a call are answered (pong, method not found) and the call completes",
        .enabled(if: ServePeers.runMCP, "skipped: .venv-mcp missing; run scripts/setup-peers"))
    func serverRequests() async throws {
        let peer = try RemotePeer()
        defer { peer.stop() }
        let scratch = try TempDirectory()
        let run = try await ToolsBinary.run(
            ["run", "remote.nosy", "--text", "asked"], environment: client(scratch.url, "url = \"\(peer.url)\""))
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("asked: ping pong; roots refused: -32601"), "\(run.stdout)")
    }

    @Test(
        "a stream cut after an event id is resumed with Last-Event-ID; one cut too many is one line naming the plugin",
        .enabled(if: ServePeers.runMCP, "skipped: .venv-mcp missing; run scripts/setup-peers"))
    func resume() async throws {
        let scratch = try TempDirectory()
        let once = try RemotePeer(["CUT_TIMES": "1"])
        defer { once.stop() }
        let run = try await ToolsBinary.run(
            ["run", "remote.slow_echo", "--text", "again"],
            environment: client(scratch.url.appendingPathComponent("once"), "url = \"\(once.url)\""))
        #expect(run.status == 0 && run.stdout.contains("resumed again"), "\(run.stdout)\(run.stderr)")

        let always = try RemotePeer(["CUT_TIMES": "100"])
        defer { always.stop() }
        let broken = try await ToolsBinary.run(
            ["run", "remote.slow_echo", "--text", "again"],
            environment: client(scratch.url.appendingPathComponent("always"), "url = \"\(always.url)\""))
        #expect(broken.status == 69, "\(broken.stdout)\(broken.stderr)")
        #expect(broken.stderr.contains("remote") && broken.stderr.contains("3 reconnections"), "\(broken.stderr)")
        #expect(broken.stderr.split(separator: "\n").count <= 2, "\(broken.stderr)")
    }
}
