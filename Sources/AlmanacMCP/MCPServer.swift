public import AlmanacCore
public import AlmanacRuntime
public import Foundation
import Logging
public import MCP

/// The tools as an MCP server: `tools/list` with each tool's input schema (from the same argument
/// schema as the CLI), `tools/call` returning the context text, with the JSON envelope as
/// structured content. Tool failures are results with `isError: true` and the one-line error.
public enum AlmanacMCPServer {
    /// The server name announced in `initialize`.
    public static let name = "almanac"

    /// The MCP tool list: the tools untrusted callers may call, each with the schema they see.
    public static func tools(_ runtime: Runtime) -> [MCP.Tool] {
        runtime.publishedTools.map { tool in
            // A tool that may write here (calendar, where the operator allowed writes) can also delete
            // and cancel: one MCP tool, so it is marked destructive as a whole (docs/security.md).
            let schema = runtime.publishedSchema(tool)
            let writes = schema.asksWrites
            return MCP.Tool(
                name: tool.name, description: tool.summary, inputSchema: value(schema.jsonSchema),
                annotations: writes
                    ? .init(readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true)
                    : .init(readOnlyHint: true, openWorldHint: true))
        }
    }

    /// Answers one `tools/call`, with the runtime's answer it came from: a server counts the call
    /// by its tool, status and provider attempts as `/tools` does. An answer over `maxAnswerBytes`
    /// is cut (see ``AnswerLimit``).
    ///
    /// A write (where the operator allowed writes over this front) is confirmed by `ask` (MCP
    /// elicitation) when given and the client can be asked, else answered with a preview and a
    /// single-use token bound to `caller` (``ConfirmationRequired``).
    public static func answer(
        _ name: String, arguments: [String: Value]?, runtime: Runtime, budget: Int?, maxAnswerBytes: Int,
        caller: String = "mcp", ask: (@Sendable (String) async -> Bool?)? = nil
    ) async -> (result: CallTool.Result, answer: ToolAnswer) {
        var json: [String: JSONValue] = [:]
        for (key, argument) in arguments ?? [:] { json[key] = jsonValue(argument) }
        var call = ToolCall(tool: name, input: .json(json))
        call.budget = budget
        call.envelope = true
        call.cap = AnswerCap(limit: maxAnswerBytes)
        call.caller = caller
        call.ask = ask
        return result(await runtime.answer(call))
    }

    /// The MCP form of an answer: the context text with the envelope as structured content, a
    /// write waiting for confirmation, or the one-line error with `isError`. An envelope that
    /// cannot be read makes the answer a failure, with the attempts the call made.
    static func result(_ answer: ToolAnswer) -> (result: CallTool.Result, answer: ToolAnswer) {
        do {
            switch answer.outcome {
            case .reply(let reply):
                let structured = try JSONDecoder().decode(Value.self, from: Data(reply.envelope ?? []))
                return (
                    try CallTool.Result(
                        content: [.text(text: reply.context, annotations: nil, _meta: nil)],
                        structuredContent: structured, isError: false), answer
                )
            case .confirm(let request):
                // Not an error: nothing was written, and the answer says how to write it.
                return (
                    try CallTool.Result(
                        content: [.text(text: TerminalText.escaped(request.callerText), annotations: nil, _meta: nil)],
                        structuredContent: value(request.callerJSON), isError: false), answer
                )
            case .failed(let failure):
                return (Self.failure(failure), answer)
            }
        } catch {
            let failure = ToolFailure(error)
            return (
                Self.failure(failure),
                ToolAnswer(tool: answer.tool, outcome: .failed(failure), attempts: answer.attempts)
            )
        }
    }

    static func failure(_ failure: ToolFailure) -> CallTool.Result {
        CallTool.Result(content: [.text(text: failure.line, annotations: nil, _meta: nil)], isError: true)
    }

    private struct Incoming: Decodable {
        var id: JSONValue?
        var method: String?
        var params: JSONValue?
    }

