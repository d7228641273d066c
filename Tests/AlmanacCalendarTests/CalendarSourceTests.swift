import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCalendar

/// Which URL a feed link is fetched from (the loopback cases are served for real in
/// `Tests/toolsTests/CalendarSourcesEndToEnd.swift`).
@Suite("Calendar feed URLs")
struct CalendarSourceTests {
    static let feed = Data(
        """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//almanac//feed url test//EN\r
        BEGIN:VEVENT\r
        UID:feed-1\r
        DTSTART:20240610T090000Z\r
        DTEND:20240610T093000Z\r
        SUMMARY:From the feed\r
        END:VEVENT\r
        END:VCALENDAR\r

        """.utf8)

    @Test(
        "webcal:// is fetched over https, except on this machine; webcals:// always over https",
        arguments: [
            ("webcal://calendar.example.com/u/abc123/basic.ics", "https://calendar.example.com/u/abc123/basic.ics"),
            ("WEBCAL://Calendar.Example.com/basic.ics", "https://Calendar.Example.com/basic.ics"),
            ("webcals://calendar.example.com/basic.ics", "https://calendar.example.com/basic.ics"),
            ("webcal://127.0.0.1:8123/basic.ics", "http://127.0.0.1:8123/basic.ics"),
            ("webcal://localhost/basic.ics", "http://localhost/basic.ics"),
            ("webcal://[::1]:8123/basic.ics", "http://[::1]:8123/basic.ics"),
            ("webcals://127.0.0.1:8123/basic.ics", "https://127.0.0.1:8123/basic.ics"),
            ("http://calendar.example.com/basic.ics", "http://calendar.example.com/basic.ics"),
        ])
    func webcal(link: String, fetched: String) async throws {
        let log = RequestLog()
        var harness = CalendarHarness(now: "2024-06-10T08:00:00Z", zone: "UTC")
        harness.transport = RecordingTransport(
            inner: StubTransport { _ in
                HTTPResponse(status: 200, headers: ["Content-Type": "text/calendar"], body: Self.feed)
            },
            log: log)
        let payload = try await harness.payload(["--ics", link])
        #expect(await log.requests.map(\.url.absoluteString) == [fetched])
        #expect(payload.events.map(\.summary) == ["From the feed"])
        // Named after the file, not the scheme or host.
        #expect(payload.events.map(\.calendar) == ["basic"])
    }
}
