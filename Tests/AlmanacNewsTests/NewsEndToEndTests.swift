import AlmanacTesting
import Foundation
import Testing

/// The built `tools` binary: `tools run news` with feeds from the environment and the replayed
/// recordings; what reaches stdout and stderr, and the exit status.
@Suite("tools run news, end to end")
struct NewsEndToEndTests {
    static let feeds = Fixtures.packageRoot().appendingPathComponent("Fixtures/news/feeds")

    static func environment(_ cache: URL, _ extra: [String: String]) -> [String: String] {
        ToolsBinary.environment(
            cacheDirectory: cache,
            extra: ["ALMANAC_REPLAY": Fixtures.directory.path, "ALMANAC_NOW": "2025-12-14T02:00:00Z"].merging(extra) {
                _, new in new
            })
    }

    @Test("bad feeds beside a good one: exit 0, the items, one line per bad feed, nothing on stderr")
    func badFeedsBesideAGoodOne() async throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("news-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: cache) }
        let huge = cache.appendingPathComponent("huge.xml")
        _ = FileManager.default.createFile(atPath: huge.path, contents: nil)
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 50 << 20)
        try handle.close()
        let page = Fixtures.packageRoot().appendingPathComponent("Fixtures/read/pages/wikipedia/source.html")
        let list = [page.path, huge.path, "https://news.ycombinator.com/rss"].joined(separator: " ")
        let output = try await ToolsBinary.run(
            ["run", "news", "--count", "2"], environment: Self.environment(cache, ["ALMANAC_NEWS_FEEDS": list]))
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.isEmpty, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.first?.hasPrefix("[news] newest items of 3 feeds · Sun 14 Dec 2025 (today) · source: feeds") == true)
        #expect(lines.contains { $0.hasPrefix("1. Free Software Awards Winners Announced") })
        #expect(lines.contains("feed source.html failed: source.html: an HTML page, not a feed"))
        #expect(lines.contains("feed huge.xml failed: huge.xml: 50 MB is larger than a feed may be (10 MB); not read"))
    }

    @Test("every feed failing: exit 69, one line per feed on stderr")
    func everyFeedFails() async throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("news-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: cache) }
        let page = Fixtures.packageRoot().appendingPathComponent("Fixtures/read/pages/wikipedia/source.html")
        let output = try await ToolsBinary.run(
            ["run", "news", "--feed", page.path], environment: Self.environment(cache, [:]))
        #expect(output.status == 69)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.contains("source.html: an HTML page, not a feed"), "\(output.stderr)")
        #expect(!output.stderr.contains("Fatal") && !output.stderr.contains("Stack"))
    }

    @Test("--format json: data.items of title, link, published (UTC), source, summary")
    func json() async throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("news-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: cache) }
        let output = try await ToolsBinary.run(
            ["run", "news", "--feed", "https://news.ycombinator.com/rss", "--count", "1", "--format", "json"],
            environment: Self.environment(cache, [:]))
        #expect(output.status == 0, "\(output.stderr)")
        let envelope = try #require(
            try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(envelope["tool"] as? String == "news")
        #expect(envelope["provider"] as? String == "feeds")
        let data = try #require(envelope["data"] as? [String: Any])
        let items = try #require(data["items"] as? [[String: Any]])
        #expect(items.count == 1)
        #expect(
            items[0]["title"] as? String == "Free Software Awards Winners Announced: Andy Wingo, Alx Sa, Govdirectory")
        #expect(items[0]["link"] as? String == "https://www.fsf.org/news/2024-free-software-awards-winners")
        #expect(items[0]["published"] as? String == "2025-12-14T01:19:50Z")
        #expect(items[0]["source"] as? String == "Hacker News")
        #expect(data["omitted"] as? Int == 29)
    }
}
