import AlmanacCore
import AlmanacCurl
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCalendar

/// Issue 31 items 15, 17 and 19: what real producers' files say that was read wrong.
@Suite("Calendar input: iTIP cancellations, windows-1252 text, repeated warnings")
struct CalendarInputTests {
    static func derived(_ name: String) -> String { Fixtures.url("calendar/derived/\(name)").path }

    // MARK: METHOD:CANCEL (item 15)

    @Test("a meeting whose file says METHOD:CANCEL is not shown; the same file as PUBLISH shows it")
    func methodCancel() async throws {
        let harness = CalendarHarness(now: "2024-10-28T12:00:00Z", zone: "America/New_York")
        let words = ["--from", "2024-10-28", "--to", "2024-10-28"]
        let published = try await harness.payload(
            ["--ics", Fixtures.url("calendar/ics/exchange2010-eastern-standard-time.ics").path] + words)
        #expect(published.events.map(\.summary) == ["Anonymous Test Event for TZID"])
        let cancelled = try await harness.payload(["--ics", Self.derived("exchange2010-method-cancel.ics")] + words)
        #expect(cancelled.events.isEmpty)
        #expect(cancelled.warnings.isEmpty)
        // The whole-file path (a file ICalendarParts does not cut) reads METHOD the same way.
        let text = try String(contentsOfFile: Self.derived("exchange2010-method-cancel.ics"), encoding: .utf8)
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        let window = ExpansionWindow(
            start: CivilDate(year: 2024, month: 10, day: 28).start(in: zone),
            end: CivilDate(year: 2024, month: 10, day: 29).start(in: zone), zone: zone)
        let whole = try await ICalendarDocument(text: text, name: "x.ics").expand(in: window, calendar: "c")
        #expect(whole.events.isEmpty)
    }

    @Test("tasks of a METHOD:CANCEL calendar are left out, as cancelled tasks are")
    func methodCancelTasks() async throws {
        let text = try String(contentsOfFile: Handwritten.path("tasks.ics"), encoding: .utf8)
        let open = try ICalendarDocument(text: text, name: "tasks.ics")
            .tasks(now: Date(timeIntervalSince1970: 1_718_006_400), zone: .gmt, calendar: "t")
        #expect(!open.tasks.isEmpty)
        let cancelling = text.replacingOccurrences(
            of: "BEGIN:VCALENDAR\r\n", with: "BEGIN:VCALENDAR\r\nMETHOD:CANCEL\r\n")
        #expect(cancelling != text)
        let cancelled = try ICalendarDocument(text: cancelling, name: "tasks.ics")
            .tasks(now: Date(timeIntervalSince1970: 1_718_006_400), zone: .gmt, calendar: "t")
        #expect(cancelled.tasks.isEmpty)
    }

    // MARK: windows-1252 (item 17)

    static let expectedTitles = ["Germany: New Year\u{2019}s Day", "Germany: St Stephen\u{2019}s Day"]

    /// Whether `text` holds a C1 control (U+0080–U+009F).
    static func hasC1(_ text: String) -> Bool { text.unicodeScalars.contains { (0x80..<0xA0).contains($0.value) } }

    @Test("a windows-1252 file's 0x92 is an apostrophe in JSON and context, from a file")
    func windows1252File() async throws {
        let harness = CalendarHarness(now: "2008-01-01T08:00:00Z", zone: "Europe/Berlin")
        let result = try await harness.run(
            [
                "--ics", Self.derived("outlook12-windows-1252-apostrophe.ics"), "--from", "2008-01-01", "--to",
                "2008-12-31",
            ])
        let payload = try #require(result.payload as? CalendarPayload)
        #expect(payload.events.map(\.summary) == Self.expectedTitles.map(Optional.some))
        #expect(payload.events.allSatisfy { !Self.hasC1($0.description ?? "") })
        let json = try result.render(.json, now: harness.now, timeZone: .gmt, budget: ContextBudget(tokens: nil))
        #expect(!Self.hasC1(json))
        #expect(json.contains("New Year\u{2019}s Day"))
        let context = try harness.context(result)
        #expect(context.contains("New Year\u{2019}s Day"))
    }

