import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCore
@testable import AlmanacSearch

/// 429 handling. Rate-limit responses are SYNTHETIC (no recorded Brave 429 exists); header
/// formats follow Brave's documentation ("X-RateLimit-Reset: 1, 1419704" = seconds until the
/// per-second and per-month windows reset). Waits are recorded, not slept.
@Suite("Brave rate limits (synthetic 429s)")
struct BraveRateLimitTests {
    static func limited(_ headers: [String: String]) -> HTTPResponse { SearchTest.response(429, headers: headers) }

    @Test(
        "a short wait inside the deadline is retried once",
        arguments: [
            ["Retry-After": "1"],
            ["Retry-After": "0"],
            ["X-RateLimit-Remaining": "0, 1500", "X-RateLimit-Reset": "1, 1419704"],
            ["X-RateLimit-Reset": "1, 1419704"],
        ])
    func shortRetry(headers: [String: String]) async throws {
        let requests = Recorder<HTTPRequest>()
        let waits = Recorder<Duration>()
        let ok = SearchTest.response(200, try SearchTest.body("web-hello-world"))
        let environment = testEnvironment(
            transport: sequenceStub([Self.limited(headers), ok], requests: requests), now: SearchTest.now,
            settings: SearchTest.settings(), timeout: .seconds(8))
        let results = try await SearchTest.client(waits).search(SearchQuery(text: "hello world"), in: environment)
        #expect(results.results.count == 20)
        #expect(requests.count == 2)
        #expect(requests.values[0] == requests.values[1])
        let expected: Duration = headers["Retry-After"] == "0" ? .zero : .seconds(1)
        #expect(waits.values == [expected])
    }

    @Test("a second 429 fails after the one retry, with the second answer's reset time")
    func retryOnlyOnce() async throws {
        let requests = Recorder<HTTPRequest>()
        let waits = Recorder<Duration>()
        let environment = testEnvironment(
            transport: sequenceStub(
                [Self.limited(["Retry-After": "1"]), Self.limited(["Retry-After": "1"])], requests: requests),
            now: SearchTest.now, settings: SearchTest.settings(), timeout: .seconds(8))
        await #expect(
            throws: ProviderFailure(
                .rateLimited, "Brave: HTTP 429, rate limited for 1 s", retryAfter: SearchTest.now.addingTimeInterval(1))
        ) {
            _ = try await SearchTest.client(waits).search(SearchQuery(text: "hello"), in: environment)
        }
        #expect(requests.count == 2)
        #expect(waits.count == 1)
    }

    @Test(
        "no retry when the wait is long, the quota is spent, or the deadline is too close",
        arguments: [
            (["Retry-After": "30"], 8.0, 30.0),
            (["X-RateLimit-Remaining": "1, 0", "X-RateLimit-Reset": "1, 1419704"], 8.0, 1_419_704.0),
            (["X-RateLimit-Remaining": "0, 0", "X-RateLimit-Reset": "1, 86400"], 8.0, 86_400.0),
            (["Retry-After": "1"], 1.5, 1.0),
        ] as [([String: String], Double, Double)])
    func noRetry(headers: [String: String], timeout: Double, resumeIn: Double) async throws {
        let requests = Recorder<HTTPRequest>()
        let waits = Recorder<Duration>()
        let environment = testEnvironment(
            transport: sequenceStub([Self.limited(headers)], requests: requests), now: SearchTest.now,
            settings: SearchTest.settings(), timeout: .milliseconds(Int64(timeout * 1000)))
        do {
            _ = try await SearchTest.client(waits).search(SearchQuery(text: "hello"), in: environment)
            Issue.record("expected a rate-limit failure")
        } catch let failure as ProviderFailure {
            #expect(failure.kind == .rateLimited)
            #expect(failure.retryAfter == SearchTest.now.addingTimeInterval(resumeIn))
        }
        #expect(requests.count == 1)
        #expect(waits.count == 0)
    }

    /// The coordinator remembers the reset time under note "ratelimit:brave"; the next process
    /// (a new Coordinator over the same cache) skips Brave until then, then asks again.
    @Test("the reset time is remembered across processes and honoured")
    func rememberedAcrossProcesses() async throws {
        let clock = ManualNow(SearchTest.now)
        let cache = MemoryCacheStore()
        let requests = Recorder<HTTPRequest>()
        let transport = sequenceStub(
            [Self.limited(["Retry-After": "30"]), SearchTest.response(200, try SearchTest.body("web-hello-world"))],
            requests: requests)

        let first = SearchTest.context(transport: transport, cache: cache, clock: clock)
        do {
            _ = try await SearchTest.run(["hello", "world"], context: first)
            Issue.record("expected unavailable")
        } catch let error as AlmanacError {
            #expect(error.exitStatus == 69)
            #expect(error.attempts.first?.detail == "Brave: HTTP 429, rate limited for 30 s")
        }
        let note = await cache.note(for: "ratelimit:brave")
        #expect(note == String(SearchTest.now.addingTimeInterval(30).timeIntervalSince1970))
        #expect(requests.count == 1)

        clock.advance(10)
        let second = SearchTest.context(transport: transport, cache: cache, clock: clock)
        do {
            _ = try await SearchTest.run(["hello", "world"], context: second)
            Issue.record("expected unavailable")
        } catch let error as AlmanacError {
            #expect(error.attempts.map(\.outcome) == [.skipped])
            #expect(error.attempts.first?.detail == "rate limited for another 20 s")
        }
        #expect(requests.count == 1)  // Brave was not asked

        clock.advance(21)
        let third = SearchTest.context(transport: transport, cache: cache, clock: clock)
        let result = try await SearchTest.run(["hello", "world"], context: third)
        #expect(result.metadata.attempts.map(\.outcome) == [.ok])
        #expect(requests.count == 2)
    }

    @Test(
        "Brave's comma lists pick the exhausted window",
        arguments: [
            ("0, 1500", "1, 1419704", 1.0),
            ("1, 0", "1, 1419704", 1_419_704.0),
            ("0, 0", "1, 1419704", 1_419_704.0),
            ("1, 1500", "1, 1419704", 1.0),  // nothing exhausted: first window, as Core reads it
        ])
    func windows(remaining: String, reset: String, seconds: Double) {
        let response = HTTPResponse(
            status: 429, headers: ["X-RateLimit-Remaining": remaining, "X-RateLimit-Reset": reset], body: Data())
        #expect(
            BraveRateLimit.resume(from: response, now: SearchTest.now) == SearchTest.now.addingTimeInterval(seconds))
    }
}
