import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCore
@testable import AlmanacSearch

/// Faults injected with `StubTransport`. These are SYNTHETIC: the corpus has no recorded Brave
/// 401/429/500 bodies, so statuses use empty bodies and "malformed"/"truncated" bodies are made
/// here. The 200 case and the wrong-kind cases use real recorded bodies.
@Suite("Brave faults (synthetic, via StubTransport)")
struct BraveFaultTests {
    struct Fault: Sendable, CustomStringConvertible {
        let name: String
        let response: HTTPResponse
        let kind: ProviderFailure.Kind
        let message: String
        var description: String { name }
    }

    static let faults: [Fault] = [
        Fault(
            name: "401", response: SearchTest.response(401), kind: .unauthorized,
            message: "Brave: HTTP 401, the API key was refused; check BRAVE_API_KEY or [brave] api_key"),
        Fault(
            name: "403", response: SearchTest.response(403), kind: .unauthorized,
            message: "Brave: HTTP 403, the API key was refused; check BRAVE_API_KEY or [brave] api_key"),
        Fault(
            name: "422", response: SearchTest.response(422), kind: .http,
            message: "Brave: HTTP 422, a search parameter was rejected (check --country and --language)"),
        Fault(
            name: "429 long wait", response: SearchTest.response(429, headers: ["Retry-After": "30"]),
            kind: .rateLimited,
            message: "Brave: HTTP 429, rate limited for 30 s"),
        Fault(
            name: "429 without headers", response: SearchTest.response(429), kind: .rateLimited,
            message: "Brave: HTTP 429, rate limited"),
        Fault(
            name: "500", response: SearchTest.response(500, Data("<html>oops</html>".utf8)), kind: .http,
            message: "Brave: HTTP 500 from the search API"),
        Fault(
            name: "malformed", response: SearchTest.response(200, Data("{\"type\": \"search\", \"web\": ".utf8)),
            kind: .decoding, message: "Brave: unreadable response (malformed JSON)"),
        Fault(
            name: "wrong field type",
            response: SearchTest.response(200, Data(#"{"type":"search","web":{"results":{}}}"#.utf8)),
            kind: .decoding, message: "Brave: unreadable response (wrong type at web.results)"),
        Fault(
            name: "not JSON", response: SearchTest.response(200, Data("Service Unavailable".utf8)),
            kind: .decoding, message: "Brave: unreadable response (malformed JSON)"),
    ]

    @Test("each fault is a safe ProviderFailure; through the tool it is exit 69 with one line", arguments: faults)
    func fault(_ fault: Fault) async throws {
        let requests = Recorder<HTTPRequest>()
        let environment = testEnvironment(
            transport: sequenceStub([fault.response], requests: requests), now: SearchTest.now,
            settings: SearchTest.settings())
        do {
            _ = try await BraveSearchProvider(client: BraveClient()).fetch(SearchQuery(text: "hello"), in: environment)
            Issue.record("expected a failure")
        } catch let failure as ProviderFailure {
            #expect(failure.kind == fault.kind)
            #expect(failure.message == fault.message)
        }
        #expect(requests.count == 1)  // no retry for any of these

        let context = SearchTest.context(transport: sequenceStub([fault.response], requests: Recorder()))
        do {
            _ = try await SearchTest.run(["hello"], context: context)
            Issue.record("expected unavailable")
        } catch let error as AlmanacError {
            #expect(error.kind == .unavailable)
            #expect(error.exitStatus == 69)
            #expect(error.attempts.map(\.provider) == ["brave"])
            #expect(error.attempts.first?.detail == fault.message)
        }
    }

    @Test("truncated real body fails as decoding, never as an empty result")
    func truncated() async throws {
        let body = try SearchTest.body("web-hello-world")
        let environment = testEnvironment(
            transport: sequenceStub([SearchTest.response(200, body.prefix(4000))], requests: Recorder()),
            now: SearchTest.now, settings: SearchTest.settings())
        await #expect(throws: ProviderFailure(.decoding, "Brave: unreadable response (malformed JSON)")) {
            _ = try await BraveClient().search(SearchQuery(text: "hello world"), in: environment)
        }
    }

    /// Decision on images: the tool never asks `/res/v1/images/search`, so the recorded images
    /// body is used to prove that a body of the wrong kind fails cleanly (it has a `results`
    /// array like news, so shape alone would not catch it; the `type` discriminator does).
    @Test(
        "a body of the wrong kind fails cleanly, naming both types",
        arguments: [
            ("images-hello-world", SearchKind.web, "expected a web search answer (type 'search'), got type 'images'"),
            ("images-hello-world", SearchKind.news, "expected a news search answer (type 'news'), got type 'images'"),
            ("web-hello-world", SearchKind.news, "expected a news search answer (type 'news'), got type 'search'"),
            ("news-hello-world", SearchKind.web, "expected a web search answer (type 'search'), got type 'news'"),
        ])
    func wrongKind(body: String, kind: SearchKind, message: String) async throws {
        let environment = testEnvironment(
            transport: sequenceStub([SearchTest.response(200, try SearchTest.body(body))], requests: Recorder()),
            now: SearchTest.now, settings: SearchTest.settings())
        await #expect(throws: ProviderFailure(.decoding, "Brave: \(message)")) {
            _ = try await BraveClient().search(SearchQuery(text: "hello world", kind: kind), in: environment)
        }
    }

