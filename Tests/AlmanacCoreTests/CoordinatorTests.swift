import AlmanacTesting
import Foundation
import Synchronization
import Testing

@testable import AlmanacCore

/// Counts calls and answers from a script, standing in for a provider.
final class ScriptedProvider: Sendable {
    let name: String
    private let calls = Mutex(0)
    private let behaviour: @Sendable (Int) async throws -> String

    init(_ name: String, _ behaviour: @escaping @Sendable (Int) async throws -> String) {
        self.name = name
        self.behaviour = behaviour
    }

    var callCount: Int { calls.withLock { $0 } }

    var call: ProviderCall<String> {
        ProviderCall(name: name) {
            let number = self.calls.withLock { count in
                count += 1
                return count
            }
            return try await self.behaviour(number)
        }
    }

    static func ok(_ name: String, _ value: String) -> ScriptedProvider {
        ScriptedProvider(name) { _ in value }
    }

    static func failing(_ name: String, _ message: String = "HTTP 500 from upstream") -> ScriptedProvider {
        ScriptedProvider(name) { _ in throw ProviderFailure(.http, message) }
    }
}

@Suite("Coordinator")
struct CoordinatorTests {
    let clock = ManualNow()

    func coordinator(
        ttl: Duration = .seconds(60), timeout: Duration = .seconds(5), cache: any CacheStore = MemoryCacheStore(),
        attemptClock: AttemptClock = AttemptClock(ContinuousClock())
    ) -> Coordinator {
        Coordinator(
            cache: cache, configuration: .init(ttl: ttl, timeout: timeout), now: clock.closure, clock: attemptClock)
    }

    func request(_ providers: [ScriptedProvider], key: String = "nba") -> CoordinatedRequest<String> {
        CoordinatedRequest(tool: "sports", key: key, providers: providers.map(\.call))
    }

    @Test("the first provider in priority order answers")
    func firstProviderWins() async throws {
        let first = ScriptedProvider.ok("espn", "games")
        let second = ScriptedProvider.ok("web", "hits")
        let result = try await coordinator().fetch(request([first, second]))
        #expect(result.value == "games")
        #expect(result.metadata.provider == "espn")
        #expect(result.metadata.attempts.map(\.outcome) == [.ok])
        #expect(second.callCount == 0)
    }

    @Test("a failing provider falls back to the next, and both attempts are kept")
    func fallback() async throws {
        let first = ScriptedProvider.failing("espn")
        let second = ScriptedProvider.ok("web", "hits")
        let result = try await coordinator().fetch(request([first, second]))
        #expect(result.value == "hits")
        #expect(result.metadata.provider == "web")
        #expect(result.metadata.attempts.map(\.provider) == ["espn", "web"])
        #expect(result.metadata.attempts.map(\.outcome) == [.failed, .ok])
        #expect(result.metadata.attempts[0].detail == "HTTP 500 from upstream")
    }

    @Test("ToolContext sorts providers by priority, keeping registration order on ties")
    func priorityOrder() async throws {
        struct Fixed: Provider {
            let name: String
            let priority: Int
            func fetch(_ query: String, in environment: ProviderEnvironment) async throws -> String { name }
        }
        let context = ToolContext(
            coordinator: coordinator(),
            environment: testEnvironment(
                transport: StubTransport { _ in throw ProviderFailure(.network, "no") }, now: clock.date))
        let providers: [any Provider<String, String>] = [
            Fixed(name: "late", priority: 50), Fixed(name: "tieA", priority: 10), Fixed(name: "tieB", priority: 10),
        ]
        let result = try await context.fetch(tool: "t", key: "k", query: "q", providers: providers)
        #expect(result.value == "tieA")
    }

