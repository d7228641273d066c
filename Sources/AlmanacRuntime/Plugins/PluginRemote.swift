import AlmanacCore
import AlmanacCurl
import Foundation
import Synchronization

/// A remote plugin's side of MCP's streamable HTTP transport (`[plugins.NAME] url = ...`): each
/// JSON-RPC message is a POST to the one URL; the answer is JSON or an SSE stream whose `data:`
/// events hold the messages; the `Mcp-Session-Id` the server gives at initialize goes with every
/// later POST.
///
/// Sent through ``EgressPolicy`` with the URL as a configured origin (the operator named it, so it
/// is reached whoever asks), the usual deadline and a body cap, and the entry's bearer token (if
/// any) bound to that origin. Calls block their thread like the stdio connection's (``PluginHost``
/// runs them off the cooperative pool).
final class PluginRemote: Sendable {
    let url: URL
    let plugin: String
    /// `Authorization: Bearer ...` for the URL's origin only (never on a redirect elsewhere).
    private let credential: BoundCredential?
    /// The session the server assigned, and the request in flight (cancelled by ``abort()``).
    private let state = Mutex<(session: String?, task: Task<HTTPResponse, any Error>?, aborted: Bool)>(
        (nil, nil, false))
    /// Reconnections with `Last-Event-ID` after a cut stream, per request, before giving up.
    static let maxResumes = 3
    /// Server requests answered per exchange; past this a flooding server's requests are dropped.
    static let maxReplies = 64

    init(url: URL, plugin: String, credential: BoundCredential? = nil) {
        self.url = url
        self.plugin = plugin
        self.credential = credential
    }

    /// Posts one message; the JSON-RPC messages of the answer (none for a notification's 202).
    ///
    /// A request's SSE answer is read as it arrives: the server's own requests in it are answered
    /// at once (it may wait for them before it answers ours), and reading stops at our response.
    func post(_ message: JSONValue, deadline: Duration, during step: String) throws -> [JSONValue] {
        var request = HTTPRequest(
            method: "POST", url: url,
            headers: [
                "Content-Type": "application/json", "Accept": "application/json, text/event-stream",
                "MCP-Protocol-Version": PluginConnection.protocolVersion,
            ],
            body: try PluginConnection.encoder.encode(message))
        request.maxBodyBytes = PluginConnection.maxMessageBytes
        if let session = state.withLock({ $0.session }) { request.headers["Mcp-Session-Id"] = session }
        let awaited: JSONValue? =
            if case .object(let fields) = message, fields["method"] != nil { fields["id"] } else { nil }
        let exchange = RemoteExchange(
            awaiting: awaited, during: step,
            reply: { [self] reply in
                send(reply: reply, deadline: deadline)
            })
        // One deadline for the whole call, reconnections included.
        let end = ContinuousClock.now + deadline
        let response = try wait(for: request, via: exchange, deadline: deadline, during: step)
        if response.status == 401 || response.status == 403 {
            // The status only: the server's body or challenge may quote what it was sent.
            let advice = credential == nil ? "; set token_env in [plugins.\(plugin)]" : ""
            throw ProviderFailure(
                .unauthorized, "the server refused access (HTTP \(response.status)) during \(step)\(advice)")
        }
        guard (200..<300).contains(response.status) else {
            throw ProviderFailure(.http, "the server answered HTTP \(response.status) during \(step)")
        }
        if let session = response.header("mcp-session-id"), Self.headerSafe(session) {
            state.withLock { $0.session = $0.session ?? session }
        }
        if exchange.isStream {
            return awaited == nil ? exchange.messages : try resumed(exchange, until: end, during: step)
        }
        if response.status == 202 || response.body.isEmpty { return [] }
        guard let value = try? PluginConnection.decoder.decode(JSONValue.self, from: response.body) else {
            throw ProviderFailure(.decoding, "its answer is not JSON during \(step)")
        }
        if case .array(let batch) = value { return batch }
        return [value]
    }

