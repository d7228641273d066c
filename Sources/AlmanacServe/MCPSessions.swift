import AlmanacCore
import AlmanacMCP
import AlmanacRuntime
import Foundation
import Logging
import MCP

/// MCP over streamable HTTP: one SDK server and stateful transport per session (the SDK's
/// transport serves one session), all calling into the one shared runtime.
///
/// A session belongs to the client that opened it: its address and, when the server has a token,
/// the token it presented. From anyone else its id is "not found", as if it did not exist.
actor MCPSessions {
    private struct Session {
        let server: Server
        let transport: StatefulHTTPServerTransport
        /// The exact address that opened it.
        let client: String
        /// What the caps count it under (see ``capKey(_:)``).
        let capKey: String
        let token: String?
        var lastUsed: ContinuousClock.Instant
    }

    private var sessions: [String: Session] = [:]
    /// Sessions being opened (counted against the caps before they exist), by cap key.
    private var opening: [String: Int] = [:]
    private let api: ToolAPI
    private let version: String
    private let limit: Int
    private let perClient: Int
    private let idle: Duration
    private let pressuredIdle: Duration
    private let callLimit: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let logger: Logger

    /// - Parameters:
    ///   - limit: sessions open at once in total; `perClient`: for one client address.
    ///   - idle: a session unused this long is closed; `pressuredIdle` applies instead once the
    ///     server holds three quarters of `limit` or the client its share, so that abandoned
    ///     sessions make room for new ones sooner.
    ///   - callLimit: the server's time limit for one call.
    ///   - now: when a session was last used is read from it (tests move it instead of waiting).
    init(
        api: ToolAPI, version: String, limit: Int = 256, perClient: Int = 16, idle: Duration = .seconds(3600),
        pressuredIdle: Duration = .seconds(60), callLimit: Duration = .seconds(30),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.callLimit = callLimit
        self.now = now
        self.api = api
        self.version = version
        self.limit = limit
        self.perClient = perClient
        self.idle = idle
        self.pressuredIdle = pressuredIdle
        var logger = Logger(label: "almanac.serve.mcp")
        logger.logLevel = .critical
        self.logger = logger
    }

    /// An answer in plain values, for the HTTP server (which does not import MCP: both name a
    /// `Request` and a `Response`).
    struct Reply: Sendable {
        var status: Int
        var headers: [String: String]
        var body: Data?
        var stream: AsyncThrowingStream<Data, any Error>?
    }

    /// Routes one HTTP request (see ``handle(_:client:token:)``).
    func handle(
        method: String, headers: [String: String], body: Data?, path: String, client: String, token: String? = nil
    ) async -> Reply {
        if let body, let refusal = Self.unsafeIDReply(body) {
            return Reply(status: 400, headers: ["Content-Type": "application/json"], body: refusal, stream: nil)
        }
        if let body, let refusal = AlmanacMCPServer.invalidParamsReply(body) {
            // The SDK would answer a request whose params do not decode with -32603 (internal).
            return Reply(status: 200, headers: ["Content-Type": "application/json"], body: refusal, stream: nil)
        }
        let response = await handle(
            MCP.HTTPRequest(method: method, headers: headers, body: body, path: path), client: client, token: token)
        if case .stream(let stream, let headers) = response {
            return Reply(status: 200, headers: headers, body: nil, stream: stream)
        }
        return Reply(status: response.statusCode, headers: response.headers, body: response.bodyData, stream: nil)
    }

    /// Routes one HTTP request from `client` (its address) holding `token` (the bearer token it
    /// presented, when the server has one): to its session, or (an `initialize`) to a new one.
    func handle(_ request: MCP.HTTPRequest, client: String, token: String? = nil) async -> MCP.HTTPResponse {
        if let id = request.header(HTTPHeaderName.sessionID) {
            // Another client's session answers as an unknown one: neither used, nor closed, nor
            // confirmed to exist.
            guard var session = sessions[id], session.client == Self.canonical(client),
                Self.sameToken(session.token, token)
            else {
                return .error(statusCode: 404, .invalidRequest("Not Found: session not found or expired"))
            }
            session.lastUsed = now()
            sessions[id] = session
            let response = await session.transport.handleRequest(request)
            if request.method.uppercased() == "DELETE", response.statusCode == 200 {
                sessions.removeValue(forKey: id)
                await session.transport.disconnect()
            }
            return response
        }
        guard request.method.uppercased() == "POST", let body = request.body, Self.isInitialize(body) else {
            return .error(statusCode: 400, .invalidRequest("Bad Request: missing \(HTTPHeaderName.sessionID) header"))
        }
        let key = Self.capKey(client)
        await expire(capKey: key)
        // From the checks to counting this one as opening nothing awaits, so initializes sent at
        // once cannot all pass the caps before the first of them is counted.
        guard sessions.values.count(where: { $0.capKey == key }) + opening[key, default: 0] < perClient else {
            return .error(
                statusCode: 503,
                .internalError("too many MCP sessions from this client; close one (DELETE /mcp) or retry later"))
        }
        var evicted: StatefulHTTPServerTransport?
        if sessions.count + opening.values.reduce(0, +) >= limit {
            guard let room = makeRoom(for: key) else {
                return .error(statusCode: 503, .internalError("too many MCP sessions; close one or retry later"))
            }
            evicted = room
        }
        opening[key, default: 0] += 1
        if let evicted { await evicted.disconnect() }
        let response = await open(request, client: client, capKey: key, token: token)
        opening[key, default: 1] -= 1
        if opening[key] == 0 { opening.removeValue(forKey: key) }
        return response
    }

    /// On a full server, takes out the least recently used session of the client holding the
    /// most, when it holds at least two more than `capKey` does, and returns its transport to
    /// close: sessions end up shared out fairly, so clients at a few addresses filling the
    /// server cannot keep a newcomer out (each of them only ever takes from the largest holder,
    /// which is then one of them).
    private func makeRoom(for capKey: String) -> StatefulHTTPServerTransport? {
        var held: [String: Int] = [:]
        for session in sessions.values { held[session.capKey, default: 0] += 1 }
        let mine = held[capKey, default: 0] + opening[capKey, default: 0]
        guard let most = held.values.max(), most >= mine + 2 else { return nil }
        let candidates = sessions.filter { held[$0.value.capKey] == most }
        guard let (id, session) = candidates.min(by: { $0.value.lastUsed < $1.value.lastUsed }) else { return nil }
        sessions.removeValue(forKey: id)
        return session.transport
    }

    private func open(
        _ request: MCP.HTTPRequest, client: String, capKey: String, token: String?
    ) async -> MCP.HTTPResponse {
        let id = UUID().uuidString
        // Origin, host and token are checked by the server's middleware for every route.
        let transport = StatefulHTTPServerTransport(
            sessionIDGenerator: FixedSessionID(id: id),
            validationPipeline: StandardValidationPipeline(validators: [
                AcceptHeaderValidator(mode: .sseRequired), ContentTypeValidator(), ProtocolVersionValidator(),
                SessionValidator(),
            ]), logger: logger)
        let server = Server(
            name: AlmanacMCPServer.name, version: version,
            capabilities: .init(prompts: .init(listChanged: false), tools: .init(listChanged: false)))
        let api = api
        await AlmanacMCPServer.registerPrompts(on: server, runtime: api.runtime, budget: api.budget)
        let callLimit = callLimit
        let tools = AlmanacMCPServer.tools(api.runtime)
        await server.withMethodHandler(ListTools.self) { _ in ListTools.Result(tools: tools) }
        let elicitor = Elicitor(server: server)
        await server.withMethodHandler(CallTool.self) { parameters in
            // A write's confirmation token is good only in the session it was issued in.
            await Self.call(
                parameters, api: api, limit: callLimit, caller: "mcp-session \(id)", ask: { await elicitor.ask($0) })
        }
        do {
            try await server.start(transport: transport) { _, capabilities in
                await elicitor.declared(capabilities.elicitation != nil)
            }
        } catch {
            await transport.disconnect()
            return .error(statusCode: 500, .internalError("could not start the session"))
        }
        sessions[id] = Session(
            server: server, transport: transport, client: Self.canonical(client), capKey: capKey, token: token,
            lastUsed: now())
        let response = await transport.handleRequest(request)
        if case .error = response {
            sessions.removeValue(forKey: id)
            await transport.disconnect()
        }
        return response
    }

    /// One `tools/call`, as `tools mcp` answers it, counted in the metrics as `/tools` counts
    /// it: from the runtime's answer, with every provider attempt, failed ones too. A call that
    /// outlasts `limit` is not counted: its event stream was cut at the same limit and counted as
    /// a timeout (see ``AlmanacServer/ending(_:after:metrics:)``).
    static func call(
        _ parameters: CallTool.Parameters, api: ToolAPI, limit: Duration, caller: String = "mcp-session",
        ask: (@Sendable (String) async -> Bool?)? = nil
    ) async -> CallTool.Result {
        let start = ContinuousClock.now
        let reply: (result: CallTool.Result, answer: ToolAnswer)
        do {
            // A second past the stream's own limit: the stream is cut first, so no late answer
            // reaches the client through it.
            reply = try await Deadline.run(limit + .seconds(1)) {
                await AlmanacMCPServer.answer(
                    parameters.name, arguments: parameters.arguments, runtime: api.runtime,
                    budget: api.budget, maxAnswerBytes: api.maxAnswerBytes, caller: caller, ask: ask)
            }
        } catch {
            return CallTool.Result(
                content: [
                    .text(text: "error: the call took longer than the server's limit", annotations: nil, _meta: nil)
                ],
                isError: true)
        }
        // No tool ran: a switched-off one is a refusal and an unknown one is not counted, like
        // the same call to `/tools/NAME`.
        guard let tool = reply.answer.tool else {
            if case .failed(let failure) = reply.answer.outcome, failure.kind == .switchedOff {
                api.metrics.refused("tool_off")
            }
            return reply.result
        }
        MemoryRelief.afterCall(tool)
        // Its stream was cut: counted as a timeout.
        guard ContinuousClock.now - start < limit else { return reply.result }
        api.metrics.call(
            tool: tool.name, via: "mcp", status: reply.answer.status, attempts: reply.answer.attempts,
            duration: ContinuousClock.now - start)
        return reply.result
    }

    private struct Method: Decodable { var method: String? }

    /// Whether `body` is an `initialize` request (the one message that opens a session).
    static func isInitialize(_ body: Data) -> Bool {
        (try? JSONDecoder().decode(Method.self, from: body))?.method == "initialize"
    }

    /// Drops sessions idle longer than the limit, or than the shorter one under pressure (the
    /// server three quarters full, or the client counted under `capKey` at its cap).
    private func expire(capKey: String) async {
        let now = now()
        let crowded = sessions.count * 4 >= limit * 3
        let clientFull = sessions.values.count(where: { $0.capKey == capKey }) >= perClient
        for (id, session) in sessions {
            let pressed = crowded || (clientFull && session.capKey == capKey)
            guard now - session.lastUsed > (pressed ? pressuredIdle : idle) else { continue }
            sessions.removeValue(forKey: id)
            await session.transport.disconnect()
        }
    }

    /// An address as one spelling: an IPv4-mapped IPv6 address (`::ffff:10.0.0.1`, as a
    /// dual-stack listener reports IPv4 clients) is its IPv4 address.
    static func canonical(_ address: String) -> String {
        let lowered = address.lowercased()
        if lowered.hasPrefix("::ffff:"), lowered.dropFirst(7).contains(".") { return String(lowered.dropFirst(7)) }
        return lowered
    }

    /// What the session caps count a client under: its IPv4 address, or the /64 network of its
    /// IPv6 address (one host is commonly given a whole /64, so counting single IPv6 addresses
    /// would give it millions of shares).
    static func capKey(_ address: String) -> String {
        let address = canonical(address)
        guard address.contains(":") else { return address }
        var parts = address.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        // Expand `::` to the zero groups it stands for, then keep the first four groups.
        if let gap = parts.firstIndex(of: "") {
            let filled = parts.filter { !$0.isEmpty }
            let missing = max(0, 8 - filled.count)
            let before = parts[..<gap].filter { !$0.isEmpty }
            let after = parts[gap...].filter { !$0.isEmpty }
            parts = before + Array(repeating: "0", count: missing) + after
        }
        let network = parts.prefix(4).map { String(Int($0, radix: 16) ?? 0, radix: 16) }
        return network.joined(separator: ":") + "::/64"
    }

    /// Whether a request's token is the one its session was opened with (compared in constant
    /// time); both nil on a server without a token.
    static func sameToken(_ opened: String?, _ presented: String?) -> Bool {
        switch (opened, presented) {
        case (nil, nil): true
        case (let opened?, let presented?): ServeConfiguration.tokenMatches(Substring(presented), opened)
        default: false
        }
    }

    /// A JSON-RPC id travels into the `id:` line of the SSE event that answers it: an id holding
    /// CR, LF or another control character could end that line and forge events on the stream,
    /// so such a message is refused (400, JSON-RPC -32600) before the SDK sees it. Both JSON
    /// readers the SDK uses are asked, so a duplicated `id` member cannot slip past one of them.
    static func unsafeIDReply(_ body: Data) -> Data? {
        func unsafe(_ id: String) -> Bool {
            id.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
        }
        let serialized = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        let decoded = try? JSONDecoder().decode(Identified.self, from: body)
        var found = false
        if let id = serialized?["id"] as? String, unsafe(id) { found = true }
        if case .string(let id)? = decoded?.id, unsafe(id) { found = true }
        guard found else { return nil }
        let reply: JSONValue = .object([
            "jsonrpc": "2.0", "id": .null,
            "error": .object([
                "code": .number(-32600),
                "message": .string(
                    "Invalid Request: a JSON-RPC id must not contain control characters (CR, LF, NUL, ...); "
                        + "use a number or a string of printable characters"),
            ]),
        ])
        return try? JSONOutput.compact(reply)
    }

    private struct Identified: Decodable { var id: JSONValue? }

    /// Ends every session (server shutdown).
    func closeAll() async {
        for session in sessions.values { await session.transport.disconnect() }
        sessions.removeAll()
    }
}

private struct FixedSessionID: SessionIDGenerator {
    let id: String
    func generateSessionID() -> String { id }
}
