import Foundation

/// One cached result: encoded domain value plus provenance.
public struct CacheEntry: Sendable, Equatable {
    /// The normalized request key (includes the tool name).
    public var key: String
    /// Tool name.
    public var tool: String
    /// Provider that produced it.
    public var provider: String
    /// When the provider produced it.
    public var fetchedAt: Date
    /// The encoded domain value (JSON).
    public var payload: Data

    /// Creates an entry.
    public init(key: String, tool: String, provider: String, fetchedAt: Date, payload: Data) {
        self.key = key
        self.tool = tool
        self.provider = provider
        self.fetchedAt = fetchedAt
        self.payload = payload
    }
}

/// Where cached results live. Implementations must be safe across tasks and, for on-disk stores,
/// across processes; a read must never return a half-written entry.
public protocol CacheStore: Sendable {
    /// The entry for `key`, fresh or not.
    func entry(for key: String) async throws -> CacheEntry?
    /// Stores or replaces an entry.
    func store(_ entry: CacheEntry) async throws
    /// Removes every entry; returns how many were removed.
    func removeAll() async throws -> Int
    /// A small value remembered per key (e.g. a rate-limit reset time), outside the TTL rules.
    func note(for key: String) async throws -> String?
    /// Sets or clears a note.
    func setNote(_ value: String?, for key: String) async throws
}

/// A process-local cache (tests, and the memory layer in front of SQLite).
public actor MemoryCacheStore: CacheStore {
    private var entries: [String: CacheEntry] = [:]
    private var notes: [String: String] = [:]

    /// Creates an empty store.
    public init() {}

    /// The entry for `key`.
    public func entry(for key: String) -> CacheEntry? { entries[key] }
    /// Stores an entry.
    public func store(_ entry: CacheEntry) { entries[entry.key] = entry }
    /// Removes every entry.
    public func removeAll() -> Int {
        defer {
            entries = [:]
            notes = [:]
        }
        return entries.count
    }
    /// A note.
    public func note(for key: String) -> String? { notes[key] }
    /// Sets a note.
    public func setNote(_ value: String?, for key: String) { notes[key] = value }
}

/// A memory layer in front of a shared (on-disk) store: reads hit memory first, writes go to both.
public struct LayeredCacheStore: CacheStore {
    let memory = MemoryCacheStore()
    let backing: any CacheStore

    /// Wraps `backing`.
    public init(backing: any CacheStore) {
        self.backing = backing
    }

    /// Memory first, then the backing store (and remembers what it found).
    public func entry(for key: String) async throws -> CacheEntry? {
        if let hit = await memory.entry(for: key) { return hit }
        guard let entry = try await backing.entry(for: key) else { return nil }
        await memory.store(entry)
        return entry
    }

    /// Writes through.
    public func store(_ entry: CacheEntry) async throws {
        await memory.store(entry)
        try await backing.store(entry)
    }

    /// Clears both.
    public func removeAll() async throws -> Int {
        _ = await memory.removeAll()
        return try await backing.removeAll()
    }

    /// Notes live in the backing store only (they are for other processes).
    public func note(for key: String) async throws -> String? { try await backing.note(for: key) }
    /// Sets a note in the backing store.
    public func setNote(_ value: String?, for key: String) async throws { try await backing.setNote(value, for: key) }
}
