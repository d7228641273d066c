import AlmanacTesting
import Foundation
import Logging
import Testing

@testable import AlmanacCore
@testable import AlmanacSearch

/// The Brave key goes into the request header and nowhere else: not output (context/json/text),
/// errors, logs, the cache, rate-limit notes or fixtures.
@Suite("The Brave key never leaks")
struct SecretHygieneTests {
    static let key = SearchTest.key

    @Test("success: outputs, logs and the cached payload hold no key")
    func success() async throws {
        let lines = Recorder<String>()
        let logger = Logger(label: "test") { _ in CapturingLogHandler(lines: lines) }
        let cache = MemoryCacheStore()
        let requests = Recorder<HTTPRequest>()
        let replay = try Fixtures.replay()
        let transport = StubTransport { request in
            requests.append(request)
            return try await replay.send(request, timeout: .seconds(1))
        }
        let context = SearchTest.context(transport: transport, cache: cache, logger: logger)
        for words in [["hello", "world"], ["hello", "world", "--news"]] {
            let result = try await SearchTest.run(words, context: context)
            for format in OutputFormat.allCases {
                #expect(!(try SearchTest.render(result, format)).contains(Self.key))
            }
        }
        // The key was really sent (so the scan below is meaningful) ...
        #expect(requests.values.allSatisfy { $0.headers["X-Subscription-Token"] == Self.key })
        #expect(
            requests.values.allSatisfy { !$0.url.absoluteString.contains(Self.key) && !$0.summary.contains(Self.key) })
        // ... and logged lines exist but hold no key.
        #expect(!lines.values.isEmpty)
        #expect(lines.values.allSatisfy { !$0.contains(Self.key) })
        // Inspect the stored cache entries.
        for kind in SearchKind.allCases {
            let key = "search:" + SearchTool.cacheKey(SearchQuery(text: "hello world", kind: kind))
            let entry = try #require(await cache.entry(for: key))
            #expect(entry.provider == "brave")
            #expect(!entry.payload.isEmpty)
            #expect(String(decoding: entry.payload, as: UTF8.self).contains(Self.key) == false)
            #expect(entry.payload.range(of: Data(Self.key.utf8)) == nil)
            #expect(!entry.key.contains(Self.key))
        }
    }

    @Test(
        "failures: messages, attempts and rate-limit notes hold no key",
        arguments: [401, 403, 422, 429, 500, 200])
    func failures(status: Int) async throws {
        let cache = MemoryCacheStore()
        let lines = Recorder<String>()
        let logger = Logger(label: "test") { _ in CapturingLogHandler(lines: lines) }
        // A hostile server echoing the key in the body and headers must not get it shown either.
        let response = SearchTest.response(
            status, Data("{\"error\": \"bad token \(Self.key)\"".utf8),
            headers: ["Retry-After": "30", "X-Echo": Self.key])
        let context = SearchTest.context(
            transport: sequenceStub([response], requests: Recorder()), cache: cache, logger: logger)
        do {
            _ = try await SearchTest.run(["hello"], context: context)
            Issue.record("expected a failure")
        } catch let error as AlmanacError {
            #expect(!error.description.contains(Self.key))
            #expect(error.attempts.allSatisfy { !($0.detail ?? "").contains(Self.key) })
        }
        #expect(!((await cache.note(for: "ratelimit:brave")) ?? "").contains(Self.key))
        #expect(lines.values.allSatisfy { !$0.contains(Self.key) })
    }

    @Test("provider failures for the web-search fallback hold no key")
    func fallbackFailure() async throws {
        let environment = testEnvironment(
            transport: sequenceStub([SearchTest.response(401)], requests: Recorder()), now: SearchTest.now,
            settings: SearchTest.settings())
        do {
            _ = try await SearchTest.braveWebSearch.search("hello", count: 3, in: environment)
            Issue.record("expected a failure")
        } catch let failure as ProviderFailure {
            #expect(failure.kind == .unauthorized)
            #expect(!failure.description.contains(Self.key))
        }
    }

    /// Recorded exchanges never hold request headers; this keeps it that way for every tool.
    @Test("no fixture holds the test key, the local BRAVE_API_KEY, or an X-Subscription-Token value")
    func fixturesAreClean() throws {
        var secrets = [Self.key]
        if let local = ProcessInfo.processInfo.environment["BRAVE_API_KEY"], local.count >= 8 { secrets.append(local) }
        let headerPattern = try Regex(#"(?i)x-subscription-token["']?\s*[:=]"#)
        let root = Fixtures.directory
        let walker = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        var scanned = 0
        for case let file as URL in walker {
            guard let data = try? Data(contentsOf: file), !data.isEmpty else { continue }
            scanned += 1
            let relative = String(file.path.dropFirst(root.path.count))
            for (index, secret) in secrets.enumerated() {
                // Name the secret by index only: a failure message must not print it.
                #expect(data.range(of: Data(secret.utf8)) == nil, "secret #\(index) found in Fixtures\(relative)")
            }
            let text = String(decoding: data, as: UTF8.self)
            #expect(text.firstMatch(of: headerPattern) == nil, "X-Subscription-Token value in Fixtures\(relative)")
        }
        #expect(scanned >= 5)
    }
}
