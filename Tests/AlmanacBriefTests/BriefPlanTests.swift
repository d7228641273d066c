import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacBrief
@testable import AlmanacCore

/// What the briefing runs for a profile (#34 speed: fewer runs, shared caches, no run after the rest).
@Suite("brief: the runs a profile makes")
struct BriefPlanTests {
    static let zone = TimeZone(identifier: "America/New_York") ?? .current
    static let now = Date(timeIntervalSince1970: 1_734_350_400)  // 2024-12-16T12:00:00Z

    static func plan(_ profile: Profile) throws -> BriefPlan {
        let day = try BriefDay.read(nil, now: now, zone: zone)
        return BriefPlan.make(profile: profile, day: day, zone: zone, offers: { _ in true })
    }

    @Test("the profile's calendars: one events run and one tasks run, read by the calendar's profile default")
    func calendarRuns() throws {
        let plan = try Self.plan(Profile(calendars: ["work", "family", "todo"]))
        let calendar = plan.calls.filter { $0.section == .calendar }
        #expect(calendar.map(\.words) == [["today"], ["tasks"]])
        #expect(calendar.map(\.role) == [.events, .tasks])
    }

    @Test(
        "weather at home names no place: the weather tool reads [me] home (one geocoding, one cache entry)",
        arguments: ["Frederick", "38.72,-9.14"])
    func weatherRuns(_ home: String) throws {
        let plan = try Self.plan(Profile(home: home))
        let weather = plan.calls.filter { $0.section == .weather }
        #expect(weather.map(\.words) == [["--day", "2024-12-16"], ["--alerts"], ["--next-hour"]])
    }

    @Test(
        "the home's header reads as the place it names",
        arguments: [
            (
                "[weather] home (Frederick, Maryland, United States) · local time 07:00",
                "Frederick, Maryland, United States"
            ),
            ("[weather] Frederick, Maryland, United States · local time 07:00", "Frederick, Maryland, United States"),
            ("[weather] home (38.72, -9.14) · local time 07:00", "38.72, -9.14"),
        ])
    func homeHeader(_ header: String, _ place: String) {
        #expect(BriefLines.place(fromHeader: header + "\nNow: 3 °C") == place)
    }

    @Test("topics are the feeds' fallback, made in the headlines' own task")
    func topicsFallback() throws {
        let plan = try Self.plan(Profile(topics: ["swift", "formula 1"]))
        let headlines = plan.calls.filter { $0.section == .headlines }
        #expect(headlines.count == 1)
        #expect(headlines.first?.fallback.map(\.words) == [["swift", "--count", "3"], ["formula 1", "--count", "3"]])
    }

    @Test("topics searched as news --mine searches them: a repeat in other case once, at most three")
    func topicsRule() throws {
        let plan = try Self.plan(Profile(topics: ["Swift", "swift", "formula 1", "rust", "go"]))
        let fallback = plan.calls.first { $0.section == .headlines }?.fallback ?? []
        #expect(fallback.map(\.label) == ["Swift", "formula 1", "rust"])
        #expect(fallback.map(\.label) == Profile(topics: ["Swift", "swift", "formula 1", "rust", "go"]).searchedTopics)
    }

    @Test("with no feed, the topics' searches run while the other sections still run")
    func topicsOverlap() async throws {
        let barrier = MeetingPoint()
        let brief = BriefTool(sources: [
            StubSection(name: "sports", barrier: barrier), StubSection(name: "news", barrier: barrier),
        ])
        let plan = try Self.plan(Profile(teams: ["nba:lakers"], topics: ["swift"]))
        let calls = plan.calls.filter { $0.tool == "sports" || $0.tool == "news" }
        let outcomes = await brief.perform(calls, context: try Self.context())
        let texts = outcomes.map { outcome -> String in
            if case .answered(_, let text) = outcome.result { return text }
            return "\(outcome.result)"
        }
        #expect(outcomes.map(\.call.label) == ["lakers", "lakers", "swift"])
        // The first sports run waits (bounded) for the topic's search: it meets it only when the
        // search starts before the sports runs end.
        #expect(texts.first?.contains("met the topic search") == true, "\(texts)")
        #expect(texts.last?.contains("swift") == true, "\(texts)")
    }

    static func context() throws -> ToolContext {
        let environment = ProviderEnvironment(
            transport: try Fixtures.replay(), settings: Settings(), now: now, timeZone: zone, timeout: .seconds(5),
            state: MemoryStateStore(), egress: .commandLine)
        return ToolContext(coordinator: Coordinator(cache: MemoryCacheStore(), now: { now }), environment: environment)
    }
}

/// Where the first sports run waits for the topic search (at most 10 s, then goes on alone).
actor MeetingPoint {
    private var searched = false
    private var waiter: CheckedContinuation<Void, Never>?

    func searchStarted() {
        searched = true
        waiter?.resume()
        waiter = nil
    }

    /// Whether the search started within the wait.
    func waitForSearch() async -> Bool {
        if searched { return true }
        let timeout = Task {
            try? await Task.sleep(for: .seconds(10))
            self.giveUp()
        }
        await withCheckedContinuation { waiter = $0 }
        timeout.cancel()
        return searched
    }

    private func giveUp() {
        waiter?.resume()
        waiter = nil
    }
}

/// A stand-in for sports (the first run waits for the search) and news (no feed configured; a
/// topic is a search).
struct StubSection: Tool {
    var name: String
    var barrier: MeetingPoint
    var summary: String { "stand-in \(name)" }
    var schema: ToolSchema {
        ToolSchema([
            ToolParameter("words", .string, help: "anything", placement: .remainder),
            ToolParameter("team", .string, help: "a team"), ToolParameter("date", .string, help: "a day"),
            ToolParameter("next", .boolean, help: "next game"), ToolParameter("count", .integer, help: "items"),
        ])
    }
    var providerDescriptors: [ProviderDescriptor] { [] }
    func providers(in context: ToolContext) -> [ProviderInfo] { [] }

    func run(_ arguments: ToolArguments, context: ToolContext) async throws -> ToolResult {
        var line = "\(name) \(arguments.string("words") ?? "")"
        if name == "news" {
            guard arguments.string("words") != nil else {
                throw AlmanacError.configuration("news: no feeds", suggestion: nil)
            }
            await barrier.searchStarted()
        } else if arguments.string("date") != nil {
            line += await barrier.waitForSearch() ? " met the topic search" : " ran alone"
        }
        return ToolResult(
            metadata: TestMetadata.fresh(tool: name, provider: "stub", fetchedAt: context.now),
            payload: StubLines(line: line))
    }
}

struct StubLines: ToolPayload {
    var line: String
    func context(_ rendering: Rendering) -> String { rendering.header(line) + "\n" + line }
    func text(_ rendering: Rendering) -> String { line }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(line)
    }
}
