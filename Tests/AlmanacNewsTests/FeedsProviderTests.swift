import AlmanacCore
import AlmanacTesting
import Foundation
import Synchronization
import Testing

@testable import AlmanacNews

/// The feeds provider: the contract kit, conditional requests and the minimum interval, and bad
/// feeds that fail alone while the rest still answer.
@Suite("feeds provider")
struct FeedsProviderTests {
    static let hackerNews = FeedSource(location: NewsTest.hackerNewsURL, isFile: false, configured: true)

    static func query(_ feeds: [FeedSource], interval: Duration = .seconds(900)) -> NewsQuery {
        NewsQuery(feeds: feeds, topic: nil, minimumInterval: interval)
    }

    @Test("keeps the provider contract on a recorded feed")
    func contract() async throws {
        let violations = await ProviderContract.check(
            FeedsProvider(), query: Self.query([Self.hackerNews]), recorded: try Fixtures.replay(),
            now: NewsTest.hackerNewsNow)
        #expect(violations.isEmpty, "\(violations)")
    }

    @Test("the news-search provider keeps the contract on Brave's recorded news answer")
    func searchContract() async throws {
        let violations = await ProviderContract.check(
            NewsSearchProvider(), query: NewsQuery(feeds: [], topic: "hello world", minimumInterval: .seconds(900)),
            recorded: try Fixtures.replay(), settings: Settings(environment: ["BRAVE_API_KEY": "test-key"]),
            now: Date(timeIntervalSince1970: 1_735_689_600))
        #expect(violations.isEmpty, "\(violations)")
    }

    /// Serves the Hacker News feed with validators, then whatever `later` says; records requests.
    final class ConditionalServer: HTTPTransport {
        let requests = Mutex<[HTTPRequest]>([])
        let body: Data
        init(body: Data) { self.body = body }

        func send(_ request: HTTPRequest, timeout: Duration) async throws -> HTTPResponse {
            let count = requests.withLock { list in
                list.append(request)
                return list.count
            }
            if count > 1, request.headers["If-None-Match"] == "\"hn-1\"" {
                return HTTPResponse(status: 304, headers: ["ETag": "\"hn-1\""], body: Data())
            }
            return HTTPResponse(
                status: 200, headers: ["ETag": "\"hn-1\"", "Last-Modified": "Sat, 13 Dec 2025 23:00:00 GMT"], body: body
            )
        }
    }

    @Test("a feed is fetched once per minimum interval, then with its validators; a 304 keeps what it said")
    func conditionalRequestsAndInterval() async throws {
        let server = ConditionalServer(body: try NewsTest.feed(NewsTest.hackerNews))
        let state = MemoryStateStore()
        let provider = FeedsProvider()
        let query = Self.query([Self.hackerNews], interval: .seconds(900))
        func environment(_ now: Date) -> ProviderEnvironment {
            ProviderEnvironment(
                transport: server, settings: Settings(), now: now, timeZone: .current, timeout: .seconds(5),
                state: state)
        }
        let first = try await provider.fetch(query, in: environment(NewsTest.hackerNewsNow))
        #expect(first.feeds.first?.status == "fetched")
        #expect(first.items.count == 30)
        // Ten minutes later: inside the interval, no request at all.
        let second = try await provider.fetch(query, in: environment(NewsTest.hackerNewsNow.addingTimeInterval(600)))
        #expect(second.feeds.first?.status == "kept")
        #expect(server.requests.withLock { $0.count } == 1)
        // Twenty minutes later: a conditional request, answered 304, the same items.
        let third = try await provider.fetch(query, in: environment(NewsTest.hackerNewsNow.addingTimeInterval(1200)))
        let requests = server.requests.withLock { $0 }
        #expect(requests.count == 2)
        #expect(requests[1].headers["If-None-Match"] == "\"hn-1\"")
        #expect(requests[1].headers["If-Modified-Since"] == "Sat, 13 Dec 2025 23:00:00 GMT")
        #expect(third.feeds.first?.status == "not modified")
        #expect(third.items == first.items)
    }

