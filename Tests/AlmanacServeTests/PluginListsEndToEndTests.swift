import AlmanacTesting
import Foundation
import Testing

/// Every list of tools comes from the registry (issue 32, point 6): a plugin's tool, once
/// registered, shows up in `tools list`, in the usage error for an unknown tool, in `tools run
/// --help`'s pointer to them, and in the OpenAPI description of `tools serve`, like a built-in one.
@Suite("plugins: tool lists from the registry, end to end", .serialized)
struct PluginListsEndToEndTests {
    @Test("a plugin tool appears in tools list, unknown-tool errors and the OpenAPI description")
    func lists() async throws {
        let scratch = try TempDirectory()
        let plugin = Fixtures.packageRoot().appendingPathComponent("Fixtures/plugins/fault_plugin.py").path
        let config = scratch.url.appendingPathComponent("config.toml")
        try """
        [plugins.ok]
        command = ["python3", "\(plugin)", "ok"]
        """.write(to: config, atomically: true, encoding: .utf8)
        let environment = ToolsBinary.environment(cacheDirectory: scratch.url, extra: ["ALMANAC_CONFIG": config.path])
        let list = try await ToolsBinary.run(["list"], environment: environment)
        #expect(list.status == 0 && list.stdout.contains("ok.echo"), "\(list.stdout)\(list.stderr)")
        let unknown = try await ToolsBinary.run(["run", "ok.ech"], environment: environment)
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("did you mean 'ok.echo'?"), "\(unknown.stderr)")
        #expect(unknown.stderr.contains("ok.count") && unknown.stderr.contains("sports"), "\(unknown.stderr)")
        let help = try await ToolsBinary.run(["run", "--help"], environment: environment)
        // Help names no fixed list (which would leave plugin tools out): it points at `tools list`.
        let argument = help.stdout.split(separator: "\n").first { $0.contains("<tool>") && $0.contains("The tool") }
        #expect(argument?.contains("'tools list' shows them") == true, "\(help.stdout)")
        #expect(!help.stdout.contains("calendar or search"))
        let server = try ServeProcess(environment: environment)
        defer { server.stop() }
        let openAPI = try await HTTP.get("\(server.baseURL)/openapi.json")
        let info = try #require(openAPI.json?["info"] as? [String: Any])
        let description = try #require(info["description"] as? String)
        #expect(description.contains("ok.echo") && description.contains("sports"), "\(description)")
        #expect(!description.contains("ok.wipe"), "a destructive tool not published is not described")
    }
}