    /// The messages of a streamed answer, reconnecting while it was cut before our response.
    ///
    /// MCP 2025-06-18, Basic / Transports / Streamable HTTP, "Resumability and Redelivery": "If the
    /// client wishes to resume after a broken connection, it SHOULD issue an HTTP GET to the MCP
    /// endpoint, and include the Last-Event-ID header to indicate the last event ID it received";
    /// the server "MAY use this header to replay messages that would have been sent after the last
    /// event ID, on the stream that was disconnected". Without an event id there is nothing to
    /// resume from: the cut is the failure. At most ``maxResumes`` reconnections, each given only
    /// the time left before `end`, then one line.
    func resumed(
        _ exchange: RemoteExchange, until end: ContinuousClock.Instant, during step: String
    ) throws -> [JSONValue] {
        var resumes = 0
        while !exchange.answered, exchange.cut, let last = exchange.lastEventID {
            guard resumes < Self.maxResumes else { throw gaveUp(after: resumes, during: step) }
            // The server chose the id: one it could not have meant as a header value is not sent back.
            guard let request = resumption(after: last) else { throw gaveUp(after: resumes, during: step) }
            let left = end - ContinuousClock.now
            guard left > .zero else { throw gaveUp(after: resumes, during: step) }
            resumes += 1
            exchange.restart()
            let response = try wait(for: request, via: exchange, deadline: left, during: step)
            guard (200..<300).contains(response.status), exchange.isStream else {
                throw ProviderFailure(
                    .http,
                    "its event stream broke before the answer and resuming it got HTTP \(response.status) "
                        + "during \(step)")
            }
        }
        return exchange.messages
    }

    private func gaveUp(after resumes: Int, during step: String) -> ProviderFailure {
        ProviderFailure(
            .network,
            "its event stream broke before the answer and \(resumes) reconnections did not bring it during \(step)")
    }

    /// The GET that resumes a cut stream from event `last`; nil when `last` is no safe header value.
    func resumption(after last: String) -> HTTPRequest? {
        guard Self.headerSafe(last) else { return nil }
        var request = HTTPRequest(
            method: "GET", url: url,
            headers: [
                "Accept": "text/event-stream", "MCP-Protocol-Version": PluginConnection.protocolVersion,
                "Last-Event-ID": last,
            ])
        request.maxBodyBytes = PluginConnection.maxMessageBytes
        if let session = state.withLock({ $0.session }) { request.headers["Mcp-Session-Id"] = session }
        return request
    }

    /// Whether a value the server chose (session id, event id) may go back in a header: 1-256 bytes
    /// of visible ASCII, so no line break, control byte or megabyte header (SSE splits ids only at LF).
    private static func headerSafe(_ value: String) -> Bool {
        !value.isEmpty && value.utf8.count <= 256
            && value.unicodeScalars.allSatisfy { (0x21...0x7E).contains($0.value) }
    }

    /// Answers one request the server sent inside a stream, on a POST of its own (202 expected).
    /// Not awaited: the server may hold our answer back until it has this reply.
    private func send(reply: JSONValue, deadline: Duration) {
        guard !isAborted, let body = try? PluginConnection.encoder.encode(reply) else { return }
        var request = HTTPRequest(
            method: "POST", url: url,
            headers: [
                "Content-Type": "application/json", "Accept": "application/json, text/event-stream",
                "MCP-Protocol-Version": PluginConnection.protocolVersion,
            ],
            body: body)
        request.maxBodyBytes = PluginConnection.maxMessageBytes
        if let session = state.withLock({ $0.session }) { request.headers["Mcp-Session-Id"] = session }
        let plugin = plugin
        let credential = credential
        Task {
            _ = try? await EgressPolicy.commandLine.send(
                request, via: CurlTransport(), timeout: deadline, service: "plugin \(plugin)",
                configured: Origin(request.url).map { [$0] } ?? [], credential: credential)
        }
    }

    /// The reply to a request from the server: `ping` gets an empty result, anything else (roots,
    /// sampling, elicitation: this client offers none) "method not found", as over stdio.
    static func reply(to message: JSONValue) -> JSONValue? {
        guard case .object(let fields) = message, let method = fields["method"], let id = fields["id"] else {
            return nil
        }
        if method == "ping" { return ["jsonrpc": "2.0", "id": id, "result": .object([:])] }
        return ["jsonrpc": "2.0", "id": id, "error": ["code": -32601, "message": "not supported by this client"]]
    }

