import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCalendar

/// `tools run calendar tasks` on the handwritten `tasks.ics` (now: Mon 10 Jun 2024 10:00 Berlin).
@Suite("Calendar tasks (VTODO)")
struct CalendarTaskTests {
    @Test("tasks: open ones by urgency with due/overdue state; completed and cancelled ones hidden")
    func tasks() async throws {
        let harness = Handwritten.harness()
        let result = try await harness.run(["tasks", "--ics", Handwritten.path("tasks.ics")])
        let payload = try #require(result.payload as? CalendarPayload)
        #expect(payload.events.isEmpty)
        #expect(
            payload.tasks.map { "\($0.state.rawValue) \($0.due?.json ?? "-") \($0.uid) p\($0.priority ?? 0)" } == [
                "overdue 2024-06-05 task-rent p1",  // a DATE is due by the end of that day
                "overdue 2024-06-10T07:00:00Z task-plumber p0",  // an hour ago
                "due 2024-06-10T16:00:00Z task-taxes p0",  // 18:00 Berlin today, within a day
                "open 2024-06-11 task-plants p0",  // end of tomorrow is more than a day away
                "open 2024-06-20 task-flights p5",
                "open - task-book p0",  // no due date: last
            ])
        #expect(Set(payload.tasks.map(\.calendar)) == ["tasks"])

        let json = try payload.compactDataJSON()
        #expect(
            json.contains(
                #"{"calendar":"tasks","due":"2024-06-10T16:00:00Z","priority":null,"state":"due","summary":"File taxes","uid":"task-taxes"}"#
            ))
        for hidden in ["Buy milk", "Old chore", "Dropped idea", "An event, not a task"] {
            #expect(!json.contains(hidden))
        }

        let context = try harness.context(result)
        #expect(Golden.check(context + "\n", against: "calendar/handwritten/tasks.context.txt") == nil)
        #expect(context.contains("Now: Mon 10 Jun 2024 10:00 UTC+02:00. 6 open tasks, 2 overdue."))
        #expect(context.contains("- OVERDUE since Mon 10 Jun 2024 (today) 09:00: Call plumber"))
        #expect(context.contains("- due Mon 10 Jun 2024 (today) 18:00: File taxes"))
        #expect(context.contains("- open, no due date: Read a book"))
    }

    @Test("tasks --search keeps matching titles only")
    func tasksSearch() async throws {
        let payload = try await Handwritten.harness().payload([
            "tasks", "--search", "PLANTS", "--ics", Handwritten.path("tasks.ics"),
        ])
        #expect(payload.tasks.map(\.uid) == ["task-plants"])
    }
}
