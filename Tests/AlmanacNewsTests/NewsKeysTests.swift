import AlmanacCore
import Foundation
import Testing

@testable import AlmanacNews

/// The news tool's typed seams: parameter names declared once (NewsParameter) and cache keys built
/// by one function (NewsQuery.cacheKey), keeping the strings the cache already holds.
@Suite("news keys")
struct NewsKeysTests {
    @Test("the schema names exactly the NewsParameter cases")
    func schemaNamesTheParameters() {
        #expect(NewsTool.schema.parameters.map(\.name) == NewsParameter.allCases.map(\.rawValue))
    }

    @Test("a value given under a NewsParameter name is read back through the same case")
    func readerTakesTheSameKeys() throws {
        let arguments = try ToolArguments.parse(
            cli: ["--count", "7", "--since", "6h", "--mine"], schema: NewsTool.schema, tool: "news")
        #expect(arguments.integer(NewsParameter.count) == 7)
        #expect(arguments.string(NewsParameter.since) == "6h")
        #expect(arguments.flag(NewsParameter.mine))
    }

    @Test("feeds key by their sorted locations, a topic search by the folded topic, as before")
    func cacheKeys() {
        let feeds = [
            FeedSource(location: "https://b.example/feed", isFile: false, configured: true),
            FeedSource(location: "/home/u/a.xml", isFile: true, configured: true),
        ]
        let byFeeds = NewsQuery(feeds: feeds, topic: "Ignored", minimumInterval: .seconds(900))
        #expect(byFeeds.cacheKey == "news|feeds|/home/u/a.xml https://b.example/feed")
        let reordered = NewsQuery(feeds: feeds.reversed(), topic: nil, minimumInterval: .seconds(60))
        #expect(reordered.cacheKey == byFeeds.cacheKey)
        let byTopic = NewsQuery(feeds: [], topic: "Mars Rover", minimumInterval: .seconds(900))
        #expect(byTopic.cacheKey == "news|topic|mars rover")
    }
}
