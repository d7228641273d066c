import AlmanacCore
import AlmanacTesting
import Foundation
import Synchronization
import Testing

@testable import AlmanacNews

/// `tools run news` over recorded feeds (replayed exchanges of real producers' feeds).
@Suite("news tool")
struct NewsToolTests {
    @Test("a configured feed: the newest items first, dated in the user's zone, fenced, with their source")
    func configuredFeed() async throws {
        let context = NewsTest.context(
            transport: try Fixtures.replay(), now: NewsTest.hackerNewsNow,
            settings: NewsTest.settings(feeds: [NewsTest.hackerNewsURL]))
        let result = try await NewsTool().run(ToolArguments(["count": .integer(3)]), context: context)
        let text = result.payload.context(NewsTest.rendering(result, now: NewsTest.hackerNewsNow))
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("[news] newest items of 1 feed · Sun 14 Dec 2025 (today) · source: feeds"))
        #expect(text.contains("<<<data "))
        // The feed's newest item (the bytes: pubDate Sun, 14 Dec 2025 01:19:50 +0000; Lisbon is on GMT in December).
        #expect(
            lines.contains(
                "1. Free Software Awards Winners Announced: Andy Wingo, Alx Sa, Govdirectory (Hacker News · Sun 14 Dec 2025 (today) 01:19 GMT)"
            ), "\(text)")
        #expect(lines.contains("   https://www.fsf.org/news/2024-free-software-awards-winners"))
        #expect(text.contains("… 27 more items omitted"), "\(text)")
        #expect(Golden.check(text, against: "news/golden/hackernews-count-3.context.txt") == nil)

        let data = try NewsTest.data(result)
        let items = try #require(data["items"] as? [[String: Any]])
        #expect(items.count == 3)
        #expect(Set(items[0].keys) == ["title", "link", "published", "source", "summary"])
        #expect(items[0]["published"] as? String == "2025-12-14T01:19:50Z")
        #expect(items[0]["source"] as? String == "Hacker News")
        // HN's description is only a "Comments" link: its text, no markup.
        #expect(items[0]["summary"] as? String == "Comments")
    }

    @Test("two feeds merge newest first; an item both carry (same link or same title) is shown once")
    func mergeAndDeduplicate() async throws {
        let context = NewsTest.context(
            transport: try Fixtures.replay(), now: NewsTest.novemberNow,
            settings: NewsTest.settings(feeds: [
                "https://rss.nytimes.com/services/xml/rss/nyt/HomePage.xml", "https://feeds.npr.org/1001/rss.xml",
            ]))
        let result = try await NewsTool().run(ToolArguments(["count": .integer(50)]), context: context)
        let data = try NewsTest.data(result)
        let items = try #require(data["items"] as? [[String: Any]])
        #expect(items.count == 40)  // 25 NYT + 15 NPR, none shared
        let dates = items.compactMap { $0["published"] as? String }
        #expect(dates == dates.sorted(by: >))
        #expect(Set(items.compactMap { $0["source"] as? String }) == ["NYT > Top Stories", "News : NPR"])
    }

    @Test("duplicates across feeds: the same link (scheme, www and slash aside) or the same title")
    func duplicates() throws {
        let feed = try FeedParser.parse(try NewsTest.feed(NewsTest.hackerNews))
        let first = FeedSource(location: "https://a.example/rss", isFile: false, configured: true)
        let second = FeedSource(location: "https://b.example/rss", isFile: false, configured: true)
        var copy = feed
        copy.title = "Mirror"
        // Item 0 under another link with the same title; item 1 with the same link over http and www.
        copy.items = [feed.items[0], feed.items[1], feed.items[2]]
        copy.items[0].link = "https://elsewhere.example/other"
        copy.items[1].link = copy.items[1].link.map { $0.replacingOccurrences(of: "https://", with: "http://www.") }
        copy.items[2].title = "A title only the mirror has"
        copy.items[2].link = "https://elsewhere.example/third"
        let merged = FeedsProvider.merge(
            [
                (first, .success(.init(feed: feed, status: "fetched"))),
                (second, .success(.init(feed: copy, status: "fetched"))),
            ], now: NewsTest.hackerNewsNow)
        #expect(merged.items.count == 31)
        #expect(merged.items.filter { $0.source == "Mirror" }.map(\.title) == ["A title only the mirror has"])
    }

    @Test("within one feed nothing is merged away: a podcast linking every episode to its home page keeps them all")
    func sameLinkWithinOneFeed() throws {
        let feed = try FeedParser.parse(
            try NewsTest.feed("taverncast-podcast-rss2-duplicate-guid-weekdayless-dates-2015.xml"))
        let source = FeedSource(location: "/t.xml", isFile: true, configured: true)
        let merged = FeedsProvider.merge([(source, .success(.init(feed: feed, status: "read")))], now: Date())
        #expect(merged.items.count == 131)
    }

    @Test("a local feed file is read again on every run, not served from the cache")
    func fileNotCached() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("news-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("feed.xml")
        try FileManager.default.copyItem(at: NewsTest.feeds.appendingPathComponent(NewsTest.hackerNews), to: file)
        let context = NewsTest.context(
            transport: StubTransport { _ in throw ProviderFailure(.network, "no") }, now: NewsTest.hackerNewsNow)
        let arguments = ToolArguments(["feed": .string(file.path), "count": .integer(1)])
        let first = try NewsTest.data(try await NewsTool().run(arguments, context: context))
        try FileManager.default.removeItem(at: file)
        try FileManager.default.copyItem(
            at: NewsTest.feeds.appendingPathComponent("npr-rss2-news-2023.xml"), to: file)
        let second = try NewsTest.data(try await NewsTool().run(arguments, context: context))
        let sources: [String?] = [first, second].map { data in
            let items = data["items"] as? [[String: Any]] ?? []
            return items.first?["source"] as? String
        }
        #expect(sources[0] == "Hacker News")
        #expect(sources[1] != nil && sources[1] != sources[0], "\(sources)")
    }

    @Test("--feed FILE reads a local feed; --since keeps recent items and counts the undated it left out")
    func fileAndSince() async throws {
        let path = NewsTest.feeds.appendingPathComponent(NewsTest.hackerNews).path
        let context = NewsTest.context(
            transport: StubTransport { _ in throw ProviderFailure(.network, "no") }, now: NewsTest.hackerNewsNow)
        let result = try await NewsTool().run(
            ToolArguments(["feed": .string(path), "since": .string("3h"), "count": .integer(50)]), context: context)
        let data = try NewsTest.data(result)
        let items = try #require(data["items"] as? [[String: Any]])
        // The bytes have four items after 23:00 UTC: 23:39:48, 00:34:56, 01:10:11 and 01:19:50.
        #expect(
            items.compactMap { $0["published"] as? String } == [
                "2025-12-14T01:19:50Z", "2025-12-14T01:10:11Z", "2025-12-14T00:34:56Z", "2025-12-13T23:39:48Z",
            ])
        #expect(data["since"] as? String == "3h")
    }

    @Test("a topic with no configured feed is searched as news (Brave, recorded answer)")
    func topicFallsBackToNewsSearch() async throws {
        let context = NewsTest.context(
            transport: try Fixtures.replay(), now: Date(timeIntervalSince1970: 1_735_689_600),
            settings: Settings(environment: ["BRAVE_API_KEY": "test-key"]))
        let result = try await NewsTool().run(
            ToolArguments(["topic": .string("hello world"), "count": .integer(3)]), context: context)
        #expect(result.metadata.provider == "news-search")
        #expect(result.metadata.attempts.last?.detail?.contains("via brave") == true)
        let data = try NewsTest.data(result)
        #expect(data["topic"] as? String == "hello world")
        let items = try #require(data["items"] as? [[String: Any]])
        #expect(items.count == 3)
        let text = result.payload.context(NewsTest.rendering(result, now: context.now))
        #expect(text.hasPrefix("[news] news on \"hello world\" (news search)"), "\(text)")
    }

    @Test("a topic with no feed and no search configured is one line saying how to configure either")
    func topicUnconfigured() async throws {
        let context = NewsTest.context(transport: try Fixtures.replay(), now: NewsTest.hackerNewsNow)
        do {
            _ = try await NewsTool().run(ToolArguments(["topic": .string("formula 1")]), context: context)
            Issue.record("expected a configuration error")
        } catch let error as AlmanacError {
            #expect(error.kind == .configuration)
            #expect(error.message.hasPrefix("news: no feed is configured for 'formula 1' and no news search"))
        }
    }

    @Test("a topic's own feeds come from [news.topics]")
    func topicFeeds() throws {
        let settings = Settings(config: [
            "news": .table(["topics": .table(["Tech": .array([.string(NewsTest.hackerNewsURL)])])])
        ])
        let request = try NewsTool.request(from: ToolArguments(["topic": .string("tech")]), settings: settings)
        #expect(request.feeds.map(\.location) == [NewsTest.hackerNewsURL])
    }

    @Test("no feeds configured and no topic: one line naming the setting")
    func nothingConfigured() throws {
        #expect(throws: AlmanacError.self) { try NewsTool.request(from: ToolArguments([:]), settings: Settings()) }
    }

    @Test(
        "bad arguments are one line each",
        arguments: [
            (["since": ArgumentValue.string("yesterday")], "news: --since must be a duration, got 'yesterday'"),
            (["count": ArgumentValue.integer(0)], "count must be between 1 and 50, got '0'"),
            (
                ["feed": ArgumentValue.string("ftp://example.org/feed")],
                "news: 'ftp://example.org/feed' is not an http(s) feed URL"
            ),
            (["feed": ArgumentValue.string("/no/such/feed.xml")], "news: no such feed file '/no/such/feed.xml'"),
        ])
    func badArguments(values: [String: ArgumentValue], message: String) throws {
        do {
            _ = try NewsTool.request(
                from: ToolArguments(values), settings: NewsTest.settings(feeds: [NewsTest.hackerNewsURL]))
            Issue.record("expected a usage error")
        } catch let error as AlmanacError {
            #expect(error.message == message)
            #expect(error.kind.exitStatus == 64)
        }
    }

    @Test("untrusted callers see no --feed (it names files and hosts) and are refused it in one line")
    func untrustedCallers() throws {
        let policy = EgressPolicy(trust: .untrusted)
        #expect(NewsTool.schema.visible(to: policy).parameters.map(\.name) == ["topic", "since", "count", "mine"])
        #expect(throws: AlmanacError.self) {
            try NewsTool.schema.checkAccess(["feed"], policy: policy, tool: "news")
        }
    }
}
