import AlmanacRuntime
import AlmanacTesting
import Foundation
import Synchronization
import Testing

@testable import AlmanacCore
@testable import AlmanacLLM

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// MARK: Test-only tools (synthetic: they exist to exercise routing, budgets and failures)

/// Waits until `count` tools have started, or gives up after a bound; says whether all arrived.
actor Barrier {
    let count: Int
    private var arrived = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(count: Int) { self.count = count }

    func arrive() async -> Bool {
        arrived += 1
        if arrived >= count {
            for waiter in waiters { waiter.resume() }
            waiters.removeAll()
            return true
        }
        let timeout = Task {
            try? await Task.sleep(for: .seconds(10))
            self.release()
        }
        await withCheckedContinuation { waiters.append($0) }
        timeout.cancel()
        return arrived >= count
    }

    private func release() {
        for waiter in waiters { waiter.resume() }
        waiters.removeAll()
    }
}

/// Lines of words the tiny test model's vocabulary holds (about one token per word there).
struct LinesPayload: ToolPayload {
    var title: String
    var lines: [String]
    var fenced: [String]

    func context(_ rendering: Rendering) -> String {
        let header = rendering.header(title)
        var body = rendering.budget.fit(lines, reserved: header) { "… \($0) more lines omitted" }
        if !fenced.isEmpty {
            let nonce = UntrustedText.nonce(for: fenced)
            body +=
                [UntrustedText.notice(nonce), UntrustedText.open(nonce)] + fenced.map { UntrustedText.clean($0) }
                + [UntrustedText.close(nonce)]
        }
        return ([header] + body).joined(separator: "\n")
    }

    func text(_ rendering: Rendering) -> String { lines.joined(separator: "\n") }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(lines, forKey: .lines)
    }

    enum CodingKeys: String, CodingKey { case title, lines }
}

/// Reads any question: its words are the query.
struct EchoReader: QuestionReader {
    var answersAnything: Bool { true }
    func read(_ clause: QuestionClause) -> ToolReading? { ToolReading(clause.tokens.map(\.original), weight: .weak) }
}

/// A stand-in tool with a real tool's name, returning `lines` numbered lines of plain words.
struct LinesTool: Tool {
    var name: String
    var lineCount: Int = 12
    var fenced: [String] = []
    var barrier: Barrier?
    var summary: String { "test tool \(name): numbered lines of plain words" }
    var schema: ToolSchema {
        ToolSchema([
            ToolParameter("query", .string, help: "anything", placement: .remainder),
            ToolParameter("lines", .integer, help: "how many lines"),
        ])
    }

    // Providers are listed by `providers(in:)` below; there are no described upstreams.
    var providerDescriptors: [ProviderDescriptor] { [] }
    func providers(in context: ToolContext) -> [ProviderInfo] { [ProviderInfo(name: "stub", priority: 0)] }
    /// Reads any question, as web search does, so the router of a runtime made of stand-ins routes to it.
    var questionReader: (any QuestionReader)? { EchoReader() }

    func run(_ arguments: ToolArguments, context: ToolContext) async throws -> ToolResult {
        var title = "\(name): \(arguments.string("query") ?? "-")"
        if let barrier { title += await barrier.arrive() ? " (ran alongside)" : " (ran alone)" }
        let count = arguments.integer("lines") ?? lineCount
        let lines = (1...max(1, count)).map { "line \($0) the and of to in is it you that was for on are with as" }
        return ToolResult(
            metadata: TestMetadata.fresh(
                tool: name, provider: "stub", fetchedAt: context.now.addingTimeInterval(-12), age: 12),
            payload: LinesPayload(title: title, lines: lines, fenced: fenced))
    }
}

/// A tool whose only provider always fails.
struct FailingTool: Tool {
    var name: String
    var barrier: Barrier?
    var summary: String { "test tool \(name) that always fails" }
    var schema: ToolSchema { ToolSchema([ToolParameter("place", .string, help: "anything", placement: .remainder)]) }
    var providerDescriptors: [ProviderDescriptor] { [] }
    func providers(in context: ToolContext) -> [ProviderInfo] { [ProviderInfo(name: "open-meteo", priority: 0)] }

    func run(_ arguments: ToolArguments, context: ToolContext) async throws -> ToolResult {
        if let barrier { _ = await barrier.arrive() }
        throw AlmanacError.unavailable(
            tool: name,
            attempts: [ProviderAttempt(provider: "open-meteo", outcome: .failed, milliseconds: 7, detail: "HTTP 500")])
    }
}

