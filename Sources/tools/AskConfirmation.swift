import AlmanacCore
import AlmanacLLM
import AlmanacRuntime
import Foundation

/// `tools ask` with writes confirmed on the terminal (docs/security.md, "Writes").
///
/// A routed write (the operator's own question, read by the router) asks as `tools run` does
/// without `--yes`. A model's tool call is an untrusted caller: it writes only where `[serve]
/// allow_writes` names `ask`, and each write is put to the person at the terminal; with no
/// terminal, or any answer but yes, nothing is written. A model never gets a token to confirm its
/// own write.
struct ConfirmingRunner: ToolRunning {
    let runtime: Runtime

    init(_ runtime: Runtime) throws {
        self.runtime = try runtime.allowingWrites(from: "ask")
    }

    var registry: ToolRegistry { runtime.registry }
    var now: Date { runtime.now }
    var timeZone: TimeZone { runtime.timeZone }
    var publishedTools: [any Tool] { runtime.publishedTools }

    func run(tool: String, words: [String]) async throws -> ToolResult {
        try await TerminalConfirmation.run(words) { try await runtime.run(tool: tool, words: $0) }
    }

    func run(tool: String, json: [String: JSONValue]) async throws -> ToolResult {
        try await runtime.with(caller: "ask", ask: { TerminalConfirmation.ask("the model asks: \($0)") ?? false })
            .run(tool: tool, json: json)
    }
}
