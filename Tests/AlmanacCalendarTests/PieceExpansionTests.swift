import AlmanacCore
import Foundation
import Testing

@testable import AlmanacCalendar

/// A big file is parsed a piece at a time (issue 21, memory): the result must be the one the
/// whole file parsed at once gives, revisions and overrides across pieces included, and only the
/// plain shape is cut.
struct PieceExpansionTests {
    /// A zone the database does not know: only the file's VTIMEZONE (kept beside every piece) has it.
    static let customZone = [
        "BEGIN:VTIMEZONE", "TZID:Custom Office Time", "BEGIN:STANDARD", "DTSTART:19700101T000000",
        "TZOFFSETFROM:+0530", "TZOFFSETTO:+0530", "END:STANDARD", "END:VTIMEZONE",
    ]

    static func oneOff(
        _ index: Int, uid: String? = nil, sequence: Int? = nil, month: Int = 1, summary: String? = nil
    ) -> [String] {
        let day = 1 + index % 28
        var lines = [
            "BEGIN:VEVENT", "UID:\(uid ?? "one-\(index)")", "DTSTAMP:20240101T000000Z",
            String(format: "DTSTART:2024%02d%02dT%02d0000Z", month, day, index % 24),
            String(format: "DTEND:2024%02d%02dT%02d3000Z", month, day, index % 24),
            "SUMMARY:\(summary ?? "One-off \(index)")", "DESCRIPTION:Notes \(index)",
        ]
        if let sequence { lines.append("SEQUENCE:\(sequence)") }
        return lines + ["END:VEVENT"]
    }

    /// Over two pieces of events: series, overrides, one-offs; a revised event whose newer copy
    /// (moved out of the window) is in a later piece, one whose newer copy moved into it, an
    /// override far from its master, a floating time read in X-WR-TIMEZONE (written after the
    /// events), the custom zone, an event without DTSTART, a one-off in January an override in a
    /// later piece moves into the window, and a one-off without a UID.
    static func document() -> String {
        let filler = ICalendarDocument.eventsPerPiece + 700
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//almanac//tests//EN"] + customZone
        lines += oneOff(1, uid: "moved-out", sequence: 0, month: 3, summary: "Old copy, in March")
        lines += oneOff(2, uid: "moved-in", sequence: 1, month: 3, summary: "New copy, in March")
        lines += (0..<200).flatMap(ParallelExpansionTests.events)
        lines += [
            "BEGIN:VEVENT", "UID:far-series", "DTSTAMP:20240101T000000Z", "SUMMARY:Weekly in office time",
            "DTSTART;TZID=Custom Office Time:20240105T090000", "DURATION:PT1H", "RRULE:FREQ=WEEKLY;COUNT=20",
            "END:VEVENT",
            "BEGIN:VEVENT", "UID:floating", "DTSTAMP:20240101T000000Z", "SUMMARY:Floating lunch",
            "DTSTART:20240312T120000", "DURATION:PT1H", "END:VEVENT",
            "BEGIN:VEVENT", "UID:no-start", "SUMMARY:Never placed", "END:VEVENT",
            "BEGIN:VEVENT", "UID:one-off-moved-by-override", "DTSTAMP:20240101T000000Z", "SUMMARY:January plan",
            "DTSTART:20240110T100000Z", "DURATION:PT1H", "END:VEVENT",
            "BEGIN:VEVENT", "DTSTAMP:20240101T000000Z", "SUMMARY:No UID, in January",
            "DTSTART:20240111T100000Z", "DURATION:PT1H", "END:VEVENT",
            "BEGIN:VTODO", "UID:todo", "SUMMARY:Not an event", "END:VTODO",
        ]
        lines += (0..<filler).flatMap { oneOff($0, month: 1 + $0 % 12) }
        lines += oneOff(3, uid: "moved-out", sequence: 1, month: 7, summary: "New copy, in July")
        lines += oneOff(4, uid: "moved-in", sequence: 0, month: 8, summary: "Old copy, in August")
        lines += [
            "BEGIN:VEVENT", "UID:far-series", "DTSTAMP:20240101T000000Z", "SUMMARY:Moved weekly",
            "RECURRENCE-ID;TZID=Custom Office Time:20240308T090000", "DTSTART;TZID=Custom Office Time:20240308T150000",
            "DURATION:PT1H", "END:VEVENT",
            "BEGIN:VEVENT", "UID:one-off-moved-by-override", "DTSTAMP:20240101T000000Z", "SUMMARY:Moved to March",
            "RECURRENCE-ID:20240110T100000Z", "DTSTART:20240320T100000Z", "DURATION:PT1H", "END:VEVENT",
            "X-WR-TIMEZONE:Asia/Tokyo",
            "END:VCALENDAR",
        ]
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    static func rows(_ events: [CalendarEvent]) -> [String] {
        events.map {
            "\($0.uid) \($0.start.json) \($0.end.json) \($0.recurrenceId?.json ?? "-") \($0.summary ?? "(no title)") \($0.description ?? "-")"
        }
        .sorted()
    }

    @Test("pieces expand exactly as the whole file, across pieces")
    func sameAsWhole() async throws {
        let text = Self.document()
        guard let zone = TimeZone(identifier: "Europe/Berlin"),
            let from = TimeText.parseInstant("2024-03-01T00:00:00Z"),
            let to = TimeText.parseInstant("2024-04-01T00:00:00Z")
        else { throw CalendarTestFailure("bad test dates") }
        let window = ExpansionWindow(start: from, end: to, zone: zone)
        let whole = try await ICalendarDocument(text: text, name: "big.ics").expand(in: window, calendar: "c")

        let parts = try #require(ICalendarParts(text))
        #expect(parts.events.count > ICalendarDocument.eventsPerPiece + 700)
        let zones = try ICalendarDocument(text: parts.zoneText, name: "big.ics")
        let pieces = try #require(await zones.expand(parts, in: window, calendar: "c"))

        #expect(Self.rows(pieces.events) == Self.rows(whole.events))
        #expect(pieces.warnings == whole.warnings)
        let rows = Self.rows(pieces.events)
        #expect(!rows.contains { $0.contains("Old copy, in March") })
        #expect(rows.contains { $0.contains("New copy, in March") })
        #expect(rows.contains { $0.hasPrefix("far-series 2024-03-08T09:30:00Z") && $0.contains("Moved weekly") })
        #expect(rows.contains { $0.hasPrefix("floating 2024-03-12T03:00:00Z") })
        #expect(pieces.warnings.contains { $0.contains("Never placed") })
        // A one-off outside the window is kept as its UID and revision only; overrides naming it
        // read it again whole, and may move it into the window.
        #expect(
            rows.contains {
                $0.hasPrefix("one-off-moved-by-override 2024-03-20T10:00:00Z") && $0.contains("Moved to March")
            })
        #expect(pieces.warnings.contains { $0.contains("No UID, in January") })
    }

