import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCore
@testable import AlmanacSearch

/// Regression tests over REAL recorded Brave responses (`Fixtures/search/brave/`, provenance in
/// `Fixtures/search/README.md`), replayed through the real tool `run` and the coordinator.
/// Goldens render at 2024-12-31T17:58:00Z in America/New_York.
@Suite("Search replays recorded Brave responses")
struct SearchReplayTests {
    struct Case: Sendable, CustomStringConvertible {
        let golden: String
        let words: [String]
        let budget: Int?
        let hasDataGolden: Bool
        var description: String { golden }
    }

    static let cases: [Case] = [
        Case(golden: "web-hello-world", words: ["hello", "world", "--count", "20"], budget: nil, hasDataGolden: true),
        Case(golden: "web-hello-world-default-count", words: ["hello", "world"], budget: nil, hasDataGolden: true),
        Case(
            golden: "web-hello-world-budget-300", words: ["hello world", "-n", "20"], budget: 300, hasDataGolden: false),
        Case(
            golden: "news-hello-world", words: ["hello", "world", "--news", "--count", "20"], budget: nil,
            hasDataGolden: true),
        Case(
            golden: "news-hello-world-count-3", words: ["--news", "hello", "world", "--count=3"], budget: nil,
            hasDataGolden: true),
    ]

    @Test("context and data goldens", arguments: cases)
    func goldens(_ testCase: Case) async throws {
        let context = SearchTest.context(transport: try Fixtures.replay())
        let result = try await SearchTest.run(testCase.words, context: context)
        #expect(result.metadata.provider == "brave")
        #expect(result.metadata.stale == false)
        #expect(result.metadata.attempts.map(\.outcome) == [.ok])
        let rendered = try SearchTest.render(result, .context, budget: testCase.budget)
        #expect(Golden.check(rendered, against: "search/brave/\(testCase.golden).context.txt") == nil)
        if testCase.hasDataGolden {
            let data = try Envelope.dataJSON(result.payload) + "\n"
            #expect(Golden.check(data, against: "search/brave/\(testCase.golden).data.json") == nil)
        }
    }

    @Test("text output for people")
    func textGolden() async throws {
        let context = SearchTest.context(transport: try Fixtures.replay())
        let result = try await SearchTest.run(["hello", "world", "--count", "3"], context: context)
        let rendered = try SearchTest.render(result, .text)
        #expect(Golden.check(rendered, against: "search/brave/web-hello-world-count-3.text.txt") == nil)
    }

    @Test("web snippets are plain text: <strong> removed, &quot; and &#x27; decoded")
    func plainText() async throws {
        let context = SearchTest.context(transport: try Fixtures.replay())
        let result = try await SearchTest.run(["hello", "world", "--count", "20"], context: context)
        let payload = try #require(result.payload as? SearchPayload)
        #expect(payload.results.count == 20)
        let first = try #require(payload.results.first)
        #expect(first.title == "\"Hello, World!\" program - Wikipedia")
        #expect(first.url == "https://en.wikipedia.org/wiki/%22Hello,_World!%22_program")
        #expect(
            first.snippet
                == "A \"Hello, World!\" program is usually a simple computer program that emits (or displays) to the screen (often the console) a message similar to \"Hello, World!\". A small piece of code in most general-purpose programming languages, this program is used to illustrate a language's basic syntax."
        )
        #expect(first.age == "4 days ago")
        #expect(first.pageAge == "2024-12-27T15:49:55")
        // The reddit result mixes &#x27;, &amp; and <strong>.
        let reddit = try #require(payload.results.first { $0.url.contains("reddit.com") })
        #expect(
            reddit.snippet.hasPrefix(
                "It's far less depressing than Goodbye World. ... It most definitely is a programmer meme. It dates back to the K&R C book from the '70s"
            ))
        // A result without age/page_age in the recording keeps both nil.
        let learnPython = try #require(payload.results.first { $0.url.contains("learnpython.org") })
        #expect(learnPython.age == nil && learnPython.pageAge == nil)
        for hit in payload.results {
            #expect(
                !hit.snippet.contains("<strong>") && !hit.title.contains("&quot;") && !hit.snippet.contains("&#x27;"))
        }
    }

    @Test("--count only trims what is shown: counts share one cached Brave answer")
    func countsShareCache() async throws {
        let context = SearchTest.context(transport: try Fixtures.replay())
        let three = try await SearchTest.run(["hello", "world", "--count", "3"], context: context)
        let ten = try await SearchTest.run(["Hello  World", "--count", "10"], context: context)
        #expect((three.payload as? SearchPayload)?.results.count == 3)
        #expect((ten.payload as? SearchPayload)?.results.count == 10)
        #expect(ten.metadata.attempts.map(\.outcome) == [.cached])
        #expect(await context.coordinator.providerCallCount == 1)
    }

    @Test("a news search is not served from the web search's cache entry")
    func kindsDoNotShareCache() async throws {
        let context = SearchTest.context(transport: try Fixtures.replay())
        _ = try await SearchTest.run(["hello", "world"], context: context)
        let news = try await SearchTest.run(["hello", "world", "--news"], context: context)
        #expect((news.payload as? SearchPayload)?.kind == .news)
        #expect(news.metadata.attempts.map(\.outcome) == [.ok])
        #expect(await context.coordinator.providerCallCount == 2)
    }
}
