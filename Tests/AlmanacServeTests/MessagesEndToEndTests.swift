import AlmanacTesting
import Foundation
import Testing

/// Issue 21, point 6: every message one line, nothing raw from the machine, terminal control
/// characters never echoed as they came. Runs the built `tools`.
@Suite("one-line messages")
struct MessagesEndToEndTests {
    func run(_ words: [String], _ directory: TempDirectory, extra: [String: String] = [:]) async throws -> CommandOutput
    {
        try await ToolsBinary.run(
            words, environment: ServePeers.replayEnvironment(directory.url, extra: extra), timeout: 60)
    }

    @Test("ESC and BEL in an argument are escaped in the error, over the CLI and /tools")
    func controlCharacters() async throws {
        let directory = try TempDirectory()
        let output = try await run(["run", "sports", "nba\u{1B}]0;owned\u{07}"], directory)
        #expect(output.status == 64)
        #expect(!output.stderr.contains("\u{1B}"))
        #expect(!output.stderr.contains("\u{07}"))
        #expect(output.stderr.contains(#"\u{1B}]0;owned\u{7}"#), "\(output.stderr)")

        let server = try ServeProcess(environment: ServePeers.replayEnvironment(directory.url))
        defer { server.stop() }
        let reply = try await HTTP.post("\(server.baseURL)/tools/sports", #"{"league":"nba\u001b[2J"}"#)
        #expect(reply.status == 400)
        let line = try #require(reply.json?["error"] as? String)
        #expect(!line.contains("\u{1B}"))
        #expect(line.contains(#"\u{1B}[2J"#), "\(line)")
    }

    @Test(
        "--date '' and --date -2024-01-01 are usage errors, not today and 2024-01-01",
        arguments: ["", "-2024-01-01", "+2024-01-01"])
    func badDates(word: String) async throws {
        let directory = try TempDirectory()
        let output = try await run(["run", "sports", "nba", "--date", word], directory)
        #expect(output.status == 64, "\(output.stdout)")
        #expect(output.stderr.contains("bad date"), "\(output.stderr)")
        #expect(output.stdout.isEmpty)
    }

    @Test(
        "a path-like league slug is refused before any request is made",
        arguments: ["soccer/..", "soccer/.", "soccer/%2e%2e", "soccer/eng.1?x=1", "basketball/nba/../../x"])
    func pathLikeLeague(league: String) async throws {
        let upstream = try FixtureServer()
        defer { upstream.stop() }
        let directory = try TempDirectory()
        let output = try await ToolsBinary.run(
            ["run", "sports", league, "--date", "2024-12-15"],
            environment: ToolsBinary.environment(
                cacheDirectory: directory.url, extra: ["ALMANAC_ESPN_URL": upstream.baseURL, "ALMANAC_NOW": fixedNow]),
            timeout: 60)
        #expect(output.status == 64, "\(output.stdout)")
        #expect(output.stderr.split(separator: "\n").first?.hasPrefix("error:") == true, "\(output.stderr)")
        #expect(try await upstream.requestCount() == 0)
    }

    @Test("an unusable cache folder: one warning line naming the folder and why, and the answer still comes")
    func unusableCache() async throws {
        let directory = try TempDirectory()
        // A file where the folder should be.
        let blocker = directory.url.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: blocker)
        let output = try await run(
            ["run", "sports", "nba", "--date", "2024-12-15"], directory,
            extra: ["ALMANAC_CACHE_DIR": blocker.appendingPathComponent("cache").path])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(output.stderr)")
        #expect(
            lines.first?.hasPrefix("warning: cache unavailable at \(blocker.path)/cache (") == true, "\(output.stderr)")
        #expect(!output.stderr.contains("Domain="))
        #expect(!output.stderr.contains("UserInfo"))
    }

    @Test("a corrupted cache is moved aside with one warning line saying where")
    func corruptedCache() async throws {
        let directory = try TempDirectory()
        let cache = directory.url.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        try Data(repeating: 0x41, count: 8192).write(to: cache.appendingPathComponent("cache.sqlite"))
        let output = try await run(
            ["run", "sports", "nba", "--date", "2024-12-15"], directory, extra: ["ALMANAC_CACHE_DIR": cache.path])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(output.stderr)")
        #expect(
            lines.first?.hasPrefix("warning: the cache was damaged: moved it to \(cache.path)/cache.sqlite.corrupt-")
                == true)
        // Said once: the next run finds a good cache.
        let again = try await run(
            ["run", "sports", "nba", "--date", "2024-12-15"], directory, extra: ["ALMANAC_CACHE_DIR": cache.path])
        #expect(again.stderr.isEmpty, "\(again.stderr)")
    }
}
