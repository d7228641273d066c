import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacNews

/// The parser on every recorded feed (Fixtures/news/feeds, real producers: Fixtures/README.md).
@Suite("feed parser on the recorded feeds")
struct FeedParserTests {
    static let folder = Fixtures.packageRoot().appendingPathComponent("Fixtures/news/feeds")

    static func feed(_ name: String) throws -> ParsedFeed {
        try FeedParser.parse(Data(contentsOf: folder.appendingPathComponent(name)))
    }

    @Test("every fixture parses with items")
    func everyFixture() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter {
            $0.hasSuffix(".xml") || $0.hasSuffix(".json")
        }
        #expect(files.count == 32)
        for file in files {
            let feed = try Self.feed(file)
            #expect(!feed.items.isEmpty, "\(file)")
        }
    }

    @Test("entities are never expanded: an external entity reads no file, nested ones expand to nothing")
    func noEntityExpansion() throws {
        let folder = Fixtures.packageRoot().appendingPathComponent("Tests/FuzzRegressions/news-feed")
        let external = try FeedParser.parse(Data(contentsOf: folder.appendingPathComponent("external-entity.xml")))
        #expect(external.items.count == 1)
        #expect(external.items[0].title == nil && external.items[0].link == nil)
        let laughs = try FeedParser.parse(Data(contentsOf: folder.appendingPathComponent("entity-expansion.xml")))
        #expect(laughs.items.count == 1)
        #expect(laughs.items[0].summary.count < 100)
    }

    @Test("an HTML page and a feed cut short are one line each")
    func notFeeds() throws {
        let folder = Fixtures.packageRoot().appendingPathComponent("Tests/FuzzRegressions/news-feed")
        #expect(throws: FeedError(reason: "an HTML page, not a feed")) {
            try FeedParser.parse(Data(contentsOf: folder.appendingPathComponent("html-not-feed.xml")))
        }
        do {
            _ = try FeedParser.parse(Data(contentsOf: folder.appendingPathComponent("truncated.xml")))
            Issue.record("expected a failure")
        } catch let error as FeedError {
            #expect(error.reason.hasPrefix("the feed ends early (cut short"))
            #expect(!error.reason.contains("\n"))
        }
    }
}
