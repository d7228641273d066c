import AlmanacTesting
import Foundation
import Testing

/// The built `tools` binary on .ics files: every corpus file as JSON, and damaged input.
@Suite("tools run calendar, end to end")
struct CalendarEndToEndTests {
    static let corpus: [String] = {
        let folder = Fixtures.url("calendar/ics")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".ics") }.sorted()
    }()

    /// One good event, one with an unreadable RRULE, one without a UID (synthetic damage).
    static let mixed = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//almanac//damaged//EN",
        "BEGIN:VEVENT", "UID:good-1", "DTSTART:20240105T100000Z", "DTEND:20240105T110000Z", "SUMMARY:Good event",
        "END:VEVENT",
        "BEGIN:VEVENT", "UID:bad-rrule", "DTSTART:20240106T100000Z", "DTEND:20240106T110000Z",
        "RRULE:FREQ=SOMETIMES;COUNT=x", "SUMMARY:Bad rule", "END:VEVENT",
        "BEGIN:VEVENT", "DTSTART:20240107T100000Z", "DTEND:20240107T110000Z", "SUMMARY:No uid", "END:VEVENT",
        "END:VCALENDAR", "",
    ].joined(separator: "\r\n")

    func json(_ output: CommandOutput) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
    }

    @Test("any corpus file, a whole year, --format json: events in the documented shape", arguments: corpus)
    func wholeYearJSON(file: String) async throws {
        let scratch = try Scratch()
        let output = try await ToolsBinary.run(
            [
                "run", "calendar", "--ics", Fixtures.url("calendar/ics/\(file)").path, "--from", "2024-01-01", "--to",
                "2024-12-31", "--tz", "UTC", "--format", "json",
            ], environment: scratch.environment())
        #expect(output.status == 0, "\(file): \(output.stderr)")
        let envelope = try json(output)
        #expect(envelope["tool"] as? String == "calendar")
        #expect(envelope["provider"] as? String == "ics-file")
        let events = try #require((envelope["data"] as? [String: Any])?["events"] as? [[String: Any]])
        let instant = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/
        let day = /\d{4}-\d{2}-\d{2}/
        for event in events {
            let allDay = try #require(event["allDay"] as? Bool)
            for key in ["start", "end"] {
                let value = try #require(event[key] as? String, "\(file): \(key) missing")
                #expect(
                    allDay ? value.wholeMatch(of: day) != nil : value.wholeMatch(of: instant) != nil,
                    "\(file): \(value)")
            }
            #expect(
                event.keys.contains("uid") && event.keys.contains("recurrenceId") && event.keys.contains("location"))
            #expect(event["calendar"] is String && event["summary"] is String)
        }
    }

    @Test("a damaged event is reported by name and the rest is still shown; a non-calendar file says so")
    func damaged() async throws {
        let scratch = try Scratch()
        let mixed = scratch.url.appendingPathComponent("mixed.ics")
        try Self.mixed.write(to: mixed, atomically: true, encoding: .utf8)
        let output = try await ToolsBinary.run(
            ["run", "calendar", "--ics", mixed.path, "--from", "2024-01-01", "--to", "2024-01-31", "--tz", "UTC"],
            environment: scratch.environment())
        #expect(output.status == 0, "stderr: \(output.stderr)")
        for summary in ["Good event", "Bad rule", "No uid"] { #expect(output.stdout.contains(summary)) }
        #expect(output.stdout.contains("2 problems reading the calendars (the rest is shown)"))
        #expect(output.stdout.contains("event 'Bad rule' (bad-rrule): unreadable property skipped"))
        #expect(output.stdout.contains("event 'No uid' has no UID"))

        let garbage = scratch.url.appendingPathComponent("notes.ics")
        try "this is not a calendar\n".write(to: garbage, atomically: true, encoding: .utf8)
        let folder = try await ToolsBinary.run(
            [
                "run", "calendar", "--ics", scratch.url.path, "--from", "2024-01-01", "--to", "2024-01-31", "--tz",
                "UTC",
            ],
            environment: scratch.environment())
        #expect(folder.status == 0)
        #expect(folder.stdout.contains("Good event"))
        #expect(folder.stdout.contains("notes.ics: not an iCalendar file (no BEGIN:VCALENDAR)"))
    }

    @Test("a missing file exits 69 naming it; a bad date exits 64 with the expected form")
    func badInput() async throws {
        let scratch = try Scratch()
        let missing = try await ToolsBinary.run(
            ["run", "calendar", "--ics", "/nonexistent/almanac.ics"], environment: scratch.environment())
        #expect(missing.status == 69)
        #expect(missing.stderr.contains("ics-file: no such file or folder: /nonexistent/almanac.ics"))
        let date = try await ToolsBinary.run(
            ["run", "calendar", "--ics", "/nonexistent/almanac.ics", "--from", "2024-13-01"],
            environment: scratch.environment())
        #expect(date.status == 64)
        #expect(date.stderr.hasPrefix("error: --from must be a date in the form YYYY-MM-DD, got '2024-13-01'"))
    }
}
