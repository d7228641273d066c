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
        var lastUsed: ContinuousClock.Instant
    }

    private var sessions: [String: Session] = [:]
    private let api: ToolAPI
    private let version: String
    private let limit: Int
    private let idle: Duration
    private let logger: Logger

    init(api: ToolAPI, version: String, limit: Int = 256, idle: Duration = .seconds(3600)) {
        self.api = api
        self.version = version
        self.limit = limit
        self.idle = idle
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
    func handle(method: String, headers: [String: String], body: Data?, path: String) async -> Reply {
        let response = await handle(MCP.HTTPRequest(method: method, headers: headers, body: body, path: path))
        if case .stream(let stream, let headers) = response {
            return Reply(status: 200, headers: headers, body: nil, stream: stream)
        }
        return Reply(status: response.statusCode, headers: response.headers, body: response.bodyData, stream: nil)
    }

    /// Routes one HTTP request: to its session, or (an `initialize`) to a new one.
    func handle(_ request: MCP.HTTPRequest) async -> MCP.HTTPResponse {
        if let id = request.header(HTTPHeaderName.sessionID) {
            guard var session = sessions[id] else {
                return .error(statusCode: 404, .invalidRequest("Not Found: session not found or expired"))
            }
            session.lastUsed = .now
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
        await expire()
        guard sessions.count < limit else {
            return .error(statusCode: 503, .internalError("too many MCP sessions; close one or retry later"))
        }
        return await open(request)
    }

    private func open(_ request: MCP.HTTPRequest) async -> MCP.HTTPResponse {
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
        let tools = AlmanacMCPServer.tools(api.runtime)
        await server.withMethodHandler(ListTools.self) { _ in ListTools.Result(tools: tools) }
        await server.withMethodHandler(CallTool.self) { parameters in
            await Self.call(parameters, api: api)
        }
        do {
            try await server.start(transport: transport)
        } catch {
            await transport.disconnect()
            return .error(statusCode: 500, .internalError("could not start the session"))
        }
        sessions[id] = Session(server: server, transport: transport, lastUsed: .now)
        let response = await transport.handleRequest(request)
        if case .error = response {
            sessions.removeValue(forKey: id)
            await transport.disconnect()
        }
        return response
    }

    /// One `tools/call`, as `tools mcp` answers it, counted in the metrics.
    static func call(_ parameters: CallTool.Parameters, api: ToolAPI) async -> CallTool.Result {
        let start = ContinuousClock.now
        let result = await AlmanacMCPServer.call(
            parameters.name, arguments: parameters.arguments, runtime: api.runtime.forRequest(), budget: api.budget)
        var attempts: [ProviderAttempt] = []
        if case .object(let envelope)? = result.structuredContent, case .array(let items)? = envelope["attempts"] {
            for item in items {
                if case .object(let fields) = item, case .string(let provider)? = fields["provider"],
                    case .string(let outcome)? = fields["outcome"], let kind = ProviderAttempt.Outcome(rawValue: outcome)
                {
                    attempts.append(ProviderAttempt(provider: provider, outcome: kind, milliseconds: 0))
                }
            }
        }
        api.metrics.call(
            tool: parameters.name, via: "mcp", status: result.isError == true ? "error" : "ok", attempts: attempts,
            duration: ContinuousClock.now - start)
        return result
    }

    private struct Method: Decodable { var method: String? }

    /// Whether `body` is an `initialize` request (the one message that opens a session).
    static func isInitialize(_ body: Data) -> Bool {
        (try? JSONDecoder().decode(Method.self, from: body))?.method == "initialize"
    }

    /// Drops sessions idle longer than the limit.
    private func expire() async {
        let now = ContinuousClock.now
        for (id, session) in sessions where now - session.lastUsed > idle {
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
