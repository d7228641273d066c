import AlmanacCore
public import AlmanacRuntime
import Foundation
public import MCP

/// The briefing as an MCP prompt (`prompts/get brief`): the user's day as a ready user message,
/// made by the `brief` tool through the untrusted-caller path (`Runtime.run(tool:json:)`), so
/// it names configured things only and honours `[serve] tools`/`deny_tools`. The same briefing
/// is also the `brief` tool in `tools/list`.
extension AlmanacMCPServer {
    /// The prompt's name (the tool's).
    static let briefPrompt = "brief"

    /// The prompts offered: the briefing, when the `brief` tool is offered to untrusted callers.
    static func prompts(_ runtime: Runtime) -> [Prompt] {
        guard runtime.publishedTools.contains(where: { $0.name == briefPrompt }) else { return [] }
        return [
            Prompt(
                name: briefPrompt, title: "My day",
                description:
                    "Today's events and due tasks, weather at home, your teams and the top headlines, dated, in one message",
                arguments: [
                    .init(name: "for", description: "morning (default), evening, today, tomorrow or YYYY-MM-DD"),
                    .init(name: "budget", description: "token budget (default 400)"),
                ])
        ]
    }

    /// Answers one `prompts/get`.
    ///
    /// - Throws: `MCPError.invalidParams` for an unknown prompt or a bad argument (one line naming it).
    static func prompt(
        _ name: String, arguments: [String: String]?, runtime: Runtime, budget: Int?
    ) async throws -> GetPrompt.Result {
        guard name == briefPrompt, !prompts(runtime).isEmpty else {
            let names = prompts(runtime).map(\.name)
            throw MCPError.invalidParams(
                "unknown prompt '\(TerminalText.escaped(name))'; prompts: "
                    + (names.isEmpty ? "none" : names.joined(separator: ", ")))
        }
        var json: [String: JSONValue] = [:]
        if let day = arguments?["for"] { json["for"] = .string(day) }
        if let raw = arguments?["budget"] {
            guard let tokens = Int(raw.trimmingCharacters(in: .whitespaces)) else {
                throw MCPError.invalidParams(
                    "budget must be a whole number of tokens, got '\(TerminalText.escaped(raw))'")
            }
            json["budget"] = .number(Double(tokens))
        }
        let text: String
        do {
            let result = try await runtime.run(tool: briefPrompt, json: json)
            text = try result.render(
                .context, now: runtime.now, timeZone: runtime.timeZone, budget: ContextBudget(tokens: budget))
        } catch let error as AlmanacError where error.kind == .usage {
            throw MCPError.invalidParams(line(for: error))
        } catch {
            text = "The briefing could not be made: \(line(for: error))"
        }
        return GetPrompt.Result(
            description: "My day",
            messages: [
                .user(
                    .text(
                        text: "Brief me on my day from these facts, in a few short sentences. Times are local and "
                            + "already labelled; say what could not be fetched.\n\n" + text))
            ])
    }

    /// Registers `prompts/list` and `prompts/get` on `server` (its capabilities must include prompts).
    public static func registerPrompts(on server: Server, runtime: Runtime, budget: Int?) async {
        let list = prompts(runtime)
        await server.withMethodHandler(ListPrompts.self) { _ in ListPrompts.Result(prompts: list) }
        await server.withMethodHandler(GetPrompt.self) { parameters in
            try await prompt(parameters.name, arguments: parameters.arguments, runtime: runtime, budget: budget)
        }
    }
}