    @Test("the same bytes from a feed read the same")
    func windows1252Feed() async throws {
        let body = try Data(contentsOf: URL(fileURLWithPath: Self.derived("outlook12-windows-1252-apostrophe.ics")))
        var harness = CalendarHarness(now: "2008-01-01T08:00:00Z", zone: "Europe/Berlin")
        harness.transport = StubTransport { _ in
            HTTPResponse(status: 200, headers: ["Content-Type": "text/calendar"], body: body)
        }
        let payload = try await harness.payload(
            ["--ics", "https://calendar.example.com/holidays.ics", "--from", "2008-01-01", "--to", "2008-12-31"])
        #expect(payload.events.map(\.summary) == Self.expectedTitles.map(Optional.some))
    }

    @Test(
        "bytes decode as UTF-8 where they are UTF-8, else windows-1252, never to a C1 control",
        arguments: [
            ([0x42, 0x6F, 0x62, 0x92, 0x73], "Bob\u{2019}s"),  // windows-1252 apostrophe
            ([0xC3, 0xA9, 0x20, 0xE9], "\u{E9} \u{E9}"),  // UTF-8 é beside windows-1252 é
            ([0xEF, 0xBB, 0xBF, 0x41, 0xE2, 0x80, 0x99], "A\u{2019}"),  // BOM, UTF-8 apostrophe
            ([0x41, 0xC2, 0x92, 0x42], "A\u{2019}B"),  // UTF-8 of U+0092 (text once read as Latin-1)
            ([0x80, 0x81, 0x9D, 0x9F], "\u{20AC}\u{FFFD}\u{FFFD}\u{178}"),  // € / undefined / Ÿ
            ([0xE2, 0x80, 0x41], "\u{E2}\u{20AC}A"),  // a cut-off sequence, byte by byte
        ] as [([UInt8], String)])
    func decode(bytes: [UInt8], text: String) {
        let decoded = CalendarText.decode(Data(bytes))
        #expect(decoded == text)
        #expect(!Self.hasC1(decoded))
    }

    // MARK: Repeated warnings (item 19)

    /// The Outlook holiday file (159 events) with every UID line taken out, in a temporary file.
    static func withoutUIDs<T>(keep: Int? = nil, _ body: (String) async throws -> T) async throws -> T {
        let text = try String(
            contentsOf: Fixtures.url("calendar/ics/outlook12-germany-holidays-allday.ics"), encoding: .utf8)
        var lines = text.components(separatedBy: "\r\n").filter { !$0.hasPrefix("UID:") }
        if let keep {
            // Only the first `keep` events: cut after the keep-th END:VEVENT.
            var ends = 0
            let cut = lines.firstIndex { line in
                if line == "END:VEVENT" { ends += 1 }
                return ends == keep
            }
            if let cut { lines = Array(lines[...cut]) + ["END:VCALENDAR", ""] }
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-no-uid-\(UUID()).ics")
        try Data(lines.joined(separator: "\r\n").utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try await body(url.path)
    }

    @Test("159 events without a UID make one warning line, naming three and counting the rest")
    func noUIDSummarised() async throws {
        let harness = CalendarHarness(now: "2008-01-01T08:00:00Z", zone: "Europe/Berlin")
        let payload = try await Self.withoutUIDs { path in
            try await harness.payload(["--ics", path, "--from", "2008-01-01", "--to", "2008-12-31"])
        }
        #expect(payload.events.count > 10)
        let noUID = payload.warnings.filter { $0.contains("no UID") }
        #expect(noUID.count == 1)
        #expect(
            noUID.first?.hasSuffix(
                "159 events have no UID; shown, but overrides cannot apply to them ('Germany: New Years Day', "
                    + "'Germany: Epiphany', 'Germany: Good Friday' and 156 more)") == true)
    }

    @Test("a problem met three times is still said for each event")
    func fewSaidAlone() async throws {
        let harness = CalendarHarness(now: "2008-01-01T08:00:00Z", zone: "Europe/Berlin")
        let payload = try await Self.withoutUIDs(keep: 3) { path in
            try await harness.payload(["--ics", path, "--from", "2008-01-01", "--to", "2008-12-31"])
        }
        #expect(payload.events.count == 3)
        #expect(
            payload.warnings.filter { $0.contains("no UID") }.map { $0.split(separator: ":", maxSplits: 1)[1] } == [
                " event 'Germany: New Years Day' has no UID; shown, but overrides cannot apply to it",
                " event 'Germany: Epiphany' has no UID; shown, but overrides cannot apply to it",
                " event 'Germany: Good Friday' has no UID; shown, but overrides cannot apply to it",
            ])
    }

