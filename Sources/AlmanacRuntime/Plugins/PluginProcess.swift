import AlmanacCore
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A plugin's running program: its own process group, stdin on a socket (written with
/// `MSG_NOSIGNAL`, so a child that died cannot kill Almanac with SIGPIPE), stdout on a pipe,
/// stderr drained into the plugin's log file (never the terminal).
///
/// Every child is recorded in ``LiveChildren`` until it is reaped, so an exit, SIGTERM or SIGINT
/// of Almanac kills its groups: no orphans.
final class PluginProcess: Sendable {
    /// The child's pid (also its process group).
    let pid: pid_t
    /// Almanac's end of the child's stdin.
    let input: Int32
    /// Almanac's end of the child's stdout.
    let output: Int32
    private let state = Mutex<(reaped: Bool, status: Int32?)>((false, nil))

    /// Starts `command` with exactly `environment`, its stderr appended to `log` (at most
    /// `logLimit` bytes per run).
    ///
    /// - Throws: ``ProviderFailure`` when the program cannot be started (not found, not executable).
    init(command: [String], environment: [String: String], log: URL?, logLimit: Int = 1 << 20) throws {
        LiveChildren.installCleanup()
        var stdinPair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &stdinPair) == 0
        else {
            throw ProviderFailure(.network, "cannot create a socket for the plugin (errno \(errno))")
        }
        var stdoutPipe: [Int32] = [-1, -1]
        var stderrPipe: [Int32] = [-1, -1]
        guard Self.pipe(&stdoutPipe), Self.pipe(&stderrPipe) else {
            for fd in stdinPair + stdoutPipe + stderrPipe where fd >= 0 { close(fd) }
            throw ProviderFailure(.network, "cannot create pipes for the plugin (errno \(errno))")
        }
        // The child reads its stdin only; Almanac writes only.
        shutdown(stdinPair[0], Int32(SHUT_RD))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdinPair[1], 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own group (killed as one, with whatever it starts), no blocked signals, and
        // default dispositions for the ones Almanac may catch or ignore.
        posix_spawnattr_setpgroup(&attributes, 0)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let arguments = command.map { strdup($0) } + [nil]
        let variables = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in arguments + variables { free(pointer) }
        }
        var child: pid_t = 0
        let executable = Self.resolve(command[0], path: environment["PATH"])
        let status = arguments.withUnsafeBufferPointer { argv in
            variables.withUnsafeBufferPointer { envp in
                // Both arrays end in nil, so neither is empty.
                posix_spawn(&child, executable, &actions, &attributes, argv.baseAddress!, envp.baseAddress!)
            }
        }
        close(stdinPair[1])
        close(stdoutPipe[1])
        close(stderrPipe[1])
        guard status == 0 else {
            for fd in [stdinPair[0], stdoutPipe[0], stderrPipe[0]] { close(fd) }
            let reason = status == ENOENT ? "not found" : status == EACCES ? "not executable" : "errno \(status)"
            throw ProviderFailure(.unconfigured, "cannot start '\(command[0])' (\(reason))")
        }
        pid = child
        input = stdinPair[0]
        output = stdoutPipe[0]
        LiveChildren.add(child)
        Self.drain(stderrPipe[0], into: log, limit: logLimit)
    }

    /// A pipe whose ends are closed in other children (Glibc's module does not export pipe2).
    private static func pipe(_ fds: inout [Int32]) -> Bool {
        guard Glibc.pipe(&fds) == 0 else { return false }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// `name` as posix_spawn needs it: a path as it is, a bare name looked up on `path`.
    static func resolve(_ name: String, path: String?) -> String {
        guard !name.contains("/") else { return name }
        for folder in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return name
    }

    /// Copies the child's stderr into `log` on a thread of its own until the child closes it:
    /// the first `limit` bytes of a run are kept, the rest read and dropped so the child never blocks.
    private static func drain(_ fd: Int32, into log: URL?, limit: Int) {
        let thread = Thread {
            var file: Int32 = -1
            if let log {
                file = open(log.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
            }
            var written = 0
            var buffer = [UInt8](repeating: 0, count: 16_384)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                if file >= 0, written < limit {
                    let keep = min(count, limit - written)
                    _ = buffer.withUnsafeBytes { write(file, $0.baseAddress, keep) }
                    written += keep
                }
            }
            if file >= 0 { close(file) }
            close(fd)
        }
        thread.start()
    }

    /// Whether the child has exited, and its status (reaped here when it has).
    func exitStatus() -> Int32? {
        state.withLock { state in
            if state.reaped { return state.status }
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
            state.reaped = true
            state.status = Self.describe(status)
            LiveChildren.remove(pid)
            return state.status
        }
    }

    /// The exit code, or 128 + the signal that ended it.
    private static func describe(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// Kills the child's whole group at once and reaps it.
    func kill() {
        state.withLock { state in
            guard !state.reaped else { return }
            _ = Glibc.kill(-pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            state.reaped = true
            state.status = Self.describe(status)
            LiveChildren.remove(pid)
        }
        close(input)
        close(output)
    }

    /// Closes its stdin (a well-behaved MCP server exits at EOF), gives it `grace` to do so, then
    /// kills the group.
    func stop(grace: Duration = .milliseconds(200)) {
        Glibc.shutdown(input, Int32(SHUT_WR))
        let deadline = ContinuousClock.now.advanced(by: grace)
        while exitStatus() == nil, ContinuousClock.now < deadline { usleep(5_000) }
        kill()
    }
}

/// The process groups of running plugins, kept where a signal handler can read them.
///
/// A fixed table of pids in plain memory: a handler may only make async-signal-safe calls, so it
/// walks this table and calls kill(2), nothing that allocates or locks.
enum LiveChildren {
    static let capacity = 256
    nonisolated(unsafe) static let table: UnsafeMutablePointer<pid_t> = {
        let table = UnsafeMutablePointer<pid_t>.allocate(capacity: capacity)
        table.initialize(repeating: 0, count: capacity)
        return table
    }()
    private static let lock = Mutex<Bool>(false)

    static func add(_ pid: pid_t) {
        lock.withLock { _ in
            for index in 0..<capacity where table[index] == 0 {
                table[index] = pid
                return
            }
        }
    }

    static func remove(_ pid: pid_t) {
        lock.withLock { _ in
            for index in 0..<capacity where table[index] == pid { table[index] = 0 }
        }
    }

    /// Kills every recorded group (async-signal-safe).
    static func killAll() {
        for index in 0..<capacity where table[index] > 0 { _ = Glibc.kill(-table[index], SIGKILL) }
    }

    /// Waits for every recorded child (after ``killAll()``), so none is left a zombie.
    static func reapAll() {
        for index in 0..<capacity where table[index] > 0 {
            var status: Int32 = 0
            while waitpid(table[index], &status, 0) < 0, errno == EINTR {}
        }
    }

    /// Once per process: kill the groups at exit(3), and on SIGTERM, SIGINT and SIGHUP unless
    /// the program handles those itself (a server's own shutdown stops its plugins).
    static func installCleanup() {
        lock.withLock { installed in
            guard !installed else { return }
            installed = true
            _ = table
            atexit {
                LiveChildren.killAll()
                LiveChildren.reapAll()
            }
            for signal in [SIGTERM, SIGINT, SIGHUP] {
                var current = sigaction()
                guard sigaction(signal, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil else {
                    continue
                }
                var action = sigaction()
                action.__sigaction_handler.sa_handler = { received in
                    LiveChildren.killAll()
                    Glibc.signal(received, SIG_DFL)
                    raise(received)
                }
                sigemptyset(&action.sa_mask)
                action.sa_flags = 0
                sigaction(signal, &action, nil)
            }
        }
    }
}
