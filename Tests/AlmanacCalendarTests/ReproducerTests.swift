import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCalendar
@testable import AlmanacCore

/// The ways real producers' files used to come out different from the reference expansion
/// library (issue 14's six classes, then prefixed and abbreviation TZIDs, RRULE parts libical will
/// not expand, several VCALENDARs), one handwritten reproducer each in `Fixtures/calendar/reproducers/`.
/// `scripts/calendar-peer-diff` also runs them against recurring-ical-events (CalendarPeerDiff).
@Suite("Calendar reproducers: revisions, zones, bad rules, backwards times, no title")
struct ReproducerTests {
    static func payload(_ file: String, from: String, to: String, zone: String = "UTC") async throws -> CalendarPayload
    {
        try await CalendarHarness(now: "\(from)T08:00:00Z", zone: zone).payload([
            "--ics", Fixtures.url("calendar/reproducers/\(file)").path, "--from", from, "--to", to,
        ])
    }

    /// `start end uid summary` of every event.
    static func rows(_ payload: CalendarPayload) -> [String] {
        payload.events.map { "\($0.start.json) \($0.end.json) \($0.uid) \($0.summary ?? "nil")" }
    }

    @Test(
        "one UID: the highest SEQUENCE wins, then LAST-MODIFIED, DTSTAMP, the last in the file; an EXDATEd override is gone; copies count once"
    )
    func revisions() async throws {
        let payload = try await Self.payload("one-uid-revisions.ics", from: "2024-03-01", to: "2024-03-31")
        #expect(
            Self.rows(payload) == [
                // SEQUENCE 1 (first in the file) beats SEQUENCE 0 (09:00 Berlin, six weeks).
                "2024-03-04T09:00:00Z 2024-03-04T09:30:00Z weekly-sync Sync",
                "2024-03-05T15:00:00Z 2024-03-05T16:00:00Z retro Retro (room 2)",  // later LAST-MODIFIED, though first
                "2024-03-06T08:00:00Z 2024-03-06T10:00:00Z planning Planning (longer)",  // later DTSTAMP
                "2024-03-07 2024-03-08 copied-twice Copied twice",  // byte-identical copies: once
                // Two overrides of 11 Mar: SEQUENCE 2 wins.
                "2024-03-13T09:00:00Z 2024-03-13T09:30:00Z weekly-sync Sync (moved to Wednesday)",
                // 18 Mar: EXDATEd by the newer master, so its older override (moved to the 19th) is gone.
                "2024-03-25T09:00:00Z 2024-03-25T09:30:00Z weekly-sync Sync",
            ])
        #expect(payload.warnings.isEmpty)
    }

    @Test("one UID: the same answer whatever the order of the revisions in the file")
    func revisionsInAnyOrder() async throws {
        let text = try String(contentsOf: Fixtures.url("calendar/reproducers/one-uid-revisions.ics"), encoding: .utf8)
        let parts = text.components(separatedBy: "BEGIN:VEVENT")
        guard let head = parts.first else { throw AlmanacError.internal("no VCALENDAR head") }
        var events = parts.dropFirst().map {
            "BEGIN:VEVENT" + $0.replacingOccurrences(of: "END:VCALENDAR\r\n", with: "")
        }
        // The order only matters between revisions with one SEQUENCE, LAST-MODIFIED and DTSTAMP:
        // reversed, the SEQUENCE, LAST-MODIFIED and DTSTAMP rules must still pick the same ones.
        events.reverse()
        let document = try ICalendarDocument(text: head + events.joined() + "END:VCALENDAR\r\n", name: "reversed.ics")
        let zone = TimeZone(identifier: "UTC") ?? .current
        let window = ExpansionWindow(
            start: CivilDate(year: 2024, month: 3, day: 1).start(in: zone),
            end: CivilDate(year: 2024, month: 4, day: 1).start(in: zone), zone: zone)
        var expansion = await document.expand(in: window, calendar: "reversed")
        CalendarRun.sortForDisplay(&expansion.events, zone: zone)
        let payload = try await Self.payload("one-uid-revisions.ics", from: "2024-03-01", to: "2024-03-31")
        #expect(
            expansion.events.map { "\($0.start.json) \($0.uid) \($0.summary ?? "nil")" }
                == payload.events.map { "\($0.start.json) \($0.uid) \($0.summary ?? "nil")" })
    }

    @Test(
        "a TZID the zone database knows uses its rules where the embedded VTIMEZONE stops; an unknown one keeps its VTIMEZONE"
    )
    func partialZone() async throws {
        let payload = try await Self.payload("partial-vtimezone.ics", from: "2023-01-01", to: "2023-07-31")
        let rows = Self.rows(payload)
        // The VTIMEZONE's last rule is CEST from March 2021: read alone it would put January at UTC+2.
        #expect(rows.contains("2023-01-07T13:00:00Z 2023-01-07T16:00:00Z repair-cafe Repair cafe"))  // 14:00 CET
        #expect(rows.contains("2023-07-01T12:00:00Z 2023-07-01T15:00:00Z repair-cafe Repair cafe"))  // 14:00 CEST
        #expect(rows.contains("2023-07-04T07:00:00Z 2023-07-04T08:00:00Z board-meeting Board meeting"))  // Windows name
        #expect(rows.contains("2023-07-04T03:30:00Z 2023-07-04T04:00:00Z office-call Office call"))  // its own +05:30
        #expect(payload.warnings.isEmpty)
    }

    @Test(
        "a vendor-prefixed TZID or an X-LIC-LOCATION naming a zone uses the database, not a VTIMEZONE that stops in 2020"
    )
    func prefixedZone() async throws {
        let payload = try await Self.payload("prefixed-tzid.ics", from: "2023-11-01", to: "2024-01-31")
        // Each VTIMEZONE's last transition is to summer time in March 2020: read alone, every
        // winter time below would come out an hour early (UTC+2, UTC-4).
        #expect(
            Self.rows(payload) == [
                "2023-11-04T17:00:00Z 2023-11-04T19:00:00Z citadel Citadel export",  // 18:00 CET
                "2023-11-06T09:00:00Z 2023-11-06T10:00:00Z mozilla Thunderbird export",  // 10:00 CET
                "2023-11-11T17:00:00Z 2023-11-11T19:00:00Z citadel Citadel export",
                "2023-11-18T17:00:00Z 2023-11-18T19:00:00Z citadel Citadel export",
                "2023-12-01T17:00:00Z 2023-12-01T18:00:00Z softwarestudio Old libical export",  // 12:00 EST
                "2023-12-04T09:00:00Z 2023-12-04T10:00:00Z mozilla Thunderbird export",
                "2024-01-01T09:00:00Z 2024-01-01T10:00:00Z mozilla Thunderbird export",
                "2024-01-10T07:00:00Z 2024-01-10T08:00:00Z x-lic-location Named by X-LIC-LOCATION",  // 08:00 CET
                "2024-01-15T08:00:00Z 2024-01-15T08:30:00Z evolution Evolution export",  // 09:00 CET
            ])
        #expect(payload.warnings.isEmpty)
        // Summer: the database's CEST, which here agrees with the file's last rule.
        let summer = try await Self.payload("prefixed-tzid.ics", from: "2024-07-01", to: "2024-07-01")
        #expect(Self.rows(summer) == ["2024-07-01T08:00:00Z 2024-07-01T09:00:00Z mozilla Thunderbird export"])
    }

    @Test("an abbreviation TZID (EST, MST, GMT, EET) keeps the file's VTIMEZONE; without one, or for UTC, the database")
    func abbreviationZone() async throws {
        let payload = try await Self.payload("abbreviation-tzid.ics", from: "2024-07-01", to: "2024-07-31")
        // The database's EST and MST are fixed (UTC-5, UTC-7), GMT is UTC and EET has summer
        // time: each of the first four would be an hour off.
        #expect(
            Self.rows(payload) == [
                "2024-07-02T13:00:00Z 2024-07-02T13:15:00Z est-standup Standup (EST with DST rules)",  // 09:00 EDT
                "2024-07-10T15:00:00Z 2024-07-10T16:00:00Z mst-review Review (MST with DST rules)",  // 09:00 MDT
                "2024-07-11T11:00:00Z 2024-07-11T12:00:00Z gmt-lunch Lunch (GMT with BST rules)",  // 12:00 BST
                "2024-07-12T07:00:00Z 2024-07-12T08:00:00Z eet-call Call (EET, fixed +02:00)",
                "2024-07-12T15:00:00Z 2024-07-12T15:30:00Z utc-sync Sync (UTC)",
                "2024-07-13T17:00:00Z 2024-07-13T19:00:00Z hst-no-vtimezone Surf (HST, no VTIMEZONE)",  // 07:00 UTC-10
            ])
        #expect(payload.warnings.isEmpty)
        // In winter the file's rules give standard time.
        let winter = try await Self.payload("abbreviation-tzid.ics", from: "2024-01-02", to: "2024-01-02")
        #expect(
            Self.rows(winter) == ["2024-01-02T14:00:00Z 2024-01-02T14:15:00Z est-standup Standup (EST with DST rules)"])
    }

    @Test(
        "RRULE parts libical parses but its iterator refuses are dropped with a warning; a rule that selects no day keeps DTSTART only"
    )
    func refusedRuleParts() async throws {
        let payload = try await Self.payload("rrule-refused-parts.ics", from: "2024-03-01", to: "2027-12-31")
        #expect(
            Self.rows(payload) == [
                "2024-03-04T09:00:00Z 2024-03-04T10:00:00Z daily-byweekno Daily with BYWEEKNO",
                "2024-03-04T09:00:00Z 2024-03-04T10:00:00Z weekly-bymonthday Weekly with BYMONTHDAY",
                "2024-03-05T09:00:00Z 2024-03-05T10:00:00Z daily-byweekno Daily with BYWEEKNO",
                "2024-03-06T09:00:00Z 2024-03-06T10:00:00Z daily-byweekno Daily with BYWEEKNO",
                "2024-03-06T09:00:00Z 2024-03-06T10:00:00Z bymonth-13 Yearly in month 13",
                "2024-03-07T09:00:00Z 2024-03-07T10:00:00Z sixth-monday Sixth Monday of the month",
                "2024-03-08T09:00:00Z 2024-03-08T10:00:00Z february-30 30 February",
                "2024-03-11T09:00:00Z 2024-03-11T10:00:00Z weekly-bymonthday Weekly with BYMONTHDAY",
                // UNTIL=2024-03-20 is read as the date 20 March (libical), which ends a timed series
                // before that day, as the reference library reads UNTIL=20240320.
                "2024-03-14T09:00:00Z 2024-03-14T10:00:00Z dashed-until Dashed UNTIL",
                "2024-03-15T09:00:00Z 2024-03-15T10:00:00Z dashed-until Dashed UNTIL",
                "2024-03-16T09:00:00Z 2024-03-16T10:00:00Z dashed-until Dashed UNTIL",
                "2024-03-17T09:00:00Z 2024-03-17T10:00:00Z dashed-until Dashed UNTIL",
                "2024-03-18T09:00:00Z 2024-03-18T10:00:00Z dashed-until Dashed UNTIL",
                "2024-03-18T09:00:00Z 2024-03-18T10:00:00Z weekly-bymonthday Weekly with BYMONTHDAY",
                "2024-03-19T09:00:00Z 2024-03-19T10:00:00Z dashed-until Dashed UNTIL",
                "2024-03-25T09:00:00Z 2024-03-25T10:00:00Z weekly-bymonthday Weekly with BYMONTHDAY",
                "2025-03-06T09:00:00Z 2025-03-06T10:00:00Z bymonth-13 Yearly in month 13",
                "2026-03-06T09:00:00Z 2026-03-06T10:00:00Z bymonth-13 Yearly in month 13",
            ])
        let dropped = "is invalid; dropped, the rest of the rule is expanded"
        #expect(
            payload.warnings == [
                "rrule-refused-parts.ics: event 'Weekly with BYMONTHDAY' (weekly-bymonthday): RRULE part 'BYMONTHDAY=5' \(dropped)",
                "rrule-refused-parts.ics: event 'Daily with BYWEEKNO' (daily-byweekno): RRULE part 'BYWEEKNO=3' \(dropped)",
                "rrule-refused-parts.ics: event 'Yearly in month 13' (bymonth-13): RRULE part 'BYMONTH=13' \(dropped)",
                "rrule-refused-parts.ics: event 'Sixth Monday of the month': RRULE could not be expanded; only its first occurrence is shown",
                "rrule-refused-parts.ics: event '30 February': RRULE could not be expanded; only its first occurrence is shown",
            ])
    }

    @Test("revisions of one UID are chosen across the VCALENDAR blocks of one file")
    func revisionsAcrossCalendars() async throws {
        let payload = try await Self.payload("two-vcalendars.ics", from: "2024-03-01", to: "2024-03-31")
        // SEQUENCE 1 (first block) beats SEQUENCE 0 (second block, later in the file); the
        // second block's override of the newer series applies to it.
        #expect(
            Self.rows(payload) == [
                "2024-03-04T10:00:00Z 2024-03-04T10:15:00Z standup Standup (moved to 10:00)",
                "2024-03-06T12:00:00Z 2024-03-06T13:00:00Z lunch Team lunch",
                "2024-03-08T15:00:00Z 2024-03-08T16:00:00Z retro Retro",
                "2024-03-11T10:00:00Z 2024-03-11T10:15:00Z standup Standup (moved to 10:00)",
                "2024-03-19T10:00:00Z 2024-03-19T10:15:00Z standup Standup (Tuesday)",
                "2024-03-25T10:00:00Z 2024-03-25T10:15:00Z standup Standup (moved to 10:00)",
            ])
        #expect(payload.warnings.isEmpty)
    }

    @Test("an invalid RRULE part is dropped with a warning and the rest expanded; COUNT beside UNTIL ends at the first")
    func invalidRulePart() async throws {
        let payload = try await Self.payload("invalid-rrule-part.ics", from: "2024-03-01", to: "2024-03-31")
        #expect(
            payload.starts == [
                "2024-03-01T09:00:00Z Negative COUNT beside UNTIL",
                "2024-03-02T09:00:00Z COUNT and UNTIL both", "2024-03-03T09:00:00Z COUNT and UNTIL both",
                "2024-03-04T09:00:00Z COUNT and UNTIL both",
                "2024-03-04T09:00:00Z UNTIL before COUNT", "2024-03-05T09:00:00Z UNTIL before COUNT",
                "2024-03-08T09:00:00Z Negative COUNT beside UNTIL", "2024-03-15T09:00:00Z Negative COUNT beside UNTIL",
                "2024-03-22T09:00:00Z Negative COUNT beside UNTIL", "2024-03-29T09:00:00Z Negative COUNT beside UNTIL",
            ])
        #expect(
            payload.warnings == [
                "invalid-rrule-part.ics: event 'Negative COUNT beside UNTIL' (negative-count): RRULE part 'COUNT=-1' is invalid; dropped, the rest of the rule is expanded"
            ])
    }

    @Test("a rule whose UNTIL is before DTSTART has no occurrences")
    func untilBeforeStart() async throws {
        let payload = try await Self.payload("until-before-start.ics", from: "2024-04-01", to: "2024-06-30")
        #expect(
            payload.starts == [
                "2024-05-10T12:00:00Z Control", "2024-05-11T12:00:00Z Control", "2024-05-12T12:00:00Z Control",
            ])
    }

    @Test("DTEND before DTSTART is read as the two swapped, with a warning")
    func backwards() async throws {
        let payload = try await Self.payload("dtend-before-dtstart.ics", from: "2024-05-01", to: "2024-05-31")
        #expect(
            Self.rows(payload) == [
                "2024-05-06T15:00:00Z 2024-05-06T16:00:00Z backwards-weekly Backwards weekly",  // 17:00-18:00 Berlin
                "2024-05-10T10:00:00Z 2024-05-10T12:00:00Z backwards Backwards meeting",
                "2024-05-11 2024-05-14 backwards-allday Backwards trip",
                "2024-05-13T15:00:00Z 2024-05-13T16:00:00Z backwards-weekly Backwards weekly",
                "2024-05-20T15:00:00Z 2024-05-20T16:00:00Z backwards-weekly Backwards weekly",
            ])
        #expect(payload.warnings.count == 3)
        #expect(payload.warnings.allSatisfy { $0.hasSuffix("DTEND before DTSTART; read as swapped") })
    }

    @Test(
        "DST: a time in the skipped hour uses the offset before it, a repeated hour is its first, later instances keep their wall time"
    )
    func daylightSaving() async throws {
        let payload = try await Self.payload("dst-gap-overlap.ics", from: "2024-01-01", to: "2024-12-31")
        #expect(
            Self.rows(payload) == [
                "2024-01-02T04:00:00Z 2024-01-02T04:30:00Z local-until Local UNTIL",
                "2024-01-03T04:00:00Z 2024-01-03T04:30:00Z local-until Local UNTIL",
                // An UNTIL without Z is wall time in DTSTART's zone: 3 Jan 23:00 New York is included.
                "2024-01-04T04:00:00Z 2024-01-04T04:30:00Z local-until Local UNTIL",
                "2024-03-29T01:30:00Z 2024-03-29T02:30:00Z night-shift Night shift",
                "2024-03-30T01:30:00Z 2024-03-30T02:30:00Z night-shift Night shift",
                // 02:30 does not exist on 31 Mar: read with the offset before the gap (CET), an hour long.
                "2024-03-31T01:30:00Z 2024-03-31T02:30:00Z night-shift Night shift",
                // And the next day is 02:30 CEST again, not 03:30.
                "2024-04-01T00:30:00Z 2024-04-01T01:30:00Z night-shift Night shift",
                "2024-10-26T00:30:00Z 2024-10-26T01:00:00Z backup Backup",
                // 02:30 happens twice on 27 Oct: the first one (CEST).
                "2024-10-27T00:30:00Z 2024-10-27T01:00:00Z backup Backup",
                "2024-10-28T01:30:00Z 2024-10-28T02:00:00Z backup Backup",
            ])
    }

    @Test("no SUMMARY: null in JSON and '(no title)' in context; other titles as written, trimmed")
    func noSummary() async throws {
        let harness = CalendarHarness(now: "2024-05-20T08:00:00Z", zone: "UTC")
        let result = try await harness.run([
            "--ics", Fixtures.url("calendar/reproducers/no-summary.ics").path, "--from", "2024-05-20", "--to",
            "2024-05-26",
        ])
        let payload = try #require(result.payload as? CalendarPayload)
        #expect(payload.events.map(\.summary) == [nil, nil, "Padded title", "Lunch, then a walk; bring shoes"])
        let data =
            try JSONSerialization.jsonObject(with: Data(try Envelope.dataJSON(result.payload).utf8)) as? [String: Any]
        let events = try #require(data?["events"] as? [[String: Any]])
        #expect(events.map { $0["summary"] is NSNull } == [true, true, false, false])
        let context = try harness.context(result)
        #expect(context.contains("- 09:00–10:00: (no title)"))
        #expect(context.contains("- all day: (no title)"))
    }

    @Test("a task with no SUMMARY: null in JSON, '(no title)' in context")
    func taskWithoutSummary() async throws {
        let harness = CalendarHarness(now: "2024-05-20T08:00:00Z", zone: "UTC")
        let result = try await harness.run(["tasks", "--ics", Fixtures.url("calendar/reproducers/no-summary.ics").path])
        let payload = try #require(result.payload as? CalendarPayload)
        #expect(payload.tasks.map(\.summary) == [nil, "Padded task"])
        let data =
            try JSONSerialization.jsonObject(with: Data(try Envelope.dataJSON(result.payload).utf8)) as? [String: Any]
        let tasks = try #require(data?["tasks"] as? [[String: Any]])
        #expect(tasks.map { $0["summary"] is NSNull } == [true, false])
        let context = try harness.context(result)
        #expect(context.contains("- due Mon 20 May 2024 (today) 17:00: (no title)"), "\(context)")
    }
}
