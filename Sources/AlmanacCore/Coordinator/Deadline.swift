import Foundation
import Synchronization

/// Thrown when an attempt runs past its deadline.
public struct DeadlineExceeded: Error, Sendable {}

/// Any clock measured in `Duration`, type-erased so the Coordinator can hold one: it times each
/// attempt and enforces its deadline. Live: `ContinuousClock`; tests inject a manual clock.
public struct AttemptClock: Sendable {
    private let sleepFor: @Sendable (Duration) async throws -> Void
    private let startStopwatch: @Sendable () -> @Sendable () -> Duration

    /// Wraps `clock`.
    public init<C: Clock & Sendable>(_ clock: C) where C.Duration == Duration, C.Instant: Sendable {
        sleepFor = { try await clock.sleep(until: clock.now.advanced(by: $0), tolerance: nil) }
        startStopwatch = {
            let start = clock.now
            return { start.duration(to: clock.now) }
        }
    }

    /// Sleeps for `duration` on the clock (throws when cancelled).
    func sleep(_ duration: Duration) async throws { try await sleepFor(duration) }

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
        try await run(timeout, clock: AttemptClock(ContinuousClock()), body)
    }

    /// Runs `body`, throwing ``DeadlineExceeded`` once `timeout` has passed on `clock` (a test's
    /// manual clock lets deadline tests run without waiting).
    static func run<T: Sendable>(
        _ timeout: Duration, clock: AttemptClock, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let work = Task { try await body() }
        let once = Once<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                once.set(continuation)
                let timer = Task {
                    try? await clock.sleep(timeout)
                    if !Task.isCancelled, once.resume(with: .failure(DeadlineExceeded())) { work.cancel() }
                }
                Task {
                    let result = await work.result
                    timer.cancel()
                    once.resume(with: result)
                }
            }
        } onCancel: {
            work.cancel()
            once.resume(with: .failure(CancellationError()))
        }
    }

    private final class Once<T: Sendable>: Sendable {
        private let state = Mutex<
            (continuation: CheckedContinuation<T, any Error>?, pending: Result<T, any Error>?, done: Bool)
        >(
            (nil, nil, false))

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

        /// Returns true when this call was the one that resumed (or will resume) the caller.
        @discardableResult
        func resume(with result: Result<T, any Error>) -> Bool {
            let (won, continuation): (Bool, CheckedContinuation<T, any Error>?) = state.withLock { state in
                guard !state.done else { return (false, nil) }
                state.done = true
                if let continuation = state.continuation {
                    state.continuation = nil
                    return (true, continuation)
                }
                state.pending = result
                return (true, nil)
            }
            continuation?.resume(with: result)
            return won
        }
    }
}
