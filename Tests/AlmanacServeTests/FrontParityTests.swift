import AlmanacCore
import AlmanacMCP
import AlmanacTesting
import Foundation
import MCP
import Testing

@testable import AlmanacRuntime
@testable import AlmanacServe

/// The three fronts reach a tool through one entry (``Runtime/answer(_:)``, issue 32 point 6): for
/// each kind of call they give the same class of answer and the same message.
@Suite("CLI, MCP and HTTP answer alike")
struct FrontParityTests {
    struct Fronts {
        let runtime: Runtime
        let api: ToolAPI

        init(_ directory: TempDirectory, front: String? = nil, limit: Int = AnswerLimit.defaultBytes) throws {
            var environment = ServePeers.replayEnvironment(directory.url)
            environment["ALMANAC_SERVE_DENY_TOOLS"] = "hidden"
            if let front { environment["ALMANAC_ALLOW_WRITES"] = front }
            runtime = try Runtime.make(
                environment: environment, options: RuntimeOptions(front: front),
                tools: [ProbeTool(name: "probe"), ProbeTool(name: "hidden")])
            api = ToolAPI(
                runtime: runtime, budget: nil, metrics: ServeMetrics(tools: ["probe"]), maxAnswerBytes: limit)
        }

        func http(_ tool: String, _ body: String) async throws -> (status: Int, body: [String: Any]) {
            let answer = await api.call(tool, body: Array(body.utf8))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
            return (answer.status, object)
        }

        func mcp(_ tool: String, _ arguments: [String: Value]) async -> (result: CallTool.Result, status: String) {
            let reply = await AlmanacMCPServer.answer(
                tool, arguments: arguments, runtime: runtime, budget: nil, maxAnswerBytes: api.maxAnswerBytes)
            return (reply.result, reply.answer.status)
        }

        func cli(_ tool: String, _ words: [String]) async -> ToolAnswer {
            await runtime.answer(ToolCall(tool: tool, input: .words(words)))
        }
    }

    static func text(_ result: CallTool.Result) -> String {
        guard case .text(let text, _, _)? = result.content.first else { return "" }
        return text
    }

    /// Each row: tool, action, the HTTP status, the status metrics count, the exit status of
    /// `tools run` (nil where the command line, a trusted caller, is not refused).
    @Test(
        "one class and one message per kind of call",
        arguments: [
            ("probe", "nope", 400, "usage", Int32(64) as Int32?),
            ("hidden", "show", 403, "usage", nil),
            ("probe", "add", 400, "usage", nil),
            ("probe", "fail", 502, "unavailable", Int32(69) as Int32?),
            ("missing", "show", 404, "usage", Int32(64) as Int32?),
        ])
    func table(tool: String, action: String, http: Int, status: String, exit: Int32?) async throws {
        let directory = try TempDirectory()
        let fronts = try Fronts(directory)
        let overHTTP = try await fronts.http(tool, #"{"action": "\#(action)"}"#)
        let overMCP = await fronts.mcp(tool, ["action": .string(action)])
        #expect(overHTTP.status == http)
        #expect(overMCP.status == status)
        #expect(overMCP.result.isError == true)
        // The same words: HTTP's line is MCP's, or its start where MCP adds each provider's failure.
        let line = try #require(overHTTP.body["error"] as? String)
        if http == 404 {
            #expect(Self.text(overMCP.result).hasPrefix(line))
        } else if http == 502 {
            #expect(Self.text(overMCP.result) == line + " (probe: HTTP 500)")
        } else {
            #expect(Self.text(overMCP.result) == line)
        }
        guard let exit else { return }
        guard case .failed(let failure) = await fronts.cli(tool, [action]).outcome else {
            Issue.record("the command line ran \(tool) \(action)")
            return
        }
        #expect(failure.exitStatus == exit)
        #expect(failure.status == status)
        #expect(failure.httpStatus == http)
        // Words and JSON are parsed apart, so a bad argument's wording may differ; the rest is one text.
        if http != 400 { #expect(failure.error.lines.first.map { line.hasPrefix($0) } == true) }
    }

    @Test("an answer over the cap is cut the same way over MCP and HTTP; the command line is not capped")
    func oversized() async throws {
        let directory = try TempDirectory()
        let fronts = try Fronts(directory, limit: 8_192)
        let overHTTP = try await fronts.http("probe", #"{"action": "big"}"#)
        let overMCP = await fronts.mcp("probe", ["action": .string("big")])
        #expect(overHTTP.status == 200)
        #expect(overMCP.status == "ok")
        let context = try #require(overHTTP.body["context"] as? String)
        let note = try #require(context.split(separator: "\n").last)
        #expect(note.hasPrefix("[answer cut: "))
        #expect(Self.text(overMCP.result).split(separator: "\n").last?.hasPrefix("[answer cut: ") == true)
        #expect((overHTTP.body["data"] as? [String: Any])?["truncated"] as? Bool == true)
        guard case .object(let envelope)? = overMCP.result.structuredContent,
            case .object(let data)? = envelope["data"]
        else {
            Issue.record("no envelope over MCP")
            return
        }
        #expect(data["truncated"] == .bool(true))
        guard case .reply(let reply) = await fronts.cli("probe", ["big"]).outcome else {
            Issue.record("the command line did not answer")
            return
        }
        #expect(reply.text.count > 8_192)
    }
}
