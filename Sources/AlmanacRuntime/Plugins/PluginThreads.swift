import Foundation
import Synchronization

/// Threads for the plugins' blocking work (a call waits in `poll` for its plugin's answer), kept
/// when done and handed the next piece of work. A new thread per call cost a `clone3` and the
/// thread's setup and first scheduling on every plugin call through `tools serve` (perf: about
/// 2% of the server's CPU per call, and a wake-up of a cold thread on the call's path).
final class PluginThreads: Sendable {
    /// The one pool of the process.
    static let shared = PluginThreads()
    /// Idle threads kept at most; a busier moment starts more, which end when done.
    static let maxIdle = 8

    /// One kept thread: the work it is handed, and the signal that wakes it.
    private final class Worker: Sendable {
        let wake = DispatchSemaphore(value: 0)
        let job = Mutex<(@Sendable () -> Void)?>(nil)
    }

    private let idle = Mutex<[Worker]>([])

    /// Runs `work` on a kept idle thread, else on a new one.
    func run(_ work: @escaping @Sendable () -> Void) {
        if let worker = idle.withLock({ $0.popLast() }) {
            worker.job.withLock { $0 = work }
            worker.wake.signal()
            return
        }
        let worker = Worker()
        worker.job.withLock { $0 = work }
        Thread { [self] in loop(worker) }.start()
    }

    private func loop(_ worker: Worker) {
        while true {
            let job = worker.job.withLock { job in
                defer { job = nil }
                return job
            }
            job?()
            let kept = idle.withLock { workers in
                guard workers.count < Self.maxIdle else { return false }
                workers.append(worker)
                return true
            }
            guard kept else { return }
            worker.wake.wait()
        }
    }
}
