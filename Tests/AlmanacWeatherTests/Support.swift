import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCore
@testable import AlmanacWeather

/// The viewer's zone in every test: deliberately not any forecast's zone, so a formatter that used
/// the viewer's zone instead of the place's would show wrong days and times.
let viewerZone = "Europe/Lisbon"

/// A fixed instant from an ISO string written in the test.
func instant(_ text: String) throws -> Date {
    try #require(TimeText.parseInstant(text), "bad test instant \(text)")
}

/// One tool run against a transport, with a fresh memory cache and a fixed clock.
struct Harness {
    let now: Date
    let cache = MemoryCacheStore()
    let coordinator: Coordinator
    let context: ToolContext
    let tool = WeatherTool()

    init(
        now: Date, transport: any HTTPTransport, settings: Settings = Settings(),
        webSearch: (any WebSearching)? = nil, timeout: Duration = .seconds(30)
    ) {
        self.now = now
        coordinator = Coordinator(
            cache: cache, configuration: .init(ttl: .seconds(60), timeout: timeout), now: { now })
        var environment = testEnvironment(
            transport: transport, now: now, timeZone: viewerZone, settings: settings, timeout: timeout)
        environment.webSearch = webSearch
        context = ToolContext(coordinator: coordinator, environment: environment)
    }

    /// Replays every recorded exchange under Fixtures/.
    static func replay(now: Date, settings: Settings = Settings()) throws -> Harness {
        Harness(now: now, transport: try Fixtures.replay(), settings: settings)
    }

    /// Parses CLI words as `tools run weather ...` would and runs the real tool.
    func run(_ words: [String]) async throws -> ToolResult {
        let arguments = try ToolArguments.parse(cli: words, schema: tool.schema, tool: tool.name)
        return try await tool.run(arguments, context: context)
    }

    /// The context text as the CLI prints it (viewer zone Lisbon, no budget unless given).
    func context(_ result: ToolResult, budget: ContextBudget = .unlimited) throws -> String {
        try result.render(
            .context, now: now, timeZone: TimeZone(identifier: viewerZone) ?? TimeText.utc, budget: budget)
    }
}

/// Runs `words` and returns the usage/unavailable error it throws.
func runError(_ harness: Harness, _ words: [String]) async -> AlmanacError? {
    do {
        _ = try await harness.run(words)
        return nil
    } catch let error as AlmanacError {
        return error
    } catch {
        Issue.record("unexpected error type: \(error)")
        return nil
    }
}

/// A web searcher test double (synthetic: stands in for the search module's Brave searcher).
struct StubSearcher: WebSearching {
    let providerName = "stub-search"
    let hits: [WebSearchHit]
    let queries = QueryLog()

    func search(_ query: String, count: Int, in environment: ProviderEnvironment) async throws -> [WebSearchHit] {
        await queries.append(query)
        return Array(hits.prefix(count))
    }
}

/// The queries a ``StubSearcher`` saw.
actor QueryLog {
    private(set) var queries: [String] = []
    func append(_ query: String) { queries.append(query) }
}

/// A settings value with a `[weather]` table.
func weatherConfig(_ values: [String: String]) -> Settings {
    Settings(config: ["weather": .table(values.mapValues { ConfigValue.string($0) })])
}

extension WeatherTool {
    /// Decodes an Open-Meteo `/v1/forecast` body and renders it as context, synchronously: the
    /// decoder and formatter `run` uses, without network, cache or coordinator. The header says
    /// `source: open-meteo`, fetched at `now`.
    static func renderForecast(
        _ body: Data, now: Date, view: WeatherRequest.View = .overview(days: WeatherRequest.defaultDays),
        sun: Bool = false, budget: ContextBudget = .unlimited
    ) throws -> String {
        let forecast = try OpenMeteoDecoder.decode(body)
        let payload = try WeatherPayload(
            report: .forecast(forecast), view: view, everyHour: view == .hourly, sun: sun, now: now)
        let metadata = ResultMetadata(
            tool: "weather", provider: "open-meteo", fetchedAt: now, ageSeconds: 0, stale: false, attempts: [])
        return payload.context(Rendering(metadata: metadata, now: now, timeZone: TimeText.utc, budget: budget))
    }
}
