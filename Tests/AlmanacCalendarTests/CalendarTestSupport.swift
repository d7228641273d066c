import AlmanacTesting
import Foundation

@testable import AlmanacCalendar
@testable import AlmanacCore

/// Runs the calendar tool the way the runtime does, with a fixed now/zone and a memory cache.
struct CalendarHarness {
    var now: Date
    var zone: String
    var transport: any HTTPTransport = StubTransport { request in
        throw ProviderFailure(.network, "no network in this test (\(request.method) \(request.url.path))")
    }
    var settings = Settings()
    var state: any ProviderStateStore = MemoryStateStore()
    var coordinator: Coordinator

    init(now: String, zone: String, cache: any CacheStore = MemoryCacheStore()) {
        let instant = TimeText.parseInstant(now) ?? Date(timeIntervalSince1970: 0)
        self.now = instant
        self.zone = zone
        // 30 s per attempt, as the sports and weather harnesses allow: a real Radicale answers in
        // milliseconds, but a loaded 2-core CI machine starved the test process past 8 s once.
        coordinator = Coordinator(
            cache: cache, configuration: .init(ttl: .seconds(60), timeout: .seconds(30)), now: { instant })
    }

    var context: ToolContext {
        var environment = testEnvironment(
            transport: transport, now: now, timeZone: zone, settings: settings, timeout: .seconds(30))
        environment.state = state
        return ToolContext(coordinator: coordinator, environment: environment)
    }

    /// Parses CLI words and runs the tool.
    func run(_ words: [String]) async throws -> ToolResult {
        let tool = CalendarTool()
        let arguments = try ToolArguments.parse(cli: words, schema: tool.schema, tool: tool.name)
        return try await tool.run(arguments, context: context)
    }

    /// The payload, typed.
    func payload(_ words: [String]) async throws -> CalendarPayload {
        let result = try await run(words)
        guard let payload = result.payload as? CalendarPayload else {
            throw AlmanacError.internal("not a calendar payload")
        }
        return payload
    }

    /// Context as the CLI prints it.
    func context(_ result: ToolResult, budget: Int? = nil) throws -> String {
        try result.render(
            .context, now: now, timeZone: TimeZone(identifier: zone) ?? .current, budget: ContextBudget(tokens: budget))
    }
}

extension CalendarPayload {
    /// `(uid, start)` pairs, for precise assertions.
    var starts: [String] { events.map { "\($0.start.json) \($0.summary ?? "(no title)")" } }
}

/// The handwritten files in `Fixtures/calendar/handwritten/` (cases no corpus file has), read with
/// the clock fixed at Mon 10 Jun 2024 10:00 in Berlin.
enum Handwritten {
    static let now = "2024-06-10T08:00:00Z"

    static func path(_ name: String) -> String { Fixtures.url("calendar/handwritten/\(name)").path }

    static func harness() -> CalendarHarness { CalendarHarness(now: now, zone: "Europe/Berlin") }
}