    /// The JSON-RPC error -32602 (invalid params) for a request whose `params` is not an object,
    /// or a `tools/call` without a string `name` or with `arguments` that are not an object; nil
    /// for anything else. The SDK would answer these -32603 (internal error), as if the server
    /// had failed.
    public static func invalidParamsReply(_ message: Data) -> Data? {
        guard let incoming = try? JSONDecoder().decode(Incoming.self, from: message), incoming.method != nil,
            let id = incoming.id, id != .null
        else { return nil }
        let problem: String?
        switch incoming.params {
        case nil, .null?:
            problem = incoming.method == "tools/call" ? "tools/call needs params {\"name\", \"arguments\"}" : nil
        case .object(let members)?:
            guard incoming.method == "tools/call" else {
                problem = nil
                break
            }
            if case .string? = members["name"] {
                switch members["arguments"] {
                case nil, .null?, .object?: problem = nil
                default: problem = "tools/call arguments must be an object"
                }
            } else {
                problem = "tools/call needs a string name"
            }
        default: problem = "params must be an object"
        }
        guard let problem else { return nil }
        let reply: JSONValue = .object([
            "jsonrpc": "2.0", "id": id,
            "error": .object(["code": .number(-32602), "message": .string("Invalid params: \(problem)")]),
        ])
        return try? JSONOutput.compact(reply)
    }

    /// One line for an error: the message, then each provider's failure (see ``ToolFailure/line``).
    static func line(for error: any Error) -> String {
        ToolFailure(error).line
    }

    /// The longest line (one message) `tools mcp` reads by default: 1 MiB, far above any request
    /// it answers (`tools serve` takes 64 KiB bodies).
    public static let defaultMaxLineBytes = 1_048_576

    /// The line limit from `ALMANAC_MCP_MAX_LINE` or `[mcp] max_line`.
    ///
    /// - Throws: ``AlmanacError`` (usage) for a value that is not a whole number of bytes in range.
    public static func maxLineBytes(_ settings: Settings) throws -> Int {
        guard let raw = settings.value(env: "ALMANAC_MCP_MAX_LINE", config: "mcp", "max_line") else {
            return defaultMaxLineBytes
        }
        guard let value = Int(raw.trimmingCharacters(in: .whitespaces)), (1024...1_073_741_824).contains(value) else {
            throw AlmanacError.usage(
                "ALMANAC_MCP_MAX_LINE ([mcp] max_line) must be a whole number of bytes in 1024...1073741824, "
                    + "got '\(raw)'",
                suggestion: "e.g. ALMANAC_MCP_MAX_LINE=1048576")
        }
        return value
    }

    /// Serves on stdin/stdout until stdin ends, then answers every request still in flight before returning.
    /// A line longer than `maxLineBytes` is refused with a JSON-RPC error (see ``LineTransport``).
    public static func serve(
        runtime: Runtime, budget: Int?, version: String, maxAnswerBytes: Int = AnswerLimit.defaultBytes,
        maxLineBytes: Int = defaultMaxLineBytes
    ) async throws {
        var logger = Logger(label: "almanac.mcp")
        logger.logLevel = .critical
        let server = Server(
            name: name, version: version,
            capabilities: .init(prompts: .init(listChanged: false), tools: .init(listChanged: false)))
        let tools = tools(runtime)
        await registerPrompts(on: server, runtime: runtime, budget: budget)
        await server.withMethodHandler(ListTools.self) { _ in
            ListTools.Result(tools: tools)
        }
        let elicitation = Elicitor(server: server)
        await server.withMethodHandler(CallTool.self) { parameters in
            await answer(
                parameters.name, arguments: parameters.arguments, runtime: runtime, budget: budget,
                maxAnswerBytes: maxAnswerBytes, caller: "mcp", ask: { await elicitation.ask($0) }
            ).result
        }
        let transport = DrainingTransport(wrapping: LineTransport(limit: maxLineBytes, logger: logger))
        try await server.start(transport: transport) { _, capabilities in
            await elicitation.declared(capabilities.elicitation != nil)
        }
        await server.waitUntilCompleted()
        await server.stop()
    }

