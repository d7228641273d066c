import AlmanacCore
import Foundation
import Synchronization

/// When a plugin whose program failed (crashed, hung past its deadline, spoke garbage) may be
/// started again: after the base delay (1 s), then twice as long after each further failure in a
/// row, up to ``cap``. A call in between fails at once, and a stale cached answer is served if there is one.
struct PluginBackoff: Sendable, Equatable {
    /// The longest wait between two starts.
    static let cap = Duration.seconds(60)

    /// Failures in a row (a call answered resets them).
    var failures: Int
    /// No program is started before this.
    var retryAt: ContinuousClock.Instant
    /// The same moment on the wall clock, for the message.
    var retryDate: Date
    /// What went wrong last.
    var reason: String

    /// The wait after `failures` failures in a row: base, 2 × base, 4 × base … up to ``cap``.
    static func delay(failures: Int, base: Duration) -> Duration {
        let doublings = min(max(failures - 1, 0), 20)
        return min(base * (1 << doublings), max(cap, base))
    }

    /// The state after one more failure at `now`.
    static func after(
        _ previous: PluginBackoff?, reason: String, base: Duration, now: ContinuousClock.Instant, date: Date
    ) -> PluginBackoff {
        let failures = (previous?.failures ?? 0) + 1
        let wait = delay(failures: failures, base: base)
        let seconds = Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18
        return PluginBackoff(
            failures: failures, retryAt: now + wait, retryDate: date.addingTimeInterval(seconds), reason: reason)
    }

    /// The one-line refusal of a call made before ``retryAt``, saying when the plugin is started again.
    func refusal(now: ContinuousClock.Instant) -> ProviderFailure {
        let left = now.duration(to: retryAt)
        let seconds = max(
            1, Int((Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18).rounded(.up)))
        // The clock of the shared ISO form ("2027-01-15T08:00:02Z" → "08:00:02"), not a
        // DateFormatter made per refusal.
        let clock = TimeText.isoUTC(retryDate).dropFirst(11).prefix(8)
        let times = failures == 1 ? "once" : "\(failures) times in a row"
        return ProviderFailure(
            .network,
            "its program failed \(times) (\(reason)); not restarted before \(clock) UTC (in \(seconds) s)")
    }
}

/// A call made while its plugin is backing off (no program was started).
struct PluginBackingOff: Error {
    var failure: ProviderFailure
}

/// Tells whoever listens (the server's metrics) that a plugin's program was started again after a
/// failure. Set once by a server; safe from any thread.
final class PluginObserver: Sendable {
    private let restart = Mutex<(@Sendable (String) -> Void)?>(nil)

    func onRestart(_ handler: @escaping @Sendable (String) -> Void) {
        restart.withLock { $0 = handler }
    }

    func restarted(_ plugin: String) {
        let handler = restart.withLock { $0 }
        handler?(plugin)
    }
}
