import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacSearch

@Suite("search --read")
struct SearchReadTests {
    /// Brave's recorded answer for the search; every other request gets a real saved page.
    static func transport(page: HTTPResponse) throws -> StubTransport {
        let brave = try SearchTest.body("web-hello-world")
        return StubTransport { request in
            if request.url.path.hasPrefix("/res/v1/") { return SearchTest.response(200, brave) }
            if request.url.path == "/robots.txt" { return HTTPResponse(status: 404, body: Data()) }
            return page
        }
    }

    @Test("--read 1 prints the results, then the top hit's page as the read tool does, within the budget")
    func readsTopHit() async throws {
        let page = HTTPResponse(
            status: 200, headers: ["content-type": "text/html; charset=utf-8"],
            body: try Fixtures.data("read/pages/aclu/source.html"))
        let context = SearchTest.context(transport: try Self.transport(page: page))
        let result = try await SearchTest.run(["hello", "world", "--read", "1"], context: context)
        let text = try SearchTest.render(result, .context, budget: 1500)
        #expect(text.hasPrefix("[search] web results for \"hello world\""))
        // The page's title is its own text: fenced, and the header names the host asked for (#31).
        #expect(text.contains("\n[read] en.wikipedia.org · source: site"))
        #expect(text.contains("\ntitle: Facebook Is Tracking Me Even Though I’m Not on Facebook\n"))
        #expect(text.contains("continue with --start "))
        #expect(ContextBudget.estimate(text) <= 1500 + 150, "\(ContextBudget.estimate(text)) tokens")
        let json = try SearchTest.render(result, .json)
        #expect(json.contains(#""read":{"ageSeconds":0,"#))
        #expect(json.contains(#""provider":"site","stale":false,"tool":"read"}"#))
    }

    @Test("a hit that cannot be read is one line after the results; a rank past the results is a usage error")
    func unreadable() async throws {
        let pdf = HTTPResponse(status: 200, headers: ["content-type": "application/pdf"], body: Data("%PDF-1.7".utf8))
        let context = SearchTest.context(transport: try Self.transport(page: pdf))
        let result = try await SearchTest.run(["hello", "world", "--read", "2"], context: context)
        let text = try SearchTest.render(result, .context)
        #expect(text.contains("read: result 2 could not be read:"))
        #expect(text.contains("the page is a PDF"))
        await #expect(throws: AlmanacError.self) {
            _ = try await SearchTest.run(["hello", "world", "--count", "3", "--read", "4"], context: context)
        }
    }
}
