import AlmanacTesting
import Foundation

@testable import AlmanacCore
@testable import AlmanacSports

/// A fixed instant from ISO 8601 text (test inputs are literals, so a bad one is a test bug).
func instant(_ text: String) -> Date {
    guard let date = TimeText.parseInstant(text) else { preconditionFailure("bad test instant \(text)") }
    return date
}

/// A zone by identifier.
func zone(_ identifier: String) -> TimeZone {
    guard let zone = TimeZone(identifier: identifier) else { preconditionFailure("unknown zone \(identifier)") }
    return zone
}

/// A web searcher test double: answers every question with `hits` and remembers the questions.
actor FakeSearcher: WebSearching {
    nonisolated let providerName: String
    let hits: [WebSearchHit]
    let failure: ProviderFailure?
    /// What the searcher notes beside its hits (SearXNG's unresponsive engines).
    let note: String?
    private(set) var questions: [String] = []
    private(set) var counts: [Int] = []

    init(hits: [WebSearchHit], name: String = "brave", failure: ProviderFailure? = nil, note: String? = nil) {
        self.hits = hits
        self.providerName = name
        self.failure = failure
        self.note = note
    }

    func searchNoted(
        _ query: String, count: Int, in environment: ProviderEnvironment
    ) async throws
        -> NotedAnswer<[WebSearchHit]>
    {
        NotedAnswer(value: try await search(query, count: count, in: environment), note: note)
    }

    func search(_ query: String, count: Int, in environment: ProviderEnvironment) async throws -> [WebSearchHit] {
        questions.append(query)
        counts.append(count)
        if let failure { throw failure }
        return Array(hits.prefix(count))
    }
}

/// One tool run against a transport, with a fixed clock and zone.
struct Harness {
    let context: ToolContext
    let now: Date
    let zone: TimeZone

    init(
        transport: any HTTPTransport, now: Date, zone: TimeZone, webSearch: (any WebSearching)? = nil,
        settings: Settings = Settings()
    ) {
        self.now = now
        self.zone = zone
        // Replay answers at once: the deadline only bites when a loaded machine starves the tests.
        let coordinator = Coordinator(
            cache: MemoryCacheStore(), configuration: .init(ttl: .seconds(60), timeout: .seconds(30)), now: { now })
        let environment = ProviderEnvironment(
            transport: transport, settings: settings, now: now, timeZone: zone, timeout: .seconds(30),
            webSearch: webSearch)
        context = ToolContext(coordinator: coordinator, environment: environment)
    }

    /// A harness whose upstream answers `body` for requests whose path ends with `suffix` (every
    /// request when nil) and `otherwise` (an empty body with that status) for the rest.
    init(serving body: Data, atPathsEndingWith suffix: String? = nil, otherwise: Int = 404, now: Date, zone: TimeZone) {
        self.init(
            transport: StubTransport { request in
                suffix.map(request.url.path.hasSuffix) ?? true
                    ? HTTPResponse(status: 200, body: body) : HTTPResponse(status: otherwise, body: Data())
            }, now: now, zone: zone)
    }

    /// Parses CLI words like `tools run sports ...` would, then runs the tool.
    func run(_ words: [String]) async throws -> ToolResult {
        let tool = SportsTool()
        let arguments = try ToolArguments.parse(cli: words, schema: tool.schema, tool: tool.name)
        return try await tool.run(arguments, context: context)
    }

    /// The context output of a run.
    func render(
        _ result: ToolResult, _ format: OutputFormat = .context, budget: ContextBudget = .unlimited
    ) throws
        -> String
    {
        try result.render(format, now: now, timeZone: zone, budget: budget)
    }
}

/// The usage error a closure throws, if it throws one.
func usageError(_ body: () async throws -> Void) async -> AlmanacError? {
    do {
        try await body()
        return nil
    } catch let error as AlmanacError where error.kind == .usage {
        return error
    } catch {
        return nil
    }
}