    @Test("an attempt past the deadline times out and the next provider answers, on the injected clock")
    func timeout() async throws {
        let manual = ManualClock()
        let slow = ScriptedProvider("slow") { _ in
            // Ignores cancellation on purpose: the deadline must not wait for it.
            try? await Task.sleep(for: .seconds(30))
            return "late"
        }
        let fast = ScriptedProvider.ok("fast", "quick")
        let coordinator = coordinator(timeout: .seconds(8), attemptClock: AttemptClock(manual))
        async let fetched = coordinator.fetch(request([slow, fast]))
        // The 8 s deadline passes on the test's clock, not the wall's.
        try await manual.waitForSleepers()
        manual.advance(by: .seconds(8))
        let result = try await fetched
        #expect(result.value == "quick")
        #expect(result.metadata.attempts.map(\.outcome) == [.timeout, .ok])
        #expect(result.metadata.attempts[0].detail == "no answer within 8 s")
        // Timed on the manual clock: exactly the deadline, whatever the wall clock did.
        #expect(result.metadata.attempts[0].milliseconds == 8_000)
    }

    @Test("when every provider fails and nothing is cached, the error lists each provider (exit 69)")
    func allFail() async throws {
        let error = await #expect(throws: AlmanacError.self) {
            try await coordinator().fetch(
                request([
                    .failing("espn", "HTTP 503 from site.api.espn.com"),
                    .failing("brave", "HTTP 401, credentials refused"),
                ]))
        }
        #expect(error?.exitStatus == 69)
        #expect(
            error?.lines.map { $0.replacing(/\(\d+ ms\)/, with: "(N ms)") } == [
                "error: sports: every provider failed",
                "  espn: HTTP 503 from site.api.espn.com (N ms)",
                "  brave: HTTP 401, credentials refused (N ms)",
            ])
    }

    @Test("a fresh entry is served from cache; after the TTL providers are asked again")
    func ttl() async throws {
        let provider = ScriptedProvider("espn") { call in "v\(call)" }
        let coordinator = coordinator(ttl: .seconds(60))
        #expect(try await coordinator.fetch(request([provider])).value == "v1")
        clock.advance(59)
        let cached = try await coordinator.fetch(request([provider]))
        #expect(cached.value == "v1")
        #expect(cached.metadata.attempts.map(\.outcome) == [.cached])
        #expect(cached.metadata.ageSeconds == 59)
        clock.advance(2)
        #expect(try await coordinator.fetch(request([provider])).value == "v2")
        #expect(provider.callCount == 2)
    }

    @Test("TTL 0 always refetches")
    func ttlZero() async throws {
        let provider = ScriptedProvider("espn") { call in "v\(call)" }
        let coordinator = coordinator(ttl: .zero)
        _ = try await coordinator.fetch(request([provider]))
        #expect(try await coordinator.fetch(request([provider])).value == "v2")
    }

    @Test("a tool's own TTL replaces the default, but ALMANAC_CACHE_TTL=0 still refetches")
    func toolTTL() async throws {
        let provider = ScriptedProvider("espn") { call in "v\(call)" }
        var long = request([provider])
        long.ttl = .seconds(6 * 3600)
        let cache = MemoryCacheStore()
        let standard = coordinator(ttl: .seconds(60), cache: cache)
        _ = try await standard.fetch(long)
        clock.advance(3600)
        #expect(try await standard.fetch(long).value == "v1")
        #expect(try await coordinator(ttl: .zero, cache: cache).fetch(long).value == "v2")
    }

    @Test("readCache false (--no-cache) asks providers even when fresh, and stores the new answer")
    func noCache() async throws {
        let provider = ScriptedProvider("espn") { call in "v\(call)" }
        let coordinator = coordinator()
        _ = try await coordinator.fetch(request([provider]))
        let forced = try await coordinator.fetch(request([provider]), options: FetchOptions(readCache: false))
        #expect(forced.value == "v2")
        #expect(try await coordinator.fetch(request([provider])).value == "v2")
    }

    @Test("stale-on-error: an expired entry is served, marked stale with its age and the failures")
    func staleOnError() async throws {
        let flaky = ScriptedProvider("espn") { call in
            if call == 1 { return "old" }
            throw ProviderFailure(.http, "HTTP 500 from site.api.espn.com")
        }
        let coordinator = coordinator()
        _ = try await coordinator.fetch(request([flaky]))
        clock.advance(600)
        let stale = try await coordinator.fetch(request([flaky]))
        #expect(stale.value == "old")
        #expect(stale.metadata.stale)
        #expect(stale.metadata.ageSeconds == 600)
        #expect(stale.metadata.failures.map(\.detail) == ["HTTP 500 from site.api.espn.com"])
    }

    @Test("entries older than the stale limit are not served")
    func staleLimit() async throws {
        let flaky = ScriptedProvider("espn") { call in
            if call == 1 { return "old" }
            throw ProviderFailure(.network, "could not connect")
        }
        let coordinator = coordinator()
        _ = try await coordinator.fetch(request([flaky]))
        clock.advance(8 * 86_400)
        await #expect(throws: AlmanacError.self) { try await coordinator.fetch(request([flaky])) }
    }

    @Test(
        "a provider's own copy is served stale when nothing is cached; the newer of copy and cache wins; neither is cached"
    )
    func providerStaleCopy() async throws {
        let cache = MemoryCacheStore()
        let coordinator = coordinator(cache: cache)
        let mirrored = clock.date.addingTimeInterval(-3_600)
        func failing(copyAt: Date?) -> CoordinatedRequest<String> {
            let call = ProviderCall<String>(
                name: "caldav", run: { throw ProviderFailure(.unauthorized, "CalDAV: HTTP 401") },
                staleCopy: { copyAt.map { StaleCopy(value: "mirror", fetchedAt: $0) } })
            return CoordinatedRequest(tool: "calendar", key: "work:2019-10", providers: [call])
        }

        // Nothing cached for this key: the provider's mirror, an hour old, labelled stale.
        let served = try await coordinator.fetch(failing(copyAt: mirrored))
        #expect(served.value == "mirror")
        #expect(served.metadata.stale)
        #expect(served.metadata.provider == "caldav")
        #expect(served.metadata.ageSeconds == 3_600)
        #expect(served.metadata.failures.map(\.detail) == ["CalDAV: HTTP 401"])
        #expect(await cache.entry(for: "calendar:work:2019-10") == nil)

        // A cached answer newer than the copy is preferred; an older one is not.
        let fresh = ProviderCall<String>(name: "caldav") { "cached" }
        _ = try await coordinator.fetch(CoordinatedRequest(tool: "calendar", key: "work:2019-10", providers: [fresh]))
        clock.advance(600)
        #expect(try await coordinator.fetch(failing(copyAt: mirrored)).value == "cached")
        #expect(try await coordinator.fetch(failing(copyAt: clock.date.addingTimeInterval(-60))).value == "mirror")

        // Past the stale limit the copy is not served.
        let other = CoordinatedRequest<String>(
            tool: "calendar", key: "elsewhere",
            providers: [
                ProviderCall(
                    name: "caldav", run: { throw ProviderFailure(.network, "down") },
                    staleCopy: { StaleCopy(value: "ancient", fetchedAt: Date(timeIntervalSince1970: 0)) })
            ])
        await #expect(throws: AlmanacError.self) { try await coordinator.fetch(other) }
    }

    @Test("an uncached request neither reads nor writes the cache, and serves no stale copy")
    func uncached() async throws {
        let cache = MemoryCacheStore()
        let coordinator = coordinator(cache: cache)
        _ = try await coordinator.fetch(request([.ok("file", "stored")]))
        let provider = ScriptedProvider("file") { call in
            if call == 1 { return "fresh" }
            throw ProviderFailure(.notFound, "no such file")
        }
        var uncached = request([provider])
        uncached.cached = false
        // A fresh entry exists, yet the provider answers, and its answer is not stored.
        let result = try await coordinator.fetch(uncached)
        #expect(result.value == "fresh")
        #expect(result.metadata.provider == "file" && !result.metadata.stale)
        #expect(result.metadata.attempts.map(\.outcome) == [.ok])
        let entry = await cache.entry(for: "sports:nba")
        #expect(entry.map { String(decoding: $0.payload, as: UTF8.self) } == #""stored""#)
        // When it fails, the stored entry is not served instead.
        await #expect(throws: AlmanacError.self) { try await coordinator.fetch(uncached) }
    }

    @Test("failures are never cached")
    func failuresNotCached() async throws {
        let provider = ScriptedProvider("espn") { call in
            if call == 1 { throw ProviderFailure(.http, "HTTP 500") }
            return "good"
        }
        let cache = MemoryCacheStore()
        let coordinator = coordinator(cache: cache)
        await #expect(throws: AlmanacError.self) { try await coordinator.fetch(request([provider])) }
        #expect(await cache.entry(for: "sports:nba") == nil)
        #expect(try await coordinator.fetch(request([provider])).value == "good")
    }

    @Test("concurrent identical requests make one upstream call")
    func deduplication() async throws {
        let provider = ScriptedProvider("espn") { _ in
            try await Task.sleep(for: .milliseconds(200))
            return "shared"
        }
        // The deadline is not what this checks: on a starved machine (a CI run) the 200 ms sleep
        // once ended past the default 5 s.
        let coordinator = coordinator(timeout: .seconds(120))
        let values = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<20 { group.addTask { try await coordinator.fetch(self.request([provider])).value } }
            var values: [String] = []
            for try await value in group { values.append(value) }
            return values
        }
        #expect(values == Array(repeating: "shared", count: 20))
        #expect(provider.callCount == 1)
    }

    @Test("different keys do not share a call")
    func distinctKeys() async throws {
        let provider = ScriptedProvider("espn") { call in "v\(call)" }
        let coordinator = coordinator()
        _ = try await coordinator.fetch(request([provider], key: "nba"))
        _ = try await coordinator.fetch(request([provider], key: "nfl"))
        #expect(provider.callCount == 2)
    }

    @Test("a rate-limited provider is skipped until its reset time, which is remembered in the cache")
    func rateLimitMemory() async throws {
        let resetAt = clock.date.addingTimeInterval(30)
        let limited = ScriptedProvider("brave") { _ in
            throw ProviderFailure(.rateLimited, "HTTP 429, rate limited", retryAfter: resetAt)
        }
        let backup = ScriptedProvider.ok("backup", "ok")
        let cache = MemoryCacheStore()
        _ = try await coordinator(ttl: .zero, cache: cache).fetch(request([limited, backup]))
        // A new coordinator over the same cache stands in for the next process.
        let next = try await coordinator(ttl: .zero, cache: cache).fetch(request([limited, backup]))
        #expect(limited.callCount == 1)
        #expect(next.metadata.attempts.map(\.outcome) == [.skipped, .ok])
        clock.advance(31)
        _ = try await coordinator(ttl: .zero, cache: cache).fetch(request([limited, backup]))
        #expect(limited.callCount == 2)
    }

    @Test("a cache that throws does not stop an answer")
    func brokenCache() async throws {
        struct Broken: CacheStore {
            struct Failure: Error {}
            func entry(for key: String) async throws -> CacheEntry? { throw Failure() }
            func store(_ entry: CacheEntry) async throws { throw Failure() }
            func removeAll() async throws -> Int { throw Failure() }
            func note(for key: String) async throws -> String? { throw Failure() }
            func setNote(_ value: String?, for key: String) async throws { throw Failure() }
        }
        let result = try await coordinator(cache: Broken()).fetch(request([.ok("espn", "fine")]))
        #expect(result.value == "fine")
    }
}

