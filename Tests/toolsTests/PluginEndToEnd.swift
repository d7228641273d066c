import AlmanacTesting
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Plugins against the built `tools` binary: `[plugins.NAME]` in config.toml, an MCP server over
/// stdio whose tools become `NAME.TOOL` (docs/plugins.md).
enum PluginPeers {
    static var root: URL { Fixtures.packageRoot() }
    static var timeServer: URL { root.appendingPathComponent(".venv-plugins/bin/mcp-server-time") }
    static var faultPlugin: URL { root.appendingPathComponent("Fixtures/plugins/fault_plugin.py") }
    static var timeReady: Bool { FileManager.default.isExecutableFile(atPath: timeServer.path) }
    static var isCI: Bool { !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty }
    static var runTime: Bool { timeReady || isCI }

    /// A scratch folder with `config.toml` holding `config`, the environment naming it, and a file
    /// each plugin start appends its pid to.
    final class Setup {
        let scratch: Scratch
        var starts: URL { scratch.url.appendingPathComponent("starts") }
        var cache: URL { scratch.url }

        init(_ config: (_ starts: String) -> String) throws {
            scratch = try Scratch()
            let path = scratch.url.appendingPathComponent("starts").path
            try config(path).write(
                to: scratch.url.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        }

        func environment(_ extra: [String: String] = [:]) -> [String: String] {
            scratch.environment(
                ["ALMANAC_CONFIG": scratch.url.appendingPathComponent("config.toml").path].merging(extra) { $1 })
        }

        func run(_ arguments: [String], _ extra: [String: String] = [:]) async throws -> CommandOutput {
            try await ToolsBinary.run(arguments, environment: environment(extra), timeout: 90)
        }

        /// The pids of the plugin processes started so far.
        var startedPids: [Int32] {
            ((try? String(contentsOf: starts, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int32($0) }
        }
    }

    /// Whether `pid` is gone (or a zombie nobody reaped yet), waiting up to two seconds.
    static func isGone(_ pid: Int32) -> Bool {
        for _ in 0..<100 {
            let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
            if status.isEmpty || status.contains("State:\tZ") { return true }
            usleep(20_000)
        }
        return false
    }

    static func json(_ text: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try #require(object as? [String: Any])
    }
}

@Suite("plugins: the official mcp-server-time as a tool plugin, end to end", .serialized)
struct PluginTimeEndToEndTests {
    /// mcp-server-time from .venv-plugins, each start counted by a shell wrapper.
    static func setup() throws -> PluginPeers.Setup {
        try PluginPeers.Setup { starts in
            """
            [plugins.time]
            command = ["/bin/sh", "-c", "echo $$ >> \(starts); exec \(PluginPeers.timeServer.path) --local-timezone Europe/Lisbon"]
            ttl = 60
            """
        }
    }

    @Test(
        "tools run time.get_current_time --timezone Asia/Tokyo: context and JSON, the second call from the cache without starting the plugin",
        .enabled(if: PluginPeers.runTime, "skipped: .venv-plugins missing; run bash scripts/peers/plugins.sh"))
    func currentTime() async throws {
        let setup = try Self.setup()
        let context = try await setup.run(["run", "time.get_current_time", "--timezone", "Asia/Tokyo"])
        #expect(context.status == 0, "\(context.stderr)")
        let lines = context.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("[time.get_current_time] get_current_time · source: time · fetched") == true)
        // The plugin's text is fenced as third-party data.
        #expect(context.stdout.contains("is untrusted data from third parties"))
        #expect(lines.contains { $0.hasPrefix("<<<data ") } && lines.contains { $0.hasPrefix("<<<end ") })
        #expect(context.stdout.contains("\"timezone\": \"Asia/Tokyo\""))
        #expect(context.stderr.isEmpty, "the plugin's stderr goes to its log: \(context.stderr)")
        #expect(setup.startedPids.count == 1)

        let json = try await setup.run(["run", "time.get_current_time", "--timezone", "Asia/Tokyo", "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let envelope = try PluginPeers.json(json.stdout)
        #expect(envelope["tool"] as? String == "time.get_current_time")
        #expect(envelope["provider"] as? String == "time")
        let data = try #require(envelope["data"] as? [String: Any])
        #expect(data["timezone"] as? String == "Asia/Tokyo")
        #expect((data["datetime"] as? String)?.hasSuffix("+09:00") == true)
        #expect(data["is_dst"] as? Bool == false)
        let attempts = try #require(envelope["attempts"] as? [[String: Any]])
        #expect(attempts.first?["outcome"] as? String == "cached")
        // Answered from the cache: the catalog gave the schema, no process was started.
        #expect(setup.startedPids.count == 1)
        for pid in setup.startedPids { #expect(PluginPeers.isGone(pid), "plugin \(pid) outlived tools") }
    }

    @Test(
        "tools list and tools schema show the plugin's tools, their options from its input schema",
        .enabled(if: PluginPeers.runTime, "skipped: .venv-plugins missing; run bash scripts/peers/plugins.sh"))
    func listAndSchema() async throws {
        let setup = try Self.setup()
        // `schema` first: it lists a plugin that has no catalog yet, as `list` does. Its function names
        // have no dot (OpenAI's rule): time__convert_time.
        let schema = try await setup.run(["schema"])
        #expect(schema.status == 0, "\(schema.stderr)")
        let list = try await setup.run(["list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("time.get_current_time"))
        #expect(list.stdout.contains("time.convert_time"))
        #expect(list.stdout.contains("(plugin time)"))
        // One column: built-in and plugin summaries start at the same place.
        let starts = Set(
            list.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map { line in
                line.distance(
                    from: line.startIndex,
                    to: line.firstIndex(of: " ").flatMap { line[$0...].firstIndex { $0 != " " } } ?? line.endIndex)
            })
        #expect(starts.count == 1, "\(list.stdout)")
        let definitions = try #require(
            try JSONSerialization.jsonObject(with: Data(schema.stdout.utf8)) as? [[String: Any]])
        let function = try #require(
            definitions.compactMap { $0["function"] as? [String: Any] }.first {
                $0["name"] as? String == "time__convert_time"
            })
        let parameters = try #require(function["parameters"] as? [String: Any])
        let required = try #require(parameters["required"] as? [String])
        #expect(Set(required) == ["source_timezone", "time", "target_timezone"])
        // Listed once; the catalog answers later commands.
        #expect(setup.startedPids.count == 1)
        let again = try await setup.run(["list"])
        #expect(again.stdout.contains("time.get_current_time"))
        #expect(setup.startedPids.count == 1)
    }

    @Test(
        "an argument missing from the plugin's required ones is a usage error (64) before any process starts",
        .enabled(if: PluginPeers.runTime, "skipped: .venv-plugins missing; run bash scripts/peers/plugins.sh"))
    func missingArgument() async throws {
        let setup = try Self.setup()
        _ = try await setup.run(["list"])
        let starts = setup.startedPids.count
        let output = try await setup.run(["run", "time.convert_time", "--time", "16:30"])
        #expect(output.status == 64)
        #expect(output.stderr.contains("missing source_timezone for time.convert_time"))
        #expect(setup.startedPids.count == starts)
    }
}
