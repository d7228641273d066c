import AlmanacTesting
import Foundation
import Testing

/// The built `tools` binary on damaged, malformed and huge calendar files (all synthetic, made
/// here at run time): each problem is named per event or per file, and everything else is shown.
@Suite("tools run calendar: malformed, cut-off and huge files")
struct CalendarBadInputEndToEndTests {
    static func calendar(_ lines: [String]) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//almanac//bad input test//EN"] + lines).joined(separator: "\r\n")
    }

    static func event(_ uid: String?, _ summary: String, _ properties: String...) -> [String] {
        ["BEGIN:VEVENT"] + (uid.map { ["UID:\($0)"] } ?? []) + ["SUMMARY:\(summary)"] + properties + ["END:VEVENT"]
    }

    struct Run {
        var status: Int32
        var stderr: String
        var events: [String]
        var warnings: [String]
    }

    /// `tools run calendar --ics PATH --from --to --tz UTC --format json`, with events as "start summary".
    static func run(
        _ path: URL, from: String, to: String, scratch: borrowing Scratch, extra: [String: String] = [:]
    ) async throws -> Run {
        let output = try await ToolsBinary.run(
            ["run", "calendar", "--ics", path.path, "--from", from, "--to", to, "--tz", "UTC", "--format", "json"],
            environment: scratch.environment(extra))
        guard output.status == 0 else {
            return Run(status: output.status, stderr: output.stderr, events: [], warnings: [])
        }
        let envelope = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let data = try #require(envelope["data"] as? [String: Any])
        let events = try #require(data["events"] as? [[String: Any]])
        return Run(
            status: output.status, stderr: output.stderr,
            events: events.map { "\($0["start"] as? String ?? "?") \($0["summary"] as? String ?? "?")" },
            warnings: try #require(data["warnings"] as? [String]))
    }

    @Test("a file cut off mid-event: the complete events are shown and the cut is reported")
    func cutOff() async throws {
        let scratch = try Scratch()
        let whole = Self.calendar(
            Self.event("one", "First", "DTSTART:20240105T100000Z", "DTEND:20240105T110000Z")
                + Self.event("two", "Second", "DTSTART:20240106T100000Z", "DTEND:20240106T110000Z"))
        let cut = scratch.url.appendingPathComponent("cut.ics")
        // An interrupted download: the second event loses its last two lines and the file its end.
        try (whole + "\r\nBEGIN:VEVENT\r\nUID:three\r\nSUMMARY:Third\r\nDTSTART:20240107T10").write(
            to: cut, atomically: true, encoding: .utf8)
        let run = try await Self.run(cut, from: "2024-01-01", to: "2024-01-31", scratch: scratch)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.events == ["2024-01-05T10:00:00Z First", "2024-01-06T10:00:00Z Second"])
        #expect(
            run.warnings == [
                "cut.ics: file ends early (no END:VCALENDAR); the last 4 lines (an unfinished entry) skipped"
            ])

        // Only END:VCALENDAR missing: nothing is lost, and the warning says so.
        let unclosed = scratch.url.appendingPathComponent("unclosed.ics")
        try (whole + "\r\n").write(to: unclosed, atomically: true, encoding: .utf8)
        let second = try await Self.run(unclosed, from: "2024-01-01", to: "2024-01-31", scratch: scratch)
        #expect(second.events == ["2024-01-05T10:00:00Z First", "2024-01-06T10:00:00Z Second"])
        #expect(second.warnings == ["unclosed.ics: no END:VCALENDAR at the end; read as if it were there"])
    }

    @Test("malformed events are named one by one; the good ones and the readable parts are shown")
    func malformed() async throws {
        let scratch = try Scratch()
        let file = scratch.url.appendingPathComponent("mixed.ics")
        let text = Self.calendar(
            Self.event("good", "Good", "DTSTART:20240102T100000Z", "DTEND:20240102T110000Z")
                + ["this line is not iCalendar at all"]
                + Self.event("no-start", "No start", "DTEND:20240103T110000Z")
                + Self.event("bad-start", "Bad start", "DTSTART:2024-01-04 10:00")
                + Self.event("no-freq", "No FREQ", "DTSTART:20240105T100000Z", "RRULE:COUNT=3")
                + Self.event("bad-day", "Bad BYDAY", "DTSTART:20240106T100000Z", "RRULE:FREQ=WEEKLY;BYDAY=XX")
                + Self.event(nil, "No UID", "DTSTART:20240107T100000Z")
                + Self.event("mars", "Mars time", "DTSTART;TZID=Mars/Olympus:20240108T100000")
                + Self.event("backwards", "Backwards", "DTSTART:20240109T100000Z", "DTEND:20240109T090000Z")
                + Self.event("weekly", "Weekly", "DTSTART:20240110T100000Z", "RRULE:FREQ=WEEKLY;COUNT=3")
                + ["END:VCALENDAR", ""])
        try text.write(to: file, atomically: true, encoding: .utf8)
        let run = try await Self.run(file, from: "2024-01-01", to: "2024-01-31", scratch: scratch)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(
            run.events == [
                "2024-01-02T10:00:00Z Good",
                "2024-01-05T10:00:00Z No FREQ",  // the rule is dropped, the first occurrence stays
                "2024-01-06T10:00:00Z Bad BYDAY",  // weekly, the bad BYDAY part dropped
                "2024-01-07T10:00:00Z No UID",
                "2024-01-08T10:00:00Z Mars time",  // an unknown zone is read in the viewer's
                "2024-01-09T09:00:00Z Backwards",  // DTEND and DTSTART swapped
                "2024-01-10T10:00:00Z Weekly",
                "2024-01-13T10:00:00Z Bad BYDAY",
                "2024-01-17T10:00:00Z Weekly",
                "2024-01-20T10:00:00Z Bad BYDAY",
                "2024-01-24T10:00:00Z Weekly",
                "2024-01-27T10:00:00Z Bad BYDAY",
            ])
        let unreadableRule =
            "unreadable property skipped (Can't parse as RECUR value in RRULE property. Removing entire property)"
        #expect(
            run.warnings == [
                "mixed.ics: event 'No start' (no-start) has no valid DTSTART; skipped",
                "mixed.ics: event 'Bad start' (bad-start) has no valid DTSTART; skipped",
                "mixed.ics: event 'No FREQ' (no-freq): \(unreadableRule)",
                "mixed.ics: event 'Bad BYDAY' (bad-day): RRULE part 'BYDAY=XX' is invalid; dropped, the rest of the rule is expanded",
                "mixed.ics: event 'No UID' has no UID; shown, but overrides cannot apply to it",
                "mixed.ics: event 'Backwards' (backwards): DTEND before DTSTART; read as swapped",
                "mixed.ics: unknown time zone 'Mars/Olympus', read as GMT",
            ])
    }

    @Test("huge input: 50,000 events are read, a 30 MB file is skipped by name, an endless rule is cut off")
    func huge() async throws {
        let scratch = try Scratch()
        let folder = scratch.url.appendingPathComponent("calendars")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)

        // Written in chunks and read back as small JSON: this test process spawns the others, and
        // FaultMatrix reads each child's peak RSS, which on Linux starts from the parent's own peak.
        func write(_ name: String, chunks: Int, _ chunk: (Int) -> String) throws {
            let url = folder.appendingPathComponent(name)
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown)
            }
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            try handle.write(contentsOf: Data((Self.calendar([]) + "\r\n").utf8))
            for index in 0..<chunks { try handle.write(contentsOf: Data(chunk(index).utf8)) }
            try handle.write(contentsOf: Data("END:VCALENDAR\r\n".utf8))
        }

        // 50,000 one-off events over February (about 10 MB), generated here, never committed.
        try write("many.ics", chunks: 50) { chunk in
            var text = ""
            for index in chunk * 1_000..<(chunk + 1) * 1_000 {
                let day = 1 + index % 28
                let hour = index % 24
                let stamp = "202402\(day < 10 ? "0" : "")\(day)T\(hour < 10 ? "0" : "")\(hour)"
                text +=
                    Self.event(
                        "gen-\(index)", "Generated \(index)", "DTSTART:\(stamp)0000Z", "DTEND:\(stamp)3000Z",
                        "DESCRIPTION:" + String(repeating: "x", count: 60)
                    ).joined(separator: "\r\n") + "\r\n"
            }
            return text
        }

        // 30 MB: over the limit for one file (raised to 20 MB here so that many.ics, ~10 MB, is read).
        let filler = "BEGIN:VEVENT\r\nUID:filler\r\nDTSTART:20240203T100000Z\r\nSUMMARY:filler\r\nEND:VEVENT\r\n"
        let megabyte = String(repeating: filler, count: (1 << 20) / filler.utf8.count + 1)
        try write("huge.ics", chunks: 30) { _ in megabyte }

        // A rule that never ends, every second from two days before the window: expansion stops
        // after 50,000 occurrences (under 14 hours), long before the window.
        try write("secondly.ics", chunks: 1) { _ in
            Self.event("endless", "Endless", "DTSTART:20240201T000000Z", "RRULE:FREQ=SECONDLY").joined(
                separator: "\r\n") + "\r\n"
        }
        // And one ordinary file beside them.
        try write("small.ics", chunks: 1) { _ in
            Self.event("small", "Small", "DTSTART:20240203T001500Z", "DTEND:20240203T004500Z").joined(separator: "\r\n")
                + "\r\n"
        }

        // Limits raised: this test is about reading big input, not about the default caps.
        let limits = [
            "ALMANAC_CALENDAR_MAX_SOURCE_BYTES": String(20 << 20), "ALMANAC_CALENDAR_MAX_OCCURRENCES": "5000",
        ]
        let run = try await Self.run(folder, from: "2024-02-03", to: "2024-02-03", scratch: scratch, extra: limits)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(
            run.warnings == [
                "huge.ics: 30.0 MB is over the 20.0 MB limit; skipped",
                "secondly.ics: event 'Endless': recurrence stopped after 50000 occurrences",
            ])
        // Every generated event on 3 Feb (index % 28 == 2): 1,786 of them, and the small file's one.
        #expect(run.events.filter { $0.contains(" Generated ") }.count == 1_786)
        #expect(run.events.first == "2024-02-03T00:15:00Z Small")
        #expect(run.events.count == 1_787)

        // The huge file alone: exit 69 naming it and the limit.
        let alone = try await Self.run(
            folder.appendingPathComponent("huge.ics"), from: "2024-02-03", to: "2024-02-03", scratch: scratch,
            extra: limits)
        #expect(alone.status == 69)
        #expect(alone.stderr.contains("ics-file: huge.ics: 30.0 MB is over the 20.0 MB limit; skipped"))

        // The defaults: 10 MB per source (many.ics, ~10 MB, is over it too) and 1,000 events per
        // answer, the rest counted.
        let defaults = try await Self.run(folder, from: "2024-02-03", to: "2024-02-03", scratch: scratch)
        #expect(defaults.warnings.contains("huge.ics: 30.0 MB is over the 10.0 MB limit; skipped"))
        let capped = try await Self.run(
            folder, from: "2024-02-03", to: "2024-02-03", scratch: scratch,
            extra: ["ALMANAC_CALENDAR_MAX_SOURCE_BYTES": String(20 << 20)])
        #expect(capped.events.count == 1_000)
        #expect(capped.events.first == "2024-02-03T00:15:00Z Small")
    }

    @Test("a folder walk is bounded: the filesystem root answers at once with one line, not after a walk of everything")
    func boundedWalk() async throws {
        let scratch = try Scratch()
        // The old code walked all of / (11.6 s here) and ignored the provider deadline.
        let output = try await ToolsBinary.run(
            ["run", "calendar", "--ics", "/"], environment: scratch.environment(["ALMANAC_TIMEOUT": "3"]), timeout: 30)
        #expect(output.status == 69)
        #expect(
            output.stderr.contains("ics-file: / holds more than 20000 entries; name a smaller folder"),
            "\(output.stderr)")
        #expect(output.stdout.isEmpty)
    }
}
