import AlmanacCore
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// An MCP client over one plugin's stdio: newline-delimited JSON-RPC 2.0 (`initialize`,
/// `notifications/initialized`, `tools/list`, `tools/call`).
///
/// Our own, not the MCP swift-sdk's `Client`: `tools` does not link the SDK (it brings
/// FoundationNetworking and libcurl's libraries into every start, see Sources/tools-mcp), and the
/// four messages a tool plugin needs are a page of code. Calls block their thread (callers run
/// them off the cooperative pool, see ``PluginHost``); every read has a deadline, every message a
/// size cap, and any fault kills the child, so a connection is either healthy or gone.
final class PluginConnection: Sendable {
    /// The MCP revision Almanac speaks (the first with structured tool output).
    static let protocolVersion = "2025-06-18"
    /// The largest message accepted from a plugin.
    static let maxMessageBytes = 4 << 20

    let plugin: String
    /// The child program of a stdio plugin, nil for a remote one.
    let process: PluginProcess?
    /// The HTTP side of a remote plugin (`url = ...`), nil for a stdio one.
    let remote: PluginRemote?
    /// The next request id, bytes read but not yet parsed (of which the first `scanned` hold no
    /// newline: a 50 MB line is scanned once, not once per read), and whether a fault ended it.
    private let state = Mutex<(nextID: Int, buffer: [UInt8], scanned: Int, broken: Bool)>((1, [], 0, false))

    /// Starts the plugin's program and completes the MCP handshake within `deadline`.
    ///
    /// - Throws: ``ProviderFailure`` naming what went wrong (not found, exited, no answer, not MCP).
    init(
        configuration: PluginConfiguration, parentEnvironment: [String: String], log: URL?, deadline: Duration
    )
        throws
    {
        plugin = configuration.name
        if let url = configuration.url {
            process = nil
            remote = PluginRemote(
                url: url, plugin: configuration.name,
                credential: try configuration.token?.credential(for: url, environment: parentEnvironment))
        } else {
            process = try PluginProcess(
                command: configuration.command, environment: configuration.childEnvironment(parentEnvironment),
                log: log)
            remote = nil
        }
        do {
            let result = try request(
                "initialize",
                params: [
                    "protocolVersion": .string(Self.protocolVersion), "capabilities": .object([:]),
                    "clientInfo": ["name": "almanac", "version": .string(AlmanacVersion.current)],
                ], deadline: deadline, during: "the handshake")
            guard case .object(let fields) = result, fields["protocolVersion"] != nil else {
                throw ProviderFailure(.decoding, "its initialize answer is not MCP (no protocolVersion)")
            }
            try send(["jsonrpc": "2.0", "method": "notifications/initialized"], deadline: deadline)
        } catch {
            abort()
            throw error
        }
    }

    /// Whether the connection can take another request.
    var isUsable: Bool { !state.withLock { $0.broken } && process?.exitStatus() == nil }

    /// Every tool the plugin lists (following `nextCursor`, at most 20 pages).
    func listTools(deadline: Duration) throws -> [JSONValue] {
        var tools: [JSONValue] = []
        var cursor: String?
        for _ in 0..<20 {
            let params: [String: JSONValue] = cursor.map { ["cursor": .string($0)] } ?? [:]
            let result = try request("tools/list", params: params, deadline: deadline, during: "tools/list")
            guard case .object(let fields) = result, case .array(let page) = fields["tools"] else {
                throw ProviderFailure(.decoding, "its tools/list answer has no tools array")
            }
            tools += page
            guard case .string(let next) = fields["nextCursor"], !next.isEmpty else { break }
            cursor = next
        }
        return tools
    }

    /// Calls one tool; the `tools/call` result object.
    func callTool(_ name: String, arguments: [String: JSONValue], deadline: Duration) throws -> [String: JSONValue] {
        let result = try request(
            "tools/call", params: ["name": .string(name), "arguments": .object(arguments)], deadline: deadline,
            during: "the call")
        guard case .object(let fields) = result else {
            throw ProviderFailure(.decoding, "its tools/call result is not an object")
        }
        return fields
    }

    /// Stops the child politely (EOF, then a kill after a moment).
    func close() {
        state.withLock { $0.broken = true }
        process?.stop()
        remote?.abort()
    }

    /// Kills the child at once (a deadline passed, the caller went away).
    func abort() {
        state.withLock { $0.broken = true }
        process?.kill()
        remote?.abort()
    }

    // MARK: JSON-RPC

    private func request(
        _ method: String, params: [String: JSONValue], deadline: Duration, during step: String
    ) throws -> JSONValue {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        let end = ContinuousClock.now.advanced(by: deadline)
        do {
            if let remote {
                let message: JSONValue = [
                    "jsonrpc": "2.0", "id": .number(Double(id)), "method": .string(method), "params": .object(params),
                ]
                // The server's own requests in the stream were answered as they came (PluginRemote).
                for reply in try remote.post(message, deadline: deadline, during: step) {
                    if let result = try answer(reply, to: id, during: step) { return result }
                }
                throw ProviderFailure(.decoding, "its answer during \(step) holds no response to the request")
            }
            try send(
                ["jsonrpc": "2.0", "id": .number(Double(id)), "method": .string(method), "params": .object(params)],
                deadline: deadline)
            while true {
                let message = try readMessage(until: end, limit: deadline, during: step)
                guard case .object(let fields) = message, fields["jsonrpc"] == "2.0" else {
                    throw ProviderFailure(.decoding, "it sent a message that is not JSON-RPC 2.0 during \(step)")
                }
                if let method = fields["method"] {
                    // A request or notification from the plugin: answer pings, refuse the rest.
                    if let requestID = fields["id"] {
                        let reply: JSONValue =
                            method == "ping"
                            ? ["jsonrpc": "2.0", "id": requestID, "result": .object([:])]
                            : [
                                "jsonrpc": "2.0", "id": requestID,
                                "error": ["code": -32601, "message": "not supported by this client"],
                            ]
                        try send(reply, deadline: deadline)
                    }
                    continue
                }
                if let result = try answer(message, to: id, during: step) { return result }
            }
        } catch let failure as PluginError {
            throw failure
        } catch {
            // Past any fault the stream's position is unknown: the connection is not used again.
            abort()
            throw error
        }
    }

