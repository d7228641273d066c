import AlmanacCore
import Foundation
import Testing

@testable import AlmanacLLM

/// OpenAI function names allow no dot (`^[a-zA-Z0-9_-]{1,64}$`): a plugin tool `PLUGIN.TOOL` is
/// offered as `PLUGIN__TOOL` and the model's call is mapped back (issue 32, point 5).
@Suite("OpenAI function names for plugin tools")
struct OpenAIToolNameTests {
    static func valid(_ name: String) -> Bool {
        name.range(of: "^[a-zA-Z0-9_-]{1,64}$", options: .regularExpression) != nil
    }

    @Test("PLUGIN.TOOL becomes PLUGIN__TOOL; other characters _, at most 64; built-in names unchanged")
    func names() {
        #expect(OpenAITools.functionName("time.get_current_time") == "time__get_current_time")
        #expect(OpenAITools.functionName("sports") == "sports")
        #expect(OpenAITools.functionName("club.opening hours/now") == "club__opening_hours_now")
        let long = OpenAITools.functionName("p." + String(repeating: "x", count: 100))
        for name in ["time.get_current_time", "a.b.c", "é.ü", long] {
            #expect(Self.valid(OpenAITools.functionName(name)), "\(name)")
        }
        let tools: [any Tool] = [LinesTool(name: "time.get_current_time"), LinesTool(name: "search")]
        #expect(OpenAITools.toolName("time__get_current_time", in: tools) == "time.get_current_time")
        #expect(OpenAITools.toolName("time.get_current_time", in: tools) == "time.get_current_time")
        #expect(OpenAITools.toolName("search", in: tools) == "search")
        #expect(OpenAITools.toolName("nope", in: tools) == "nope")
    }

    @Test("native tool calling: the plugin tool is offered under its function name and the model's call runs it")
    func nativeCall() async throws {
        let directory = try TempDirectory()
        let runtime = try makeRuntime([LinesTool(name: "time.get_current_time", lineCount: 1)], in: directory)
        let first = """
            {"choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,\
            "tool_calls":[{"id":"call_1","type":"function","function":{"name":"time__get_current_time",\
            "arguments":"{\\"query\\":\\"tokyo\\"}"}}]}}]}
            """
        let http = ScriptedHTTP([
            .respond(status: 200, chunks: [first]),
            .respond(status: 200, chunks: [roleChunk, chunk("It is noon."), stopChunk, "data: [DONE]\n\n"]),
        ])
        let asker = Asker(runner: runtime, client: LLMClient(baseURL: URL(string: "http://127.0.0.1:9")!, http: http))
        _ = try await asker.ask(
            "what time is it in tokyo", options: AskOptions(toolCalling: .native, toolChoice: "time.get_current_time"),
            output: { _ in })
        let bodies = http.bodies
        #expect(bodies.count == 2)
        guard case .array(let tools)? = bodies[0]["tools"], case .object(let tool)? = tools.first,
            case .object(let function)? = tool["function"]
        else {
            Issue.record("no tools in the first request")
            return
        }
        #expect(function["name"] == "time__get_current_time")
        #expect(bodies[0]["tool_choice"]?.objectValue?["function"]?.objectValue?["name"] == "time__get_current_time")
        guard case .array(let messages)? = bodies[1]["messages"], case .object(let toolMessage)? = messages.last,
            case .string(let content)? = toolMessage["content"]
        else {
            Issue.record("second request has no tool message")
            return
        }
        // The tool ran (its own name in its answer), not an unknown-tool error.
        #expect(content.contains("time.get_current_time: tokyo"), "\(content)")
    }
}
