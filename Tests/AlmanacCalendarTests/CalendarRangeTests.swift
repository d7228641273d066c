import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCalendar

/// Every range word, --from/--to and --search on the handwritten `week.ics`, with the clock fixed
/// at Mon 10 Jun 2024 10:00 in Berlin (the harness's injected now, as ALMANAC_NOW does for the CLI).
@Suite("Calendar ranges and search")
struct CalendarRangeTests {
    /// `start summary` of every event for `words` on week.ics.
    func starts(_ words: [String]) async throws -> [String] {
        try await Handwritten.harness().payload(words + ["--ics", Handwritten.path("week.ics")]).starts
    }

    @Test("today: events overlapping the local day, including one ending tomorrow")
    func today() async throws {
        let harness = Handwritten.harness()
        let result = try await harness.run(["today", "--ics", Handwritten.path("week.ics")])
        let payload = try #require(result.payload as? CalendarPayload)
        #expect(
            payload.starts == [
                "2024-06-10T07:00:00Z Dentist", "2024-06-10T10:00:00Z Team lunch", "2024-06-10T21:30:00Z Late call",
            ])
        #expect(
            (payload.request.rangeName, payload.request.firstDay.description, payload.request.lastDay.description)
                == ("today", "2024-06-10", "2024-06-10"))
        #expect(
            Golden.check(try harness.context(result) + "\n", against: "calendar/handwritten/week-today.context.txt")
                == nil)
        // No range word is today too.
        #expect(try await starts([]) == payload.starts)
    }

    @Test("tomorrow: the next local day; an event running past midnight is shown 'since'")
    func tomorrow() async throws {
        let harness = Handwritten.harness()
        let result = try await harness.run(["tomorrow", "--ics", Handwritten.path("week.ics")])
        let payload = try #require(result.payload as? CalendarPayload)
        #expect(payload.starts == ["2024-06-10T21:30:00Z Late call", "2024-06-11T16:00:00Z Gym"])
        let context = try harness.context(result)
        #expect(context.hasPrefix("[calendar] Events Tue 11 Jun 2024 (tomorrow) · source: ics-file"))
        #expect(context.contains("- since Mon 10 Jun 2024 23:30–00:30: Late call"))
    }

    @Test("week: today and the six days after, all-day events as days")
    func week() async throws {
        let harness = Handwritten.harness()
        let result = try await harness.run(["week", "--ics", Handwritten.path("week.ics")])
        let payload = try #require(result.payload as? CalendarPayload)
        #expect(
            payload.starts == [
                "2024-06-10T07:00:00Z Dentist", "2024-06-10T10:00:00Z Team lunch", "2024-06-10T21:30:00Z Late call",
                "2024-06-11T16:00:00Z Gym", "2024-06-13T16:00:00Z Gym", "2024-06-14 Holiday", "2024-06-16 Conference",
            ])
        #expect(payload.request.lastDay.description == "2024-06-16")
        let conference = try #require(payload.events.last)
        #expect((conference.allDay, conference.end.json, conference.location) == (true, "2024-06-19", "Lisbon"))
        #expect(
            Golden.check(try harness.context(result) + "\n", against: "calendar/handwritten/week-week.context.txt")
                == nil)
    }

    @Test("next N: the next N events from now; one already over is not among them")
    func next() async throws {
        #expect(
            try await starts(["next", "3"]) == [
                "2024-06-10T10:00:00Z Team lunch", "2024-06-10T21:30:00Z Late call", "2024-06-11T16:00:00Z Gym",
            ])
        // Default 5, reaching into the following weeks.
        #expect(
            try await starts(["next"]) == [
                "2024-06-10T10:00:00Z Team lunch", "2024-06-10T21:30:00Z Late call", "2024-06-11T16:00:00Z Gym",
                "2024-06-13T16:00:00Z Gym", "2024-06-14 Holiday",
            ])
    }

    @Test("--from/--to: whole local days, --to included up to its last minute")
    func fromTo() async throws {
        #expect(
            try await starts(["--from", "2024-06-17", "--to", "2024-06-20"]) == [
                "2024-06-16 Conference",  // began the day before, still on
                "2024-06-18T16:00:00Z Gym",
                "2024-06-20T07:00:00Z Quarterly review",
                "2024-06-20T16:00:00Z Gym",  // 18:00 on the --to day
            ])
        // --from alone is that one day.
        #expect(try await starts(["--from", "2024-06-14"]) == ["2024-06-14 Holiday"])
    }

    @Test("--search matches title, place and notes, ignoring case and accents")
    func search() async throws {
        let june = ["--from", "2024-06-01", "--to", "2024-06-30"]
        #expect(try await starts(june + ["--search", "BUDGET"]) == ["2024-06-20T07:00:00Z Quarterly review"])  // notes
        #expect(try await starts(june + ["--search", "cantína"]) == ["2024-06-10T10:00:00Z Team lunch"])  // place
        #expect(
            try await starts(["week", "--search", "gym"]) == ["2024-06-11T16:00:00Z Gym", "2024-06-13T16:00:00Z Gym"])
        let payload = try await Handwritten.harness().payload(
            june + ["--search", "nothing like this", "--ics", Handwritten.path("week.ics")])
        #expect(payload.events.isEmpty && payload.request.search == "nothing like this")
    }
}
