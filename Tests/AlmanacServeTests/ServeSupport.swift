import AlmanacTesting
import Foundation
import Testing

/// The fixed reference time of the replayed ESPN recordings: Sun 15 Dec 2024 18:30 EST.
let fixedNow = "2024-12-15T23:30:00Z"

enum ServePeers {
    static var root: URL { Fixtures.packageRoot() }
    static var mcpPython: URL { root.appendingPathComponent(".venv-mcp/bin/python") }
    static var schemathesisBin: URL { root.appendingPathComponent(".venv-schemathesis/bin") }
    static var isCI: Bool { !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty }
    static var mcpReady: Bool { FileManager.default.isExecutableFile(atPath: mcpPython.path) }
    static var schemathesisReady: Bool {
        FileManager.default.isExecutableFile(atPath: schemathesisBin.appendingPathComponent("schemathesis").path)
    }
    static var postgresBin: URL? {
        let base = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []
        guard let newest = versions.compactMap(Int.init).max() else { return nil }
        let bin = base.appendingPathComponent("\(newest)/bin")
        return FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent("initdb").path) ? bin : nil
    }
    /// Run a peer's tests when it is installed, and always in CI (where a missing peer must fail).
    static var runMCP: Bool { mcpReady || isCI }
    static var runSchemathesis: Bool { schemathesisReady || isCI }
    static var runPostgres: Bool { postgresBin != nil || isCI }

    /// Replayed recordings at the fixed clock, in New York: no network.
    static func replayEnvironment(_ directory: URL, extra: [String: String] = [:]) -> [String: String] {
        ToolsBinary.environment(
            cacheDirectory: directory,
            extra: [
                "ALMANAC_REPLAY": root.appendingPathComponent("Fixtures").path, "ALMANAC_NOW": fixedNow,
                "ALMANAC_TZ": "America/New_York",
            ].merging(extra) { $1 })
    }
}

struct PeerMissing: Error, CustomStringConvertible { var description: String }

/// A `tools serve` process on 127.0.0.1 and a port the kernel picks (read from its first line),
/// stopped by its pid.
final class ServeProcess: @unchecked Sendable {
    // @unchecked: the process handle is touched by the owning test only, and stopped once.
    let process = Process()
    let port: Int
    let firstLine: String
    var baseURL: String { "http://127.0.0.1:\(port)" }

    struct NotReady: Error, CustomStringConvertible { var description: String }

    private let err = Pipe()

    init(environment: [String: String], arguments: [String] = []) throws {
        process.executableURL = ToolsBinary.url
        process.arguments = ["serve", "--port", "0"] + arguments
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // "tools serve: listening on http://127.0.0.1:PORT (cache: ...)".
        let text = ChildProcess.firstLine(of: out, seconds: 30)
        firstLine = text
        guard let range = text.range(of: "127.0.0.1:"),
            let port = Int(text[range.upperBound...].prefix { $0.isNumber })
        else {
            ChildProcess.stop(process)
            let stderr = String(decoding: err.fileHandleForReading.availableData, as: UTF8.self)
            throw NotReady(description: "tools serve did not start: '\(text)' \(stderr)")
        }
        self.port = port
    }

    func stop() { ChildProcess.stop(process, grace: 3) }

    /// Stops the server and returns everything it wrote to stderr (its log).
    func stopAndReadLog() -> String {
        stop()
        return String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    /// SIGKILL at once (a host dying mid-write).
    func kill9() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }
}

/// A real PostgreSQL from Debian on 127.0.0.1, its own cluster in a temporary folder, run as the
/// unprivileged `postgres` user when the tests run as root, stopped by pg_ctl (its pid file).
final class PostgresCluster: @unchecked Sendable {
    let directory: URL
    let port: Int
    let bin: URL
    private let asUser: [String]
    var url: String { "postgres://almanac@127.0.0.1:\(port)/almanac" }

    struct Failed: Error, CustomStringConvertible { var description: String }