    @Test("a web answer without a `web` block is zero results, not an error (synthetic body)")
    func noWebBlock() async throws {
        let body = Data(#"{"type":"search","query":{"original":"qwzx"}}"#.utf8)
        let context = SearchTest.context(
            transport: sequenceStub([SearchTest.response(200, body)], requests: Recorder()))
        let result = try await SearchTest.run(["qwzx"], context: context)
        #expect((result.payload as? SearchPayload)?.results == [])
        let rendered = try SearchTest.render(result, .context)
        #expect(rendered.hasSuffix("\nNo web results.\n"))
        #expect(!rendered.contains("<<<"))
    }

    @Test("transport errors become safe network failures; transport ProviderFailures pass through")
    func transportErrors() async throws {
        for (error, kind, message) in [
            (
                URLError(.cannotConnectToHost) as any Error, ProviderFailure.Kind.network,
                "Brave: could not connect to api.search.brave.com"
            ),
            (ProviderFailure(.timeout, "Brave: no answer in time") as any Error, .timeout, "Brave: no answer in time"),
        ] {
            let environment = testEnvironment(
                transport: StubTransport { _ in throw error }, now: SearchTest.now, settings: SearchTest.settings())
            await #expect(throws: ProviderFailure(kind, message)) {
                _ = try await BraveClient().search(SearchQuery(text: "hello"), in: environment)
            }
        }
    }

    @Test("a stale cached answer is served when Brave later fails")
    func staleOnError() async throws {
        let clock = ManualNow(SearchTest.now)
        let cache = MemoryCacheStore()
        let good = SearchTest.context(transport: try Fixtures.replay(), cache: cache, clock: clock)
        _ = try await SearchTest.run(["hello", "world"], context: good)
        clock.advance(2 * 3600)
        let failing = SearchTest.context(
            transport: sequenceStub([SearchTest.response(500)], requests: Recorder()), cache: cache, clock: clock)
        let result = try await SearchTest.run(["hello", "world"], context: failing)
        #expect(result.metadata.stale)
        let header = try SearchTest.render(result, .context).split(separator: "\n").first.map(String.init)
        #expect(
            header
                == "[search] web results for \"hello world\" · Tue 31 Dec 2024 (today) · source: brave · STALE: fetched 12:58 EST (2 h ago); brave failed: Brave: HTTP 500 from the search API"
        )
    }
}
