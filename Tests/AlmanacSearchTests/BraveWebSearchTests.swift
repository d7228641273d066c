import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacSearch

/// Brave as a member of the search chain other tools reach through `ProviderEnvironment.webSearch`.
@Suite("Brave as the web-search fallback")
struct BraveWebSearchTests {
    @Test("replays the recorded web answer as plain WebSearchHits")
    func replay() async throws {
        let environment = testEnvironment(
            transport: try Fixtures.replay(), now: SearchTest.now, settings: SearchTest.settings())
        let search: any WebSearching = SearchTest.braveWebSearch
        #expect(search.providerName == "brave")
        let hits = try await search.search("hello world", count: 20, in: environment)
        #expect(hits.count == 20)
        #expect(
            hits.first
                == WebSearchHit(
                    title: "\"Hello, World!\" program - Wikipedia",
                    url: "https://en.wikipedia.org/wiki/%22Hello,_World!%22_program",
                    snippet:
                        "A \"Hello, World!\" program is usually a simple computer program that emits (or displays) to the screen (often the console) a message similar to \"Hello, World!\". A small piece of code in most general-purpose programming languages, this program is used to illustrate a language's basic syntax.",
                    age: "4 days ago"))
    }

    @Test(
        "asks Brave for the requested count (clamped to 1-20) and returns at most that many",
        arguments: [
            (3, "3", 3), (0, "1", 1), (50, "20", 20),
        ])
    func count(requested: Int, sent: String, returned: Int) async throws {
        let requests = Recorder<HTTPRequest>()
        // Synthetic pairing: the recorded 20-result body answers whatever count was asked.
        let environment = testEnvironment(
            transport: sequenceStub(
                [SearchTest.response(200, try SearchTest.body("web-hello-world"))], requests: requests),
            now: SearchTest.now, settings: SearchTest.settings())
        let hits = try await SearchTest.braveWebSearch.search("lakers  score", count: requested, in: environment)
        #expect(hits.count == returned)
        let items = URLComponents(url: try #require(requests.values.first?.url), resolvingAgainstBaseURL: false)?
            .queryItems
        #expect(items == [URLQueryItem(name: "q", value: "lakers score"), URLQueryItem(name: "count", value: sent)])
    }

    @Test("without a key it fails as unconfigured, without a request")
    func unconfigured() async throws {
        let requests = Recorder<HTTPRequest>()
        let environment = testEnvironment(
            transport: sequenceStub([SearchTest.response(500)], requests: requests), now: SearchTest.now)
        await #expect(throws: ProviderFailure(.unconfigured, "Brave: no Brave Search API key (set BRAVE_API_KEY)")) {
            _ = try await SearchTest.braveWebSearch.search("hello", count: 3, in: environment)
        }
        #expect(requests.count == 0)
    }

    @Test("rate limits surface with retryAfter so the caller's coordinator can remember them")
    func rateLimited() async throws {
        let environment = testEnvironment(
            transport: sequenceStub([SearchTest.response(429, headers: ["Retry-After": "60"])], requests: Recorder()),
            now: SearchTest.now, settings: SearchTest.settings())
        do {
            _ = try await SearchTest.braveWebSearch.search("hello", count: 3, in: environment)
            Issue.record("expected a failure")
        } catch let failure as ProviderFailure {
            #expect(failure.kind == .rateLimited)
            #expect(failure.retryAfter == SearchTest.now.addingTimeInterval(60))
        }
    }
}
