import AlmanacTesting
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A finished child with its resource use.
struct MeasuredOutput: Sendable {
    /// Exit status (or 128 + signal when killed).
    var status: Int32
    /// The signal that ended it, if any.
    var signal: Int32?
    var stdout: String
    var stderr: String
    /// Wall-clock time from spawn to exit.
    var milliseconds: Int
    /// The child's own peak resident set size (its wait4 ru_maxrss, taken by scripts/peak-rss), in KiB.
    var peakKiB: Int
}

/// Runs a program through `scripts/peak-rss` (posix_spawn + wait4 from a small Python process),
/// so the peak RSS is the child's own: spawned straight from this test process, Linux would count
/// the test process's own peak (the memory it replaced at exec) as the child's. Foundation's
/// Process reaps children itself and hides their rusage.
enum MeasuredRun {
    struct SpawnError: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `executable` with output going to files in `directory`; SIGKILLs it after `timeout` seconds.
    /// Waits on a thread of its own (``OwnThread``): the fault matrix runs hundreds of these.
    static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String], directory: URL,
        timeout: TimeInterval = 60
    ) async throws -> MeasuredOutput {
        try await OwnThread.run {
            try runBlocking(executable, arguments, environment: environment, directory: directory, timeout: timeout)
        }
    }

    private static func runBlocking(
        _ executable: URL, _ arguments: [String], environment: [String: String], directory: URL,
        timeout: TimeInterval
    ) throws -> MeasuredOutput {
        let tag = UUID().uuidString
        let outPath = directory.appendingPathComponent("out-\(tag)").path
        let errPath = directory.appendingPathComponent("err-\(tag)").path
        let peakPath = directory.appendingPathComponent("peak-\(tag)").path
        defer {
            unlink(outPath)
            unlink(errPath)
            unlink(peakPath)
        }
        guard let python = Self.python3 else { throw SpawnError(description: "python3 is not on PATH") }
        let launcher = Fixtures.packageRoot().appendingPathComponent("scripts/peak-rss").path

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        // Test-runner threads block SIGTERM; give the child a clean mask and default handlers.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGTERM)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // Its own process group, so a timeout kills the launcher and the program together.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv: [UnsafeMutablePointer<CChar>?] =
            ([python, launcher, peakPath, executable.path] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }

        let started = Date()
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, python, &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            throw SpawnError(description: "posix_spawn failed: \(String(cString: strerror(spawned)))")
        }

        var status: Int32 = 0
        var usage = rusage()
        let deadline = started.addingTimeInterval(timeout)
        while true {
            let reaped = wait4(pid, &status, WNOHANG, &usage)
            if reaped == pid { break }
            if reaped < 0 && errno != EINTR { throw SpawnError(description: "wait4 failed: \(errno)") }
            if Date() > deadline {
                kill(-pid, SIGKILL)
                _ = wait4(pid, &status, 0, &usage)
                break
            }
            usleep(5_000)
        }
        let elapsed = Int(Date().timeIntervalSince(started) * 1000)
        let signal = status & 0x7f
        let exit = signal == 0 ? (status >> 8) & 0xff : 128 + signal
        func read(_ path: String) -> String {
            String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        }
        return MeasuredOutput(
            status: exit, signal: signal == 0 ? nil : signal, stdout: read(outPath), stderr: read(errPath),
            milliseconds: elapsed, peakKiB: Int(read(peakPath)) ?? 0)
    }

    /// python3 from this process's PATH.
    static let python3: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/python3" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }()
}
