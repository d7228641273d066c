import AlmanacCore
import AlmanacMCP
import AlmanacRuntime
import Foundation

/// The OpenAPI side of `tools serve`, apart from HTTP plumbing: the document and one call.
struct ToolAPI: Sendable {
    /// One answer: HTTP status and JSON body.
    struct Answer: Sendable {
        /// HTTP status code.
        var status: Int
        /// JSON body.
        var body: [UInt8]
    }

    /// The runtime every call shares (one coordinator: one cache, one in-flight table).
    let runtime: Runtime
    /// Token budget for the context text.
    let budget: Int?
    /// Where calls are counted.
    let metrics: ServeMetrics
    /// Largest answer in bytes (a larger one is cut, see ``AnswerLimit``).
    let maxAnswerBytes: Int

    /// Creates the API over `runtime`.
    init(runtime: Runtime, budget: Int?, metrics: ServeMetrics, maxAnswerBytes: Int = AnswerLimit.defaultBytes) {
        self.runtime = runtime
        self.budget = budget
        self.metrics = metrics
        self.maxAnswerBytes = maxAnswerBytes
    }

    // MARK: Calls

    /// Runs `name` with the JSON `body` (the tool's arguments, plus an optional `tz`).
    ///
    /// 200: the JSON envelope plus `context`; 400: bad arguments (one line); 403: the operator
    /// switched the tool off for callers of the server; 404: no such tool; 502: every provider
    /// failed (one line per provider); 503: the tool is not configured.
    func call(_ name: String, body: [UInt8]) async -> Answer {
        await call(name, body: body, outcome: nil)
    }

    /// ``call(_:body:)``, counted only when `outcome` lets it (the time limit may have answered first).
    func call(_ name: String, body: [UInt8], outcome: CallOutcome?, caller: String = "http") async -> Answer {
        let start = ContinuousClock.now
        // The tool first: a call of a switched-off or unknown tool is refused whatever its body.
        let tool: any Tool
        switch runtime.publishedTarget(name) {
        case .success(let found): tool = found
        case .failure(let failure):
            if failure.kind == .switchedOff { metrics.refused("tool_off") }
            return Self.answer(failure, tool: name, runtime: runtime)
        }
        var answer = ToolAnswer(tool: tool, outcome: .failed(ToolFailure(AlmanacError.internal("not run"))))
        defer { MemoryRelief.afterCall(tool) }
        defer {
            if outcome?.settle() ?? true {
                metrics.call(
                    tool: tool.name, via: "openapi", status: answer.status, attempts: answer.attempts,
                    duration: ContinuousClock.now - start)
            }
        }
        do {
            var json = try Self.object(body)
            var call = ToolCall(tool: name, input: .json([:]))
            // An empty zone is no zone (form-filling clients send "" for fields left blank).
            if let tz = json.removeValue(forKey: "tz"), tz != .null, tz != .string("") {
                guard case .string(let name) = tz, let named = TimeZone(identifier: name) else {
                    throw AlmanacError.usage(
                        "tz must be an IANA time zone name", suggestion: "e.g. \"tz\": \"Europe/Lisbon\"")
                }
                call.timeZone = named
            }
            call.input = .json(json)
            call.budget = budget
            call.envelope = true
            // 12 bytes join the envelope and the context in one body.
            call.cap = AnswerCap(limit: maxAnswerBytes, overhead: 12)
            call.strictTypes = true
            call.caller = caller
            answer = await runtime.answer(call, published: tool)
        } catch {
            answer = ToolAnswer(tool: tool, outcome: .failed(ToolFailure(error)))
        }
        return Self.answer(answer.outcome, tool: name, runtime: runtime)
    }

    /// The HTTP form of an outcome: 200 with the envelope plus `context`, 202 for a write waiting
    /// for confirmation, else the failure's status and one-line error.
    static func answer(_ outcome: ToolAnswer.Outcome, tool name: String, runtime: Runtime) -> Answer {
        switch outcome {
        case .reply(let reply):
            // The envelope is one object: its last byte is the closing brace.
            guard var bytes = reply.envelope else { return Self.error(500, "error: internal failure", lines: []) }
            // The context as a JSON string, escaped as JSONEncoder escapes it.
            var context = JSONWriter(capacity: reply.text.count + 64)
            context.string(reply.context)
            bytes.removeLast()
            bytes += #","context":"#.utf8
            bytes += context.bytes
            bytes.append(UInt8(ascii: "}"))
            return Answer(status: 200, body: bytes)
        case .confirm(let request):
            return confirmation(request)
        case .failed(let failure):
            return answer(failure, tool: name, runtime: runtime)
        }
    }

