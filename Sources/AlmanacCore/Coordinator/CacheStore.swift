public import Foundation
import Synchronization

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

/// A result that writes its own cache bytes instead of JSON: for values of megabytes (a calendar
/// feed's text), whose JSON form costs an escaped copy to write and a parse and another copy to
/// read. The coordinator also hands a fresh answer of such a type back as the provider returned
/// it, so its bytes must read back as an equal value.
public protocol OwnCacheBytes: Codable, Sendable {
    /// The bytes stored for this value.
    func cacheBytes() throws -> Data
    /// The value from bytes ``cacheBytes()`` wrote (or an older version's JSON for the type).
    init(cacheBytes: Data) throws
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
    /// Returns once every entry ``store(_:)`` accepted is stored (a write-behind layer stores them
    /// after the call returned; other stores have stored them already).
    func flush() async
}

extension CacheStore {
    /// Nothing waits: ``store(_:)`` stored it.
    public func flush() async {}
}

/// A process-local cache (tests, and the memory layer in front of SQLite), bounded by bytes.
///
/// A long-running server answers for months: what it keeps in memory must not grow with every
/// distinct request. Entries are dropped least recently used first once their payloads pass
/// `maxBytes`, and an entry larger than `maxEntryBytes` (a 19 MB calendar feed) is not kept at
/// all: reading it again from the backing store costs little beside what is done with it.
public actor MemoryCacheStore: CacheStore {
    private var entries: [String: (entry: CacheEntry, used: UInt64)] = [:]
    private var notes: [String: String] = [:]
    private var clock: UInt64 = 0
    /// Bytes of the payloads and keys held.
    private(set) var bytes = 0
    /// The most payload and key bytes held at once.
    nonisolated let maxBytes: Int
    /// The largest entry kept.
    nonisolated let maxEntryBytes: Int

    /// The default bound of the memory layer in front of a shared store: 32 MB.
    public static let defaultMaxBytes = 32 << 20

    /// Creates an empty store holding at most `maxBytes` of entries (unbounded by default, for
    /// tests) and no single entry over `maxEntryBytes` (default: an eighth of `maxBytes`).
    public init(maxBytes: Int = .max, maxEntryBytes: Int? = nil) {
        self.maxBytes = maxBytes
        self.maxEntryBytes = maxEntryBytes ?? (maxBytes == .max ? .max : maxBytes / 8)
    }

    /// The entry for `key` (and marks it used).
    public func entry(for key: String) -> CacheEntry? {
        guard let held = entries[key] else { return nil }
        clock += 1
        entries[key]?.used = clock
        return held.entry
    }

    /// Stores an entry (dropping the oldest ones past the bound), or only forgets the key's
    /// older entry when this one is over ``maxEntryBytes``.
    public func store(_ entry: CacheEntry) {
        if let old = entries.removeValue(forKey: entry.key) { bytes -= Self.size(old.entry) }
        let size = Self.size(entry)
        guard size <= maxEntryBytes else { return }
        clock += 1
        entries[entry.key] = (entry, clock)
        bytes += size
        while bytes > maxBytes, let oldest = entries.min(by: { $0.value.used < $1.value.used }) {
            entries.removeValue(forKey: oldest.key)
            bytes -= Self.size(oldest.value.entry)
        }
    }

    /// Removes every entry.
    public func removeAll() -> Int {
        defer {
            entries = [:]
            notes = [:]
            bytes = 0
        }
        return entries.count
    }
    /// A note.
    public func note(for key: String) -> String? { notes[key] }
    /// Sets a note.
    public func setNote(_ value: String?, for key: String) { notes[key] = value }

    private static func size(_ entry: CacheEntry) -> Int { entry.payload.count + entry.key.utf8.count }
}

/// A memory layer in front of a shared (on-disk) store: reads hit memory first, writes go to both.
///
/// With `writeBehind` (servers), ``store(_:)`` returns once memory has the entry and the shared
/// store gets it afterwards, off the answer's path (a plugin call through `tools serve` waited on
/// the SQLite transaction). Until then reads find it here: memory, else the pending write.
public struct LayeredCacheStore: CacheStore {
    let memory: MemoryCacheStore
    let backing: any CacheStore
    let behind: WriteBehind?

