import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacNews

/// `tools run news --mine`, what "what's new" runs: the feeds and the profile's topics (#34 pt 1).
@Suite("news --mine: your feeds and [me] topics")
struct NewsMineTests {
    static func settings(feeds: [String], topics: [String], brave: Bool = true) -> Settings {
        Settings(
            environment: brave ? ["BRAVE_API_KEY": "test-key"] : [:],
            config: [
                "me": .table(["feeds": .array(feeds.map { .string($0) }), "topics": .array(topics.map { .string($0) })])
            ])
    }

    static let mine = ToolArguments(["mine": .boolean(true), "count": .integer(50)])

    @Test("a topic with no feed is searched as news and merged with the feeds' items")
    func feedsAndTopics() async throws {
        let context = NewsTest.context(
            transport: try Fixtures.replay(), now: NewsTest.hackerNewsNow,
            settings: Self.settings(feeds: [NewsTest.hackerNewsURL], topics: ["hello world"]))
        let result = try await NewsTool().run(Self.mine, context: context)
        #expect(result.metadata.provider == "feeds+news-search")
        let data = try NewsTest.data(result)
        let items = try #require(data["items"] as? [[String: Any]])
        let sources = Set(items.compactMap { $0["source"] as? String })
        #expect(sources.contains("Hacker News"), "\(sources)")
        #expect(sources.count > 1, "\(sources)")
        // The same answer `tools run news "hello world"` gives, item for item.
        let alone = try await NewsTool().run(
            ToolArguments(["topic": .string("hello world"), "count": .integer(50)]), context: context)
        let searched = try #require(try NewsTest.data(alone)["items"] as? [[String: Any]])
        let links = Set(items.compactMap { $0["link"] as? String })
        #expect(!searched.isEmpty)
        #expect(searched.allSatisfy { links.contains($0["link"] as? String ?? "") })
        let text = result.payload.context(NewsTest.rendering(result, now: NewsTest.hackerNewsNow))
        #expect(text.hasPrefix("[news] newest items of your feeds and topics \"hello world\""), "\(text)")
    }

    @Test("topics only, no feed: the topic's news search answers")
    func topicsOnly() async throws {
        let context = NewsTest.context(
            transport: try Fixtures.replay(), now: NewsTest.hackerNewsNow,
            settings: Self.settings(feeds: [], topics: ["hello world"]))
        let result = try await NewsTool().run(Self.mine, context: context)
        #expect(result.metadata.provider == "news-search")
        let text = result.payload.context(NewsTest.rendering(result, now: NewsTest.hackerNewsNow))
        #expect(text.hasPrefix("[news] newest items of your topics \"hello world\""), "\(text)")
    }

    @Test("a topic that cannot be searched is a note; the feeds still answer")
    func topicUnavailable() async throws {
        let context = NewsTest.context(
            transport: try Fixtures.replay(), now: NewsTest.hackerNewsNow,
            settings: Self.settings(feeds: [NewsTest.hackerNewsURL], topics: ["formula 1"], brave: false))
        let result = try await NewsTool().run(Self.mine, context: context)
        #expect(result.metadata.provider == "feeds")
        let text = result.payload.context(NewsTest.rendering(result, now: NewsTest.hackerNewsNow))
        #expect(
            text.contains("feed topic \"formula 1\" failed: news: no feed is configured for 'formula 1'"), "\(text)")
    }

    @Test("[me] topics as the briefing reads them: a repeat in other case once, at most three")
    func topicsRule() throws {
        let settings = Self.settings(feeds: [], topics: ["Swift", "swift", "formula 1", "rust", "go", "zig"])
        let base = try NewsTool.request(from: ToolArguments([:]), settings: settings, feedsOptional: true)
        let parts = try NewsTool.mineParts(base, settings: settings)
        #expect(parts.compactMap(\.request.topic) == ["Swift", "formula 1", "rust"])
    }

    @Test("neither feeds nor topics: one line naming both settings")
    func nothingConfigured() async throws {
        let context = NewsTest.context(
            transport: try Fixtures.replay(), now: NewsTest.hackerNewsNow,
            settings: Self.settings(feeds: [], topics: []))
        await #expect(throws: AlmanacError.self) { try await NewsTool().run(Self.mine, context: context) }
        do {
            _ = try await NewsTool().run(Self.mine, context: context)
        } catch let error as AlmanacError {
            #expect(error.kind == .configuration)
            #expect(error.message == "news: --mine needs feeds or topics, and neither is configured")
        }
    }
}