    /// The result of `message` when it answers request `id`, nil when it is about something else.
    private func answer(_ message: JSONValue, to id: Int, during step: String) throws -> JSONValue? {
        guard case .object(let fields) = message, fields["jsonrpc"] == "2.0" else {
            throw ProviderFailure(.decoding, "it sent a message that is not JSON-RPC 2.0 during \(step)")
        }
        guard fields["method"] == nil, fields["id"] == .number(Double(id)) else { return nil }
        if case .object(let error) = fields["error"] {
            let code = error["code"].flatMap { value -> Int? in
                if case .number(let number) = value { return Int(exactly: number) }
                return nil
            }
            let text: String =
                if case .string(let message) = error["message"] { message } else { "no message" }
            throw PluginError.remote(code: code, message: UntrustedText.clean(text, limit: 200))
        }
        guard let result = fields["result"] else {
            throw ProviderFailure(.decoding, "its answer during \(step) has neither result nor error")
        }
        return result
    }

    private func send(_ message: JSONValue, deadline: Duration) throws {
        if let remote {
            _ = try remote.post(message, deadline: deadline, during: "sending a notification")
            return
        }
        guard let process else { return }
        var bytes = try PluginJSONLine.encoded(message)
        bytes.append(UInt8(ascii: "\n"))
        let end = ContinuousClock.now.advanced(by: deadline)
        var offset = 0
        while offset < bytes.count {
            try wait(
                for: process.input, events: Int16(POLLOUT), until: end, limit: deadline, during: "sending a request")
            let count = bytes[offset...].withUnsafeBytes {
                Glibc.send(process.input, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw exited(during: "sending a request")
            }
            offset += count
        }
    }

    /// The next whole line, parsed; skips blank lines.
    private func readMessage(
        until end: ContinuousClock.Instant, limit: Duration, during step: String
    ) throws -> JSONValue {
        guard let process else { throw ProviderFailure(.network, "no stream to read during \(step)") }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let line: [UInt8]? = state.withLock { state in
                guard let newline = state.buffer[state.scanned...].firstIndex(of: UInt8(ascii: "\n")) else {
                    state.scanned = state.buffer.count
                    return nil
                }
                let line = Array(state.buffer[..<newline])
                state.buffer.removeSubrange(...newline)
                state.scanned = 0
                return line
            }
            if let line {
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { continue }
                // The fast path; JSONDecoder for what it leaves (and for naming a bad line the same way).
                guard
                    let value = JSONValue.quickParse(line)
                        ?? (try? Self.decoder.decode(JSONValue.self, from: Data(line)))
                else {
                    throw ProviderFailure(.decoding, "it wrote a line that is not JSON during \(step)")
                }
                return value
            }
            if state.withLock({ $0.buffer.count }) > Self.maxMessageBytes {
                throw ProviderFailure(
                    .decoding, "its answer is larger than \(Self.maxMessageBytes >> 20) MB (the limit) during \(step)")
            }
            try wait(for: process.output, events: Int16(POLLIN), until: end, limit: limit, during: step)
            let count = chunk.withUnsafeMutableBytes { read(process.output, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw exited(during: step) }
            state.withLock { $0.buffer.append(contentsOf: chunk[0..<count]) }
        }
    }

    private func wait(
        for fd: Int32, events: Int16, until end: ContinuousClock.Instant, limit: Duration, during step: String
    ) throws {
        while true {
            let left = ContinuousClock.now.duration(to: end)
            guard left > .zero else {
                throw ProviderFailure(.timeout, "no answer within \(Self.seconds(limit)) during \(step)")
            }
            let milliseconds = Int32(clamping: Self.milliseconds(left) + 1)
            var poller = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&poller, 1, milliseconds)
            if ready < 0, errno == EINTR { continue }
            if ready < 0 { throw exited(during: step) }
            if ready == 0 { continue }
            return
        }
    }

    private func exited(during step: String) -> ProviderFailure {
        // The pipe closed: give the child a moment to be reaped so its status can be named.
        for _ in 0..<40 where process?.exitStatus() == nil { usleep(5_000) }
        if let status = process?.exitStatus() {
            let how = status > 128 ? "was killed by signal \(status - 128)" : "exited with status \(status)"
            return ProviderFailure(.network, "the plugin \(how) during \(step)")
        }
        return ProviderFailure(.network, "the plugin closed its output during \(step)")
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }

    /// `8 s`, `1.5 s`.
    static func seconds(_ duration: Duration) -> String {
        let milliseconds = milliseconds(duration)
        return milliseconds % 1000 == 0
            ? "\(milliseconds / 1000) s" : String(format: "%.1f s", Double(milliseconds) / 1000)
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()
    static let decoder = JSONDecoder()
}

/// A plugin's own JSON-RPC error answer: the plugin is alive and may take another request.
struct PluginError: Error, Sendable {
    var code: Int?
    var message: String

    static func remote(code: Int?, message: String) -> PluginError { PluginError(code: code, message: message) }

    var failure: ProviderFailure {
        ProviderFailure(.notFound, "the plugin answered error \(code.map(String.init) ?? "?"): \(message)")
    }
}
