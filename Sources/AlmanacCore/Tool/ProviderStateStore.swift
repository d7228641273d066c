public import Foundation

/// Small persistent state a provider keeps between runs (CalDAV sync tokens and ETags, rate-limit
/// resets). Backed by the SQLite cache in the runtime, by memory in tests. Never holds secrets.
public protocol ProviderStateStore: Sendable {
    /// The value stored under `key`.
    func value(for key: String) async -> Data?
    /// Stores (or with nil, removes) the value under `key`.
    func setValue(_ value: Data?, for key: String) async
    /// Reserves the next request slot under `key`: `interval` after the slot reserved last (by any
    /// process sharing the store), never before `now`. Reading the last slot and writing the new
    /// one is one atomic step, so concurrent callers get distinct slots instead of colliding.
    /// Returns the instant at which the caller may send.
    func reserveSlot(_ key: String, interval: TimeInterval, now: Date) async -> Date
}

/// The arithmetic of request slots, shared by every store so they agree.
public enum RequestSlot {
    /// How many callers may queue: a stored slot further ahead than this many intervals can only
    /// come from a clock stepped back, and is not waited for.
    static let queueLimit = 64.0

    /// The slot after `last`: `interval` later, but not before `now`. Concurrent callers queue one
    /// interval apart; a stored time beyond the queue limit (a clock stepped back) waits one interval.
    public static func next(after last: Date?, interval: TimeInterval, now: Date) -> Date {
        let candidate = (last ?? .distantPast).addingTimeInterval(interval)
        if candidate.timeIntervalSince(now) > interval * queueLimit { return now.addingTimeInterval(interval) }
        return max(now, candidate)
    }

    /// A slot as stored (seconds since 1970, as text).
    public static func encode(_ slot: Date) -> Data { Data(String(slot.timeIntervalSince1970).utf8) }

    /// A stored slot; nil when absent or unreadable.
    public static func decode(_ data: Data?) -> Date? {
        data.flatMap { Double(String(decoding: $0, as: UTF8.self)) }.map { Date(timeIntervalSince1970: $0) }
    }
}

/// A process-local state store.
public actor MemoryStateStore: ProviderStateStore {
    private var values: [String: Data] = [:]

    /// Creates an empty store.
    public init() {}

    /// The value under `key`.
    public func value(for key: String) -> Data? { values[key] }

    /// Stores or removes a value.
    public func setValue(_ value: Data?, for key: String) { values[key] = value }

    /// Reserves a slot; the actor makes the read and write one step.
    public func reserveSlot(_ key: String, interval: TimeInterval, now: Date) -> Date {
        let slot = RequestSlot.next(after: RequestSlot.decode(values[key]), interval: interval, now: now)
        values[key] = RequestSlot.encode(slot)
        return slot
    }
}