/// A private folder removed at the end of the test.
final class TempDirectory: Sendable {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-llm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
}

/// The fixed reference time of the in-process tests: Sun 15 Dec 2024 18:30 EST.
let fixedNow = "2024-12-15T23:30:00Z"

/// A real runtime (config, cache, coordinator) over the given tools, at the fixed time in New York.
func makeRuntime(_ tools: [any Tool], in directory: TempDirectory) throws -> Runtime {
    try Runtime.make(
        environment: [
            "HOME": directory.url.path, "ALMANAC_CACHE_DIR": directory.url.path, "ALMANAC_NOW": fixedNow,
            "ALMANAC_TZ": "America/New_York",
        ],
        tools: tools)
}

// MARK: Real peers

/// Where the package's Python peers live (set up by scripts/setup-peers → scripts/peers/*.sh).
enum Peers {
    static var root: URL { Fixtures.packageRoot() }
    static var llamaPython: URL { root.appendingPathComponent(".venv-llama/bin/python") }
    static var mcpPython: URL { root.appendingPathComponent(".venv-mcp/bin/python") }
    static var tinyModel: URL { root.appendingPathComponent(".venv-llama/tiny.gguf") }
    static var randomModel: URL { root.appendingPathComponent(".venv-llama/tiny-random.gguf") }
    static var isCI: Bool { !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty }

    static var llamaReady: Bool {
        FileManager.default.isExecutableFile(atPath: llamaPython.path)
            && FileManager.default.fileExists(atPath: tinyModel.path)
            && FileManager.default.fileExists(atPath: randomModel.path)
    }
    static var mcpReady: Bool { FileManager.default.isExecutableFile(atPath: mcpPython.path) }

    /// Run the peer tests when the venv exists, and always in CI (where a missing venv must fail).
    static var runLlama: Bool { llamaReady || isCI }
    static var runMCP: Bool { mcpReady || isCI }
    static let llamaNote: Comment =
        "skipped: .venv-llama missing; run scripts/setup-peers (or bash scripts/peers/llama.sh)"
    static let mcpNote: Comment = "skipped: .venv-mcp missing; run scripts/setup-peers (or bash scripts/peers/mcp.sh)"
}

/// A real llama.cpp engine: llama-cpp-python's OpenAI-compatible server on 127.0.0.1, a free
/// port, ready when `/v1/models` answers (bounded wait), stopped by its pid.
final class LlamaServer: @unchecked Sendable {
    // @unchecked: the process handle is touched by the owning test only, and stopped once.
    private let process = Process()
    let port: Int
    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    struct NotReady: Error, CustomStringConvertible { var description: String }

    init(model: URL = Peers.tinyModel, contextSize: Int = 2048) throws {
        guard Peers.llamaReady else {
            throw NotReady(description: ".venv-llama missing (CI must run scripts/setup-peers first)")
        }
        port = try LoopbackPort.free()
        process.executableURL = Peers.llamaPython
        process.arguments = [
            "-m", "llama_cpp.server", "--model", model.path, "--host", "127.0.0.1", "--port", String(port),
            "--n_ctx", String(contextSize), "--model_alias", "tiny", "--verbose", "false",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Bounded readiness loop: poll /v1/models every 100 ms for at most 60 s.
        for _ in 0..<600 {
            if !process.isRunning { break }
            if Self.answers(port: port, path: "/v1/models") { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        stop()
        throw NotReady(description: "llama_cpp.server did not answer /v1/models on port \(port)")
    }

    /// `GET path` over a plain socket with a 2 s receive bound; true on a 200 status line.
    /// (Not URLSession: its completion never arrived when called from a blocked test thread.)
    static func answers(port: Int, path: String) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var bound = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &bound, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return false }
        let request = Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        guard send(fd, request, request.count, 0) == request.count else { return false }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = recv(fd, &buffer, buffer.count, 0)
        guard count > 0 else { return false }
        return String(decoding: buffer[0..<count], as: UTF8.self).hasPrefix("HTTP/1.1 200")
    }

    /// SIGTERM, then SIGKILL after a grace: children of test threads inherit a blocked SIGTERM.
    func stop() { ChildProcess.stop(process, grace: 2) }

    deinit { stop() }
}

/// Collects streamed text.
final class TextSink: Sendable {
    private let storage = Mutex<[String]>([])
    var pieces: [String] { storage.withLock { $0 } }
    var text: String { pieces.joined() }
    func append(_ piece: String) { storage.withLock { $0.append(piece) } }
}
