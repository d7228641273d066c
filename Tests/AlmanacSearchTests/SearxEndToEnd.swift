import AlmanacTesting
import Foundation
import Testing

/// The built `tools` binary (run by path, as toolsTests does) with no Brave key and `ALMANAC_SEARXNG_URL` pointing at a REAL searx
/// 1.1 on 127.0.0.1 (its engine fed with results copied from the recorded SearXNG answer).
@Suite("tools with SearXNG, end to end", .serialized, .enabled(if: SearxServer.mayRun))
struct SearxEndToEndTests {
    /// A private home and cache for one test's `tools` processes, removed afterwards.
    struct Scratch: ~Copyable {
        let url: URL

        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent(
                "almanac-searx-e2e-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: url) }

        func environment(_ extra: [String: String] = [:]) -> [String: String] {
            ToolsBinary.environment(cacheDirectory: url, extra: extra)
        }
    }

    func envelope(_ output: CommandOutput) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any],
            "not JSON: \(output.stdout)")
    }

    @Test("search answers from searx (exit 0, provider searxng); sports with ESPN down falls back through it")
    func searchAndSportsFallback() async throws {
        let items = try SearxServer.recordedItems(5)
        // The sports fallback searches "NBA scores 2024-12-15" (see SportsQuery.webSearchText).
        let server = try SearxServer(feeds: ["python": items, "NBA scores 2024-12-15": Array(items.prefix(3))])
        defer { server.stop() }
        try await server.waitUntilReady()
        let scratch = try Scratch()
        let environment = scratch.environment(["ALMANAC_SEARXNG_URL": server.baseURL, "ALMANAC_TIMEOUT": "5"])

        let search = try await ToolsBinary.run(
            ["run", "search", "python", "--format", "json"], environment: environment)
        #expect(search.status == 0, "stderr: \(search.stderr)")
        let answer = try envelope(search)
        #expect(answer["provider"] as? String == "searxng")
        let results = (answer["data"] as? [String: Any])?["results"] as? [[String: Any]]
        #expect(results?.compactMap { $0["url"] as? String } == items.map(\.link))
        let attempt = (answer["attempts"] as? [[String: Any]])?.first
        #expect(attempt?["detail"] as? String == "unresponsive engines: broken (HTTP error)")

        let context = try await ToolsBinary.run(["run", "search", "python"], environment: environment)
        #expect(context.status == 0)
        #expect(context.stdout.contains("<<<data "))
        #expect(context.stdout.contains("1. Welcome to Python.org"))

        let sports = try await ToolsBinary.run(
            ["run", "sports", "nba", "--date", "2024-12-15", "--format", "json"],
            environment: environment.merging(["ALMANAC_ESPN_URL": "http://127.0.0.1:9"]) { $1 })
        #expect(sports.status == 0, "stderr: \(sports.stderr)")
        let fallback = try envelope(sports)
        #expect(fallback["provider"] as? String == "searxng")
        let attempts = (fallback["attempts"] as? [[String: Any]])?.compactMap { $0["provider"] as? String }
        #expect(attempts?.first == "espn")
        #expect(attempts?.last == "searxng")
        // The broken engine shows in the fallback's attempt too, as in the search tool's.
        let last = (fallback["attempts"] as? [[String: Any]])?.last
        #expect(last?["detail"] as? String == "unresponsive engines: broken (HTTP error)")
        #expect(((fallback["data"] as? [String: Any])?["results"] as? [Any])?.count == 3)
    }

    @Test("tools list --providers shows brave and searxng in the search chain and as the web fallback")
    func listing() async throws {
        let scratch = try Scratch()
        let output = try await ToolsBinary.run(
            ["list", "--providers"], environment: scratch.environment(["ALMANAC_SEARXNG_URL": "http://127.0.0.1:9"]))
        #expect(output.status == 0)
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.contains {
                $0.hasPrefix("  1. brave [priority 0]") && $0.contains("[unconfigured: no Brave Search API key]")
            })
        #expect(lines.contains { $0.hasPrefix("  2. searxng [priority 10]") && $0.contains("(ALMANAC_SEARXNG_URL)") })
        #expect(lines.contains { $0.contains("web search via searxng [priority 100]") })
    }
}
