public import AlmanacCore
import Foundation

/// The one entry every front reaches a tool through (issue 32, point 6): check, run, render, cap
/// and map errors here, so `tools run`, `tools mcp` and `tools serve` cannot drift apart.
extension Runtime {
    /// Runs `call` and answers it: never throws, a failure is mapped (``ToolFailure``).
    public func answer(_ call: ToolCall) async -> ToolAnswer {
        switch call.input {
        case .words(let words): await answer(call, words: words)
        case .json(let json): await answer(call, json: json)
        }
    }

    /// The tool `name` names for an untrusted caller, else why not: switched off or unknown. A
    /// front that reads its request after finding the tool (HTTP's body) asks this first.
    public func publishedTarget(_ name: String) -> Result<any Tool, ToolFailure> {
        if let refusal = switchedOff(name) { return .failure(ToolFailure(refusal, kind: .switchedOff)) }
        do {
            return .success(try offered.require(name))
        } catch {
            var failure = ToolFailure(error)
            failure.kind = .unknownTool
            return .failure(failure)
        }
    }

    private func answer(_ call: ToolCall, words: [String]) async -> ToolAnswer {
        let found: any Tool
        do {
            found = try await self.tool(resolving: call.tool)
        } catch {
            var failure = ToolFailure(error)
            if failure.kind == .usage { failure.kind = .unknownTool }
            return ToolAnswer(tool: nil, outcome: .failed(failure))
        }
        do {
            let result: ToolResult
            do {
                result = try await run(found, words: words)
            } catch let request as ConfirmationRequired {
                guard let confirm = call.confirm else { throw request }
                try await confirm(request)
                result = try await run(found, words: words + [request.confirmWord])
            }
            return ToolAnswer(tool: found, outcome: .reply(try reply(result, call)), attempts: result.metadata.attempts)
        } catch {
            return Self.failed(error, tool: found)
        }
    }

    /// ``answer(_:)`` for JSON input whose tool the front already found with ``publishedTarget(_:)``
    /// (HTTP reads its body only then): the name is not looked up twice.
    public func answer(_ call: ToolCall, published tool: any Tool) async -> ToolAnswer {
        guard case .json(let json) = call.input else { return await answer(call) }
        return await answer(call, json: json, tool: tool)
    }

    private func answer(_ call: ToolCall, json: [String: JSONValue]) async -> ToolAnswer {
        switch publishedTarget(call.tool) {
        case .success(let found): await answer(call, json: json, tool: found)
        case .failure(let failure): ToolAnswer(tool: nil, outcome: .failed(failure))
        }
    }

    private func answer(_ call: ToolCall, json: [String: JSONValue], tool: any Tool) async -> ToolAnswer {
        var request = forRequest(timeZone: call.timeZone)
        if let caller = call.caller { request = request.with(caller: caller, ask: call.ask) }
        do {
            let result = try await request.run(tool, json: json, strictTypes: call.strictTypes)
            return ToolAnswer(
                tool: tool, outcome: .reply(try request.reply(result, call)), attempts: result.metadata.attempts)
        } catch {
            return Self.failed(error, tool: tool)
        }
    }

    static func failed(_ error: any Error, tool: (any Tool)?) -> ToolAnswer {
        // Not a failure: nothing was written, and the answer says how to write it.
        if let request = error as? ConfirmationRequired { return ToolAnswer(tool: tool, outcome: .confirm(request)) }
        let failure = ToolFailure(error)
        return ToolAnswer(tool: tool, outcome: .failed(failure), attempts: failure.error.attempts)
    }

    /// Parses CLI words for `tool` and runs it.
    func run(_ tool: any Tool, words: [String]) async throws -> ToolResult {
        let arguments = try ToolArguments.parse(cli: words, schema: tool.schema, tool: tool.name)
        return try await tool.run(arguments, context: context())
    }

    /// Runs `tool` for an untrusted caller: writes, access and (when `strictTypes`) JSON types
    /// are checked against the schema such callers see, then it reaches only what they may.
    func run(_ tool: any Tool, json: [String: JSONValue], strictTypes: Bool) async throws -> ToolResult {
        let policy = egress.with(trust: .untrusted)
        let schema = tool.schema.visible(to: policy)
        try tool.schema.checkWrites(json, policy: policy, tool: tool.name)
        try tool.schema.checkAccess(json.keys.sorted(), policy: policy, tool: tool.name)
        if strictTypes { try JSONArgumentTypes.check(json, schema: schema, tool: tool.name) }
        let arguments = try ToolArguments.parse(
            json: Self.pluginArguments(json, for: tool), schema: schema, tool: tool.name)
        return try await tool.run(arguments, context: context(trust: .untrusted))
    }

    /// The result in the call's format; with the envelope too when asked, both within the cap.
    func reply(_ result: ToolResult, _ call: ToolCall) throws -> ToolReply {
        let budget = ContextBudget(tokens: call.budget)
        guard call.envelope else {
            let text = try result.renderUTF8(call.format, now: now, timeZone: timeZone, budget: budget)
            return ToolReply(result: result, text: text)
        }
        var text = try result.render(call.format, now: now, timeZone: timeZone, budget: budget)
        var envelope = try Envelope.jsonUTF8(metadata: result.metadata, payload: result.payload)
        if let cap = call.cap {
            let total = envelope.count + text.utf8.count + cap.overhead
            if total > cap.limit {
                envelope = AnswerLimit.envelopeWithoutData(envelope, total: total, limit: cap.limit)
                text = AnswerLimit.cut(
                    text, toBytes: cap.limit - envelope.count - 256, total: total, limit: cap.limit)
            }
        }
        return ToolReply(result: result, text: Array(text.utf8), envelope: envelope)
    }
}

/// JSON types as the schema declares them (the CLI parser also reads numbers from text; a JSON
/// client of the OpenAPI front gets told when it sends the wrong type).
public enum JSONArgumentTypes {
    /// Refuses, in one line, the first value whose JSON type is not the one `schema` declares.
    public static func check(_ json: [String: JSONValue], schema: ToolSchema, tool: String) throws {
        for (name, value) in json {
            guard let parameter = schema.parameter(named: name) else { continue }  // the parser names it
            let fits: Bool
            switch (parameter.kind, value) {
            case (_, .null): fits = !parameter.isRequired
            case (.string, .string), (.choice, .string), (.boolean, .bool), (.number, .number): fits = true
            case (.integer, .number(let number)): fits = number.rounded() == number && abs(number) < 1e15
            default: fits = false
            }
            guard fits else {
                throw AlmanacError.usage(
                    "argument '\(name)' for \(tool) must be \(typeName(parameter.kind))", suggestion: parameter.help)
            }
        }
    }

    static func typeName(_ kind: ToolParameter.Kind) -> String {
        switch kind {
        case .string: "a string"
        case .integer: "an integer"
        case .number: "a number"
        case .boolean: "true or false"
        case .choice(let values): "one of " + values.joined(separator: ", ")
        }
    }
}
