import AlmanacMCP
import AlmanacRuntime
import AlmanacTesting
import Foundation
import MCP
import Testing

@testable import AlmanacCore
@testable import AlmanacServe

/// A write waiting for confirmation is answered by one builder over HTTP and MCP: valid JSON,
/// the preview escaped as every other caller text.
@Suite("write confirmation JSON")
struct ConfirmationJSONTests {
    func runtime(_ directory: TempDirectory, front: String) throws -> Runtime {
        var environment = ServePeers.replayEnvironment(directory.url)
        environment["ALMANAC_ALLOW_WRITES"] = front
        return try Runtime.make(
            environment: environment, options: RuntimeOptions(front: front), tools: [ProbeTool(name: "probe")])
    }

    @Test("a write's preview with quotes and newlines is valid JSON, escaped alike, over HTTP and MCP")
    func confirmation() async throws {
        let directory = try TempDirectory()
        let served = try runtime(directory, front: "serve")
        let api = ToolAPI(runtime: served, budget: nil, metrics: ServeMetrics(tools: ["probe"]))
        let overHTTP = await api.call("probe", body: Array(#"{"action": "add"}"#.utf8))
        #expect(overHTTP.status == 202)
        let body = try #require(try JSONSerialization.jsonObject(with: Data(overHTTP.body)) as? [String: Any])
        let httpPreview = try #require((body["confirm"] as? [String: Any])?["preview"] as? String)
        let mcp = try runtime(directory, front: "mcp")
        let overMCP = await AlmanacMCPServer.answer(
            "probe", arguments: ["action": .string("add")], runtime: mcp, budget: nil,
            maxAnswerBytes: AnswerLimit.defaultBytes)
        #expect(overMCP.answer.status == "confirm")
        let encoded = try JSONEncoder().encode(try #require(overMCP.result.structuredContent))
        let structured = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        let mcpPreview = try #require((structured["confirm"] as? [String: Any])?["preview"] as? String)
        #expect(httpPreview == mcpPreview)
        #expect(httpPreview == TerminalText.escaped("event \"tea\"\nat 5 \\ tab\there"))
        #expect(!mcpPreview.contains("\n"))
        #expect((structured["confirm"] as? [String: Any])?["token"] as? String == "t0k")
    }
}

/// A tool for the fronts' table: answers, fails upstream, answers big, or asks to write.
struct ProbeTool: AlmanacCore.Tool {
    var name: String
    var summary: String { "test tool \(name)" }
    var schema: ToolSchema {
        ToolSchema([
            ToolParameter(
                "action", .choice(["show", "fail", "big", "add"]), help: "what to do", placement: .positional,
                writeChoices: ["add"])
        ])
    }
    var providerDescriptors: [ProviderDescriptor] { [] }
    func providers(in context: ToolContext) -> [ProviderInfo] { [] }

    func run(_ arguments: ToolArguments, context: ToolContext) async throws -> ToolResult {
        let metadata = ResultMetadata(
            tool: name, provider: "probe", fetchedAt: context.environment.now, ageSeconds: 0, stale: false,
            attempts: [])
        switch arguments.string("action") {
        case "fail":
            throw AlmanacError.unavailable(
                tool: name,
                attempts: [ProviderAttempt(provider: "probe", outcome: .failed, milliseconds: 3, detail: "HTTP 500")])
        case "big":
            return ToolResult(metadata: metadata, payload: ProbePayload(lines: 2_000))
        case "add":
            throw ConfirmationRequired(
                tool: name, preview: "event \"tea\"\nat 5 \\ tab\there", token: "t0k", validSeconds: 300)
        default:
            return ToolResult(metadata: metadata, payload: ProbePayload(lines: 2))
        }
    }
}

struct ProbePayload: ToolPayload {
    var lines: Int
    func context(_ rendering: Rendering) -> String {
        (0..<lines).map { "line \($0) of the probe's answer, long enough to add up" }.joined(separator: "\n")
    }
    func text(_ rendering: Rendering) -> String { context(rendering) }
}