    @Test("grouping keeps the order of first mention and leaves other lines as they are")
    func groupingOrder() {
        func note(_ title: String, _ problem: String) -> ItemNote {
            ItemNote(line: "f.ics: event '\(title)': \(problem)", group: ": \(problem)", item: "'\(title)'")
        }
        let notes =
            [ItemNote("f.ics: first")] + (1...5).map { note("E\($0)", "bad RRULE") } + [note("X", "DTEND")]
            + [ItemNote("f.ics: last")]
        #expect(
            ItemNote.lines(notes, file: "f.ics", nouns: "events") == [
                "f.ics: first", "f.ics: 5 events: bad RRULE ('E1', 'E2', 'E3' and 2 more)", "f.ics: event 'X': DTEND",
                "f.ics: last",
            ])
    }
}

/// Item 17 over CalDAV, against a real Radicale: text a server holds after a Latin-1 decoder (C1
/// controls), and a server that sends windows-1252 bytes inside its UTF-8 XML. Radicale itself
/// only stores UTF-8, so that second fault is made by rewriting its real answer's bytes.
@Suite("CalDAV text encodings against Radicale", .serialized, .enabled(if: RadicaleServer.mayRun))
struct CalDAVEncodingTests {
    /// Turns every UTF-8 right single quote (E2 80 99) in REPORT answers into windows-1252's 0x92.
    struct Windows1252Answers: HTTPTransport {
        let inner: any HTTPTransport
        func send(_ request: HTTPRequest, timeout: Duration) async throws -> HTTPResponse {
            var response = try await inner.send(request, timeout: timeout)
            guard request.method == "REPORT" else { return response }
            var bytes = [UInt8](response.body)
            var index = 0
            var out: [UInt8] = []
            while index < bytes.count {
                if index + 2 < bytes.count, bytes[index] == 0xE2, bytes[index + 1] == 0x80, bytes[index + 2] == 0x99 {
                    out.append(0x92)
                    index += 3
                } else {
                    out.append(bytes[index])
                    index += 1
                }
            }
            bytes = out
            response.body = Data(bytes)
            return response
        }
    }

    static func event(uid: String, summary: String, day: Int) -> String {
        [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//almanac//tests//EN", "BEGIN:VEVENT", "UID:\(uid)",
            "DTSTAMP:20240601T000000Z", "DTSTART:202406\(day)T090000Z", "DTEND:202406\(day)T100000Z",
            "SUMMARY:\(summary)", "END:VEVENT", "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
    }

    @Test("C1 controls a server holds, and windows-1252 bytes in its XML, become the characters meant")
    func encodings() async throws {
        let server = try RadicaleServer()
        defer { server.stop() }
        try await server.waitUntilReady()
        try await server.makeCalendar("/alice/office/", name: "Work")
        try await server.put("/alice/office/a.ics", Self.event(uid: "a", summary: "Ann\u{0092}s review", day: 11))
        try await server.put("/alice/office/b.ics", Self.event(uid: "b", summary: "Bob\u{2019}s review", day: 12))
        for rewrite in [false, true] {
            var harness = CalendarHarness(now: "2024-06-10T08:00:00Z", zone: "UTC")
            harness.transport = rewrite ? Windows1252Answers(inner: CurlTransport()) : CurlTransport()
            harness.settings = Settings(environment: [
                "ALMANAC_CALDAV_USER": RadicaleServer.user, "ALMANAC_CALDAV_PASSWORD": RadicaleServer.password,
            ])
            let payload = try await harness.payload(
                ["--caldav", server.base.absoluteString, "--from", "2024-06-10", "--to", "2024-06-16"])
            #expect(
                payload.events.map(\.summary) == ["Ann\u{2019}s review", "Bob\u{2019}s review"], "rewrite: \(rewrite)")
        }
    }
}
