public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The result of running a command.
public struct CommandOutput: Sendable {
    /// Exit status.
    public var status: Int32
    /// Standard output.
    public var stdout: String
    /// Standard error.
    public var stderr: String
}

/// Runs the built `tools` executable, for end-to-end tests.
public enum ToolsBinary {
    /// The `tools` executable next to the test bundle (or `ALMANAC_TOOLS_BIN`).
    public static var url: URL {
        if let explicit = ProcessInfo.processInfo.environment["ALMANAC_TOOLS_BIN"] {
            return URL(fileURLWithPath: explicit)
        }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // macOS bundles nest the test binary inside the .xctest bundle.
        while directory.pathExtension == "xctest" || directory.lastPathComponent == "MacOS"
            || directory.lastPathComponent == "Contents"
        {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("tools")
    }

    /// An environment with no user config, a private cache and a fixed zone.
    public static func environment(cacheDirectory: URL, extra: [String: String] = [:]) -> [String: String] {
        var environment: [String: String] = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": cacheDirectory.appendingPathComponent("home").path,
            "ALMANAC_CACHE_DIR": cacheDirectory.path,
            "TZ": "UTC",
        ]
        environment.merge(extra) { _, new in new }
        return environment
    }

    /// Runs `tools` with `arguments`, waiting at most `timeout` seconds (on a thread of its own,
    /// not the caller's: see ``Command/run(_:_:environment:stdin:timeout:)``).
    public static func run(
        _ arguments: [String], environment: [String: String], timeout: TimeInterval = 60
    ) async throws
        -> CommandOutput
    {
        try await Command.run(url, arguments, environment: environment, timeout: timeout)
    }

    /// Runs one `tools` process per argument list, all at once, and returns their outputs in order
    /// (nil where one could not start).
    public static func runAtOnce(
        _ argumentLists: [[String]], environment: [String: String], timeout: TimeInterval = 60
    )
        async -> [CommandOutput?]
    {
        await withTaskGroup(of: (Int, CommandOutput?).self) { group in
            for (index, arguments) in argumentLists.enumerated() {
                group.addTask { (index, try? await run(arguments, environment: environment, timeout: timeout)) }
            }
            var outputs = [CommandOutput?](repeating: nil, count: argumentLists.count)
            for await (index, output) in group { outputs[index] = output }
            return outputs
        }
    }
}

/// Blocking work, such as waiting for a child process, awaited from a test.
public enum OwnThread {
    /// Runs `body` on a new thread and returns what it returns. A test that blocked its task's own
    /// thread would hold one of the few cooperative threads (two on a 2-core machine) and stall
    /// every other test's tasks, deadlines included.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<T, any Error>) in
            Thread { done.resume(with: Result { try body() }) }.start()
        }
    }
}

/// Stopping children reliably.
public enum ChildProcess {
    /// Sends SIGTERM, waits at most `grace` seconds, then SIGKILL.
    ///
    /// Foundation's `Process` on Linux starts children with the spawning thread's signal mask,
    /// and test-runner threads block SIGTERM, so a child may never see the polite signal.
    public static func stop(_ process: Process, grace: TimeInterval = 3) {
        guard process.isRunning else { return }
        let pid = process.processIdentifier
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(grace)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExit()
    }

    /// The first line a server writes to `pipe` (its address or port), trimmed: read until a newline,
    /// the end of the output or `seconds` between reads, so a server that never says it is ready
    /// cannot hang a test.
    public static func firstLine(of pipe: Pipe, seconds: TimeInterval) -> String {
        var line = Data()
        let handle = pipe.fileHandleForReading
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline, !line.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        return String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Runs programs with a bounded wait.
public enum Command {
    /// Runs `executable` and collects its output; kills it after `timeout` seconds. Waits on a
    /// thread of its own (``OwnThread``).
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String], stdin: Data? = nil,
        timeout: TimeInterval = 60
    ) async throws -> CommandOutput {
        try await OwnThread.run {
            try runBlocking(executable, arguments, environment: environment, stdin: stdin, timeout: timeout)
        }
    }