    @Test("an HTML page, a 50 MB feed and a broken encoding: one line each naming the feed; the good feed answers")
    func badFeeds() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("news-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        // A real page (the read tool's recorded one) where a feed was expected.
        let page = Fixtures.packageRoot().appendingPathComponent("Fixtures/read/pages/wikipedia/source.html")
        // 50 MB: the size alone refuses it (a sparse file; nothing is read).
        let huge = scratch.appendingPathComponent("huge.xml")
        _ = FileManager.default.createFile(atPath: huge.path, contents: nil)
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 50 << 20)
        try handle.close()
        let latin1 = NewsTest.feeds.appendingPathComponent("uol-rss-no-declaration-latin1-portuguese-dates-2018.xml")
        let good = NewsTest.feeds.appendingPathComponent(NewsTest.hackerNews)
        let sources = [page, huge, latin1, good].map {
            FeedSource(location: $0.path, isFile: true, configured: true)
        }
        let result = try await FeedsProvider().fetch(
            Self.query(sources),
            in: testEnvironment(
                transport: StubTransport { _ in throw ProviderFailure(.network, "no") }, now: NewsTest.hackerNewsNow))
        #expect(result.feeds.map(\.status) == ["failed", "failed", "read", "read"])
        #expect(result.feeds[0].detail == "source.html: an HTML page, not a feed")
        #expect(result.feeds[1].detail == "huge.xml: 50 MB is larger than a feed may be (10 MB); not read")
        #expect(
            result.feeds[2].detail == "broken encoding (no encoding declared and not valid UTF-8): read as Windows-1252"
        )
        #expect(result.feeds[2].items == 15)
        #expect(result.items.count == 45)
        // The Latin-1 letters came through: "simulações" in the first UOL title.
        #expect(result.items.contains { $0.title?.contains("simulações") == true })
    }

    @Test("items dated in the future are shown undated with a note, after the dated ones")
    func futureDates() async throws {
        // Hacker News's items run from 13 Dec 2025 ~09:00 to 22:58 UTC; "now" at 18:00 puts the later ones ahead.
        let now = Date(timeIntervalSince1970: 1_765_648_800)  // 2025-12-13T18:00:00Z
        let good = NewsTest.feeds.appendingPathComponent(NewsTest.hackerNews)
        let result = try await FeedsProvider().fetch(
            Self.query([FeedSource(location: good.path, isFile: true, configured: true)]),
            in: testEnvironment(transport: StubTransport { _ in throw ProviderFailure(.network, "no") }, now: now))
        // Fourteen items are dated after 19:00 (the bytes: 19:22:13 to 01:19:50 the next day).
        let future = result.items.filter { $0.published == nil }
        #expect(future.count == 14)
        #expect(result.items.suffix(future.count).allSatisfy { $0.published == nil })
        #expect(result.feeds[0].detail == "\(future.count) items dated in the future; shown undated")
        #expect(result.items.compactMap(\.published).allSatisfy { $0 <= now.addingTimeInterval(3600) })
    }

    @Test("an OPML list is read as its feeds; the ones that fail are a line each and the rest answer")
    func opml() async throws {
        let list = Fixtures.packageRoot().appendingPathComponent(
            "Fixtures/news/opml/netnewswire-default-feeds-2025.opml")
        let outlines = try OPML.parse(Data(contentsOf: list))
        #expect(outlines.count == 16)
        #expect(outlines[4].url == "https://daringfireball.net/feeds/json")
        // Replay has Daring Fireball's JSON feed recorded; the 15 others are not recorded and fail.
        let result = try await FeedsProvider().fetch(
            Self.query([FeedSource(location: list.path, isFile: true, configured: true)]),
            in: testEnvironment(transport: try Fixtures.replay(), now: Date(timeIntervalSince1970: 1_498_600_000)))
        #expect(result.feeds.count == 16)
        #expect(result.feeds.filter { $0.status == "fetched" }.map(\.feed) == ["daringfireball.net/feeds/json"])
        #expect(result.items.count == 48)
        #expect(result.items.first?.source == "Daring Fireball")
    }

    @Test("every feed failing is one failure naming each")
    func allFail() async throws {
        let sources = ["https://a.example/feed", "https://b.example/feed"].map {
            FeedSource(location: $0, isFile: false, configured: true)
        }
        do {
            _ = try await FeedsProvider().fetch(
                Self.query(sources),
                in: testEnvironment(
                    transport: StubTransport { _ in HTTPResponse(status: 503, body: Data()) },
                    now: NewsTest.hackerNewsNow))
            Issue.record("expected a failure")
        } catch let failure as ProviderFailure {
            #expect(failure.message == "every feed failed: a.example/feed: HTTP 503; b.example/feed: HTTP 503")
        }
    }
}
