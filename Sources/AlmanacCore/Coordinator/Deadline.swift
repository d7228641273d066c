import Foundation
import Synchronization

/// Thrown when an attempt runs past its deadline.
public struct DeadlineExceeded: Error, Sendable {}

/// Any clock measured in `Duration`, type-erased so the Coordinator can hold one: it times each
/// attempt and enforces its deadline. Live: `ContinuousClock`; tests inject a manual clock.
public struct AttemptClock: Sendable {
    private let startTimer: @Sendable (Duration, @escaping @Sendable () -> Void) -> @Sendable () -> Void
    private let startStopwatch: @Sendable () -> @Sendable () -> Duration

    /// Wraps `clock`.
    public init<C: Clock & Sendable>(_ clock: C) where C.Duration == Duration, C.Instant: Sendable {
        self.init(clock, liveTimer: .shared)
    }

    /// Wraps `clock`; deadlines on the continuous clock go to `liveTimer`.
    init<C: Clock & Sendable>(_ clock: C, liveTimer: DeadlineTimer)
    where C.Duration == Duration, C.Instant: Sendable {
        if clock is ContinuousClock {
            // The live clock's deadlines share one thread: a sleeping task per deadline cost a task
            // start, and a wake-up when the work finished first (nearly always), on every call.
            startTimer = { delay, fire in
                // Fired as a task at the caller's priority, queued behind work that was queued
                // before the deadline passed: a pool kept busy by others (tests running programs
                // side by side) delays both alike, as a sleeping task did, instead of timing out
                // work that only waited for a thread.
                let priority = Task.currentPriority
                let ticket = liveTimer.schedule(after: delay) { Task(priority: priority) { fire() } }
                return { liveTimer.cancel(ticket) }
            }
        } else {
            startTimer = { delay, fire in
                let sleeper = Task {
                    try? await clock.sleep(until: clock.now.advanced(by: delay), tolerance: nil)
                    if !Task.isCancelled { fire() }
                }
                return { sleeper.cancel() }
            }
        }
        startStopwatch = {
            let start = clock.now
            return { start.duration(to: clock.now) }
        }
    }

    /// The live clock, made once: `Deadline.run` without a clock is on every call's path.
    static let continuous = AttemptClock(ContinuousClock())

    /// Calls `fire` once `delay` has passed on the clock, unless the returned closure is called first.
    func timer(after delay: Duration, _ fire: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        startTimer(delay, fire)
    }

    /// Starts timing; the returned closure tells the time passed since.
    func stopwatch() -> @Sendable () -> Duration { startStopwatch() }
}

/// Runs work with a hard deadline that does not wait for the work to notice cancellation.
///
/// Providers and transports may not stop promptly when cancelled (libcurl notices on its next
/// progress check, a file read at its end), so a task group (which awaits every child) cannot
/// enforce a sub-second deadline; this resumes the caller as soon as either side finishes and
/// cancels the other.
public enum Deadline {
    /// Runs `body`, throwing ``DeadlineExceeded`` once `timeout` has passed on the continuous clock.
    public static func run<T: Sendable>(
        _ timeout: Duration, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await run(timeout, clock: .continuous, body)
    }