    /// Wraps `backing`, keeping at most `memoryBytes` of entries in memory as well; with
    /// `writeBehind`, writes reach `backing` after ``store(_:)`` returns (``flush()`` waits for them)
    /// and a failed one is handed to `failed`.
    public init(
        backing: any CacheStore, memoryBytes: Int = MemoryCacheStore.defaultMaxBytes, writeBehind: Bool = false,
        failed: @escaping @Sendable (any Error) -> Void = { _ in }
    ) {
        self.backing = backing
        memory = MemoryCacheStore(maxBytes: memoryBytes)
        behind = writeBehind ? WriteBehind(backing: backing, failed: failed) : nil
    }

    /// Memory first, then a write not yet stored, then the backing store (and remembers what it found).
    public func entry(for key: String) async throws -> CacheEntry? {
        if let hit = await memory.entry(for: key) { return hit }
        if let pending = behind?.pending(key) { return pending }
        guard let entry = try await backing.entry(for: key) else { return nil }
        await memory.store(entry)
        return entry
    }

    /// Writes through (with write-behind, to memory now and to the backing store next).
    public func store(_ entry: CacheEntry) async throws {
        await memory.store(entry)
        if let behind {
            behind.enqueue(entry)
        } else {
            try await backing.store(entry)
        }
    }

    /// Clears both (after the writes still pending, so none comes back).
    public func removeAll() async throws -> Int {
        await flush()
        _ = await memory.removeAll()
        return try await backing.removeAll()
    }

    /// Notes live in the backing store only (they are for other processes).
    public func note(for key: String) async throws -> String? { try await backing.note(for: key) }
    /// Sets a note in the backing store.
    public func setNote(_ value: String?, for key: String) async throws { try await backing.setNote(value, for: key) }

    /// Waits for the pending writes (a server's shutdown).
    public func flush() async {
        await behind?.flush()
        await backing.flush()
    }
}

/// The writes a ``LayeredCacheStore`` owes its backing store: one per key (a newer entry replaces
/// one not yet written), stored in order by one task at a time.
final class WriteBehind: Sendable {
    private struct State {
        /// Per key the newest entry not yet stored, with its sequence number.
        var pending: [String: (entry: CacheEntry, sequence: UInt64)] = [:]
        var sequence: UInt64 = 0
        /// The task storing them, nil when none runs.
        var drain: Task<Void, Never>?
    }

    private let backing: any CacheStore
    private let failed: @Sendable (any Error) -> Void
    private let state = Mutex(State())

    init(backing: any CacheStore, failed: @escaping @Sendable (any Error) -> Void) {
        self.backing = backing
        self.failed = failed
    }

    /// The entry waiting to be stored for `key`.
    func pending(_ key: String) -> CacheEntry? { state.withLock { $0.pending[key]?.entry } }

    /// Stores `entry` soon.
    func enqueue(_ entry: CacheEntry) {
        state.withLock { state in
            state.sequence += 1
            state.pending[entry.key] = (entry, state.sequence)
            guard state.drain == nil else { return }
            state.drain = Task { await self.drain() }
        }
    }

    /// Waits until nothing is pending.
    func flush() async {
        while let running = state.withLock({ $0.drain }) { await running.value }
    }

    private func drain() async {
        while true {
            let batch: [(entry: CacheEntry, sequence: UInt64)] = state.withLock { state in
                if state.pending.isEmpty { state.drain = nil }
                return state.pending.values.sorted { $0.sequence < $1.sequence }
            }
            if batch.isEmpty { return }
            for item in batch {
                do { try await backing.store(item.entry) } catch { failed(error) }
                // Kept readable until stored; a newer entry for the key waits for the next round.
                state.withLock { state in
                    if state.pending[item.entry.key]?.sequence == item.sequence {
                        state.pending[item.entry.key] = nil
                    }
                }
            }
        }
    }
}
