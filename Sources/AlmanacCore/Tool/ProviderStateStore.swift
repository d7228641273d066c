import Foundation

/// Small persistent state a provider keeps between runs (CalDAV sync tokens and ETags, rate-limit
/// resets). Backed by the SQLite cache in the runtime, by memory in tests. Never holds secrets.
public protocol ProviderStateStore: Sendable {
    /// The value stored under `key`.
    func value(for key: String) async -> Data?
    /// Stores (or with nil, removes) the value under `key`.
    func setValue(_ value: Data?, for key: String) async
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
}
