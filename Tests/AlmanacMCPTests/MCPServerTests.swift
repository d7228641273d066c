import AlmanacCore
import AlmanacRuntime
import AlmanacTesting
import Foundation
import MCP
import Testing

@testable import AlmanacMCP

/// The MCP server's own logic, in process: what `tools/list` publishes to untrusted callers, how a
/// `tools/call` answers (text, envelope, status words), the answer cap, and JSON-RPC params checks.
/// The stdio transport with a real client is covered by the MCP peer tests against the binary.
@Suite("MCP server")
struct MCPServerTests {
    /// The NBA's 15 Dec 2024, replayed from Fixtures/ at a fixed clock: no network.
    static func runtime() throws -> Runtime {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-mcp-\(UUID().uuidString)")
        return try Runtime.make(environment: [
            "ALMANAC_REPLAY": Fixtures.directory.path, "ALMANAC_NOW": "2024-12-16T04:00:00Z",
            "ALMANAC_TZ": "America/New_York", "ALMANAC_CACHE_DIR": cache.path, "HOME": cache.path,
        ])
    }

    static func text(_ result: CallTool.Result) -> String {
        guard case .text(let text, _, _)? = result.content.first else { return "" }
        return text
    }

    static func json(_ value: Value?) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    @Test("tools/list publishes every tool with only what an untrusted caller may pass")
    func list() throws {
        let tools = AlmanacMCPServer.tools(try Self.runtime())
        let names = Set(tools.map(\.name))
        #expect(names.isSuperset(of: ["sports", "weather", "calendar", "search", "read"]))
        let calendar = try #require(tools.first { $0.name == "calendar" })
        let schema = try Self.json(calendar.inputSchema)
        #expect(schema.contains("\"range\""))
        // Paths and URLs are the command line's (docs/security.md).
        #expect(!schema.contains("\"ics\"") && !schema.contains("\"caldav\""))
        #expect(tools.allSatisfy { $0.annotations.readOnlyHint == true })
    }

    @Test("a tool the operator switched off is not in tools/list, and a call to it is a one-line tool error")
    func switchedOff() async throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-mcp-\(UUID().uuidString)")
        let runtime = try Runtime.make(environment: [
            "ALMANAC_REPLAY": Fixtures.directory.path, "ALMANAC_CACHE_DIR": cache.path, "HOME": cache.path,
            "ALMANAC_SERVE_DENY_TOOLS": "read,search,news",
        ])
        #expect(AlmanacMCPServer.tools(runtime).map(\.name) == ["sports", "weather", "calendar", "brief"])
        let (result, answer) = await AlmanacMCPServer.answer(
            "read", arguments: ["url": "https://example.org/"], runtime: runtime, budget: nil,
            maxAnswerBytes: AnswerLimit.defaultBytes)
        #expect(result.isError == true)
        #expect(answer.status == "usage")
        let text = Self.text(result)
        let refusal = "error: tool 'read' is switched off for callers of tools serve, mcp or a model"
        #expect(text.hasPrefix(refusal), "\(text)")
        #expect(text.contains("tools: sports, weather, calendar, brief;") && !text.contains("\n"))
    }

    @Test("a call answers the context text with the envelope as structured content")
    func call() async throws {
        let (result, answer) = await AlmanacMCPServer.answer(
            "sports", arguments: ["league": "nba", "date": "2024-12-15"], runtime: try Self.runtime(), budget: nil,
            maxAnswerBytes: AnswerLimit.defaultBytes)
        #expect(answer.status == "ok")
        #expect(result.isError == false)
        // Lakers 116, Grizzlies 110 (nba-scoreboard-final-2024-12-15 upstream bytes).
        #expect(Self.text(result).contains("Lakers") && Self.text(result).contains("116"))
        let envelope = try Self.json(result.structuredContent)
        #expect(envelope.contains("\"tool\":\"sports\"") && envelope.contains("\"provider\":\"espn\""))
    }

    @Test("the structured content is the JSON envelope as values: integers stay integers, data is an object")
    func structuredValues() async throws {
        let (result, _) = await AlmanacMCPServer.answer(
            "sports", arguments: ["league": "nba", "date": "2024-12-15"], runtime: try Self.runtime(), budget: nil,
            maxAnswerBytes: AnswerLimit.defaultBytes)
        guard case .object(let envelope)? = result.structuredContent else {
            Issue.record("no structured object: \(String(describing: result.structuredContent))")
            return
        }
        #expect(envelope["tool"] == .string("sports") && envelope["stale"] == .bool(false))
        guard case .int? = envelope["ageSeconds"] else {
            Issue.record("ageSeconds is not an integer: \(String(describing: envelope["ageSeconds"]))")
            return
        }
        guard case .object(let data)? = envelope["data"], case .array(let games)? = data["games"] else {
            Issue.record("data.games missing")
            return
        }
        // Seven games on the recorded 15 Dec 2024 scoreboard (nba-scoreboard-final-2024-12-15).
        #expect(games.count == 7)
        guard case .object(let game)? = games.first, case .object(let home)? = game["home"] else {
            Issue.record("a game without a home side")
            return
        }
        #expect(home["score"].map { if case .int = $0 { true } else { false } } == true)
    }

    @Test("bad arguments and refused paths are one-line errors counted as usage")
    func refusals() async throws {
        let runtime = try Self.runtime()
        for arguments: [String: Value] in [["league": "nba", "tema": "lakers"], ["ics": "/etc"]] {
            let tool = arguments["ics"] == nil ? "sports" : "calendar"
            let (result, answer) = await AlmanacMCPServer.answer(
                tool, arguments: arguments, runtime: runtime, budget: nil, maxAnswerBytes: AnswerLimit.defaultBytes)
            #expect(result.isError == true)
            #expect(answer.status == "usage", "\(arguments): \(Self.text(result))")
            #expect(Self.text(result).hasPrefix("error: ") && !Self.text(result).contains("\n"))
        }
    }

    @Test("an answer over the cap keeps its envelope without data and its context cut at a line")
    func answerCap() async throws {
        let limit = 2_000
        let (result, answer) = await AlmanacMCPServer.answer(
            "sports", arguments: ["league": "nba", "date": "2024-12-15"], runtime: try Self.runtime(), budget: 5_000,
            maxAnswerBytes: limit)
        #expect(answer.status == "ok")
        let text = Self.text(result)
        #expect(text.hasSuffix("ask for a narrower range or fewer items]"))
        #expect(text.utf8.count < limit)
        let envelope = try Self.json(result.structuredContent)
        #expect(envelope.contains("\"truncated\":true") && envelope.contains("\"limit\":2000"))
        #expect(envelope.contains("\"tool\":\"sports\""))
    }

    @Test("params that are not an object are invalid params (-32602), not an internal error")
    func invalidParams() throws {
        func reply(_ text: String) -> String? {
            AlmanacMCPServer.invalidParamsReply(Data(text.utf8)).map { String(decoding: $0, as: UTF8.self) }
        }
        let bad = try #require(reply(#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":"x"}"#))
        #expect(bad.contains("-32602") && bad.contains("params must be an object") && bad.contains("\"id\":7"))
        let noName = try #require(reply(#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"arguments":{}}}"#))
        #expect(noName.contains("tools/call needs a string name"))
        #expect(
            reply(#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"sports","arguments":{}}}"#) == nil)
        // A notification (no id) gets no reply at all.
        #expect(reply(#"{"jsonrpc":"2.0","method":"tools/call","params":"x"}"#) == nil)
    }
}