    /// ``run(_:_:environment:stdin:timeout:)``, waiting on the calling thread (never a task's).
    static func runBlocking(
        _ executable: URL, _ arguments: [String], environment: [String: String], stdin: Data?,
        timeout: TimeInterval
    ) throws -> CommandOutput {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try? input.fileHandleForWriting.close()
        // Read both pipes concurrently so a chatty child cannot fill one and block.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            outData = out.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        if group.wait(timeout: .now() + timeout) == .timedOut {
            ChildProcess.stop(process)
            group.wait()
        }
        process.waitUntilExit()
        return CommandOutput(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// The loopback fixture server (`scripts/fixture-server.py`): serves `Fixtures/` exchanges on
/// 127.0.0.1, can inject faults, counts requests, and is stopped by its pid.
public final class FixtureServer: @unchecked Sendable {
    // @unchecked: the process handle is only touched by the owning test, then stopped once.
    private let process: Process
    /// The port it listens on.
    public let port: Int

    /// Starts the server over `root` (default: the package's Fixtures) and waits until it listens.
    public init(root: URL = Fixtures.directory, lifetime: TimeInterval = 120) throws {
        (process, port) = try LoopbackScript.start(
            "scripts/fixture-server.py", ["--root", root.path, "--lifetime", String(lifetime)], name: "fixture server")
    }

    /// Describes a server start failure.
    struct ServerError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Sets a fault mode (`none`, `500`, `429`, `malformed`, `truncate`, `empty`, `html`, `reset`, `delay:S`, `drip:S`).
    public func setFault(_ mode: String) async throws {
        var request = URLRequest(url: URL(string: "\(baseURL)/__almanac/fault?mode=\(mode)")!)
        request.httpMethod = "POST"
        _ = try await URLSession.shared.data(for: request)
    }

    /// How many upstream requests the server has answered.
    public func requestCount() async throws -> Int {
        try await stats().requests ?? -1
    }

    /// The User-Agent each upstream path (`GET /path?sorted=query`) was last asked with.
    public func userAgents() async throws -> [String: String] {
        try await stats().agents ?? [:]
    }

    /// When each upstream request arrived, in order (for interval checks across processes).
    public func requestTimes() async throws -> [Date] {
        (try await stats().times ?? []).map { Date(timeIntervalSince1970: $0) }
    }

    /// The parts of `/__almanac/stats` the tests read (scripts/fixture-server.py).
    private struct Stats: Decodable {
        var requests: Int?
        var agents: [String: String]?
        var times: [Double]?
    }

    private func stats() async throws -> Stats {
        let (data, _) = try await URLSession.shared.data(from: URL(string: "\(baseURL)/__almanac/stats")!)
        return try JSONDecoder().decode(Stats.self, from: data)
    }

    /// Stops the server by its pid.
    public func stop() {
        ChildProcess.stop(process)
    }

    deinit { stop() }
}

/// A Python server that binds 127.0.0.1 and prints "PORT n" first: a script of the package's, or
/// a test's own inline stub.
public enum LoopbackScript {
    /// Starts `script` (relative to the package root) with `arguments` and waits, bounded, for its
    /// port; a script that does not say one is stopped and named in the error.
    static func start(_ script: String, _ arguments: [String], name: String) throws -> (Process, Int) {
        try start(python: [Fixtures.packageRoot().appendingPathComponent(script).path] + arguments, name: name)
    }

    /// Starts `python3` with `python` as its arguments (e.g. `["-c", source, mode]`) and waits,
    /// bounded, for the "PORT n" line; a server that does not say one is stopped and named in the
    /// error.
    public static func start(python: [String], name: String) throws -> (Process, Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + python
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = ChildProcess.firstLine(of: out, seconds: 15)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
            ChildProcess.stop(process)
            throw FixtureServer.ServerError(message: "\(name) did not start: '\(text)'")
        }
        return (process, port)
    }
}