    /// Ends the request in flight, if any; no later one is sent.
    func abort() {
        let task = state.withLock { state in
            state.aborted = true
            return state.task
        }
        task?.cancel()
    }

    var isAborted: Bool { state.withLock { $0.aborted } }

    /// The JSON-RPC message an event holds, nil for one that holds none (an `error:` field alone).
    static func message(of event: SSEEvent, during step: String) throws -> JSONValue? {
        let text: String
        switch event {
        case .data(let payload): text = payload
        case .done: text = "[DONE]"
        case .error: return nil
        }
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        guard let value = try? decoder.decode(JSONValue.self, from: Data(text.utf8)) else {
            throw ProviderFailure(.decoding, "it sent an event that is not JSON during \(step)")
        }
        return value
    }

    private static let decoder = PluginConnection.decoder

    /// Runs the async send on its own task and waits for it on this (non-pool) thread.
    private func wait(
        for request: HTTPRequest, via exchange: RemoteExchange, deadline: Duration, during step: String
    ) throws -> HTTPResponse {
        let plugin = plugin
        let credential = credential
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Result<HTTPResponse, any Error>?>(nil)
        let task = Task<HTTPResponse, any Error> {
            let (response, _) = try await EgressPolicy.commandLine.send(
                request, via: exchange, timeout: deadline, service: "plugin \(plugin)",
                configured: Origin(request.url).map { [$0] } ?? [], credential: credential)
            return response
        }
        let aborted = state.withLock { state in
            state.task = task
            return state.aborted
        }
        if aborted { task.cancel() }
        Task {
            let outcome = await task.result
            result.withLock { $0 = outcome }
            done.signal()
        }
        // The transport enforces the deadline; the margin only covers a transport that does not.
        let waited = done.wait(timeout: .now() + .milliseconds(Int(PluginConnection.milliseconds(deadline)) + 2000))
        state.withLock { $0.task = nil }
        guard waited == .success, let outcome = result.withLock({ $0 }) else {
            task.cancel()
            throw ProviderFailure(.timeout, "no answer within \(PluginConnection.seconds(deadline)) during \(step)")
        }
        switch outcome {
        case .success(let response): return response
        case .failure(let error as ProviderFailure):
            // "plugin NAME: could not connect to HOST": the caller adds the plugin's name.
            let prefix = "plugin \(plugin): "
            let message =
                error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message
            throw ProviderFailure(error.kind, "\(message) during \(step)")
        case .failure(is CancellationError): throw CancellationError()
        case .failure: throw ProviderFailure(.network, "could not reach \(url.host ?? "the server") during \(step)")
        }
    }
}

/// The transport of one remote exchange (under ``EgressPolicy``, which sends each hop through it):
/// libcurl's streamed transfer, so an SSE answer is parsed event by event as it arrives. It keeps
/// the messages, the last event id and whether the stream ended before the awaited response; a
/// JSON (or any other) answer is collected whole, under the same cap and deadline as before.
final class RemoteExchange: HTTPTransport, Sendable {
    private struct Progress {
        var messages: [JSONValue] = []
        var lastEventID: String?
        var answered = false
        var isStream = false
        var cut = false
        var replies = 0
    }

    private let awaited: JSONValue?
    private let step: String
    private let reply: @Sendable (JSONValue) -> Void
    private let progress = Mutex(Progress())

    init(awaiting awaited: JSONValue?, during step: String, reply: @escaping @Sendable (JSONValue) -> Void) {
        self.awaited = awaited
        self.step = step
        self.reply = reply
    }

    var messages: [JSONValue] { progress.withLock { $0.messages } }
    var lastEventID: String? { progress.withLock { $0.lastEventID } }
    /// Whether the response to the awaited request arrived.
    var answered: Bool { progress.withLock { $0.answered } }
    /// Whether the (last) answer was an event stream.
    var isStream: Bool { progress.withLock { $0.isStream } }
    /// Whether the stream ended (or broke) before the response, after an event with an id: a
    /// stream that can be resumed. (Without an id a break fails as before, and a clean end leaves
    /// the caller to say the response is missing.)
    var cut: Bool { progress.withLock { $0.cut } }

