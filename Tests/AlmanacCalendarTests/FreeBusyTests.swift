import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCalendar

/// `tools run calendar free`: busy blocks and free gaps in a window of each day ("am I free
/// Friday afternoon?"), with the clock at Mon 10 Jun 2024 10:00 in Berlin.
@Suite("Calendar free/busy")
struct FreeBusyTests {
    func payload(_ words: [String], file: String = "freebusy.ics") async throws -> (FreeBusyPayload, String) {
        let harness = Handwritten.harness()
        let result = try await harness.run(words + ["--ics", Handwritten.path(file)])
        let payload = try #require(result.payload as? FreeBusyPayload)
        return (payload, try harness.context(result))
    }

    func clock(_ date: Date) -> String { TimeText.clock(date, in: TimeZone(identifier: "Europe/Berlin")!) }

    @Test("an afternoon: busy blocks clipped to the window, overlaps flagged, the gaps between them")
    func afternoon() async throws {
        let (payload, context) = try await payload([
            "free", "--from", "2024-06-14", "--to", "2024-06-14", "--hours", "12-18",
        ])
        let day = try #require(payload.days.first)
        #expect(payload.days.count == 1)
        #expect(
            day.busy.map { "\(clock($0.start))–\(clock($0.end)) \($0.summary ?? "")" } == [
                "14:00–15:00 Dentist", "14:30–15:30 Call with Ana", "17:30–18:00 Review",
            ])
        #expect(day.busy.map(\.overlaps) == [["Call with Ana"], ["Dentist"], []])
        #expect(
            day.free.map { "\(clock($0.start))–\(clock($0.end)) \($0.minutes)" } == [
                "12:00–14:00 120", "15:30–17:30 120",
            ])
        #expect(day.allDay == ["Mom's birthday"])
        #expect(context.contains("- busy 14:00–15:00 Dentist · OVERLAPS Call with Ana"))
        #expect(context.contains("- free 12:00–14:00 (2 h), 15:30–17:30 (2 h)"))
        #expect(context.contains("3 busy blocks, 2 overlapping (double-booked)."))
        #expect(context.hasPrefix("[calendar] Free/busy Fri 14 Jun 2024, 12:00–18:00"))
    }

    @Test("today starts now: the past is neither busy nor free")
    func todayFromNow() async throws {
        let (payload, _) = try await payload(["free", "--hours", "08-14"], file: "week.ics")
        let day = try #require(payload.days.first)
        // The 09:00 dentist is over at 10:00; the 12:00 lunch is ahead.
        #expect(
            day.busy.map { "\(clock($0.start))–\(clock($0.end)) \($0.summary ?? "")" } == ["12:00–13:00 Team lunch"])
        #expect(day.free.map { "\(clock($0.start))–\(clock($0.end))" } == ["10:00–12:00", "13:00–14:00"])
    }

    @Test("no --hours means waking hours; several days are one block each")
    func days() async throws {
        let (payload, _) = try await payload(["free", "--from", "2024-06-13", "--to", "2024-06-14"])
        #expect(payload.hours == .waking)
        #expect(payload.days.map(\.date.description) == ["2024-06-13", "2024-06-14"])
        #expect(payload.days[0].busy.isEmpty)
        #expect(payload.days[0].free.map(\.minutes) == [12 * 60])
    }

    @Test(
        "bad hours are one usage line naming what is wrong",
        arguments: [
            ["free", "--hours", "18-12"], ["free", "--hours", "noon"], ["today", "--hours", "12-18"],
        ])
    func badHours(words: [String]) async throws {
        let harness = Handwritten.harness()
        await #expect(throws: AlmanacError.self) {
            try await harness.run(words + ["--ics", Handwritten.path("freebusy.ics")])
        }
        do {
            _ = try await harness.run(words + ["--ics", Handwritten.path("freebusy.ics")])
        } catch let error as AlmanacError {
            #expect(error.message.contains("--hours must be HH-HH with 'free'"))
        }
    }
}
