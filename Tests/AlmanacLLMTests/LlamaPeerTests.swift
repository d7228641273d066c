import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacLLM

/// The canned answer of the tiny test model (scripts/peers/make_tiny_gguf.py).
let cannedAnswer = "Hello! I am a tiny llama model."

/// `tools ask` against a real llama.cpp engine (llama-cpp-python's server with the tiny model).
/// Runs when .venv-llama exists, and always in CI, where a missing venv fails.
@Suite("llama.cpp peer", .serialized, .enabled(if: Peers.runLlama, Peers.llamaNote))
struct LlamaPeerTests {
    func environment(_ directory: TempDirectory, url: String) -> [String: String] {
        ToolsBinary.environment(cacheDirectory: directory.url, extra: ["ALMANAC_LLM_URL": url])
    }

    @Test("tools ask streams the model's exact answer")
    func askBinary() async throws {
        let server = try LlamaServer()
        defer { server.stop() }
        let directory = try TempDirectory()
        // Replayed ESPN fixture at a fixed clock: the routed sports tool touches no network.
        var environment = environment(directory, url: server.url.absoluteString)
        environment["ALMANAC_REPLAY"] = Peers.root.appendingPathComponent("Fixtures").path
        environment["ALMANAC_NOW"] = fixedNow
        environment["ALMANAC_TZ"] = "America/New_York"
        let output = try await ToolsBinary.run(["ask", "did the lakers win today?"], environment: environment)
        #expect(output.stdout == cannedAnswer + "\n")
        #expect(output.status == 0)
        #expect(output.stderr == "")
    }

    @Test("in process: text arrives piece by piece, one per token")
    func askInProcess() async throws {
        let server = try LlamaServer()
        defer { server.stop() }
        let directory = try TempDirectory()
        let runtime = try makeRuntime([LinesTool(name: "search", lineCount: 3)], in: directory)
        let sink = TextSink()
        let report = try await Asker(runner: runtime, client: LLMClient(baseURL: server.url))
            .ask("what is new in swift", options: AskOptions(), output: sink.append)
        #expect(sink.text == cannedAnswer + "\n")
        #expect(sink.pieces == ["Hello", "!", " I", " am", " a", " tiny", " llama", " model", ".", "\n"])
        #expect(report == AskReport(pieces: 9, budget: 1200, retried: false, toolCalls: []))
    }

    @Test("server down: the facts gathered instead, one line saying how to start a server, exit 75")
    func serverDown() async throws {
        let directory = try TempDirectory()
        let port = try LoopbackPort.free()
        // A fixed clock: the facts printed by context and by ask are then the same to the byte.
        var environment = environment(directory, url: "http://127.0.0.1:\(port)")
        environment["ALMANAC_NOW"] = fixedNow
        let context = try await ToolsBinary.run(["context", "hello"], environment: environment)
        let output = try await ToolsBinary.run(["ask", "hello"], environment: environment)
        #expect(output.status == 75)
        #expect(output.stdout == context.stdout)
        #expect(output.stdout.hasPrefix("Now: "))
        #expect(
            output.stderr
                == "note: no LLM answered, so the facts gathered for the question are printed instead (http://127.0.0.1:\(port): nothing listening); start one, e.g. `llama-server -m model.gguf --port 8080`, or set ALMANAC_LLM_URL or [llm] urls\n"
        )
    }

    @Test("a prompt over the context: llama-cpp-python's stream closes at once; retried once, then the facts, exit 75")
    func overContextBinary() async throws {
        // n_ctx 256 is below the system prompt alone in the tiny model's tokens: it never fits.
        let server = try LlamaServer(contextSize: 256)
        defer { server.stop() }
        let directory = try TempDirectory()
        var environment = environment(directory, url: server.url.absoluteString)
        environment["ALMANAC_NOW"] = fixedNow
        let context = try await ToolsBinary.run(["context", "hello"], environment: environment)
        let output = try await ToolsBinary.run(["ask", "hello"], environment: environment)
        #expect(output.status == 75)
        #expect(output.stdout == context.stdout)
        #expect(
            output.stderr == """
                note: the prompt did not fit the model's context; retrying with a context budget of 600 tokens
                note: no LLM answered, so the facts gathered for the question are printed instead (\(server.url.absoluteString): the LLM server closed the stream before answering (prompt too long for its context?))

                """)
    }

    @Test("a prompt over the context fits after halving the budget: the answer still comes")
    func overContextRetry() async throws {
        // 60 lines: about 1,700 prompt tokens at budget 1800 (over n_ctx 1536); at 900, about 1,120.
        let server = try LlamaServer(contextSize: 1536)
        defer { server.stop() }
        let directory = try TempDirectory()
        let runtime = try makeRuntime([LinesTool(name: "search", lineCount: 60)], in: directory)
        let sink = TextSink()
        let notes = TextSink()
        let report = try await Asker(runner: runtime, client: LLMClient(baseURL: server.url))
            .ask("what is new in swift", options: AskOptions(budget: 1800), output: sink.append, note: notes.append)
        #expect(sink.text == cannedAnswer + "\n")
        #expect(report.retried)
        #expect(report.budget == 900)
        #expect(
            notes.pieces == ["the prompt did not fit the model's context; retrying with a context budget of 900 tokens"]
        )
    }

    @Test("generation reaching n_ctx ends with finish_reason length: the text, a newline, a note")
    func lengthLimit() async throws {
        // The random model with EOS and the ChatML control tokens forbidden writes until the context
        // is full; llama-cpp-python 0.3.36 then ends the stream with finish_reason "length" and [DONE].
        let server = try LlamaServer(model: Peers.randomModel, contextSize: 512)
        defer { server.stop() }
        let directory = try TempDirectory()
        let runtime = try makeRuntime([], in: directory)
        let sink = TextSink()
        let notes = TextSink()
        let report = try await Asker(runner: runtime, client: LLMClient(baseURL: server.url))
            .ask(
                "hello", options: AskOptions(maxTokens: 2000, logitBias: ["2": -100, "3": -100, "4": -100]),
                output: sink.append, note: notes.append)
        #expect(report.pieces > 100)
        #expect(sink.text.hasSuffix("\n"))
        #expect(notes.pieces == ["the answer stopped at the model's token limit (finish_reason length)"])
    }

    @Test("native tool calling with the real server: a forced call runs, its result goes back, the answer streams")
    func nativeForced() async throws {
        let server = try LlamaServer()
        defer { server.stop() }
        let directory = try TempDirectory()
        let runtime = try makeRuntime([LinesTool(name: "search", lineCount: 2)], in: directory)
        let sink = TextSink()
        let notes = TextSink()
        let report = try await Asker(runner: runtime, client: LLMClient(baseURL: server.url))
            .ask(
                "what is new in swift", options: AskOptions(toolCalling: .native, toolChoice: "search", maxTokens: 48),
                output: sink.append, note: notes.append)
        #expect(sink.text == cannedAnswer + "\n")
        // The canned model's grammar-forced arguments are not meaningful; the call still happens.
        #expect(report.toolCalls.count == 1)
        #expect(report.toolCalls.first?.hasPrefix("search ") == true)
        #expect(notes.pieces.count == 1)
    }

    @Test("native tool calling, auto: a model that calls nothing just answers")
    func nativeAuto() async throws {
        let server = try LlamaServer()
        defer { server.stop() }
        let directory = try TempDirectory()
        let output = try await ToolsBinary.run(
            ["ask", "--tool-calling", "native", "hello"],
            environment: environment(directory, url: server.url.absoluteString))
        #expect(output.stdout == cannedAnswer + "\n")
        #expect(output.status == 0)
    }
}

