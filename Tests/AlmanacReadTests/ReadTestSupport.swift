import AlmanacTesting
import Foundation
import Synchronization
import Testing

@testable import AlmanacCore
@testable import AlmanacRead

/// Fixed inputs for read tests. The ACLU page (Fixtures/read/pages/aclu) was published
/// 2018-04-05; goldens render a day after, at `now` in `zone`.
enum ReadTest {
    static let now = Date(timeIntervalSince1970: 1_523_008_800)  // 2018-04-06T10:00:00Z
    static let zone = "America/New_York"
    static let acluURL =
        "https://www.aclu.org/blog/privacy-technology/internet-privacy/facebook-tracking-me-even-though-im-not-facebook"

    static func context(
        transport: any HTTPTransport, settings: Settings = Settings(), cache: any CacheStore = MemoryCacheStore(),
        clock: ManualNow = ManualNow(ReadTest.now), state: any ProviderStateStore = MemoryStateStore()
    ) -> ToolContext {
        let coordinator = Coordinator(cache: cache, configuration: .init(timeout: .seconds(5)), now: clock.closure)
        let environment = ProviderEnvironment(
            transport: transport, settings: settings, now: clock.date, timeZone: TimeZone(identifier: zone) ?? .gmt,
            timeout: .seconds(5), state: state)
        return ToolContext(coordinator: coordinator, environment: environment)
    }

    /// Parses CLI words as `tools run read ...` does and runs the tool.
    static func run(_ words: [String], context: ToolContext) async throws -> ToolResult {
        let tool = ReadTool()
        let arguments = try ToolArguments.parse(cli: words, schema: tool.schema, tool: tool.name)
        return try await tool.run(arguments, context: context)
    }

    static func render(_ result: ToolResult, _ format: OutputFormat = .context, budget: Int? = nil) throws -> String {
        try result.render(
            format, now: now, timeZone: TimeZone(identifier: zone) ?? .gmt, budget: ContextBudget(tokens: budget))
    }

    /// A real page body from the Readability corpus copy.
    static func page(_ name: String) throws -> Data {
        try Fixtures.data("read/pages/\(name)/source.html")
    }

    static func html(_ body: Data, status: Int = 200, headers: [String: String] = [:]) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: ["content-type": "text/html; charset=utf-8"].merging(headers) { $1 }, body: body)
    }

    /// Serves `pages` by path (robots.txt: 404 unless given), recording every request.
    static func site(_ pages: [String: HTTPResponse], requests: Recorder<HTTPRequest> = Recorder()) -> StubTransport {
        StubTransport { request in
            requests.append(request)
            if let response = pages[request.url.path] { return response }
            return HTTPResponse(status: 404, headers: ["content-type": "text/plain"], body: Data("Not Found".utf8))
        }
    }
}

/// Thread-safe list for what stubs saw.
final class Recorder<Value: Sendable>: Sendable {
    private let items = Mutex<[Value]>([])
    init() {}
    func append(_ value: Value) { items.withLock { $0.append(value) } }
    var values: [Value] { items.withLock { $0 } }
    var count: Int { values.count }
}
