import AlmanacTesting
import Foundation
import Synchronization
import Testing

@testable import AlmanacCore
@testable import AlmanacRead

/// The read tool's URL handling under the caller's policy (issue #31 points 1 and 4): the archive's
/// snapshot address is built from parts, and a page an untrusted caller may not fetch is refused
/// before the cache is read.
@Suite("read: URLs under the caller's policy")
struct ReadEgressTests {
    @Test(
        "the snapshot address stays under the Wayback base path, whatever the page URL says",
        arguments: [
            (
                "https://web.archive.org", "https://example.org/../../../../secret-admin",
                "https://web.archive.org/web/20130919044612id_/https://example.org/secret-admin"
            ),
            (
                "http://127.0.0.1:9/base/", "https://example.org/a/%2e%2e/%2E%2E/b?q=/../x",
                "http://127.0.0.1:9/base/web/20130919044612id_/https://example.org/b?q=/../x"
            ),
            (
                "https://web.archive.org", "https://example.org/a?b=c",
                "https://web.archive.org/web/20130919044612id_/https://example.org/a?b=c"
            ),
        ])
    func snapshot(base: String, page: String, expected: String) throws {
        let url = try ArchiveProvider.snapshotURL(
            wayback: try #require(URL(string: base)), timestamp: "20130919044612", page: try #require(URL(string: page))
        )
        #expect(url.absoluteString == expected)
    }

    @Test("a page URL is read in normal form: no dot segment survives parsing")
    func parsed() throws {
        let url = try ReadTool.parseURL("https://example.org/a/../../../../secret-admin")
        #expect(url.absoluteString == "https://example.org/secret-admin")
    }

    @Test("what the operator read is not answered to an untrusted caller, fresh or stale; a public page still is")
    func cacheByTrust() async throws {
        let requests = Recorder<HTTPRequest>()
        let secret = ReadTest.html(try ReadTest.page("aclu"))
        let up = Mutex(true)
        let transport = StubTransport { request in
            // The archive has no copy of anything here.
            if request.url.host?.hasSuffix("archive.org") == true { throw ProviderFailure(.network, "unreachable") }
            requests.append(request)
            guard up.withLock({ $0 }) else { throw ProviderFailure(.network, "site: connection refused") }
            return request.url.path == "/robots.txt" ? HTTPResponse(status: 404, body: Data()) : secret
        }
        let cache = MemoryCacheStore()
        let state = MemoryStateStore()
        let operatorContext = ReadTest.context(transport: transport, cache: cache, state: state)
        _ = try await ReadTest.run(["http://127.0.0.1:9101/secret"], context: operatorContext)
        var callerContext = operatorContext
        callerContext.environment.egress = EgressPolicy(
            trust: .untrusted,
            resolver: SystemResolver(fixed: ["public.test": IPAddress("93.184.216.34").map { [$0] } ?? []]))
        callerContext.environment.state = ScopedStateStore(state, scope: callerContext.environment.egress.cacheScope)
        let sent = requests.values.count
        await #expect(throws: AlmanacError.self) {
            _ = try await ReadTest.run(["http://127.0.0.1:9101/secret"], context: callerContext)
        }
        up.withLock { $0 = false }
        await #expect(throws: AlmanacError.self) {
            _ = try await ReadTest.run(["http://127.0.0.1:9101/secret"], context: callerContext)
        }
        #expect(requests.values.count == sent, "an untrusted run reached the loopback site")
        // A public page the operator read is fetched again for the caller, not taken from the operator's entry.
        up.withLock { $0 = true }
        _ = try await ReadTest.run(["http://public.test/a"], context: operatorContext)
        let before = requests.values.count
        let result = try await ReadTest.run(["http://public.test/a"], context: callerContext)
        #expect(result.metadata.provider == "site")
        #expect(requests.values.count > before)
    }
}
