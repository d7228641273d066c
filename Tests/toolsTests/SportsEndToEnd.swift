import AlmanacTesting
import Foundation
import Testing

/// The built `tools` binary against the loopback fixture server at ESPN paths.
@Suite("tools run sports, end to end", .serialized)
struct SportsEndToEndTests {
    static let words = ["run", "sports", "nba", "--date", "2024-12-15", "--tz", "America/New_York"]

    func envelope(_ output: CommandOutput) throws -> [String: Any] {
        let data = Data(output.stdout.utf8)
        return try #require(
            try JSONSerialization.jsonObject(with: data) as? [String: Any], "not JSON: \(output.stdout)")
    }

    func outcomes(_ envelope: [String: Any]) -> [String] {
        (envelope["attempts"] as? [[String: Any]] ?? []).compactMap { $0["outcome"] as? String }
    }

    @Test("first run fetches, a second within the TTL makes no request, TTL 0 refetches")
    func cacheLifecycle() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let scratch = try Scratch()
        let environment = scratch.environment(["ALMANAC_ESPN_URL": server.baseURL])

        let first = try await ToolsBinary.run(Self.words + ["--format", "json"], environment: environment)
        #expect(first.status == 0, "stderr: \(first.stderr)")
        let firstEnvelope = try envelope(first)
        #expect(firstEnvelope["provider"] as? String == "espn")
        #expect(firstEnvelope["stale"] as? Bool == false)
        #expect(outcomes(firstEnvelope) == ["ok"])
        let games = (firstEnvelope["data"] as? [String: Any])?["games"] as? [[String: Any]]
        #expect(games?.count == 7)
        #expect(try await server.requestCount() == 1)

        let second = try await ToolsBinary.run(Self.words, environment: environment)
        #expect(second.status == 0)
        #expect(second.stdout.hasPrefix("[sports] "))
        #expect(try await server.requestCount() == 1)

        let refetch = try await ToolsBinary.run(
            Self.words, environment: environment.merging(["ALMANAC_CACHE_TTL": "0"]) { $1 })
        #expect(refetch.status == 0)
        #expect(try await server.requestCount() == 2)

        let bypass = try await ToolsBinary.run(Self.words + ["--no-cache"], environment: environment)
        #expect(bypass.status == 0)
        #expect(try await server.requestCount() == 3)
    }

    @Test("server down with a cached answer: stale output, exit 0, saying which provider failed")
    func staleWhenDown() async throws {
        let server = try FixtureServer()
        let scratch = try Scratch()
        let environment = scratch.environment(["ALMANAC_ESPN_URL": server.baseURL, "ALMANAC_TIMEOUT": "2"])
        #expect(try await ToolsBinary.run(Self.words, environment: environment).status == 0)
        server.stop()
        let expired = environment.merging(["ALMANAC_CACHE_TTL": "0"]) { $1 }
        let stale = try await ToolsBinary.run(Self.words + ["--format", "json"], environment: expired)
        #expect(stale.status == 0, "stderr: \(stale.stderr)")
        let staleEnvelope = try envelope(stale)
        #expect(staleEnvelope["stale"] as? Bool == true)
        #expect(outcomes(staleEnvelope) == ["failed"])
        let context = try await ToolsBinary.run(Self.words, environment: expired)
        #expect(context.status == 0)
        let header = context.stdout.components(separatedBy: "\n").first ?? ""
        #expect(header.contains("STALE: fetched"))
        #expect(header.contains("espn failed: ESPN: could not connect"))
    }

    @Test("server down and nothing cached: exit 69 with one line per provider")
    func downNoCache() async throws {
        let scratch = try Scratch()
        // A port nothing listens on: bind-and-close gives a free one.
        let output = try await ToolsBinary.run(
            Self.words,
            environment: scratch.environment(["ALMANAC_ESPN_URL": "http://127.0.0.1:9", "ALMANAC_TIMEOUT": "2"]))
        #expect(output.status == 69)
        #expect(output.stdout.isEmpty)
        let lines = output.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "error: sports: every provider failed")
        #expect(lines.dropFirst().first?.hasPrefix("  espn: ESPN: could not connect") == true)
    }

    @Test(
        "broken upstream bodies fail clearly (exit 69, no crash) and leave the cache untouched",
        arguments: ["500", "malformed", "truncate", "empty", "html"])
    func brokenBodies(fault: String) async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        try await server.setFault(fault)
        let scratch = try Scratch()
        let environment = scratch.environment(["ALMANAC_ESPN_URL": server.baseURL, "ALMANAC_TIMEOUT": "3"])
        let output = try await ToolsBinary.run(Self.words, environment: environment)
        #expect(output.status == 69, "fault \(fault): \(output.stderr)")
        #expect(output.stderr.hasPrefix("error: sports: every provider failed\n  espn: "))
        #expect(!output.stderr.contains("Fatal error"))
        #expect(output.stderr.split(separator: "\n").count == 2)
        // Nothing was cached: once the server is healthy the next run fetches fresh data.
        try await server.setFault("none")
        let healthy = try await ToolsBinary.run(Self.words + ["--format", "json"], environment: environment)
        #expect(healthy.status == 0)
        #expect(outcomes(try envelope(healthy)) == ["ok"])
    }

    @Test("a slow upstream is cut at ALMANAC_TIMEOUT (sub-second) and reported as a timeout")
    func timeout() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        try await server.setFault("delay:5")
        let scratch = try Scratch()
        let started = Date()
        let output = try await ToolsBinary.run(
            Self.words,
            environment: scratch.environment(["ALMANAC_ESPN_URL": server.baseURL, "ALMANAC_TIMEOUT": "0.5"]))
        #expect(output.status == 69)
        #expect(output.stderr.contains("espn: no answer within 0.5 s"))
        #expect(Date().timeIntervalSince(started) < 4.5)
    }

    @Test("two processes × many concurrent runs share one cache and leave it readable")
    func concurrentProcesses() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let scratch = try Scratch()
        let environment = scratch.environment(["ALMANAC_ESPN_URL": server.baseURL, "ALMANAC_CACHE_TTL": "0"])
        let leagues = ["nba", "NBA", "basketball/nba"]
        let statuses = try await withThrowingTaskGroup(of: Int32.self) { group in
            for index in 0..<24 {
                let words = ["run", "sports", leagues[index % 3], "--date", "2024-12-15", "--tz", "America/New_York"]
                group.addTask { try await ToolsBinary.run(words, environment: environment).status }
            }
            var statuses: [Int32] = []
            for try await status in group { statuses.append(status) }
            return statuses
        }
        #expect(statuses == Array(repeating: 0, count: 24))
        let info = try await ToolsBinary.run(["cache", "info"], environment: environment)
        #expect(info.status == 0)
        #expect(info.stdout.contains("entries: 1"))
        #expect(info.stdout.contains("integrity: ok"))
    }

    @Test("unknown league and bad date exit 64 with the list or the expected format")
    func usage() async throws {
        let scratch = try Scratch()
        let league = try await ToolsBinary.run(["run", "sports", "nbaa"], environment: scratch.environment())
        #expect(league.status == 64)
        #expect(league.stderr.contains("nbaa"))
        #expect(league.stderr.contains("nba"))
        let date = try await ToolsBinary.run(
            ["run", "sports", "nba", "--date", "15/12/2024"], environment: scratch.environment())
        #expect(date.status == 64)
        #expect(date.stderr.contains("YYYY-MM-DD"))
    }

    @Test("replay mode serves the recorded exchange with no network")
    func replay() async throws {
        let scratch = try Scratch()
        let output = try await ToolsBinary.run(
            Self.words,
            environment: scratch.environment([
                "ALMANAC_REPLAY": Fixtures.directory.path, "ALMANAC_NOW": "2024-12-15T23:30:00Z",
                "ALMANAC_ESPN_URL": "http://127.0.0.1:9",
            ]))
        #expect(output.status == 0, "stderr: \(output.stderr)")
        #expect(output.stdout.hasPrefix("[sports] NBA · "))
    }

    @Test(
        "global options work before the tool (ArgumentParser path) and after it (fast path) alike",
        arguments: [
            ["run", "--format", "json", "--tz", "America/New_York", "sports", "nba", "--date", "2024-12-15"],
            ["run", "sports", "nba", "--date", "2024-12-15", "--format", "json", "--tz", "America/New_York"],
            ["run", "sports", "--format=json", "nba", "--tz=America/New_York", "--date", "2024-12-15"],
        ])
    func optionPlacement(words: [String]) async throws {
        let scratch = try Scratch()
        let output = try await ToolsBinary.run(
            words,
            environment: scratch.environment([
                "ALMANAC_REPLAY": Fixtures.directory.path, "ALMANAC_NOW": "2024-12-16T04:30:00Z",
            ]))
        #expect(output.status == 0, "stderr: \(output.stderr)")
        let envelope = try envelope(output)
        #expect(envelope["tool"] as? String == "sports")
        #expect(((envelope["data"] as? [String: Any])?["games"] as? [Any])?.count == 7)
    }
}