    /// Before a reconnection: the messages and the last id stay, the stream's outcome goes.
    func restart() {
        progress.withLock { state in
            state.cut = false
            state.isStream = false
        }
    }

    func send(_ request: HTTPRequest, timeout: Duration) async throws -> HTTPResponse {
        let limit = request.maxBodyBytes ?? PluginConnection.maxMessageBytes
        let host = request.url.host ?? "server"
        // The whole exchange has the deadline the buffered transport had (libcurl's own timer
        // here only measures silence).
        return try await withThrowingTaskGroup(of: HTTPResponse.self) { group in
            group.addTask {
                try await self.exchange(request, timeout: timeout, limit: limit, host: host)
            }
            group.addTask {
                try await Task.sleep(for: timeout + .milliseconds(250))
                throw ProviderFailure(.timeout, "\(host): timed out")
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw CancellationError() }
            return first
        }
    }

    private func exchange(
        _ request: HTTPRequest, timeout: Duration, limit: Int, host: String
    ) async throws
        -> HTTPResponse
    {
        let response: HTTPStreamingResponse
        do {
            response = try await CurlTransport().stream(request, idleTimeout: timeout, connectTimeout: timeout)
        } catch let failure as HTTPStreamFailure {
            throw Self.providerFailure(failure)
        }
        let type = response.headers["content-type"]?.lowercased() ?? ""
        guard (200..<300).contains(response.status), type.hasPrefix("text/event-stream") else {
            var body = Data()
            do {
                for try await chunk in response.body {
                    body.append(chunk)
                    if body.count > limit { throw Self.tooLarge(host: host, limit: limit) }
                }
            } catch let failure as HTTPStreamFailure {
                throw Self.providerFailure(failure)
            }
            return HTTPResponse(status: response.status, headers: response.headers, body: body)
        }
        try await read(response.body, limit: limit, host: host)
        return HTTPResponse(status: response.status, headers: response.headers, body: Data())
    }

    /// Reads an event stream's body until the awaited response (or the end).
    func read(_ body: AsyncThrowingStream<Data, any Error>, limit: Int, host: String) async throws {
        progress.withLock { $0.isStream = true }
        var parser = SSEParser()
        var size = 0
        do {
            for try await chunk in body {
                size += chunk.count
                if size > limit { throw Self.tooLarge(host: host, limit: limit) }
                if try take(parser.feed(chunk), lastEventID: parser.lastEventID) { break }
            }
            // No `parser.finish()`: an event without its blank line was cut off, even by a clean
            // close, so neither it nor its id counts; from the last whole event's id, resume.
            if !answered { progress.withLock { $0.cut = $0.lastEventID != nil } }
        } catch let failure as HTTPStreamFailure {
            // Events that arrived before the break still count, with their last id.
            guard lastEventID != nil else { throw Self.providerFailure(failure) }
            progress.withLock { $0.cut = true }
        }
    }

    /// Takes the events of one chunk; true once the awaited response is among them.
    private func take(_ events: [SSEEvent], lastEventID: String?) throws -> Bool {
        var answered = false
        var replies: [JSONValue] = []
        for event in events {
            guard let message = try PluginRemote.message(of: event, during: step) else { continue }
            if let answer = PluginRemote.reply(to: message) { replies.append(answer) }
            if case .object(let fields) = message, fields["method"] == nil, let awaited, fields["id"] == awaited {
                answered = true
            }
            progress.withLock { $0.messages.append(message) }
        }
        let due = progress.withLock { state in
            if let lastEventID { state.lastEventID = lastEventID }
            state.answered = state.answered || answered
            let due = replies.prefix(max(0, PluginRemote.maxReplies - state.replies))
            state.replies += due.count
            return Array(due)
        }
        for answer in due { reply(answer) }
        return answered
    }

