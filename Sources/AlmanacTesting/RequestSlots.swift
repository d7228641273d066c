public import AlmanacCore
public import Foundation

/// Checks a state store's request slots the way concurrent processes use them.
public enum RequestSlots {
    /// Reserves `count` slots under `key` at once, spread over `stores` (each store standing for a
    /// process or host), and returns them sorted: a store that keeps the interval gives `now`,
    /// `now + interval`, ... whoever got which.
    public static func reserveAtOnce(
        _ stores: [any ProviderStateStore], count: Int, key: String, interval: TimeInterval, now: Date
    ) async -> [Date] {
        await withTaskGroup(of: Date.self) { group in
            for index in 0..<count {
                let store = stores[index % stores.count]
                group.addTask { await store.reserveSlot(key, interval: interval, now: now) }
            }
            var slots: [Date] = []
            for await slot in group { slots.append(slot) }
            return slots.sorted()
        }
    }
}
