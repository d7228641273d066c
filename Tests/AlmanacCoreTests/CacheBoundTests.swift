import AlmanacTesting
import Foundation
import Synchronization
import Testing

@testable import AlmanacCore

/// A store that counts its reads, behind the memory layer.
actor CountingStore: CacheStore {
    private let inner = MemoryCacheStore()
    private(set) var reads = 0

    func entry(for key: String) async throws -> CacheEntry? {
        reads += 1
        return await inner.entry(for: key)
    }
    func store(_ entry: CacheEntry) async throws { await inner.store(entry) }
    func removeAll() async throws -> Int { await inner.removeAll() }
    func note(for key: String) async throws -> String? { await inner.note(for: key) }
    func setNote(_ value: String?, for key: String) async throws { await inner.setNote(value, for: key) }
}

struct NotOwnBytes: Error {}

/// A value that writes its own cache bytes, and counts how often it is read back from them.
struct OwnBytesValue: OwnCacheBytes, Equatable {
    static let decodes = Mutex(0)
    var text: String

    func cacheBytes() throws -> Data { Data(("own:" + text).utf8) }
    init(text: String) { self.text = text }
    init(cacheBytes: Data) throws {
        Self.decodes.withLock { $0 += 1 }
        let text = String(decoding: cacheBytes, as: UTF8.self)
        guard text.hasPrefix("own:") else { throw NotOwnBytes() }
        self.text = String(text.dropFirst(4))
    }
}

@Suite("Cache bounds and own cache bytes", .serialized)
struct CacheBoundTests {
    func entry(_ key: String, bytes: Int) -> CacheEntry {
        CacheEntry(key: key, tool: "t", provider: "p", fetchedAt: Date(), payload: Data(repeating: 0x61, count: bytes))
    }

    @Test("the memory store keeps at most its bytes, dropping the least recently used entry first")
    func leastRecentlyUsedFirst() async {
        let store = MemoryCacheStore(maxBytes: 1_000, maxEntryBytes: 400)
        for key in ["a", "b", "c"] { await store.store(entry(key, bytes: 299)) }
        #expect(await store.bytes == 900)
        _ = await store.entry(for: "a")  // used: "b" is now the oldest
        await store.store(entry("d", bytes: 299))
        #expect(await store.entry(for: "b") == nil)
        for key in ["a", "c", "d"] { #expect(await store.entry(for: key) != nil, "\(key)") }
        #expect(await store.bytes == 900)
        // A second entry for a key replaces the first, counted once.
        await store.store(entry("d", bytes: 99))
        #expect(await store.bytes == 700)
    }

    @Test("an entry over the per-entry bound is not kept, and forgets the key's older entry")
    func oversizedNotKept() async {
        let store = MemoryCacheStore(maxBytes: 1_000, maxEntryBytes: 400)
        await store.store(entry("feed", bytes: 100))
        await store.store(entry("feed", bytes: 500))
        #expect(await store.entry(for: "feed") == nil)  // never the older, smaller answer
        #expect(await store.bytes == 0)
    }

    @Test("the layer keeps small entries in memory and reads big ones from the backing store each time")
    func layeredBound() async throws {
        let backing = CountingStore()
        let layered = LayeredCacheStore(backing: backing, memoryBytes: 8_000)
        try await layered.store(entry("small", bytes: 500))
        try await layered.store(entry("big", bytes: 5_000))
        for _ in 0..<3 {
            #expect(try await layered.entry(for: "small")?.payload.count == 500)
            #expect(try await layered.entry(for: "big")?.payload.count == 5_000)
        }
        #expect(await backing.reads == 3)  // the big one only
        // Many small entries never hold more than the bound.
        for index in 0..<100 { try await layered.store(entry("k\(index)", bytes: 500)) }
        #expect(try await layered.entry(for: "k0")?.payload.count == 500)  // from the backing store
        #expect(await backing.reads == 4)
    }

    @Test("a value with its own cache bytes: stored as them, handed back fresh without a decode, read back from them")
    func ownCacheBytes() async throws {
        let now = ManualNow()
        let cache = MemoryCacheStore()
        let coordinator = Coordinator(cache: cache, configuration: .init(ttl: .seconds(60)), now: now.closure)
        let request = CoordinatedRequest(
            tool: "calendar", key: "feed", providers: [ProviderCall(name: "ics-url") { OwnBytesValue(text: "BEGIN") }])
        OwnBytesValue.decodes.withLock { $0 = 0 }
        let fresh = try await coordinator.fetch(request)
        #expect(fresh.value == OwnBytesValue(text: "BEGIN"))
        #expect(OwnBytesValue.decodes.withLock { $0 } == 0)
        let stored = try #require(await cache.entry(for: "calendar:feed"))
        #expect(String(decoding: stored.payload, as: UTF8.self) == "own:BEGIN")
        let cached = try await coordinator.fetch(request)
        #expect(cached.value == OwnBytesValue(text: "BEGIN"))
        #expect(cached.metadata.attempts.map(\.outcome) == [.cached])
        #expect(OwnBytesValue.decodes.withLock { $0 } == 1)
    }

    @Test("with a TTL of 0 a refetch does not read the stored entry, which is still served when every provider fails")
    func zeroTTLReadsOnlyOnFailure() async throws {
        let now = ManualNow()
        let backing = CountingStore()
        let coordinator = Coordinator(cache: backing, configuration: .init(ttl: .zero), now: now.closure)
        let provider = ScriptedProvider("espn") { call in
            if call == 1 { return "games" }
            throw ProviderFailure(.http, "HTTP 500")
        }
        let request = CoordinatedRequest(tool: "sports", key: "nba", providers: [provider.call])
        #expect(try await coordinator.fetch(request).value == "games")
        #expect(await backing.reads == 0)
        let stale = try await coordinator.fetch(request)
        #expect(stale.value == "games" && stale.metadata.stale)
        #expect(await backing.reads == 1)
    }
}