    // MARK: JSON bridging

    static func value(_ json: JSONValue) -> Value {
        switch json {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .number(let number):
            number.rounded() == number && abs(number) < 1e15 ? .int(Int(number)) : .double(number)
        case .string(let text): .string(text)
        case .array(let items): .array(items.map(value))
        case .object(let members): .object(members.mapValues(value))
        }
    }

    static func jsonValue(_ value: Value) -> JSONValue {
        switch value {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .int(let number): .number(Double(number))
        case .double(let number): .number(number)
        case .string(let text): .string(text)
        case .data(_, let data): .string(data.base64EncodedString())
        case .array(let items): .array(items.map(jsonValue))
        case .object(let members): .object(members.mapValues(jsonValue))
        }
    }
}

/// Wraps a transport so that the end of input does not drop replies still being computed.
///
/// The SDK handles each request in its own task and ends its loop as soon as the transport's
/// stream finishes, so at stdin EOF replies in flight were lost. This transport counts request
/// ids it passes in and response ids going out, and finishes its stream only when every request
/// has been answered (or after `drainLimit`).
actor DrainingTransport: Transport {
    nonisolated let logger: Logger
    private let inner: any Transport
    private var pending = Set<String>()
    private var drained: [CheckedContinuation<Void, Never>] = []
    private let drainLimit: Duration

    init(wrapping inner: LineTransport, drainLimit: Duration = .seconds(60)) {
        self.inner = inner
        self.logger = inner.logger
        self.drainLimit = drainLimit
    }

    func connect() async throws { try await inner.connect() }

    func disconnect() async { await inner.disconnect() }

    func send(_ data: Data) async throws {
        try await inner.send(data)
        if let id = Self.responseID(data) { answered(id) }
    }

    func receive() -> AsyncThrowingStream<Data, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        let task = Task {
            do {
                for try await message in await inner.receive() {
                    if let refusal = AlmanacMCPServer.invalidParamsReply(message) {
                        try? await inner.send(refusal)
                        continue
                    }
                    if let id = Self.requestID(message) { pending.insert(id) }
                    continuation.yield(message)
                }
                await waitForPending()
                continuation.finish()
            } catch {
                await waitForPending()
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func answered(_ id: String) {
        pending.remove(id)
        if pending.isEmpty {
            let waiters = drained
            drained.removeAll()
            for waiter in waiters { waiter.resume() }
        }
    }

    private func waitForPending() async {
        guard !pending.isEmpty else { return }
        let limit = drainLimit
        let timeout = Task { [weak self] in
            try? await Task.sleep(for: limit)
            await self?.giveUp()
        }
        await withCheckedContinuation { drained.append($0) }
        timeout.cancel()
    }

    private func giveUp() {
        pending.removeAll()
        answered("")
    }

    private struct Message: Decodable {
        var id: JSONValue?
        var method: String?
        var result: JSONValue?
        var error: JSONValue?
    }

    /// The id of a request (has `method` and `id`), as text.
    static func requestID(_ data: Data) -> String? {
        guard let message = try? JSONDecoder().decode(Message.self, from: data), message.method != nil,
            let id = message.id, id != .null
        else { return nil }
        return key(id)
    }

    /// The id of a response (has `result` or `error`, no `method`), as text.
    static func responseID(_ data: Data) -> String? {
        guard let message = try? JSONDecoder().decode(Message.self, from: data), message.method == nil,
            let id = message.id
        else { return nil }
        return key(id)
    }

    private static func key(_ id: JSONValue) -> String {
        switch id {
        case .string(let text): "s:" + text
        case .number(let number): "n:" + String(Int(number))
        default: "?"
        }
    }
}
