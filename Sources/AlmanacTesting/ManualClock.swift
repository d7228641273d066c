import Foundation
import Synchronization

/// A clock that moves only when a test advances it, so deadline tests run without waiting.
///
/// (swift-clocks' `TestClock` would do, but the mirror's 1.1.1 needs tools 6.4 and
/// swift-issue-reporting, which this toolchain and mirror lack.)
public final class ManualClock: Clock, Sendable {
    /// An offset from the clock's start.
    public struct Instant: InstantProtocol, Sendable {
        /// Time since the clock's start.
        public var offset: Duration
        /// `offset + duration`.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// `other - self`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Earlier first.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private let state = Mutex<(now: Instant, sleepers: [UUID: Sleeper])>((Instant(offset: .zero), [:]))

    /// Creates a clock at offset zero.
    public init() {}

    /// The current instant.
    public var now: Instant { state.withLock { $0.now } }
    /// One nanosecond.
    public var minimumResolution: Duration { .nanoseconds(1) }
    /// How many sleeps are waiting (a test waits for this before advancing).
    var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Suspends until a test advances the clock to `deadline` (or the task is cancelled).
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Bool = state.withLock { state in
                    if deadline <= state.now { return true }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration`, waking every sleep whose deadline has come.
    public func advance(by duration: Duration) {
        let due: [Sleeper] = state.withLock { state in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let ready = state.sleepers.filter { $0.value.deadline <= now }
            for key in ready.keys { state.sleepers.removeValue(forKey: key) }
            return Array(ready.values)
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Waits (in real time, bounded) until `count` sleeps are waiting on the clock.
    /// The limit only bounds the loop: a loaded machine may take long to schedule the sleeper.
    public func waitForSleepers(_ count: Int = 1, within limit: Duration = .seconds(120)) async throws {
        let started = ContinuousClock.now
        while sleeperCount < count {
            guard ContinuousClock.now - started < limit else { throw DeadlineWait() }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    /// Thrown when the awaited sleeps never began.
    struct DeadlineWait: Error {}
}