    init() async throws {
        guard let bin = ServePeers.postgresBin else {
            throw Failed(description: "PostgreSQL missing (CI must run scripts/setup-peers: scripts/peers/postgres.sh)")
        }
        self.bin = bin
        directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
            "almanac-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        asUser = getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []
        if getuid() == 0 {
            _ = try await Command.run(
                URL(fileURLWithPath: "/bin/chown"), ["postgres:postgres", directory.path], environment: [:], timeout: 10
            )
        }
        port = try LoopbackPort.free()
        let data = directory.appendingPathComponent("data").path
        try run("initdb", ["-D", data, "-U", "almanac", "--auth=trust", "-E", "UTF8"], timeout: 120)
        try run(
            "pg_ctl",
            [
                "-D", data, "-o", "-p \(port) -k \(directory.path) -c listen_addresses=127.0.0.1", "-l",
                directory.appendingPathComponent("log").path, "-w", "-t", "60", "start",
            ], timeout: 90)
        try run("createdb", ["-h", "127.0.0.1", "-p", String(port), "-U", "almanac", "almanac"], timeout: 30)
    }

    /// Runs a PostgreSQL program with output to /dev/null: `pg_ctl start` leaves the server
    /// holding whatever it inherited, so a pipe would never reach its end.
    private func run(_ tool: String, _ arguments: [String], timeout: TimeInterval) throws {
        let command = asUser + [bin.appendingPathComponent(tool).path] + arguments
        // posix_spawn and waitpid: Foundation's Process did not notice runuser's exit here.
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null" as String, fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let argv = command.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let environmentLines: [String] = ["PATH=/usr/bin:/bin", "LC_ALL=C.UTF-8"]
        let envp = environmentLines.map { strdup($0) } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, command[0], &actions, nil, argv, envp) == 0 else {
            throw Failed(description: "cannot start \(tool)")
        }
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(timeout)
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() > deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                throw Failed(description: "\(tool) did not finish in \(Int(timeout)) s")
            }
            usleep(50_000)
        }
        guard status == 0 else {
            throw Failed(description: "\(tool) failed (\(status)); see \(directory.path)/log")
        }
    }

    /// One value from `psql -tAc`.
    func psql(_ sql: String) async throws -> String {
        let output = try await Command.run(
            bin.appendingPathComponent("psql"),
            ["-h", "127.0.0.1", "-p", String(port), "-U", "almanac", "-d", "almanac", "-tAc", sql],
            environment: ["PATH": "/usr/bin:/bin"], timeout: 30)
        return output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func stop() {
        try? run(
            "pg_ctl", ["-D", directory.appendingPathComponent("data").path, "-m", "immediate", "-w", "stop"],
            timeout: 60)
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A small HTTP client for the tests (curl, bounded by --max-time).
enum HTTP {
    struct Reply {
        var status: Int
        var body: String
        var json: [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
        }
    }

    static func post(_ url: String, _ body: String, headers: [String] = []) async throws -> Reply {
        try await curl(
            ["-X", "POST", "-H", "Content-Type: application/json", "--data-binary", body]
                + headers.flatMap { ["-H", $0] } + [url])
    }

    static func get(_ url: String, headers: [String] = []) async throws -> Reply {
        try await curl(headers.flatMap { ["-H", $0] } + [url])
    }

    /// POSTs every body at once, each from its own curl process, and returns the replies in the
    /// order of `bodies`.
    static func postAtOnce(_ url: String, _ bodies: [String], headers: [String] = []) async throws -> [Reply] {
        try await withThrowingTaskGroup(of: (Int, Reply).self) { group in
            for (index, body) in bodies.enumerated() {
                group.addTask { (index, try await post(url, body, headers: headers)) }
            }
            var replies = [Reply?](repeating: nil, count: bodies.count)
            for try await (index, reply) in group { replies[index] = reply }
            return replies.compactMap { $0 }
        }
    }

    /// Status and headers (names lower-cased) of a request sent with `arguments` (e.g. a preflight).
    static func headers(_ arguments: [String]) async throws -> (status: Int, headers: [String: String]) {
        let output = try await Command.run(
            URL(fileURLWithPath: "/usr/bin/curl"),
            ["-s", "--max-time", "30", "-o", "/dev/null", "-D", "-"] + arguments,
            environment: ["PATH": "/usr/bin:/bin"], timeout: 40)
        var lines = output.stdout.components(separatedBy: "\r\n")
        let statusLine = lines.isEmpty ? "" : lines.removeFirst()
        let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return (status, headers)
    }

    static func curl(_ arguments: [String]) async throws -> Reply {
        let output = try await Command.run(
            URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "--max-time", "30", "-w", "\n%{http_code}"] + arguments,
            environment: ["PATH": "/usr/bin:/bin"], timeout: 40)
        var lines = output.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.popLast() ?? "") ?? 0
        return Reply(status: status, body: lines.joined(separator: "\n"))
    }
}

/// A private folder removed at the end of the test.
final class TempDirectory: Sendable {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
}
