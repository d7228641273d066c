import AlmanacCore
import AlmanacRuntime
import Foundation
import Synchronization
import Testing

@testable import AlmanacLLM

/// A streaming HTTP double that answers each request from a script (synthetic: for faults a real
/// server cannot produce on demand, and to look at what was sent). Records the request bodies.
final class ScriptedHTTP: StreamingHTTPClient {
    enum Step: Sendable {
        /// Status, then these body chunks, then a clean close (or a broken connection).
        case respond(status: Int, chunks: [String], broken: Bool = false)
        /// Connection refused.
        case refuse
    }

    private let state: Mutex<(steps: [Step], bodies: [Data])>

    init(_ steps: [Step]) { state = Mutex((steps, [])) }

    var bodies: [[String: JSONValue]] {
        state.withLock { $0.bodies }.compactMap { try? JSONDecoder().decode(JSONValue.self, from: $0).objectValue }
    }

    func send(_ request: HTTPRequest) async throws -> StreamingResponse {
        let step: Step? = state.withLock { state in
            state.bodies.append(request.body ?? Data())
            return state.steps.isEmpty ? nil : state.steps.removeFirst()
        }
        switch step {
        case nil, .refuse:
            throw LLMError.serverDown(url: "http://127.0.0.1:9")
        case .respond(let status, let chunks, let broken):
            let body = AsyncThrowingStream<Data, any Error> { continuation in
                for chunk in chunks { continuation.yield(Data(chunk.utf8)) }
                if broken {
                    continuation.finish(throwing: LLMError.network("127.0.0.1: connection broke (-1)"))
                } else {
                    continuation.finish()
                }
            }
            return StreamingResponse(status: status, body: body)
        }
    }
}

func chunk(_ text: String) -> String {
    "data: {\"choices\": [{\"index\": 0, \"delta\": {\"content\": \(String(reflecting: text))}, \"finish_reason\": null}]}\n\n"
}

let roleChunk =
    "data: {\"choices\": [{\"index\": 0, \"delta\": {\"role\": \"assistant\"}, \"finish_reason\": null}]}\n\n"
let stopChunk = "data: {\"choices\": [{\"index\": 0, \"delta\": {}, \"finish_reason\": \"stop\"}]}\n\n"

@Suite("SSE parser")
struct SSEParserTests {
    @Test("events split anywhere, CRLF, comments, multi-line data, [DONE]")
    func parse() {
        var parser = SSEParser()
        let stream =
            ": ping - 2024-12-15\r\n\r\ndata: {\"a\":\r\ndata: 1}\r\n\r\nevent: x\ndata: h\u{e9}llo\n\ndata: [DONE]\n\n"
        let bytes = Array(stream.utf8)
        var events: [SSEEvent] = []
        // One byte at a time: lines and UTF-8 sequences are split across chunks.
        for byte in bytes { events += parser.feed(Data([byte])) }
        events += parser.finish()
        #expect(events == [.data("{\"a\":\n1}"), .data("h\u{e9}llo"), .done])
    }

    @Test("an error field and a last event without its blank line")
    func errorAndTail() {
        var parser = SSEParser()
        var events = parser.feed(Data("error: {\"message\":\"boom\"}\n\ndata: tail".utf8))
        events += parser.finish()
        #expect(events == [.error("{\"message\":\"boom\"}"), .data("tail")])
    }
}

@Suite("LLM client (scripted faults)")
struct ClientTests {
    let request = ChatRequest(messages: [.user("hi")], stream: true)

    func collect(_ http: ScriptedHTTP) async -> (String, (any Error)?) {
        let client = LLMClient(baseURL: URL(string: "http://127.0.0.1:9")!, http: http)
        var text = ""
        do {
            for try await delta in client.stream(request) {
                if case .text(let piece) = delta { text += piece }
            }
            return (text, nil)
        } catch {
            return (text, error)
        }
    }

    @Test("tokens arrive in order, ping comments are skipped, [DONE] ends the stream")
    func stream() async {
        let http = ScriptedHTTP([
            .respond(
                status: 200,
                chunks: [
                    roleChunk, ": ping - 2024-12-15 23:30:00\n\n", chunk("Hel"), chunk("lo"), stopChunk,
                    "data: [DONE]\n\n",
                ])
        ])
        let (text, error) = await collect(http)
        #expect(text == "Hello")
        #expect(error == nil)
        #expect(http.bodies.first?["stream"] == .bool(true))
    }

