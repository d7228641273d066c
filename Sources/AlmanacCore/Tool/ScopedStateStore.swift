public import Foundation

/// Provider state seen through a caller's scope (``EgressPolicy/cacheScope``): values a run under
/// one policy stored (a page kept for conditional requests, a CalDAV mirror, robots.txt rules) are
/// never read by a run under a narrower one. Request slots are shared: an upstream's pace is the
/// same whoever asks.
public struct ScopedStateStore: ProviderStateStore {
    /// The store underneath.
    let base: any ProviderStateStore
    /// Put before every key (empty: the store as it is).
    let scope: String

    /// Wraps `base`; keys get `scope` in front.
    public init(_ base: any ProviderStateStore, scope: String) {
        self.base = base
        self.scope = scope
    }

    /// The value stored under `key` in this scope.
    public func value(for key: String) async -> Data? { await base.value(for: scope + key) }

    /// Stores or removes the value under `key` in this scope.
    public func setValue(_ value: Data?, for key: String) async { await base.setValue(value, for: scope + key) }

    /// The shared slot under `key`, whatever the scope.
    public func reserveSlot(_ key: String, interval: TimeInterval, now: Date) async -> Date {
        await base.reserveSlot(key, interval: interval, now: now)
    }
}