    /// Runs `body`, throwing ``DeadlineExceeded`` once `timeout` has passed on `clock` (a test's
    /// manual clock lets deadline tests run without waiting).
    static func run<T: Sendable>(
        _ timeout: Duration, clock: AttemptClock, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let once = Once<T>()
        let work = Task {
            // Timed from when the work first gets a thread, as a sleeping task's timer was: time
            // spent waiting for a busy pool is not the provider's.
            once.setTimer(
                clock.timer(after: timeout) {
                    if once.resume(with: .failure(DeadlineExceeded())) { once.cancelWork() }
                })
            // The work resumes the caller itself: no task waits on it.
            do {
                once.resume(with: .success(try await body()))
            } catch {
                once.resume(with: .failure(error))
            }
        }
        once.setWork(work)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                once.set(continuation)
            }
        } onCancel: {
            work.cancel()
            once.resume(with: .failure(CancellationError()))
        }
    }

    /// The first result wins; it resumes the caller (now, or once the caller waits) and stops the
    /// timer.
    private final class Once<T: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<T, any Error>?
            var pending: Result<T, any Error>?
            var done = false
            var stopTimer: (@Sendable () -> Void)?
            var work: Task<Void, Never>?
            var workCancelled = false
        }

        private let state = Mutex(State())

        func set(_ continuation: CheckedContinuation<T, any Error>) {
            let pending: Result<T, any Error>? = state.withLock { state in
                if let pending = state.pending {
                    state.pending = nil
                    return pending
                }
                state.continuation = continuation
                return nil
            }
            if let pending { continuation.resume(with: pending) }
        }

        /// The work's task, so that a deadline that passes can cancel it.
        func setWork(_ work: Task<Void, Never>) {
            let cancelled = state.withLock { state in
                if !state.workCancelled { state.work = work }
                return state.workCancelled
            }
            if cancelled { work.cancel() }
        }

        func cancelWork() {
            let work = state.withLock { state in
                state.workCancelled = true
                defer { state.work = nil }
                return state.work
            }
            work?.cancel()
        }

        func setTimer(_ stop: @escaping @Sendable () -> Void) {
            let finished = state.withLock { state in
                if !state.done { state.stopTimer = stop }
                return state.done
            }
            if finished { stop() }
        }

        /// Returns true when this call was the one that resumed (or will resume) the caller.
        @discardableResult
        func resume(with result: Result<T, any Error>) -> Bool {
            let won: (continuation: CheckedContinuation<T, any Error>?, stopTimer: (@Sendable () -> Void)?)? =
                state.withLock { state in
                    guard !state.done else { return nil }
                    state.done = true
                    defer {
                        state.continuation = nil
                        state.stopTimer = nil
                    }
                    if state.continuation == nil { state.pending = result }
                    return (state.continuation, state.stopTimer)
                }
            guard let won else { return false }
            won.stopTimer?()
            won.continuation?.resume(with: result)
            return true
        }
    }
}

/// The live clock's deadlines, fired from one thread of their own.
///
/// Only deadlines still pending are kept: a stopped one is forgotten at once. The thread sleeps
/// until the earliest pending deadline it knew of when it last looked, and is woken only for an
/// earlier one, so a steady stream of calls that finish in time wakes it about once per timeout.
final class DeadlineTimer: Sendable {
    static let shared = DeadlineTimer()

    private struct Pending {
        let due: UInt64
        let fire: @Sendable () -> Void
    }

    private struct State {
        var pending: [UInt64: Pending] = [:]
        var lastTicket: UInt64 = 0
        var started = false
        /// When the thread next looks by itself (nil: only when woken).
        var nextLook: UInt64?
    }

    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)

    /// Calls `fire` on the timer's thread once `delay` has passed, unless cancelled first.
    func schedule(after delay: Duration, _ fire: @escaping @Sendable () -> Void) -> UInt64 {
        let due = Self.now() &+ Self.nanoseconds(delay)
        let (ticket, start, signal) = state.withLock { state in
            state.lastTicket += 1
            state.pending[state.lastTicket] = Pending(due: due, fire: fire)
            let start = !state.started
            state.started = true
            let sooner = state.nextLook.map { due < $0 } ?? true
            if sooner { state.nextLook = due }
            return (state.lastTicket, start, sooner && !start)
        }
        if start {
            let thread = Thread { [self] in watch() }
            thread.name = "almanac-deadlines"
            thread.start()
        } else if signal {
            wake.signal()
        }
        return ticket
    }

    func cancel(_ ticket: UInt64) {
        _ = state.withLock { $0.pending.removeValue(forKey: ticket) }
    }

    /// Deadlines set and not yet fired or cancelled.
    var pendingCount: Int { state.withLock { $0.pending.count } }

    private func watch() {
        while true {
            let (due, next): ([@Sendable () -> Void], UInt64?) = state.withLock { state in
                let now = Self.now()
                var due: [@Sendable () -> Void] = []
                var next: UInt64?
                for (ticket, pending) in state.pending {
                    if pending.due <= now {
                        due.append(pending.fire)
                        state.pending[ticket] = nil
                    } else if next.map({ pending.due < $0 }) ?? true {
                        next = pending.due
                    }
                }
                state.nextLook = next
                return (due, next)
            }
            for fire in due { fire() }
            if let next {
                _ = wake.wait(timeout: DispatchTime(uptimeNanoseconds: next))
            } else {
                wake.wait()
            }
        }
    }

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// `delay` in nanoseconds, at most about 292 years (a "never" deadline must not wrap around).
    private static func nanoseconds(_ delay: Duration) -> UInt64 {
        let (seconds, attoseconds) = delay.components
        guard seconds >= 0 else { return 0 }
        guard seconds < Int64.max / 1_000_000_000 - 1 else { return UInt64(Int64.max) }
        return UInt64(seconds) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }
}