    @Test("a stream that stops without [DONE] after tokens is cut")
    func cut() async {
        let (text, error) = await collect(
            ScriptedHTTP([.respond(status: 200, chunks: [roleChunk, chunk("Hel"), chunk("lo")])]))
        #expect(text == "Hello")
        #expect(error as? LLMError == .streamCut(tokens: 2))
    }

    @Test("a connection that breaks mid-stream is cut too")
    func broken() async {
        let (text, error) = await collect(ScriptedHTTP([.respond(status: 200, chunks: [chunk("Hi")], broken: true)]))
        #expect(text == "Hi")
        #expect(error as? LLMError == .streamCut(tokens: 1))
    }

    @Test("a stream that closes before any event is empty (llama-cpp-python over context)")
    func empty() async {
        let (_, error) = await collect(ScriptedHTTP([.respond(status: 200, chunks: [], broken: true)]))
        #expect(error as? LLMError == .emptyStream)
    }

    @Test(
        "both servers' over-context 400s are recognised",
        arguments: [
            // llama-cpp-python (shape from notes/llama-cpp.md)
            "{\"error\":{\"message\":\"This model's maximum context length is 256 tokens. However, you requested 630 tokens (622 in the messages, 8 in the completion).\",\"type\":\"invalid_request_error\",\"param\":\"messages\",\"code\":\"context_length_exceeded\"}}",
            // llama-server
            "{\"error\":{\"code\":400,\"message\":\"request (623 tokens) exceeds the available context size (256 tokens), try increasing it\",\"type\":\"exceed_context_size_error\",\"n_prompt_tokens\":623,\"n_ctx\":256}}",
        ])
    func overContext(body: String) async {
        let (_, error) = await collect(ScriptedHTTP([.respond(status: 400, chunks: [body])]))
        guard let failure = error as? LLMError, failure.kind == .contextExceeded, let message = failure.detail else {
            Issue.record("expected contextExceeded, got \(String(describing: error))")
            return
        }
        #expect(message.contains("256"))
    }

    @Test("other errors keep status and message")
    func otherErrors() async {
        let (_, error) = await collect(ScriptedHTTP([.respond(status: 500, chunks: ["Internal Server Error"])]))
        #expect(error as? LLMError == .http(status: 500, message: "Internal Server Error"))
        let (_, down) = await collect(ScriptedHTTP([.refuse]))
        #expect(down as? LLMError == .serverDown(url: "http://127.0.0.1:9"))
        #expect(
            (down as? LLMError)?.description
                == "no LLM server at http://127.0.0.1:9; start one, e.g. `llama-server -m model.gguf --port 8080` or `python -m llama_cpp.server --model model.gguf --port 8080`, or set ALMANAC_LLM_URL"
        )
    }

    @Test("ALMANAC_LLM_URL: default, trailing slash, and a bad value")
    func url() throws {
        #expect(try LLMClient.url(from: [:]).absoluteString == "http://127.0.0.1:8080")
        #expect(try LLMClient.url(from: ["ALMANAC_LLM_URL": "http://box:9000/"]).absoluteString == "http://box:9000")
        #expect(throws: AlmanacError.self) { try LLMClient.url(from: ["ALMANAC_LLM_URL": "ftp://x"]) }
    }
}