/// Ctrl-C while the answer streams. The server is a stub that sends two chunks and then stalls
/// (a real server finishes the canned answer in milliseconds, so it cannot be interrupted on demand).
@Suite("Ctrl-C")
struct InterruptTests {
    static let stallingServer = """
        import http.server, socketserver, sys, time
        class H(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *a): pass
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                for text in ["Hel", "lo"]:
                    event = ('data: {"choices": [{"index": 0, "delta": {"content": "%s"}, "finish_reason": null}]}\\n\\n' % text).encode()
                    self.wfile.write(b"%x\\r\\n%s\\r\\n" % (len(event), event))
                    self.wfile.flush()
                time.sleep(30)
        s = socketserver.TCPServer(("127.0.0.1", 0), H)
        print("PORT", s.server_address[1], flush=True)
        s.handle_request()
        """

    @Test("SIGINT stops the answer cleanly: the text so far, a newline, exit 130")
    func interrupt() throws {
        let stub = Process()
        stub.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        stub.arguments = ["python3", "-c", Self.stallingServer]
        let stubOut = Pipe()
        stub.standardOutput = stubOut
        try stub.run()
        defer { ChildProcess.stop(stub, grace: 0) }
        // Read up to the first newline; an empty read while the stub runs is retried (bounded).
        var line = ""
        for _ in 0..<200 where !line.contains("\n") {
            let chunk = stubOut.fileHandleForReading.availableData
            if chunk.isEmpty {
                if !stub.isRunning { break }
                Thread.sleep(forTimeInterval: 0.05)
            }
            line += String(decoding: chunk, as: UTF8.self)
        }
        let port = try #require(Int(line.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst(5)))

        let directory = try TempDirectory()
        let ask = Process()
        ask.executableURL = ToolsBinary.url
        ask.arguments = ["ask", "hello"]
        ask.environment = ToolsBinary.environment(
            cacheDirectory: directory.url, extra: ["ALMANAC_LLM_URL": "http://127.0.0.1:\(port)"])
        let out = Pipe()
        let err = Pipe()
        ask.standardOutput = out
        ask.standardError = err
        try ask.run()
        // Wait (bounded by the stub's 30 s stall) until the streamed text has arrived, then interrupt.
        var received = Data()
        while !String(decoding: received, as: UTF8.self).contains("Hello") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            received.append(chunk)
        }
        kill(ask.processIdentifier, SIGINT)
        received.append(out.fileHandleForReading.readDataToEndOfFile())
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ask.waitUntilExit()
        #expect(String(decoding: received, as: UTF8.self) == "Hello\n")
        #expect(ask.terminationStatus == 130)
        #expect(stderr == "\ninterrupted\n")
    }
}
