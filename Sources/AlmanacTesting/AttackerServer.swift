public import Foundation

/// A loopback server that records every request it gets (`scripts/attacker-server.py`), for tests
/// that prove a caller could not make Almanac reach it or send it a credential. Stopped by its pid.
public final class AttackerServer: @unchecked Sendable {
    // @unchecked: the process handle is only touched by the owning test, then stopped once.
    private let process: Process
    private let log: URL
    /// The port it listens on (127.0.0.1).
    public let port: Int

    /// One request it received.
    public struct Request: Sendable, Decodable {
        /// `GET`, `PROPFIND`, ...
        public var method: String
        /// Path and query.
        public var path: String
        /// The scheme of an `Authorization` header that came (`Basic`), never its value.
        public var authorization: String?
        /// Whether an `X-Subscription-Token` header came.
        var subscription: Bool
    }

    /// Starts the server in `mode` (`record`, `redirect`, `href`, `calendar`, `pages`; see the script) with
    /// `target` (a URL the answers point at).
    public init(mode: String = "record", target: String = "", lifetime: TimeInterval = 120) throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("attacker-\(UUID().uuidString).jsonl")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        (process, port) = try LoopbackScript.start(
            "scripts/attacker-server.py",
            ["--log", log.path, "--mode", mode, "--target", target, "--lifetime", String(lifetime)],
            name: "attacker server")
    }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Every request received so far.
    public func requests() -> [Request] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(Request.self, from: Data($0.utf8)) }
    }

    /// Stops the server by its pid.
    public func stop() {
        ChildProcess.stop(process)
        try? FileManager.default.removeItem(at: log)
    }

    deinit { stop() }
}
