import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCalendar

/// RECURRENCE-ID;RANGE=THISANDFUTURE overrides on the handwritten `thisandfuture.ics`.
@Suite("Calendar THISANDFUTURE overrides")
struct ThisAndFutureTests {
    @Test("THISANDFUTURE moves and retitles every later instance, in wall-clock time across DST")
    func thisAndFuture() async throws {
        let payload = try await Handwritten.harness().payload([
            "--ics", Handwritten.path("thisandfuture.ics"), "--from", "2024-03-01", "--to", "2024-04-30",
        ])
        #expect(
            payload.events.map { "\($0.start.json) \($0.recurrenceId?.json ?? "-") \($0.summary ?? "(no title)")" } == [
                "2024-03-04T09:00:00Z 2024-03-04T09:00:00Z Standup",
                "2024-03-04T12:00:00Z 2024-03-04T12:00:00Z Lunch",
                "2024-03-05T12:00:00Z 2024-03-05T12:00:00Z Lunch",  // cancelled from the 6th on
                "2024-03-11T09:00:00Z 2024-03-11T09:00:00Z Standup",
                "2024-03-15T09:00:00Z 2024-03-15T09:00:00Z Review",
                "2024-03-18T13:00:00Z 2024-03-18T09:00:00Z Standup (new time)",  // 14:00 CET
                "2024-03-25T09:00:00Z 2024-03-22T09:00:00Z Review (Mondays)",  // Fri 22 -> Mon 25, 10:00 CET
                "2024-03-25T13:00:00Z 2024-03-25T09:00:00Z Standup (new time)",
                // Fri 29 Mar 10:00 CET + 3 days is Mon 1 Apr 10:00 CEST (08:00Z), not 11:00: DST began on the 31st.
                "2024-04-01T08:00:00Z 2024-03-29T09:00:00Z Review (Mondays)",
                "2024-04-01T12:00:00Z 2024-04-01T08:00:00Z Standup (new time)",  // 14:00 CEST
                "2024-04-08T08:00:00Z 2024-04-05T08:00:00Z Review (Mondays)",
                "2024-04-08T09:00:00Z 2024-04-08T08:00:00Z Standup (last one)",  // its own override wins
            ])
        // The moved instances keep the new length too.
        let moved = try #require(payload.events.first { $0.summary == "Standup (new time)" })
        #expect(moved.end.json == "2024-03-18T13:30:00Z")
    }
}