@Suite("Ask (scripted server)")
struct AskScriptedTests {
    @Test("over context: the budget is halved and the prompt sent once more")
    func retry() async throws {
        let directory = try TempDirectory()
        let runtime = try makeRuntime([LinesTool(name: "search", lineCount: 40)], in: directory)
        let http = ScriptedHTTP([
            .respond(status: 200, chunks: [], broken: true),
            .respond(status: 200, chunks: [roleChunk, chunk("ok"), stopChunk, "data: [DONE]\n\n"]),
        ])
        let asker = Asker(runner: runtime, client: LLMClient(baseURL: URL(string: "http://127.0.0.1:9")!, http: http))
        let sink = TextSink()
        let notes = TextSink()
        let report = try await asker.ask(
            "swift 6", options: AskOptions(budget: 800), output: sink.append, note: notes.append)
        #expect(sink.text == "ok\n")
        #expect(report == AskReport(pieces: 1, budget: 400, retried: true, toolCalls: []))
        #expect(
            notes.pieces == ["the prompt did not fit the model's context; retrying with a context budget of 400 tokens"]
        )
        let systems = http.bodies.compactMap { body -> String? in
            guard case .array(let messages)? = body["messages"], case .object(let system)? = messages.first,
                case .string(let text)? = system["content"]
            else { return nil }
            return text
        }
        #expect(systems.count == 2)
        #expect(systems[1].count < systems[0].count)
        #expect(systems[1].contains("more lines omitted"))
    }

    @Test("over context twice: no third try; the facts stand in for the answer, with the server's error")
    func retryOnce() async throws {
        let directory = try TempDirectory()
        let runtime = try makeRuntime([LinesTool(name: "search")], in: directory)
        let body =
            "{\"error\":{\"code\":400,\"message\":\"request (623 tokens) exceeds the available context size (256 tokens)\",\"type\":\"exceed_context_size_error\"}}"
        let http = ScriptedHTTP([.respond(status: 400, chunks: [body]), .respond(status: 400, chunks: [body])])
        let asker = Asker(runner: runtime, client: LLMClient(baseURL: URL(string: "http://127.0.0.1:9")!, http: http))
        let error = await #expect(throws: NoModelAnswered.self) {
            _ = try await asker.ask("swift 6", options: AskOptions(), output: { _ in })
        }
        #expect(http.bodies.count == 2)
        #expect(
            error?.failures.map(\.error) == [
                .contextExceeded("request (623 tokens) exceeds the available context size (256 tokens)")
            ])
        #expect(
            error?.facts.hasPrefix("Now: Sun 15 Dec 2024 18:30 EST (America/New_York).\n\n[search] search: swift 6")
                == true)
    }

    @Test("a refused connection and a 502 pass to the next server, which is named in one note; a 4xx does not")
    func fallbacks() async throws {
        let directory = try TempDirectory()
        let runtime = try makeRuntime([LinesTool(name: "search", lineCount: 2)], in: directory)
        func client(_ port: Int, _ steps: [ScriptedHTTP.Step]) -> (LLMClient, ScriptedHTTP) {
            let http = ScriptedHTTP(steps)
            return (LLMClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!, http: http), http)
        }
        let (down, _) = client(1, [.refuse])
        let (bad, _) = client(2, [.respond(status: 502, chunks: ["Bad Gateway"])])
        let (good, goodHTTP) = client(
            3, [.respond(status: 200, chunks: [roleChunk, chunk("ok"), stopChunk, "data: [DONE]\n\n"])])
        let sink = TextSink()
        let notes = TextSink()
        _ = try await Asker(runner: runtime, client: down, fallbacks: [bad, good])
            .ask("swift 6", options: AskOptions(), output: sink.append, note: notes.append)
        #expect(sink.text == "ok\n")
        #expect(goodHTTP.bodies.count == 1)
        #expect(
            notes.pieces == [
                "answered by http://127.0.0.1:3 (http://127.0.0.1:1: nothing listening; http://127.0.0.1:2: HTTP 502: Bad Gateway)"
            ])

        let (refusing, _) = client(4, [.respond(status: 404, chunks: ["{\"error\":{\"message\":\"no such route\"}}"])])
        let (unused, unusedHTTP) = client(5, [])
        let error = await #expect(throws: NoModelAnswered.self) {
            _ = try await Asker(runner: runtime, client: refusing, fallbacks: [unused])
                .ask("swift 6", options: AskOptions(), output: sink.append)
        }
        #expect(unusedHTTP.bodies.isEmpty)
        #expect(
            error?.note
                == "no LLM answered, so the facts gathered for the question are printed instead (http://127.0.0.1:4: HTTP 404: no such route)"
        )
    }

    @Test("native tool calling: the model's call is run and its context sent back as a tool message")
    func nativeToolCall() async throws {
        let directory = try TempDirectory()
        let runtime = try makeRuntime([LinesTool(name: "search", lineCount: 2)], in: directory)
        let first = """
            {"choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,\
            "tool_calls":[{"id":"call_1","type":"function","function":{"name":"search","arguments":"{\\"query\\":\\"swift 6\\"}"}}]}}]}
            """
        let http = ScriptedHTTP([
            .respond(status: 200, chunks: [first]),
            .respond(status: 200, chunks: [roleChunk, chunk("Swift 6 is out."), stopChunk, "data: [DONE]\n\n"]),
        ])
        let asker = Asker(runner: runtime, client: LLMClient(baseURL: URL(string: "http://127.0.0.1:9")!, http: http))
        let sink = TextSink()
        let report = try await asker.ask(
            "what's new in swift 6", options: AskOptions(toolCalling: .native), output: sink.append)
        #expect(sink.text == "Swift 6 is out.\n")
        #expect(report.toolCalls == ["search {\"query\":\"swift 6\"}"])
        let bodies = http.bodies
        #expect(bodies.count == 2)
        // First request: the tools, from the same schema as the CLI.
        guard case .array(let tools)? = bodies[0]["tools"], case .object(let tool)? = tools.first,
            case .object(let function)? = tool["function"]
        else {
            Issue.record("no tools in the first request")
            return
        }
        #expect(function["name"] == "search")
        #expect(function["parameters"] == LinesTool(name: "search").schema.jsonSchema)
        #expect(bodies[0]["tool_choice"] == "auto")
        // Second request: assistant tool call, then the tool result.
        guard case .array(let messages)? = bodies[1]["messages"], messages.count == 4,
            case .object(let toolMessage) = messages[3]
        else {
            Issue.record("second request has no tool message")
            return
        }
        #expect(toolMessage["role"] == "tool")
        #expect(toolMessage["tool_call_id"] == "call_1")
        #expect(
            toolMessage["content"]
                == .string(
                    """
                    [search] search: swift 6 · source: stub · fetched 18:29 EST (12 s ago)
                    line 1 the and of to in is it you that was for on are with as
                    line 2 the and of to in is it you that was for on are with as
                    """))
        #expect(bodies[1]["tools"] == nil)
    }

    @Test("native tool calling: a tool switched off for untrusted callers is not offered, and a call to it is refused")
    func nativeSwitchedOff() async throws {
        let directory = try TempDirectory()
        let runtime = try Runtime.make(
            environment: [
                "HOME": directory.url.path, "ALMANAC_CACHE_DIR": directory.url.path, "ALMANAC_NOW": fixedNow,
                "ALMANAC_TZ": "America/New_York", "ALMANAC_SERVE_DENY_TOOLS": "weather",
            ],
            tools: [LinesTool(name: "search"), LinesTool(name: "weather")])
        let first = """
            {"choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":"",\
            "tool_calls":[{"id":"c","type":"function","function":{"name":"weather","arguments":"{}"}}]}}]}
            """
        let http = ScriptedHTTP([
            .respond(status: 200, chunks: [first]),
            .respond(status: 200, chunks: [chunk("Sorry."), "data: [DONE]\n\n"]),
        ])
        let asker = Asker(runner: runtime, client: LLMClient(baseURL: URL(string: "http://127.0.0.1:9")!, http: http))
        _ = try await asker.ask("x", options: AskOptions(toolCalling: .native), output: { _ in })
        guard case .array(let tools)? = http.bodies.first?["tools"] else {
            Issue.record("no tools in the first request")
            return
        }
        #expect(tools.count == 1)
        #expect(tools.first?.objectValue?["function"]?.objectValue?["name"] == "search")
        guard case .array(let messages)? = http.bodies.last?["messages"], case .object(let tool)? = messages.last else {
            Issue.record("no tool message")
            return
        }
        guard case .string(let content)? = tool["content"] else {
            Issue.record("the tool message has no text")
            return
        }
        #expect(content.hasPrefix("[weather] unavailable: tool 'weather' is switched off"), "\(content)")
        await #expect(throws: AlmanacError.self) {
            let forced = AskOptions(toolCalling: .native, toolChoice: "weather")
            _ = try await asker.ask("x", options: forced, output: { _ in })
        }
    }

    @Test("native tool calling: bad arguments come back to the model as a one-line error")
    func nativeBadArguments() async throws {
        let directory = try TempDirectory()
        let runtime = try makeRuntime([LinesTool(name: "search")], in: directory)
        let first = """
            {"choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":"",\
            "tool_calls":[{"id":"c","type":"function","function":{"name":"search","arguments":"{\\"colour\\":1}"}}]}}]}
            """
        let http = ScriptedHTTP([
            .respond(status: 200, chunks: [first]),
            .respond(status: 200, chunks: [chunk("Sorry."), "data: [DONE]\n\n"]),
        ])
        let asker = Asker(runner: runtime, client: LLMClient(baseURL: URL(string: "http://127.0.0.1:9")!, http: http))
        _ = try await asker.ask("x", options: AskOptions(toolCalling: .native), output: { _ in })
        guard case .array(let messages)? = http.bodies.last?["messages"], case .object(let tool)? = messages.last else {
            Issue.record("no tool message")
            return
        }
        #expect(tool["content"] == "[search] unavailable: unknown argument 'colour' for search")
    }
}

@Suite("Tool call notes")
struct ToolCallNoteTests {
    @Test(
        "model-written arguments become one bounded line",
        arguments: [
            ("{\"league\": \"nba\",\n\t\"team\": \"lakers\"}", #"{"league": "nba", "team": "lakers"}"#),
            (String(repeating: "ab\n", count: 100), String(repeating: "ab ", count: 54).prefix(160) + "…"),
            ("  \u{1}x  ", "x"),
        ])
    func oneLine(input: String, expected: String) {
        #expect(Asker.oneLine(input) == expected)
    }
}
