import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCalendar
@testable import AlmanacCore

/// `[me] calendars` (issue #34): the default set of a plain `tools run calendar`, on the
/// handwritten fixtures (week.ics, freebusy.ics).
@Suite("Calendar: the profile's calendars")
struct CalendarProfileTests {
    static func harness(me: String) throws -> CalendarHarness {
        var harness = Handwritten.harness()
        harness.settings = Settings(
            config: try TOML.parse(
                """
                [calendars.week]
                ics = "\(Handwritten.path("week.ics"))"
                [calendars.focus]
                ics = "\(Handwritten.path("freebusy.ics"))"
                \(me)
                """))
        return harness
    }

    static let days = ["--from", "2024-06-10", "--to", "2024-06-14"]

    @Test("[me] calendars picks the default set; an unknown name is a warning and the rest answers")
    func chosen() async throws {
        let all = try await Self.harness(me: "").payload(Self.days)
        #expect(Set(all.events.map(\.calendar)) == ["week", "focus"])
        #expect(all.warnings.isEmpty)

        let harness = try Self.harness(me: "[me]\ncalendars = [\"Focus\", \"famly\"]")
        let mine = try await harness.payload(Self.days)
        #expect(Set(mine.events.map(\.calendar)) == ["focus"])
        #expect(mine.warnings.first?.hasPrefix("[me] calendars: no calendar named 'famly'") == true)
        let json = try Envelope.dataJSON(mine)
        #expect(json.contains("no calendar named 'famly'"))

        // --calendar still picks one, without the profile.
        let week = try await harness.payload(Self.days + ["--calendar", "week"])
        #expect(Set(week.events.map(\.calendar)) == ["week"])
        #expect(week.warnings.isEmpty)
    }

    @Test("no profile calendar configured: every calendar, with the warning")
    func noneMatch() async throws {
        let payload = try await Self.harness(me: "[me]\ncalendars = [\"nope\"]").payload(Self.days)
        #expect(Set(payload.events.map(\.calendar)) == ["week", "focus"])
        #expect(payload.warnings.count == 1)
    }
}
