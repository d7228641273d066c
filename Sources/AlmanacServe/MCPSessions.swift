import AlmanacCore
import AlmanacMCP
import AlmanacRuntime
import Foundation
import Logging
import MCP

/// MCP over streamable HTTP: one SDK server and stateful transport per session (the SDK's
/// transport serves one session), all calling into the one shared runtime.
actor MCPSessions {
    private struct Session {
        let server: Server
        let transport: StatefulHTTPServerTransport
        let client: String
        var lastUsed: ContinuousClock.Instant
    }

    private var sessions: [String: Session] = [:]
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

    /// Routes one HTTP request (see ``handle(_:)``).
    func handle(method: String, headers: [String: String], body: Data?, path: String, client: String) async -> Reply {
        if let body, let refusal = AlmanacMCPServer.invalidParamsReply(body) {
            // The SDK would answer a request whose params do not decode with -32603 (internal).
            return Reply(status: 200, headers: ["Content-Type": "application/json"], body: refusal, stream: nil)
        }
        let response = await handle(
            MCP.HTTPRequest(method: method, headers: headers, body: body, path: path), client: client)
        if case .stream(let stream, let headers) = response {
            return Reply(status: 200, headers: headers, body: nil, stream: stream)
        }
        return Reply(status: response.statusCode, headers: response.headers, body: response.bodyData, stream: nil)
    }

    /// Routes one HTTP request: to its session, or (an `initialize`) to a new one.
    func handle(_ request: MCP.HTTPRequest, client: String) async -> MCP.HTTPResponse {
        if let id = request.header(HTTPHeaderName.sessionID) {
            guard var session = sessions[id] else {
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
        await expire(client: client)
        guard sessions.values.count(where: { $0.client == client }) < perClient else {
            return .error(
                statusCode: 503,
                .internalError("too many MCP sessions from this client; close one (DELETE /mcp) or retry later"))
        }
        guard sessions.count < limit else {
            return .error(statusCode: 503, .internalError("too many MCP sessions; close one or retry later"))
        }
        return await open(request, client: client)
    }

    private func open(_ request: MCP.HTTPRequest, client: String) async -> MCP.HTTPResponse {
        let id = UUID().uuidString
        // Origin, host and token are checked by the server's middleware for every route.
        let transport = StatefulHTTPServerTransport(
            sessionIDGenerator: FixedSessionID(id: id),
            validationPipeline: StandardValidationPipeline(validators: [
                AcceptHeaderValidator(mode: .sseRequired), ContentTypeValidator(), ProtocolVersionValidator(),
                SessionValidator(),
            ]), logger: logger)
        let server = Server(
            name: AlmanacMCPServer.name, version: version, capabilities: .init(tools: .init(listChanged: false)))
        let api = api
        let callLimit = callLimit
        let tools = AlmanacMCPServer.tools(api.runtime)
        await server.withMethodHandler(ListTools.self) { _ in ListTools.Result(tools: tools) }
        await server.withMethodHandler(CallTool.self) { parameters in
            await Self.call(parameters, api: api, limit: callLimit)
        }
        do {
            try await server.start(transport: transport)
        } catch {
            await transport.disconnect()
            return .error(statusCode: 500, .internalError("could not start the session"))
        }
        sessions[id] = Session(server: server, transport: transport, client: client, lastUsed: now())
        let response = await transport.handleRequest(request)
        if case .error = response {
            sessions.removeValue(forKey: id)
            await transport.disconnect()
        }
        return response
    }

    /// One `tools/call`, as `tools mcp` answers it, counted in the metrics as `/tools` counts
    /// it. A call that outlasts `limit` is not counted: its event stream was cut at the same
    /// limit and counted as a timeout (see ``AlmanacServer/ending(_:after:metrics:)``).
    static func call(_ parameters: CallTool.Parameters, api: ToolAPI, limit: Duration) async -> CallTool.Result {
        let start = ContinuousClock.now
        let answer: (result: CallTool.Result, status: String)
        do {
            // A second past the stream's own limit: the stream is cut first, so no late answer
            // reaches the client through it.
            answer = try await Deadline.run(limit + .seconds(1)) {
                await AlmanacMCPServer.answer(
                    parameters.name, arguments: parameters.arguments, runtime: api.runtime.forRequest(),
                    budget: api.budget, maxAnswerBytes: api.maxAnswerBytes)
            }
        } catch {
            return CallTool.Result(
                content: [
                    .text(text: "error: the call took longer than the server's limit", annotations: nil, _meta: nil)
                ],
                isError: true)
        }
        let result = answer.result
        // A switched-off tool never ran: a refusal, like the same call to `/tools/NAME`.
        if api.runtime.switchedOff(parameters.name) != nil {
            api.metrics.refused("tool_off")
            return result
        }
        MemoryRelief.afterCall(api.runtime.registry.tool(named: parameters.name)?.name ?? "")
        guard ContinuousClock.now - start < limit else { return result }  // its stream was cut: counted as a timeout
        var attempts: [ProviderAttempt] = []
        if case .object(let envelope)? = result.structuredContent, case .array(let items)? = envelope["attempts"] {
            for item in items {
                if case .object(let fields) = item, case .string(let provider)? = fields["provider"],
                    case .string(let outcome)? = fields["outcome"],
                    let kind = ProviderAttempt.Outcome(rawValue: outcome)
                {
                    attempts.append(ProviderAttempt(provider: provider, outcome: kind, milliseconds: 0))
                }
            }
        }
        api.metrics.call(
            tool: api.runtime.registry.tool(named: parameters.name)?.name ?? parameters.name, via: "mcp",
            status: answer.status, attempts: attempts, duration: ContinuousClock.now - start)
        return result
    }

    private struct Method: Decodable { var method: String? }

    /// Whether `body` is an `initialize` request (the one message that opens a session).
    static func isInitialize(_ body: Data) -> Bool {
        (try? JSONDecoder().decode(Method.self, from: body))?.method == "initialize"
    }

    /// Drops sessions idle longer than the limit, or than the shorter one under pressure (the
    /// server three quarters full, or `client` at its cap).
    private func expire(client: String) async {
        let now = now()
        let crowded = sessions.count * 4 >= limit * 3
        let clientFull = sessions.values.count(where: { $0.client == client }) >= perClient
        for (id, session) in sessions {
            let pressed = crowded || (clientFull && session.client == client)
            guard now - session.lastUsed > (pressed ? pressuredIdle : idle) else { continue }
            sessions.removeValue(forKey: id)
            await session.transport.disconnect()
        }
    }

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