@Suite("Deadline")
struct DeadlineTests {
    @Test("returns the body's value when it finishes in time")
    func inTime() async throws {
        #expect(try await Deadline.run(.seconds(5)) { 42 } == 42)
    }

    @Test("throws DeadlineExceeded without waiting for a body that ignores cancellation")
    func late() async throws {
        // On a manual clock, so a loaded machine cannot stretch it: the caller must be released while
        // the body, which ignores cancellation, is still running.
        let manual = ManualClock()
        let finished = Flag()
        let release = Flag()
        let caller = Task {
            try await Deadline.run(.milliseconds(50), clock: AttemptClock(manual)) {
                await Self.napsIgnoringCancellation(upTo: 3000, until: release, then: finished)
            }
        }
        try await manual.waitForSleepers()
        manual.advance(by: .milliseconds(50))
        await #expect(throws: DeadlineExceeded.self) { try await caller.value }
        #expect(!finished.isSet, "the caller waited for the body")
        release.set()
    }

    @Test("on the live clock, the caller is released while a body that ignores cancellation still runs")
    func liveLate() async throws {
        let finished = Flag()
        let release = Flag()
        await #expect(throws: DeadlineExceeded.self) {
            try await Deadline.run(.milliseconds(30)) {
                await Self.napsIgnoringCancellation(upTo: 300, until: release, then: finished)
            }
        }
        #expect(!finished.isSet, "the caller waited for the body")
        release.set()
    }

    /// Naps of 10 ms that cancellation cannot cut short (bounded: at most `naps`) until `release`
    /// is set; then sets `finished`.
    static func napsIgnoringCancellation(upTo naps: Int, until release: Flag, then finished: Flag) async -> Int {
        for _ in 0..<naps where !release.isSet {
            await withCheckedContinuation { (nap: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(10)) { nap.resume() }
            }
        }
        finished.set()
        return 1
    }

    @Test("a finished call lets go of its work: nothing the body captured is kept")
    func releasesWork() async throws {
        final class Token: Sendable {}
        weak var released: Token?
        do {
            let token = Token()
            released = token
            let answer = try await Deadline.run(.seconds(30)) { () -> Int in
                withExtendedLifetime(token) { 1 }
            }
            #expect(answer == 1)
        }
        // The work's task may still be ending (it resumed the caller first); bounded: 1 s.
        for _ in 0..<100 where released != nil { try await Task.sleep(for: .milliseconds(10)) }
        // A finished task lets go of its closure, so the deadline's hold on the task is no cycle.
        #expect(released == nil, "the work's task or its deadline kept the body alive")
    }

    @Test("a body that finishes first stops its live timer: nothing of the call is kept")
    func stopsTimer() async throws {
        let timer = DeadlineTimer()
        let fired = Flag()
        let stop = timer.schedule(after: .seconds(30)) { fired.set() }
        #expect(timer.pendingCount == 1)
        timer.cancel(stop)
        #expect(timer.pendingCount == 0)
        let clock = AttemptClock(ContinuousClock(), liveTimer: timer)
        for value in 0..<20 {
            #expect(try await Deadline.run(.seconds(30), clock: clock) { value } == value)
        }
        #expect(timer.pendingCount == 0, "a finished call's deadline (and all it holds) was kept")
        #expect(!fired.isSet)
    }

    @Test("a sooner deadline set after a later one wakes the timer; a cancelled one never fires")
    func soonerFirst() async throws {
        let timer = DeadlineTimer()
        let late = Flag()
        let cancelled = Flag()
        let soon = Flag()
        let lateTicket = timer.schedule(after: .seconds(60)) { late.set() }
        try await Task.sleep(for: .milliseconds(20))  // the thread now sleeps until the late one
        let cancelledTicket = timer.schedule(after: .milliseconds(10)) { cancelled.set() }
        timer.cancel(cancelledTicket)
        _ = timer.schedule(after: .milliseconds(20)) { soon.set() }
        // Bounded: at most 5 s, where a timer that slept on would take 60.
        for _ in 0..<500 where !soon.isSet { try await Task.sleep(for: .milliseconds(10)) }
        #expect(soon.isSet, "the sooner deadline waited for the later one")
        #expect(!cancelled.isSet)
        #expect(!late.isSet)
        timer.cancel(lateTicket)
    }
}

/// A flag shared with an escaping closure.
final class Flag: Sendable {
    private let state = Mutex(false)
    var isSet: Bool { state.withLock { $0 } }
    func set() { state.withLock { $0 = true } }
}