    static func answer(_ failure: ToolFailure, tool name: String, runtime: Runtime) -> Answer {
        let error = failure.error
        switch failure.kind {
        case .usage, .switchedOff, .unconfigured:
            return Self.error(failure.httpStatus, failure.line, lines: [])
        case .unknownTool:
            return Self.error(
                404, "error: unknown tool '\(name)'",
                lines: ["tools: " + runtime.publishedTools.map(\.name).joined(separator: ", ")])
        case .unavailable:
            return Self.error(502, "error: \(error.message)", lines: Array(error.lines.dropFirst()))
        case .failed, .cancelled:
            return Self.error(500, failure.foreign ? "error: internal failure" : "error: \(error.message)", lines: [])
        }
    }

    /// 202 for a write that waits for its confirming call: `{"confirm": {"token", "preview",
    /// "expiresInSeconds"}, "context"}` (docs/security.md).
    static func confirmation(_ request: ConfirmationRequired) -> Answer {
        var body = request.callerJSON
        if case .object(var members) = body {
            members["context"] = .string(TerminalText.escaped(request.callerText))
            body = .object(members)
        }
        return Answer(status: 202, body: Array((try? JSONOutput.compact(body)) ?? Data(#"{"error":"error"}"#.utf8)))
    }

    /// A JSON error body: `{"error": line, "details": [...]}`.
    static func error(_ status: Int, _ line: String, lines: [String]) -> Answer {
        let details = lines.map { TerminalText.escaped($0.trimmingCharacters(in: .whitespaces)) }
        let body =
            (try? JSONOutput.compact(ErrorBody(error: TerminalText.escaped(line), details: details)))
            ?? Data(#"{"error":"error"}"#.utf8)
        return Answer(status: status, body: Array(body))
    }

    private struct ErrorBody: Encodable {
        var error: String
        var details: [String]
    }

    /// The body as a JSON object (an empty body is `{}`).
    static func object(_ body: [UInt8]) throws -> [String: JSONValue] {
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return [:] }
        // The plugins' byte parser first; JSONDecoder for what it leaves (it reads the same values).
        guard
            let value = JSONValue.quickParse(body) ?? (try? JSONDecoder().decode(JSONValue.self, from: Data(body))),
            case .object(let members) = value
        else {
            throw AlmanacError.usage(
                "the request body must be a JSON object of arguments", suggestion: #"e.g. {"query": "..."}"#)
        }
        return members
    }

    // MARK: OpenAPI

    /// The OpenAPI 3.1 document: one `POST /tools/{tool}` operation per tool.
    func openAPI(version: String, bearer: Bool) -> JSONValue {
        var paths: [String: JSONValue] = [:]
        for tool in runtime.publishedTools {
            paths["/tools/\(tool.name)"] = .object(["post": operation(for: tool, bearer: bearer)])
        }
        return .object([
            "openapi": "3.1.0",
            "info": .object([
                "title": "Almanac tools",
                "version": .string(version),
                // From the registry, so plugin tools are named as built-in ones are.
                "description": .string(
                    "Fresh, compact facts for a local model, from these tools: "
                        + runtime.publishedTools.map(\.name).joined(separator: ", ") + ". "
                        + "Each tool answers with `context`, a short text to quote, and the structured data."),
            ]),
            "paths": .object(paths),
            "components": Self.components(bearer: bearer),
        ])
    }

    /// The `POST /tools/{tool}` operation: the tool's published schema (plus `tz`) and its answers.
    private func operation(for tool: any Tool, bearer: Bool) -> JSONValue {
        let published = runtime.publishedSchema(tool)
        var schema = published.jsonSchema
        if case .object(var members) = schema, case .object(var properties) = members["properties"] {
            properties["tz"] = .object([
                "type": "string",
                "description": "The viewer's IANA time zone for times in the answer (default: the server's).",
            ])
            members["properties"] = .object(properties)
            schema = .object(members)
        }
        let usage = ToolArguments.usage(published, tool: tool.name)
        let summary = tool.summary.hasSuffix(".") ? tool.summary : tool.summary + "."
        var operation: [String: JSONValue] = [
            "operationId": .string(tool.name),
            "summary": .string(tool.summary),
            "description": .string(
                "\(summary) Answers with fresh facts and a compact `context` text to quote; "
                    + "the same as `\(usage)`."),
            "requestBody": .object([
                "required": true,
                "content": .object(["application/json": .object(["schema": schema])]),
            ]),
            "responses": .object([
                "200": .object([
                    "description": "The answer: the JSON envelope plus `context`, the text to give the model.",
                    "content": .object([
                        "application/json": .object(["schema": ["$ref": "#/components/schemas/Answer"]])
                    ]),
                ]),
                "202": .object([
                    "description": .string(
                        "A write waits for confirmation, nothing written: `confirm` holds the preview and a "
                            + "single-use token; the same call with `\"confirm\": TOKEN` writes exactly that."),
                    "content": .object([
                        "application/json": .object(["schema": ["$ref": "#/components/schemas/Confirm"]])
                    ]),
                ]),
                "400": Self.errorResponse("Bad arguments: one line naming what was wrong and what would be right."),
                "401": Self.errorResponse("Missing or wrong bearer token."),
                "403": Self.errorResponse("The browser origin is not allowed."),
                "413": Self.errorResponse("The request body is too large."),
                "429": Self.errorResponse("Too many requests in flight from this client."),
                "502": Self.errorResponse("Every provider failed: one line per provider in `details`."),
                "503": Self.errorResponse("The tool is not configured on this server."),
                "504": Self.errorResponse("The request took longer than the server's limit."),
            ]),
        ]
        if bearer { operation["security"] = [["bearer": []]] }
        return .object(operation)
    }

    /// The answer and error schemas every operation refers to, and the bearer scheme when a token is set.
    private static func components(bearer: Bool) -> JSONValue {
        var components: [String: JSONValue] = [
            "schemas": .object([
                "Answer": .object([
                    "type": "object",
                    "required": [
                        "tool", "provider", "fetchedAt", "ageSeconds", "stale", "attempts", "data", "context",
                    ],
                    "properties": .object([
                        "tool": ["type": "string"],
                        "provider": ["type": "string", "description": "The provider that answered."],
                        "fetchedAt": ["type": "string", "description": "When the provider answered (ISO 8601, UTC)."],
                        "ageSeconds": ["type": "integer"],
                        "stale": [
                            "type": "boolean",
                            "description": "True when every provider failed and an older answer is served.",
                        ],
                        "attempts": ["type": "array", "items": ["type": "object"]],
                        "data": ["type": "object", "description": "The structured answer (shape per tool)."],
                        "context": [
                            "type": "string", "description": "Compact text for the model, with the time and source.",
                        ],
                    ]),
                ]),
                "Confirm": .object([
                    "type": "object",
                    "required": ["tool", "confirm", "context"],
                    "properties": .object([
                        "tool": ["type": "string"],
                        "confirm": .object([
                            "type": "object",
                            "properties": .object([
                                "token": ["type": "string"], "preview": ["type": "string"],
                                "expiresInSeconds": ["type": "integer"],
                            ]),
                        ]),
                        "context": ["type": "string"],
                    ]),
                ]),
                "Error": .object([
                    "type": "object",
                    "required": ["error"],
                    "properties": .object([
                        "error": ["type": "string"],
                        "details": ["type": "array", "items": ["type": "string"]],
                    ]),
                ]),
            ])
        ]
        if bearer { components["securitySchemes"] = ["bearer": ["type": "http", "scheme": "bearer"]] }
        return .object(components)
    }

    private static func errorResponse(_ description: String) -> JSONValue {
        .object([
            "description": .string(description),
            "content": .object(["application/json": .object(["schema": ["$ref": "#/components/schemas/Error"]])]),
        ])
    }
}
