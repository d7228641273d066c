import AlmanacCore
import Foundation
import Testing

@testable import AlmanacSearch

/// Issue #31 point 12: a literal `+` in a query is data. Servers decode the query string as
/// `application/x-www-form-urlencoded` (Brave's API and SearXNG both do), where a bare `+` is a
/// space: `c++` was searched as `c  ` and "Laravel+news" as two words.
@Suite("Search query encoding")
struct QueryEncodingTests {
    /// The `q` value as a form-decoding server reads it.
    static func formDecodedQ(_ url: URL) -> String? {
        let pairs = (url.query ?? "").split(separator: "&").map { $0.split(separator: "=", maxSplits: 1) }
        guard let pair = pairs.first(where: { $0.first == "q" }), pair.count == 2 else { return nil }
        return pair[1].replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    static let queries = ["c++", "Laravel+news", "1+1=2 & more", "a%2Bb", "swift 6 release"]

    @Test("Brave receives the query exactly as typed", arguments: queries)
    func brave(text: String) throws {
        let request = try BraveClient.request(
            for: SearchQuery(text: text, kind: .web), key: nil, settings: Settings(environment: [:]))
        #expect(Self.formDecodedQ(request.url) == text)
        #expect(!(request.url.query ?? "").contains("+"))
    }

    @Test("SearXNG receives the query exactly as typed", arguments: queries)
    func searxng(text: String) throws {
        let settings = Settings(environment: ["ALMANAC_SEARXNG_URL": "http://127.0.0.1:8888"])
        let request = try SearXNGProvider.request(for: SearchQuery(text: text, kind: .news), settings: settings)
        #expect(Self.formDecodedQ(request.url) == text)
    }

    @Test("the whole tool: `c++` reaches Brave as c%2B%2B and the recorded answer is shown")
    func throughTheTool() async throws {
        let requests = Recorder<HTTPRequest>()
        let context = SearchTest.context(
            transport: sequenceStub(
                [SearchTest.response(200, try SearchTest.body("web-hello-world"))], requests: requests))
        let result = try await SearchTest.run(["c++"], context: context)
        let request = try #require(requests.values.first)
        #expect(request.url.absoluteString == "https://api.search.brave.com/res/v1/web/search?q=c%2B%2B&count=20")
        #expect((result.payload as? SearchPayload)?.query == "c++")
    }
}