    static func providerFailure(_ failure: HTTPStreamFailure) -> ProviderFailure {
        switch failure.kind {
        case .unreachable: ProviderFailure(.network, failure.message)
        case .idle: ProviderFailure(.timeout, failure.message)
        case .broken: ProviderFailure(.network, failure.message)
        }
    }

    static func tooLarge(host: String, limit: Int) -> ProviderFailure {
        let size = limit >= 1 << 20 ? "\(limit >> 20) MB" : "\(limit >> 10) KB"
        return ProviderFailure(.http, "\(host): response larger than \(size) refused")
    }
}

/// Where a remote plugin's bearer token comes from: `token_env = "NAME"` (the variable is read when
/// the plugin is first reached) or `token = "..."` (only in a mode-0600 config file, which
/// ``ConfigLoader`` enforces for any `token` key). Its description never shows the token.
struct PluginToken: Sendable, Hashable, CustomStringConvertible {
    enum Source: Sendable, Hashable {
        case variable(String)
        case value(String)
    }

    var source: Source
    /// `allow_insecure_auth = true`: the token may go over plain http to a host off this machine.
    var allowsPlainHTTP = false

    /// The entry's token, nil when it has none.
    ///
    /// - Throws: ``AlmanacError`` (usage) naming the key that is wrong and what would be right.
    init?(_ table: [String: ConfigValue], plugin name: String, remote: Bool) throws {
        let example = "e.g. token_env = \"\(name.uppercased().replacingOccurrences(of: "-", with: "_"))_TOKEN\""
        var insecure = false
        if let raw = table["allow_insecure_auth"] {
            guard case .bool(let value) = raw else {
                throw AlmanacError.usage(
                    "[plugins.\(name)] allow_insecure_auth must be true or false",
                    suggestion: "e.g. allow_insecure_auth = true")
            }
            insecure = value
        }
        switch (table["token_env"], table["token"]) {
        case (nil, nil):
            return nil
        case (.some, .some):
            throw AlmanacError.usage("[plugins.\(name)] has both token_env and token; give one", suggestion: example)
        case (.some(let raw), nil):
            guard case .string(let variable) = raw, PluginConfiguration.validVariable(variable) else {
                throw AlmanacError.usage(
                    "[plugins.\(name)] token_env must name an environment variable", suggestion: example)
            }
            source = .variable(variable)
        case (nil, .some(let raw)):
            guard case .string(let token) = raw, Self.sendable(token) else {
                throw AlmanacError.usage(
                    "[plugins.\(name)] token must be a non-empty string of visible characters",
                    suggestion: "or keep it out of the file: \(example)")
            }
            source = .value(token)
        }
        guard remote else {
            throw AlmanacError.usage(
                "[plugins.\(name)] token and token_env are for a remote plugin (url = ...)",
                suggestion: "a program's secrets go in its env = { ... }")
        }
        allowsPlainHTTP = insecure
    }

    /// The credential for `url`'s origin: `Authorization: Bearer TOKEN`, on every request.
    ///
    /// - Throws: ``ProviderFailure`` (unconfigured) when the variable is unset, empty or unusable.
    func credential(for url: URL, environment: [String: String]) throws -> BoundCredential? {
        let token: String
        switch source {
        case .value(let value): token = value
        case .variable(let name):
            guard let value = environment[name], !value.isEmpty else {
                throw ProviderFailure(.unconfigured, "token_env names \(name), which is not set")
            }
            guard Self.sendable(value) else {
                throw ProviderFailure(.unconfigured, "\(name) (token_env) must hold visible characters only")
            }
            token = value
        }
        return BoundCredential(
            header: "Authorization", value: "Bearer \(token)", for: url, timing: .always,
            allowsPlainHTTP: allowsPlainHTTP)
    }

    /// Visible ASCII only: a header value cannot carry a line break (or anything curl would mangle).
    static func sendable(_ token: String) -> Bool {
        !token.isEmpty && token.unicodeScalars.allSatisfy { (0x21...0x7E).contains($0.value) }
    }

    var description: String {
        switch source {
        case .variable(let name): "token from \(name)"
        case .value: "token (hidden)"
        }
    }
}
