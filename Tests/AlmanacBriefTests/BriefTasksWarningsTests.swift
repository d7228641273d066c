import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacBrief
@testable import AlmanacCore

/// The calendar section's tasks run: a warning the events run already gave is shown once, the
/// tasks run's own (its CalDAV request, its VTODOs) are kept.
@Suite("brief: the tasks run's own warnings")
struct BriefTasksWarningsTests {
    static let events = """
        [calendar] today
        Now: Mon 16 Dec 2024 07:00 EST. 1 event.
        09:00 standup
        warnings: family: feed unreachable
        """
    static let tasks = """
        [calendar] tasks
        Now: Mon 16 Dec 2024 07:00 EST. 1 task due.
        file taxes (due today)
        warnings: family: feed unreachable
        warnings: todo: 1 VTODO could not be read
        ! todo: CalDAV REPORT failed (HTTP 500)
        """

    static func answered(_ call: BriefCall, _ text: String) -> BriefTool.Outcome {
        let result = ToolResult(
            metadata: TestMetadata.fresh(tool: "calendar", provider: "ics", fetchedAt: BriefPlanTests.now),
            payload: StubLines(line: text))
        return BriefTool.Outcome(call: call, result: .answered(result, text: text))
    }

    @Test("a warning both runs give once; the tasks run's own warning and failure stay")
    func ownWarningsKept() throws {
        let plan = try BriefPlanTests.plan(Profile(calendars: ["work", "family", "todo"]))
        let calls = plan.calls.filter { $0.section == .calendar }
        try #require(calls.map(\.role) == [.events, .tasks])
        let outcomes = [Self.answered(calls[0], Self.events), Self.answered(calls[1], Self.tasks)]
        let day = try BriefDay.read(nil, now: BriefPlanTests.now, zone: BriefPlanTests.zone)
        let result = try BriefTool(sources: []).assemble(
            outcomes, plan: plan, day: day, budget: 4000, context: try BriefPlanTests.context())
        let payload = try #require(result.payload as? BriefPayload)
        let section = try #require(payload.sections.first { $0.name == .calendar })
        let texts = section.lines.map(\.text)
        #expect(texts.filter { $0 == "warnings: family: feed unreachable" }.count == 1, "\(texts)")
        #expect(texts.contains("warnings: todo: 1 VTODO could not be read"), "\(texts)")
        #expect(texts.contains("! todo: CalDAV REPORT failed (HTTP 500)"), "\(texts)")
        #expect(texts.contains("file taxes (due today)"), "\(texts)")
    }
}
