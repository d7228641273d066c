import AlmanacCore
public import AlmanacRuntime
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
import UnixSignals

/// `tools serve`: the tools over HTTP on Hummingbird, for Open WebUI (OpenAPI tool server),
/// llama.cpp's web UI and any MCP host (MCP over streamable HTTP at `/mcp`).
///
/// Every request goes through one ``Runtime``, so one coordinator: one cache and one in-flight
/// table, and identical concurrent requests from any client make one upstream call.
public enum AlmanacServer {
    /// Serves until SIGTERM or SIGINT. `onListening` gets the bound port (useful with port 0).
    public static func serve(
        runtime: Runtime, configuration: ServeConfiguration, version: String,
        onListening: @escaping @Sendable (Int) -> Void = { _ in }
    ) async throws {
        MemoryRelief.keepBigBlocksApart()
        let metrics = ServeMetrics(tools: runtime.publishedTools.map(\.name), plugins: runtime.pluginNames)
        runtime.onPluginRestart { metrics.restarted(plugin: $0) }
        let api = ToolAPI(
            runtime: runtime, budget: configuration.budget, metrics: metrics,
            maxAnswerBytes: configuration.maxAnswerBytes)
        let sessions = MCPSessions(
            api: api, version: version, limit: configuration.maxSessions, perClient: configuration.maxSessionsPerClient,
            callLimit: configuration.requestTimeout)
        let router = makeRouter(api: api, sessions: sessions, configuration: configuration, version: version)
        var logger = Logger(label: "almanac.serve")
        logger.logLevel = .critical
        let server = HTTPServerBuilder { responder in
            GuardedHTTP1Channel(
                inner: HTTP1Channel(
                    responder: responder, configuration: .init(idleTimeout: TimeAmount(configuration.idleTimeout))),
                headerTimeout: configuration.headerTimeout, metrics: metrics)
        }
        let app = Application(
            router: router, server: server,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
        // SIGTERM/SIGINT: event streams end at once (they never finish on their own), calls in
        // flight get `drainTimeout` to answer, then every connection is closed.
        var group = ServiceGroupConfiguration(
            services: [
                .init(service: app, successTerminationBehavior: .gracefullyShutdownGroup),
                .init(service: StreamCloser(sessions: sessions), successTerminationBehavior: .ignore),
            ],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        group.maximumGracefulShutdownDuration = configuration.drainTimeout
        group.maximumCancellationDuration = .seconds(2)
        do {
            try await ServiceGroup(configuration: group).run()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw AlmanacError.configuration(
                "port \(configuration.port) on \(configuration.host) is already in use; pick another with --port (0 picks a free one)",
                suggestion: nil)
        } catch is CancellationError {
            // The drain time ran out and the group was cancelled: a stop, not a failure.
        } catch let error as IOError {
            throw AlmanacError.configuration(
                "cannot listen on \(configuration.host):\(configuration.port): \(String(cString: strerror(error.errnoCode)))",
                suggestion: nil)
        }
        await sessions.closeAll()
    }

    static func makeRouter(
        api: ToolAPI, sessions: MCPSessions, configuration: ServeConfiguration, version: String
    ) -> Router<ServeContext> {
        let router = Router(context: ServeContext.self)
        router.add(middleware: ServeGuard(configuration: configuration, metrics: api.metrics))
        let openAPI = encode(api.openAPI(version: version, bearer: configuration.token != nil))
        router.get("/healthz") { _, _ in json(200, Array(#"{"status":"ok"}"#.utf8)) }
        router.get("/openapi.json") { _, _ in json(200, openAPI) }
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: api.metrics.text())))
        }
        router.post("/tools/:tool") { request, context in
            let tool = context.parameters.get("tool") ?? ""
            let outcome = CallOutcome()
            return try await limited(request, configuration: configuration, metrics: api.metrics, outcome: outcome) {
                body in
                // A write's confirmation token is good only for the address and bearer token it was issued to.
                let caller =
                    "http \(ServeGuard.clientKey(context.remoteAddress)) \(request.headers[.authorization] ?? "")"
                let answer = await api.call(tool, body: Array(buffer: body), outcome: outcome, caller: caller)
                return json(answer.status, answer.body)
            }
        }
        let mcp: @Sendable (Request, ServeContext) async throws -> Response = { request, context in
            let client = ServeGuard.clientKey(context.remoteAddress)
            // The token the middleware accepted: a session is bound to it as to the address.
            let token =
                configuration.token == nil ? nil : request.headers[.authorization].map { String($0.dropFirst(7)) }
            let headers = Dictionary(
                request.headers.map { ($0.name.canonicalName, $0.value) }, uniquingKeysWith: { first, _ in first })
            let path = request.uri.path
            let verb = request.method.rawValue
            return try await limited(request, configuration: configuration, metrics: api.metrics) { body in
                // A POST's event stream carries one call's answer: cut at the time limit like a slow
                // `/tools` call. A GET stream (server notifications) is meant to stay open.
                response(
                    await sessions.handle(
                        method: verb, headers: headers,
                        body: body.readableBytes > 0 ? Data(body.readableBytesView) : nil,
                        path: path, client: client, token: token),
                    streamLimit: verb == "POST" ? configuration.requestTimeout : nil, metrics: api.metrics)
            }
        }
        router.get("/mcp", use: mcp)
        router.post("/mcp", use: mcp)
        router.delete("/mcp", use: mcp)
        return router
    }

    /// Reads the body within the size limit and runs `work`, both within the time limit (413 and
    /// 504 otherwise). An SSE stream's response is returned at once; only producing it is timed.
    static func limited(
        _ request: Request, configuration: ServeConfiguration, metrics: ServeMetrics, outcome: CallOutcome? = nil,
        _ work: @escaping @Sendable (ByteBuffer) async throws -> Response
    ) async throws -> Response {
        do {
            // Reading the body is inside the limit too: a client sending slowly is cut like a slow tool.
            return try await Deadline.run(configuration.requestTimeout) {
                let body: ByteBuffer
                do {
                    body = try await request.body.collect(upTo: configuration.maxBodyBytes)
                } catch is NIOTooManyBytesError {
                    // What `collect(upTo:)` throws past the limit (Hummingbird would answer a
                    // bare 413 for it, uncounted).
                    metrics.refused("too_large")
                    return json(
                        413,
                        ToolAPI.error(
                            413, "error: the request body is larger than \(configuration.maxBodyBytes) bytes", lines: []
                        )
                        .body)
                }
                return try await work(body)
            }
        } catch is DeadlineExceeded {
            // The call may still finish later: it must not then be counted as answered.
            _ = outcome?.settle()
            metrics.refused("timeout")
            return json(
                504, ToolAPI.error(504, "error: the request took longer than the server's limit", lines: []).body)
        }
    }

    /// A JSON response.
    static func json(_ status: Int, _ body: [UInt8]) -> Response {
        Response(
            status: .init(code: status), headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    static func encode(_ value: JSONValue) -> [UInt8] {
        Array((try? JSONOutput.compact(value)) ?? Data("{}".utf8))
    }

    /// The SDK's framework-free answer as Hummingbird's (an SSE stream stays a stream, ended after
    /// `streamLimit` when one is given).
    static func response(
        _ answer: MCPSessions.Reply, streamLimit: Duration? = nil, metrics: ServeMetrics? = nil
    )
        -> Response
    {
        var headers = HTTPFields()
        for (name, value) in answer.headers {
            if let field = HTTPField.Name(name) { headers[field] = value }
        }
        if let original = answer.stream {
            let stream = streamLimit.map { ending(original, after: $0, metrics: metrics) } ?? original
            let buffers = stream.map { ByteBuffer(bytes: $0) }
            return Response(status: .ok, headers: headers, body: .init(asyncSequence: buffers))
        }
        let body = answer.body.map { ByteBuffer(bytes: $0) } ?? ByteBuffer()
        return Response(status: .init(code: answer.status), headers: headers, body: .init(byteBuffer: body))
    }
}

extension AlmanacServer {
    /// `stream`, ended once `limit` has passed (the client sees the stream close without an
    /// answer, as a 504 would tell it on `/tools`); forwarding stops with it.
    static func ending(
        _ stream: AsyncThrowingStream<Data, any Error>, after limit: Duration, metrics: ServeMetrics?
    ) -> AsyncThrowingStream<Data, any Error> {
        AsyncThrowingStream { continuation in
            let forward = Task {
                do {
                    for try await chunk in stream { continuation.yield(chunk) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            let timer = Task {
                try? await Task.sleep(for: limit)
                guard !Task.isCancelled else { return }
                metrics?.refused("timeout")
                forward.cancel()
                continuation.finish()
            }
            continuation.onTermination = { _ in
                forward.cancel()
                timer.cancel()
            }
        }
    }
}

/// Waits for the shutdown signal, then ends every MCP session and its event streams (a GET
/// stream would otherwise hold the server open until the client goes).
struct StreamCloser: Service {
    let sessions: MCPSessions

    func run() async throws {
        try? await gracefulShutdown()
        await sessions.closeAll()
    }
}

/// The request context: Hummingbird's core plus the client's address (for the per-client cap).
struct ServeContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

/// Checks every request before it reaches a route: browser origin (CORS, with preflights
/// answered), the Host header on a loopback server (DNS rebinding), the bearer token, the
/// per-client cap on requests in flight, and the time limit.
struct ServeGuard: RouterMiddleware {
    typealias Context = ServeContext
    let configuration: ServeConfiguration
    let metrics: ServeMetrics
    let inFlight = InFlightCounter()

    static let allowedMethods = "GET, POST, DELETE, OPTIONS"
    static let allowedHeaders =
        "Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID"
    static let exposedHeaders = "Mcp-Session-Id, Mcp-Protocol-Version"
    static let uncapped: Set<String> = ["/healthz", "/metrics", "/openapi.json"]
    static let hostField = HTTPField.Name("Host")!

    func handle(
        _ request: Request, context: ServeContext, next: (Request, ServeContext) async throws -> Response
    ) async throws -> Response {
        let origin = request.headers[.origin]
        if let origin, !configuration.allows(origin: origin) {
            metrics.refused("origin")
            return refusal(403, "error: origin \(origin) is not allowed; add it to ALMANAC_SERVE_ORIGINS", origin: nil)
        }
        // One Host, always (RFC 9112 3.2: 400 for none or several); HTTP types keep the first as
        // the authority and any further one as a field.
        guard let host = request.head.authority, request.headers[values: Self.hostField].isEmpty else {
            metrics.refused("host")
            return refusal(400, "error: a request needs exactly one Host header", origin: origin)
        }
        if ServeConfiguration.isLoopback(configuration.host), configuration.token == nil, !Self.isLoopbackHost(host) {
            metrics.refused("host")
            return refusal(
                403, "error: this server answers loopback names only (Host: 127.0.0.1 or localhost)", origin: origin)
        }
        // A preflight carries no credentials: answer it before the token check, as browsers expect.
        if request.method == .options {
            var headers: HTTPFields = [:]
            addCORS(&headers, origin: origin)
            headers[.accessControlAllowMethods] = Self.allowedMethods
            headers[.accessControlAllowHeaders] = Self.allowedHeaders
            headers[.accessControlMaxAge] = "600"
            return Response(status: .noContent, headers: headers)
        }
        if let token = configuration.token, request.uri.path != "/healthz" {
            let presented = request.headers[.authorization] ?? ""
            let prefix = "Bearer "
            guard presented.count > prefix.count, presented.prefix(prefix.count).lowercased() == prefix.lowercased(),
                ServeConfiguration.tokenMatches(presented.dropFirst(prefix.count), token)
            else {
                metrics.refused("unauthorized")
                var response = refusal(
                    401, "error: a bearer token is required (Authorization: Bearer ...)", origin: origin)
                response.headers[.wwwAuthenticate] = "Bearer"
                return response
            }
        }
        // A tool is only ever POSTed: any other method (TRACE, QUERY, ...) is told so, not "not found".
        if request.uri.path.hasPrefix("/tools/"), request.method != .post {
            var response = refusal(405, "error: use POST with the arguments as a JSON object", origin: origin)
            response.headers[.allow] = "POST"
            return response
        }
        // Health checks, metrics and the document must answer when the server is busy: they are
        // cheap and run no tool, so they are not counted against the client's cap.
        if request.method == .get, Self.uncapped.contains(request.uri.path) {
            var response = try await next(request, context)
            addCORS(&response.headers, origin: origin)
            return response
        }
        let client = Self.clientKey(context.remoteAddress)
        guard await inFlight.enter(client, limit: configuration.maxConcurrentPerClient) else {
            metrics.refused("too_many")
            var response = refusal(
                429, "error: too many requests in flight from this client; retry shortly", origin: origin)
            response.headers[.retryAfter] = "1"
            return response
        }
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            await inFlight.leave(client)
            throw error
        }
        if response.body.contentLength == nil, request.method == .post {
            // An MCP call answers as a stream whose events carry the result: the client's slot is
            // held until the stream has been written, not only until it was handed over.
            response.body = Self.leaving(client, counter: inFlight, after: response.body)
        } else {
            await inFlight.leave(client)
        }
        addCORS(&response.headers, origin: origin)
        return response
    }

    /// `body`, leaving the client's in-flight slot once it is written (or fails).
    static func leaving(_ client: String, counter: InFlightCounter, after body: ResponseBody) -> ResponseBody {
        ResponseBody { writer in
            do {
                try await body.write(writer)
            } catch {
                await counter.leave(client)
                throw error
            }
            await counter.leave(client)
        }
    }

    private func addCORS(_ headers: inout HTTPFields, origin: String?) {
        guard let origin else { return }
        headers[.accessControlAllowOrigin] = origin
        headers[.accessControlExposeHeaders] = Self.exposedHeaders
        headers[.vary] = "Origin"
    }

    private func refusal(_ status: Int, _ line: String, origin: String?) -> Response {
        var response = AlmanacServer.json(status, ToolAPI.error(status, line, lines: []).body)
        addCORS(&response.headers, origin: origin)
        return response
    }

    /// Whether a Host header names the loopback, and nothing after it but a port.
    static func isLoopbackHost(_ host: String) -> Bool {
        ServeConfiguration.isLoopbackAuthority(host)
    }

    static func clientKey(_ address: SocketAddress?) -> String {
        address?.ipAddress ?? "unknown"
    }
}

/// Who counts a call: the call when it answers, or the time limit when it cut the call first
/// (a call answered 504 is never later counted as ok).
final class CallOutcome: Sendable {
    private let settled = Mutex(false)

    /// True for the first caller only.
    func settle() -> Bool {
        settled.withLock { done in
            defer { done = true }
            return !done
        }
    }
}

/// Requests in flight per client address.
actor InFlightCounter {
    private var counts: [String: Int] = [:]

    func enter(_ client: String, limit: Int) -> Bool {
        let count = counts[client, default: 0]
        guard count < limit else { return false }
        counts[client] = count + 1
        return true
    }

    func leave(_ client: String) {
        let count = counts[client, default: 1] - 1
        counts[client] = count > 0 ? count : nil
    }
}
