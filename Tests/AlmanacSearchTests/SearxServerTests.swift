import AlmanacCore
import AlmanacCurl
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacSearch

/// Against a REAL SearXNG-compatible server: Debian's searx 1.1 on 127.0.0.1 (scripts/peers/searx.sh),
/// its `loopback` engine fed with results copied from the recorded SearXNG answer, its `broken`
/// engine failing on every request. What is checked is searx's own merging, JSON and error
/// reporting, read by our provider over the live transport.
@Suite("SearXNG against a real searx server", .serialized, .enabled(if: SearxServer.mayRun))
struct SearxServerTests {
    static func withServer(_ body: (SearxServer) async throws -> Void) async throws {
        let server = try SearxServer(feeds: ["python": try SearxServer.recordedItems(5)])
        defer { server.stop() }
        try await server.waitUntilReady()
        try await body(server)
    }

    static func context(_ server: SearxServer) -> ToolContext {
        SearchTest.context(
            transport: CurlTransport(), settings: Settings(environment: ["ALMANAC_SEARXNG_URL": server.baseURL]))
    }

    @Test(
        "search answers from the real server: the fed results in order, engines, the broken engine in the attempt's detail"
    )
    func answers() async throws {
        try await Self.withServer { server in
            let result = try await SearchTest.run(["python"], context: Self.context(server))
            let items = try SearxServer.recordedItems(5)
            let payload = try #require(result.payload as? SearchPayload)
            #expect(result.metadata.provider == "searxng")
            // searx merges and scores; with one engine the rank order is the feed's.
            #expect(payload.results.map(\.url) == items.map(\.link))
            #expect(payload.results.map(\.title) == items.map(\.name))
            #expect(payload.results.first?.snippet == items.first?.text)
            #expect(payload.results.allSatisfy { $0.engines == ["loopback"] })
            #expect(result.metadata.attempts.map(\.outcome) == [.ok])
            #expect(result.metadata.attempts.first?.detail == "unresponsive engines: broken (HTTP error)")
        }
    }

    @Test("a query no engine can answer fails naming the engines, exit 69")
    func noEngine() async throws {
        try await Self.withServer { server in
            do {
                _ = try await SearchTest.run(["nothing", "fed"], context: Self.context(server))
                Issue.record("expected a failure")
            } catch let error as AlmanacError {
                #expect(error.exitStatus == 69)
                #expect(
                    error.attempts.first?.detail
                        == "SearXNG: no engine answered (broken (HTTP error), loopback (HTTP error))")
            }
        }
    }

    @Test("the real server answers /healthz, the doctor's probe")
    func probe() async throws {
        try await Self.withServer { server in
            let url = try #require(URL(string: server.baseURL + (SearXNGProvider.descriptor.probe?.path ?? "")))
            let response = try await CurlTransport().send(HTTPRequest(url: url), timeout: .seconds(5))
            #expect(response.status == 200)
        }
    }
}
