import AlmanacCore
import AlmanacCurl
import AlmanacTesting
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real Radicale 3.9.0 (from `.venv-radicale`, made by scripts/peers/radicale.sh) on 127.0.0.1
/// with a free port, plain htpasswd users and a temporary storage folder; stopped by pid.
final class RadicaleServer: Sendable {
    static let user = "alice"
    static let password = "correct horse battery staple"

    let process: Process
    let folder: URL
    let base: URL
    /// The user's password (the contract kit runs it with its sentinel secret).
    let password: String

    /// Why the server cannot start here, or nil when the venv exists.
    static var unavailableReason: String? {
        let python = Fixtures.packageRoot().appendingPathComponent(".venv-radicale/bin/python")
        return FileManager.default.isExecutableFile(atPath: python.path)
            ? nil : "Radicale venv missing: run `bash scripts/peers/radicale.sh` (or scripts/setup-peers)"
    }

    /// Whether Radicale tests may be skipped (outside CI only).
    static var mayRun: Bool {
        if unavailableReason == nil { return true }
        let ci = ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty && $0 != "false" } ?? false
        if !ci { print("note: skipping Radicale tests: \(unavailableReason ?? "")") }
        // In CI the tests run and fail with the message instead of being skipped.
        return ci
    }

    init(password: String = RadicaleServer.password) throws {
        self.password = password
        if let reason = Self.unavailableReason { throw AlmanacError.internal(reason) }
        let root = Fixtures.packageRoot()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("radicale-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let users = folder.appendingPathComponent("users")
        try "\(Self.user):\(password)\n".write(to: users, atomically: true, encoding: .utf8)
        let port = try LoopbackPort.free()
        base = URL(string: "http://127.0.0.1:\(port)/")!
        process = Process()
        process.executableURL = root.appendingPathComponent(".venv-radicale/bin/python")
        process.arguments = [
            "-m", "radicale", "--config", "", "--server-hosts", "127.0.0.1:\(port)",
            "--auth-type", "htpasswd", "--auth-htpasswd-filename", users.path, "--auth-htpasswd-encryption", "plain",
            // Radicale slows every failed login down; the wrong-password test needs the answer now.
            "--auth-delay", "0",
            "--storage-filesystem-folder", folder.appendingPathComponent("collections").path,
            "--logging-level", "info",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: "/tmp/radicale-test.log") ?? FileHandle.nullDevice
        try process.run()
    }

    /// Polls until the server answers (bounded: 100 tries, 100 ms apart).
    func waitUntilReady() async throws {
        let transport = CurlTransport()
        for _ in 0..<100 {
            if !process.isRunning {
                throw AlmanacError.internal("radicale exited with status \(process.terminationStatus)")
            }
            // OPTIONS: GET / redirects to the web UI (and on to itself), which proves nothing.
            if (try? await transport.send(HTTPRequest(method: "OPTIONS", url: base), timeout: .seconds(2))) != nil {
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw AlmanacError.internal("radicale did not answer on \(base)")
    }

    func stop() {
        // SIGTERM, then SIGKILL: children of test threads start with SIGTERM blocked.
        ChildProcess.stop(process)
        try? FileManager.default.removeItem(at: folder)
    }

    deinit { stop() }

    // MARK: Populating over CalDAV

    var authorization: String { "Basic " + Data("\(Self.user):\(password)".utf8).base64EncodedString() }

    @discardableResult
    func send(
        _ method: String, _ path: String, body: String? = nil, contentType: String = "text/calendar; charset=utf-8"
    )
        async throws -> HTTPResponse
    {
        let request = HTTPRequest(
            method: method, url: URL(string: path, relativeTo: base)!.absoluteURL,
            headers: ["Authorization": authorization, "Content-Type": contentType], body: body.map { Data($0.utf8) })
        let response = try await CurlTransport().send(request, timeout: .seconds(5))
        guard (200..<300).contains(response.status) else {
            throw AlmanacError.internal("radicale: \(method) \(path) → HTTP \(response.status)")
        }
        return response
    }

    func makeCalendar(_ path: String, name: String) async throws {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop><d:displayname>\(name)</d:displayname></d:prop></d:set></c:mkcalendar>
            """
        try await send("MKCALENDAR", path, body: body, contentType: "application/xml; charset=utf-8")
    }

    func put(_ path: String, _ ics: String) async throws {
        try await send("PUT", path, body: ics)
    }

    func delete(_ path: String) async throws {
        try await send("DELETE", path)
    }
}

/// Records every request a transport sends (method, path, body), for "only changes" assertions.
actor RequestLog {
    private(set) var requests: [HTTPRequest] = []
    func append(_ request: HTTPRequest) { requests.append(request) }
    func reset() { requests = [] }
}

struct RecordingTransport: HTTPTransport {
    let inner: any HTTPTransport
    let log: RequestLog

    func send(_ request: HTTPRequest, timeout: Duration) async throws -> HTTPResponse {
        await log.append(request)
        return try await inner.send(request, timeout: timeout)
    }
}