    @Test("only one plain VCALENDAR is cut; VTIMEZONEs and calendar properties go with every piece")
    func plainShapeOnly() throws {
        let head = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"
        let event =
            "BEGIN:VEVENT\r\nUID:a\r\nDTSTART:20240101T100000Z\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nEND:VALARM\r\nEND:VEVENT\r\n"
        let zone = Self.customZone.joined(separator: "\r\n") + "\r\n"
        let parts = try #require(
            ICalendarParts(
                "\r\n" + head + event + zone + "x-wr-timezone:Asia/Tokyo\r\n" + event + "END:VCALENDAR\r\n\r\n"))
        #expect(parts.events.count == 2)
        #expect(parts.zoneText == head + "x-wr-timezone:Asia/Tokyo\r\n" + zone + "END:VCALENDAR\r\n")
        #expect(parts.piece(1..<2) == "BEGIN:VCALENDAR\r\n" + event + "END:VCALENDAR\r\n")
        // LF line ends and lower case are read as libical reads them.
        #expect(ICalendarParts("begin:vcalendar\nbegin:vevent\nUID:a\nend:vevent\nend:vcalendar\n")?.events.count == 1)

        let odd = [
            head + event,  // cut off
            head + event + "END:VCALENDAR\r\n" + head + event + "END:VCALENDAR\r\n",  // two calendars
            "junk\r\n" + head + event + "END:VCALENDAR\r\n",  // text before
            head + event + "END:VCALENDAR\r\nmore\r\n",  // text after
            head + "BEGIN:VEVENT\r\nUID:a\r\nEND:VTODO\r\nEND:VCALENDAR\r\n",  // unpaired
            head + "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\nEND:VCALENDAR\r\n",  // nested calendar
            "",
        ]
        for text in odd { #expect(ICalendarParts(text) == nil, "\(text.debugDescription)") }
    }
}
