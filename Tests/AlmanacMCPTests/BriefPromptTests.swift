import AlmanacCore
import AlmanacRuntime
import AlmanacTesting
import Foundation
import MCP
import Testing

@testable import AlmanacMCP

/// The briefing over MCP: a prompt (`prompts/list`, `prompts/get brief`) and a tool (`tools/call
/// brief`), both made through the untrusted-caller path on the replayed morning after the Lakers'
/// 15 Dec 2024 game.
@Suite("MCP: the briefing as a prompt and a tool")
struct BriefPromptTests {
    static func runtime(_ extra: [String: String] = [:]) throws -> Runtime {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-mcp-\(UUID().uuidString)")
        return try Runtime.make(
            environment: [
                "ALMANAC_REPLAY": Fixtures.directory.path, "ALMANAC_NOW": "2024-12-16T12:00:00Z",
                "ALMANAC_TZ": "America/New_York", "ALMANAC_CACHE_DIR": cache.path, "HOME": cache.path,
                "ALMANAC_ME_TEAMS": "nba:lakers", "ALMANAC_NEWS_FEEDS": "https://news.ycombinator.com/rss",
            ].merging(extra) { _, new in new })
    }

    @Test("prompts/list offers 'brief' with its arguments; prompts/get gives the briefing as a user message")
    func prompt() async throws {
        let runtime = try Self.runtime()
        let prompts = AlmanacMCPServer.prompts(runtime)
        #expect(prompts.map(\.name) == ["brief"])
        #expect(prompts.first?.arguments?.map(\.name) == ["for", "budget"])
        let result = try await AlmanacMCPServer.prompt("brief", arguments: nil, runtime: runtime, budget: nil)
        guard case .text(let text)? = result.messages.first?.content else {
            Issue.record("no text message")
            return
        }
        #expect(result.messages.first?.role == .user)
        // Lakers 116, Grizzlies 110 (nba-scoreboard-final-2024-12-15 upstream bytes).
        #expect(text.contains("Final: Grizzlies (18-9) 110 @ Lakers (14-12) 116 · Lakers won"), "\(text)")
        #expect(text.contains("[brief] morning · Mon 16 Dec 2024 (today)"))
    }

    @Test("a bad argument or an unknown prompt is invalid params, in one line")
    func badArguments() async throws {
        let runtime = try Self.runtime()
        await #expect(throws: MCPError.self) {
            _ = try await AlmanacMCPServer.prompt("brief", arguments: ["for": "noon"], runtime: runtime, budget: nil)
        }
        await #expect(throws: MCPError.self) {
            _ = try await AlmanacMCPServer.prompt("brif", arguments: nil, runtime: runtime, budget: nil)
        }
    }

    @Test("the operator switching brief off removes the prompt and the tool")
    func switchedOff() async throws {
        let runtime = try Self.runtime(["ALMANAC_SERVE_DENY_TOOLS": "brief"])
        #expect(AlmanacMCPServer.prompts(runtime).isEmpty)
        #expect(!AlmanacMCPServer.tools(runtime).contains { $0.name == "brief" })
        await #expect(throws: MCPError.self) {
            _ = try await AlmanacMCPServer.prompt("brief", arguments: nil, runtime: runtime, budget: nil)
        }
    }

    @Test("tools/call brief answers the briefing with the envelope's data.sections")
    func tool() async throws {
        let runtime = try Self.runtime()
        #expect(AlmanacMCPServer.tools(runtime).contains { $0.name == "brief" })
        let (result, answer) = await AlmanacMCPServer.answer(
            "brief", arguments: ["budget": 300], runtime: runtime, budget: nil,
            maxAnswerBytes: AnswerLimit.defaultBytes)
        #expect(answer.status == "ok")
        guard case .text(let text, _, _)? = result.content.first else {
            Issue.record("no text")
            return
        }
        #expect(text.contains("Lakers (14-12) 116"))
        #expect(ContextBudget.estimate(text) <= 300)
        let envelope = String(decoding: try JSONEncoder().encode(result.structuredContent), as: UTF8.self)
        #expect(envelope.contains("\"tool\":\"brief\"") && envelope.contains("\"sections\""))
    }
}
