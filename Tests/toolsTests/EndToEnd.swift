import AlmanacTesting
import Foundation
import Testing

/// A private cache folder per test, removed afterwards.
struct Scratch: ~Copyable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        ToolsBinary.environment(cacheDirectory: url, extra: extra)
    }

    /// A folder of empty files named like `libraries`, for `LD_LIBRARY_PATH`: found before the real
    /// ones, they make dlopen fail ("file too short") as a missing library would.
    func unloadable(_ libraries: [String]) throws -> URL {
        let folder = url.appendingPathComponent("lib")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in libraries { try Data().write(to: folder.appendingPathComponent(name)) }
        return folder
    }
}

@Suite("CLI usage errors")
struct CLIUsageTests {
    @Test("an unknown tool exits 64 with the list of tools")
    func unknownTool() async throws {
        let scratch = try Scratch()
        let output = try await ToolsBinary.run(["run", "sprots", "nba"], environment: scratch.environment())
        #expect(output.status == 64)
        #expect(output.stderr.hasPrefix("error: unknown tool 'sprots'"))
        #expect(output.stdout.isEmpty)
        #expect(!output.stderr.contains("Fatal error"))
    }

    @Test(
        "bad environment values are named with an example",
        arguments: [
            ("ALMANAC_TIMEOUT", "soon", "ALMANAC_TIMEOUT must be a number of seconds above 0 to 3600, got 'soon'"),
            ("ALMANAC_TIMEOUT", "1e20", "ALMANAC_TIMEOUT must be a number of seconds above 0 to 3600, got '1e20'"),
            ("ALMANAC_CACHE_TTL", "-5", "ALMANAC_CACHE_TTL must be a number of seconds from 0 to 604800, got '-5'"),
            ("ALMANAC_CACHE_TTL", "9e18", "ALMANAC_CACHE_TTL must be a number of seconds from 0 to 604800, got '9e18'"),
            ("ALMANAC_NOW", "yesterday", "ALMANAC_NOW is not an ISO 8601 instant: 'yesterday'"),
            ("ALMANAC_ESPN_URL", "ftp://x", "ALMANAC_ESPN_URL is not an http(s) URL: 'ftp://x'"),
        ])
    func badEnvironment(name: String, value: String, message: String) async throws {
        let scratch = try Scratch()
        let output = try await ToolsBinary.run(
            ["run", "sports", "nba"], environment: scratch.environment([name: value]))
        #expect(output.status == 64)
        #expect(output.stderr.components(separatedBy: "\n").first == "error: \(message)")
    }

    @Test("tools list TOOL lists the tool's choices when it has some; otherwise one line naming which do")
    func listChoices() async throws {
        let scratch = try Scratch()
        let golf = try await ToolsBinary.run(["list", "sports", "golf"], environment: scratch.environment())
        #expect(golf.status == 0)
        #expect(golf.stdout.contains("golf/pga"))
        let weather = try await ToolsBinary.run(["list", "weather"], environment: scratch.environment())
        #expect(weather.status == 64)
        #expect(weather.stderr.hasPrefix("error: nothing to list for 'weather'"))
        #expect(weather.stderr.contains("tools list sports [FILTER]"))
        let unknown = try await ToolsBinary.run(["list", "wether"], environment: scratch.environment())
        #expect(unknown.status == 64)
        #expect(unknown.stderr.hasPrefix("error: unknown tool 'wether'"))
    }

    @Test("an unknown output format and an unknown zone are usage errors")
    func badGlobals() async throws {
        let scratch = try Scratch()
        let format = try await ToolsBinary.run(
            ["run", "sports", "nba", "--format", "xml"], environment: scratch.environment())
        #expect(format.status == 64)
        #expect(format.stderr.contains("unknown format 'xml'"))
        let zone = try await ToolsBinary.run(
            ["run", "sports", "nba", "--tz", "Mars/Olympus"], environment: scratch.environment())
        #expect(zone.status == 64)
        #expect(zone.stderr.contains("unknown time zone 'Mars/Olympus'"))
    }

    @Test("a config file holding a secret must be private (0600)")
    func configPermissions() async throws {
        let scratch = try Scratch()
        let config = scratch.url.appendingPathComponent("config.toml")
        try "[brave]\napi_key = \"test-secret-value\"\n".write(to: config, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: config.path)
        let output = try await ToolsBinary.run(
            ["list"], environment: scratch.environment(["ALMANAC_CONFIG": config.path]))
        #expect(output.status == 64)
        #expect(output.stderr.contains("holds secrets but others can read it (mode 644)"))
        #expect(output.stderr.contains("chmod 600"))
        #expect(!output.stderr.contains("test-secret-value"))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: config.path)
        let allowed = try await ToolsBinary.run(
            ["list"], environment: scratch.environment(["ALMANAC_CONFIG": config.path]))
        #expect(allowed.status == 0)
        #expect(!allowed.stdout.contains("test-secret-value"))
    }

    @Test("a broken config file names the line")
    func brokenConfig() async throws {
        let scratch = try Scratch()
        let config = scratch.url.appendingPathComponent("config.toml")
        try "[weather]\nplace = Lisbon\n".write(to: config, atomically: true, encoding: .utf8)
        let output = try await ToolsBinary.run(
            ["list"], environment: scratch.environment(["ALMANAC_CONFIG": config.path]))
        #expect(output.status == 64)
        #expect(output.stderr.contains("line 2: unsupported value 'Lisbon' (quote text values)"))
    }
}
