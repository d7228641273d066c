import AlmanacTesting
import Foundation
import Logging
import Synchronization
import Testing

@testable import AlmanacCore
@testable import AlmanacSearch

/// Fixed inputs for search tests. Goldens render at `now` in `zone`: shortly after the corpus
/// responses were recorded (the news result "48 minutes ago" has page_age 2024-12-31T17:09:03).
enum SearchTest {
    /// A synthetic key; it must never show up anywhere but the request header.
    static let key = "BSA-test-key-7f3c9e1d5b2a4680"
    static let now = Date(timeIntervalSince1970: 1_735_667_880)  // 2024-12-31T17:58:00Z
    static let zone = "America/New_York"

    /// Brave as other tools' web fallbacks ask it.
    static let braveWebSearch: any WebSearching = ChainWebSearch(provider: BraveSearchProvider(client: BraveClient()))

    /// Whether Brave takes part in the chain with `settings`.
    static func braveConfigured(_ settings: Settings) -> Bool {
        BraveSearchProvider.descriptor.unconfiguredReason(settings) == nil
    }

    static func settings(key: String? = SearchTest.key, environment extra: [String: String] = [:]) -> Settings {
        var environment = extra
        if let key { environment["BRAVE_API_KEY"] = key }
        return Settings(environment: environment)
    }

    /// A context over `transport` with a coordinator on `cache` and a settable clock.
    static func context(
        transport: any HTTPTransport, settings: Settings = SearchTest.settings(),
        cache: any CacheStore = MemoryCacheStore(), clock: ManualNow = ManualNow(SearchTest.now),
        timeout: Duration = .seconds(5), logger: Logger? = nil
    ) -> ToolContext {
        let coordinator = Coordinator(
            cache: cache, configuration: .init(timeout: timeout), now: clock.closure)
        let environment = ProviderEnvironment(
            transport: transport, settings: settings, now: clock.date,
            timeZone: TimeZone(identifier: zone) ?? .gmt, timeout: timeout)
        if let logger {
            return ToolContext(coordinator: coordinator, environment: environment, logger: logger)
        }
        return ToolContext(coordinator: coordinator, environment: environment)
    }

    /// Parses CLI words like `tools run search ...` would and runs the tool.
    static func run(
        _ words: [String], context: ToolContext, tool: SearchTool = SearchTool()
    ) async throws
        -> ToolResult
    {
        let arguments = try ToolArguments.parse(cli: words, schema: tool.schema, tool: tool.name)
        return try await tool.run(arguments, context: context)
    }

    static func render(_ result: ToolResult, _ format: OutputFormat, budget: Int? = nil) throws -> String {
        try result.render(
            format, now: now, timeZone: TimeZone(identifier: zone) ?? .gmt, budget: ContextBudget(tokens: budget))
    }

    /// A real corpus body from `Fixtures/search/brave/`.
    static func body(_ name: String) throws -> Data {
        try Fixtures.data("search/brave/\(name).response.json")
    }

    static func response(_ status: Int, _ body: Data = Data(), headers: [String: String] = [:]) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["content-type": "application/json"].merging(headers) { $1 }, body: body)
    }

    /// A client whose rate-limit waits are recorded instead of slept.
    static func client(_ waits: Recorder<Duration>) -> BraveClient {
        BraveClient(sleep: { waits.append($0) })
    }
}

/// Thread-safe list for what stubs and sleepers saw.
final class Recorder<Value: Sendable>: Sendable {
    private let items = Mutex<[Value]>([])
    func append(_ value: Value) { items.withLock { $0.append(value) } }
    var values: [Value] { items.withLock { $0 } }
    var count: Int { values.count }
}

/// A stub that answers with `responses` in order (the last one repeats) and records requests.
/// Synthetic by nature: used only for faults the real API cannot be made to produce on demand.
func sequenceStub(_ responses: [HTTPResponse], requests: Recorder<HTTPRequest>) -> StubTransport {
    StubTransport { request in
        let index = requests.count
        requests.append(request)
        return responses[min(index, responses.count - 1)]
    }
}

/// A log handler that keeps every rendered message (with metadata) for secret scans.
struct CapturingLogHandler: LogHandler {
    let lines: Recorder<String>
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.append("\(event.level) \(event.message) \(event.metadata ?? [:]) \(metadata)")
    }
}
