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
}
