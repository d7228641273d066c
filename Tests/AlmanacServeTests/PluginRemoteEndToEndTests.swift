import AlmanacTesting
import Foundation
import Testing

/// A remote MCP server over streamable HTTP as a plugin (issue 32, point 1): `[plugins.NAME] url =
/// ...` instead of `command`. The server is a real `tools serve` on 127.0.0.1 (its /mcp serves
/// Almanac's own tools on replayed recordings); the client is a second `tools` process.
@Suite("plugins: a remote MCP server over streamable HTTP, end to end", .serialized)
struct PluginRemoteEndToEndTests {
    private func client(_ scratch: TempDirectory, _ entry: String) throws -> [String: String] {
        let config = scratch.url.appendingPathComponent("config.toml")
        try "[plugins.remote]\n\(entry)\n".write(to: config, atomically: true, encoding: .utf8)
        return ToolsBinary.environment(
            cacheDirectory: scratch.url.appendingPathComponent("client"), extra: ["ALMANAC_CONFIG": config.path])
    }

    @Test("a tool of a remote tools serve answers in the standard envelope; a dead URL names the plugin")
    func remoteServe() async throws {
        let scratch = try TempDirectory()
        let server = try ServeProcess(
            environment: ServePeers.replayEnvironment(scratch.url.appendingPathComponent("server")))
        var stopped = false
        defer { if !stopped { server.stop() } }
        let environment = try client(scratch, "url = \"\(server.baseURL)/mcp\"")

        let list = try await ToolsBinary.run(["list"], environment: environment)
        #expect(list.status == 0 && list.stdout.contains("remote.sports"), "\(list.stdout)\(list.stderr)")
        let run = try await ToolsBinary.run(
            ["run", "remote.sports", "--league", "nba", "--date", "2024-12-15"], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("[remote.sports] sports · source: remote") == true, "\(run.stdout)")
        // The facts of the replayed ESPN recording, fenced as the plugin's untrusted text.
        #expect(run.stdout.contains("Final: Celtics (21-5) 112 @ Wizards (3-21) 98"), "\(run.stdout)")
        #expect(run.stdout.contains("<<<data ") && run.stdout.contains("<<<end "), "\(run.stdout)")

        server.stop()
        stopped = true
        let dead = try await ToolsBinary.run(
            ["run", "remote.sports", "--league", "nba", "--date", "2024-12-14"], environment: environment)
        #expect(dead.status == 69, "\(dead.stdout)\(dead.stderr)")
        #expect(dead.stderr.contains("remote.sports") && dead.stderr.contains("remote: could not connect"))
        #expect(!dead.stderr.contains("Fatal") && dead.stderr.split(separator: "\n").count <= 2, "\(dead.stderr)")
    }

    @Test("url and command together, or a url that is not http(s), are usage errors naming the key")
    func badEntries() async throws {
        let scratch = try TempDirectory()
        let both = try await ToolsBinary.run(
            ["list"], environment: client(scratch, "url = \"http://127.0.0.1:9/mcp\"\ncommand = [\"true\"]"))
        #expect(both.status == 64 && both.stderr.contains("has both command and url"), "\(both.stderr)")
        let scheme = try await ToolsBinary.run(["list"], environment: client(scratch, "url = \"file:///etc/passwd\""))
        #expect(scheme.status == 64 && scheme.stderr.contains("url must be an http or https address"))
        let secret = try await ToolsBinary.run(
            ["list"], environment: client(scratch, "url = \"https://me:hunter2@example.org/mcp\""))
        #expect(secret.status == 64 && !secret.stderr.contains("hunter2"), "\(secret.stderr)")
    }
}
