import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCore
@testable import AlmanacRuntime
@testable import AlmanacSports

@Suite("SQLite cache")
struct SQLiteCacheTests {
    func directory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("almanac-cache-\(UUID().uuidString)")
    }

    func entry(_ key: String, _ text: String = "payload") -> CacheEntry {
        CacheEntry(
            key: key, tool: "sports", provider: "espn", fetchedAt: Date(timeIntervalSince1970: 1_734_300_000),
            payload: Data(text.utf8))
    }

    @Test("entries, notes and provider state survive reopening (another process sees them)")
    func persistence() async throws {
        let folder = directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try SQLiteCacheStore(directory: folder)
        try await first.store(entry("sports:nba"))
        try await first.setNote("1734300030", for: "ratelimit:brave")
        await first.setValue(Data("token-1".utf8), for: "caldav:sync")
        let second = try SQLiteCacheStore(directory: folder)
        #expect(try await second.entry(for: "sports:nba") == entry("sports:nba"))
        #expect(try await second.note(for: "ratelimit:brave") == "1734300030")
        #expect(await second.value(for: "caldav:sync") == Data("token-1".utf8))
        #expect(try await second.removeAll() == 1)
        #expect(try await first.entry(for: "sports:nba") == nil)
    }

    @Test("a payload of a MB or more is written in place, byte for byte, and replaced either way")
    func bigPayloads() async throws {
        let folder = directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteCacheStore(directory: folder)
        // Not one repeated byte, so a blob written at a wrong offset or cut short would show.
        var generator = SystemRandomNumberGenerator()
        let big = Data((0..<(3 << 20) + 17).map { _ in UInt8.random(in: 0...255, using: &generator) })
        #expect(big.count >= SQLiteCacheStore.streamedPayloadBytes)
        var entry = entry("calendar:big")
        entry.payload = big
        try await store.store(entry)
        #expect(try await SQLiteCacheStore(directory: folder).entry(for: "calendar:big")?.payload == big)
        try await store.store(self.entry("calendar:big", "small now"))
        #expect(try await store.entry(for: "calendar:big")?.payload == Data("small now".utf8))
        entry.payload = big.prefix(SQLiteCacheStore.streamedPayloadBytes)
        try await store.store(entry)
        #expect(try await store.entry(for: "calendar:big") == entry)
    }

    @Test("request slots are reserved atomically across connections: concurrent callers never share one")
    func requestSlots() async throws {
        let folder = directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Two stores on one file stand for two processes (each has its own connection).
        let stores: [any ProviderStateStore] = [
            try SQLiteCacheStore(directory: folder), try SQLiteCacheStore(directory: folder),
        ]
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let slots = await RequestSlots.reserveAtOnce(
            stores, count: 12, key: "terms:nominatim:last-request", interval: 1, now: now)
        // One request a second: slots now, now+1 ... now+11, whichever caller got which.
        #expect(slots == (0..<12).map { now.addingTimeInterval(Double($0)) })
        // A later caller, past every reserved slot, goes at once.
        let later = now.addingTimeInterval(60)
        #expect(await stores[0].reserveSlot("terms:nominatim:last-request", interval: 1, now: later) == later)
    }

    @Test("the runtime keeps one state store: a server's requests share intervals; a shared store is used")
    func runtimeState() async throws {
        let folder = directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["ALMANAC_CACHE_DIR": folder.path, "HOME": folder.path]
        let runtime = try Runtime.make(environment: environment)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let first = await runtime.context().environment.state.reserveSlot("k", interval: 1, now: now)
        let second = await runtime.forRequest().context().environment.state.reserveSlot("k", interval: 1, now: now)
        #expect(second.timeIntervalSince(first) == 1)

        let shared = try SQLiteCacheStore(directory: folder.appendingPathComponent("shared"))
        let hosted = try Runtime.make(environment: environment, options: RuntimeOptions(sharedStore: shared))
        _ = await hosted.context().environment.state.reserveSlot("k", interval: 1, now: now)
        // The slot went to the shared store, not to the host's own file.
        #expect(RequestSlot.decode(await shared.value(for: "k")) == now)
    }

    @Test("the contract kit on the runtime's SQLite cache: a 429's Retry-After holds for another process")
    func contractAcrossProcesses() async throws {
        let folder = directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let league = try #require(League.named("nba"))
        let now = try #require(TimeText.parseInstant("2024-12-16T04:30:00Z"))
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        let query = SportsQuery(league: league, view: .scores, day: LocalDay.containing(now, in: zone))
        // A fresh cache file per check; reopening it is a second connection, as another `tools`
        // process's is.
        let fresh: @Sendable () -> any CacheStore = {
            let store = try? SQLiteCacheStore(directory: folder.appendingPathComponent(UUID().uuidString))
            return store.map { $0 as any CacheStore } ?? MemoryCacheStore()
        }
        let reopen: @Sendable (any CacheStore) -> any CacheStore = { cache in
            guard let store = cache as? SQLiteCacheStore,
                let again = try? SQLiteCacheStore(
                    directory: URL(fileURLWithPath: store.path).deletingLastPathComponent())
            else { return MemoryCacheStore() }  // a fresh memory store fails the 429 check: never silently passes
            return again
        }
        let violations = await ProviderContract.check(
            ESPNProvider(), query: query, recorded: try Fixtures.replay(), now: now, makeCache: fresh, reopen: reopen)
        #expect(violations.isEmpty, "\(violations)")
    }

    @Test("a file that is not a database is moved aside and the cache starts afresh")
    func corruptFile() async throws {
        let folder = directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(repeating: 0x41, count: 8192).write(to: folder.appendingPathComponent("cache.sqlite"))
        let store = try SQLiteCacheStore(directory: folder)
        try await store.store(entry("k"))
        #expect(try await store.entry(for: "k") != nil)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.contains { $0.hasPrefix("cache.sqlite.corrupt-") })
    }

    @Test("many concurrent writers and readers on separate connections leave every entry whole")
    func concurrency() async throws {
        let folder = directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stores = try (0..<4).map { _ in try SQLiteCacheStore(directory: folder) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                let store = stores[index % stores.count]
                group.addTask {
                    try await store.store(self.entry("k\(index % 10)", String(repeating: "x", count: 1000 + index)))
                    if let read = try await store.entry(for: "k\(index % 10)") {
                        // Whole entries only: the payload is all "x" of one writer's length.
                        #expect(read.payload.allSatisfy { $0 == UInt8(ascii: "x") })
                    }
                }
            }
            try await group.waitForAll()
        }
        let health = try await stores[0].health()
        #expect(health.entries == 10)
        #expect(health.integrity == "ok")
    }

    @Test("the coordinator over the layered SQLite cache serves a second runtime from disk")
    func layered() async throws {
        let folder = directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let now = ManualNow()
        let request = CoordinatedRequest<String>(
            tool: "sports", key: "nba", providers: [ProviderCall(name: "espn") { "fresh" }])
        let first = Coordinator(
            cache: LayeredCacheStore(backing: try SQLiteCacheStore(directory: folder)), now: now.closure)
        _ = try await first.fetch(request)
        let failing = CoordinatedRequest<String>(
            tool: "sports", key: "nba",
            providers: [ProviderCall(name: "espn") { throw ProviderFailure(.http, "HTTP 500") }])
        let second = Coordinator(
            cache: LayeredCacheStore(backing: try SQLiteCacheStore(directory: folder)), now: now.closure)
        let cached = try await second.fetch(failing)
        #expect(cached.value == "fresh")
        #expect(cached.metadata.attempts.map(\.outcome) == [.cached])
        now.advance(120)
        let stale = try await second.fetch(failing)
        #expect(stale.metadata.stale)
        #expect(stale.value == "fresh")
    }
}
