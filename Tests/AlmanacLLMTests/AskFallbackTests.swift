import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacLLM

/// An OpenAI-compatible stub on 127.0.0.1 for what the real llama.cpp server cannot produce on
/// demand: `503` answers every request with HTTP 503; `escape` streams an answer carrying
/// terminal escape sequences and, without `stream`, calls a tool whose name carries them.
/// Bounded (at most 20 requests, 30 s each), stopped by its pid.
final class FakeLLM: @unchecked Sendable {
    // @unchecked: the process handle is touched by the owning test only, and stopped once.
    private let process: Process
    let port: Int
    var url: String { "http://127.0.0.1:\(port)" }

    static let script = #"""
        import http.server, json, socketserver, sys
        mode = sys.argv[1]
        def chunk(text):
            return {"choices": [{"index": 0, "delta": {"content": text}, "finish_reason": None}]}
        class H(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *a): pass
            def send(self, status, kind, data):
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                if mode == "503":
                    error = {"error": {"code": 503, "message": "Loading model", "type": "unavailable_error"}}
                    return self.send(503, "application/json", json.dumps(error).encode())
                if not body.get("stream"):
                    call = {"id": "call_1", "type": "function",
                            "function": {"name": "\x1b]0;pwned\x07search", "arguments": "{\"query\": \"x\x1b[2J\"}"}}
                    message = {"role": "assistant", "content": None, "tool_calls": [call]}
                    answer = {"choices": [{"index": 0, "finish_reason": "tool_calls", "message": message}]}
                    return self.send(200, "application/json", json.dumps(answer).encode())
                events = [chunk("Hi \x1b]0;pwned\x07there"), chunk("\x1b[2J\r\n ok\u009b31m\u202e"),
                          {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}]
                data = "".join("data: %s\n\n" % json.dumps(e) for e in events) + "data: [DONE]\n\n"
                self.send(200, "text/event-stream", data.encode())
        s = socketserver.TCPServer(("127.0.0.1", 0), H)
        s.timeout = 30
        print("PORT", s.server_address[1], flush=True)
        for _ in range(20):
            s.handle_request()
        """#

    init(mode: String) throws {
        (process, port) = try LoopbackScript.start(python: ["-c", Self.script, mode], name: "fake LLM")
    }

    func stop() { ChildProcess.stop(process, grace: 0) }

    deinit { stop() }
}

/// Whether `text` holds a control character other than newline and tab, or a bidi override.
func hasTerminalControls(_ text: String) -> Bool {
    text.unicodeScalars.contains {
        ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value)
            || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
    }
}

/// The replayed lakers question at a fixed clock: the routed sports tool touches no network.
func replayedEnvironment(_ directory: TempDirectory, extra: [String: String] = [:]) -> [String: String] {
    ToolsBinary.environment(
        cacheDirectory: directory.url,
        extra: [
            "ALMANAC_REPLAY": Peers.root.appendingPathComponent("Fixtures").path, "ALMANAC_NOW": fixedNow,
            "ALMANAC_TZ": "America/New_York",
        ].merging(extra) { $1 })
}

@Suite("tools ask: terminal control sequences from a model (#31 item 6)")
struct AskTerminalTests {
    @Test("the streamed answer reaches the terminal without ESC, BEL, CR, C1 controls or bidi overrides")
    func answerStripped() async throws {
        let fake = try FakeLLM(mode: "escape")
        defer { fake.stop() }
        let directory = try TempDirectory()
        let output = try await ToolsBinary.run(
            ["ask", "did the lakers win today?"],
            environment: replayedEnvironment(directory, extra: ["ALMANAC_LLM_URL": fake.url]))
        #expect(output.status == 0)
        #expect(output.stdout == "Hi ]0;pwnedthere[2J\n ok31m\n")
        #expect(!hasTerminalControls(output.stdout))
        #expect(output.stderr == "")
    }

    @Test("native tool calling: the model's tool name and arguments are noted without their escape sequences")
    func toolNameStripped() async throws {
        let fake = try FakeLLM(mode: "escape")
        defer { fake.stop() }
        let directory = try TempDirectory()
        let output = try await ToolsBinary.run(
            ["ask", "--tool-calling", "native", "hello"],
            environment: replayedEnvironment(directory, extra: ["ALMANAC_LLM_URL": fake.url]))
        #expect(output.status == 0)
        #expect(output.stderr.hasPrefix("note: tool call: ]0;pwnedsearch {\"query\": \"x[2J\"}\n"))
        #expect(!hasTerminalControls(output.stderr))
        #expect(!hasTerminalControls(output.stdout))
        #expect(output.stdout.hasPrefix("Hi ]0;pwnedthere"))
    }

    @Test("TerminalText.printable keeps newlines and tabs, drops every other control and bidi override")
    func printable() {
        #expect(TerminalText.printable("a\u{1B}[2Jb\u{7}\tc\r\nd\u{9B}e\u{202E}f\u{85}") == "a[2Jb\tc\nde" + "f")
        #expect(TerminalText.printable("plain — text") == "plain — text")
    }
}

@Suite("tools ask: LLM endpoints in priority order (#31 item 21)", .serialized)
struct AskFallbackTests {
    @Test("ALMANAC_LLM_URL takes a list; [llm] urls and [llm] url in the config; bad entries are named")
    func configuration() throws {
        func urls(_ environment: [String: String] = [:], _ config: [String: ConfigValue] = [:]) throws -> [String] {
            try LLMEndpoints.urls(from: Settings(environment: environment, config: config)).map(\.absoluteString)
        }
        #expect(try urls() == ["http://127.0.0.1:8080"])
        #expect(
            try urls(["ALMANAC_LLM_URL": "http://127.0.0.1:8080/, http://127.0.0.1:8081 http://127.0.0.1:8080"])
                == ["http://127.0.0.1:8080", "http://127.0.0.1:8081"])
        let list: ConfigValue = .table([
            "urls": .array([.string("http://127.0.0.1:8080"), .string("https://llm.example.org")])
        ])
        #expect(try urls([:], ["llm": list]) == ["http://127.0.0.1:8080", "https://llm.example.org"])
        #expect(try urls([:], ["llm": .table(["url": .string("http://127.0.0.1:9000")])]) == ["http://127.0.0.1:9000"])
        #expect(try urls(["ALMANAC_LLM_URL": "http://127.0.0.1:1"], ["llm": list]) == ["http://127.0.0.1:1"])
        #expect(throws: AlmanacError.self) {
            _ = try urls([:], ["llm": .table(["url": .string("http://a"), "urls": .array([.string("http://b")])])])
        }
        do {
            _ = try urls([:], ["llm": .table(["urls": .array([.string("ftp://x")])])])
            Issue.record("ftp:// was accepted")
        } catch let error as AlmanacError {
            #expect(error.message == "[llm] urls is not an http(s) URL: 'ftp://x'")
        }
    }

    @Test("tools doctor checks every LLM server of the list, each on its own line")
    func doctor() async throws {
        let directory = try TempDirectory()
        let first = "http://127.0.0.1:\(try LoopbackPort.free())"
        let second = "http://127.0.0.1:\(try LoopbackPort.free())"
        let output = try await ToolsBinary.run(
            ["doctor"],
            environment: ToolsBinary.environment(
                cacheDirectory: directory.url, extra: ["ALMANAC_LLM_URL": "\(first) \(second)"]))
        let lines = output.stdout.split(separator: "\n").filter { $0.contains(" llm") }
        #expect(lines.count == 2, "\(output.stdout)")
        #expect(lines.first?.hasPrefix("warn  llm 1: unreachable at \(first)") == true)
        #expect(lines.last?.hasPrefix("warn  llm 2: unreachable at \(second)") == true)
    }

    @Test(
        "a server that is down and one that answers 503 are passed over; the real server answers and is named",
        .enabled(if: Peers.runLlama, Peers.llamaNote))
    func fallsOver() async throws {
        let server = try LlamaServer()
        defer { server.stop() }
        let busy = try FakeLLM(mode: "503")
        defer { busy.stop() }
        let down = "http://127.0.0.1:\(try LoopbackPort.free())"
        let directory = try TempDirectory()
        let output = try await ToolsBinary.run(
            ["ask", "did the lakers win today?"],
            environment: replayedEnvironment(
                directory, extra: ["ALMANAC_LLM_URL": "\(down),\(busy.url),\(server.url.absoluteString)"]))
        #expect(output.status == 0)
        #expect(output.stdout == cannedAnswer + "\n")
        #expect(
            output.stderr
                == "note: answered by \(server.url.absoluteString) (\(down): nothing listening; \(busy.url): HTTP 503: Loading model)\n"
        )
    }

    @Test("no server answers: the facts gathered on stdout, one note naming each server on stderr, exit 75")
    func factsWhenNoneAnswers() async throws {
        let busy = try FakeLLM(mode: "503")
        defer { busy.stop() }
        let down = "http://127.0.0.1:\(try LoopbackPort.free())"
        let directory = try TempDirectory()
        // The list from the config file, as an operator writes it.
        let config = directory.url.appendingPathComponent("config.toml")
        try Data("[llm]\nurls = [\"\(down)\", \"\(busy.url)\"]\n".utf8).write(to: config)
        let environment = replayedEnvironment(directory, extra: ["ALMANAC_CONFIG": config.path])
        let question = "did the lakers win today?"
        let context = try await ToolsBinary.run(["context", question], environment: environment)
        #expect(context.status == 0)
        #expect(context.stdout.contains("Lakers won"))
        for mode in ["router", "native"] {
            let output = try await ToolsBinary.run(["ask", "--tool-calling", mode, question], environment: environment)
            #expect(output.status == 75)
            #expect(output.stdout == context.stdout)
            #expect(
                output.stderr
                    == "note: no LLM answered, so the facts gathered for the question are printed instead (\(down): nothing listening; \(busy.url): HTTP 503: Loading model)\n"
            )
        }
    }
}
