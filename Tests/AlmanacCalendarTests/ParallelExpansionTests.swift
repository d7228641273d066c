import AlmanacCore
import Foundation
import Testing

@testable import AlmanacCalendar

/// A calendar big enough to take the parallel path must expand exactly as its events do one by one
/// (each alone in a document, below the threshold, so on one thread).
struct ParallelExpansionTests {
    static let zones = ["Europe/Berlin", "America/New_York", "W. Europe Standard Time", "Asia/Tokyo"]

    /// One VEVENT (plus an override for some) per index: weekly/daily COUNT rules, monthly UNTIL
    /// rules, EXDATEs, one-offs and all-day events, across four zones (one a Windows name).
    static func events(_ index: Int) -> [String] {
        let zone = zones[index % zones.count]
        let day = 1 + index % 28
        let month = 1 + index % 12
        let start = String(format: "2024%02d%02dT%02d%02d00", month, day, 8 + index % 10, 15 * (index % 4))
        var lines = ["BEGIN:VEVENT", "UID:p-\(index)", "DTSTAMP:20240101T000000Z", "SUMMARY:Event \(index)"]
        if index % 9 == 4 {
            lines += [String(format: "DTSTART;VALUE=DATE:2024%02d%02d", month, day), "RRULE:FREQ=YEARLY;COUNT=3"]
        } else {
            lines += ["DTSTART;TZID=\(zone):\(start)", "DURATION:PT45M"]
            switch index % 4 {
            case 0:
                lines += [
                    "RRULE:FREQ=WEEKLY;COUNT=60",
                    "EXDATE;TZID=\(zone):\(start.replacingOccurrences(of: "2024", with: "2025"))",
                ]
            case 1: lines += ["RRULE:FREQ=DAILY;INTERVAL=3;COUNT=150"]
            case 2: lines += ["RRULE:FREQ=MONTHLY;UNTIL=20251231T235959Z"]
            default: break
            }
        }
        lines.append("END:VEVENT")
        if index % 4 == 1 {
            // Moves the tenth instance by two hours.
            lines += [
                "BEGIN:VEVENT", "UID:p-\(index)", "DTSTAMP:20240101T000000Z", "SUMMARY:Event \(index) (moved)",
                "RECURRENCE-ID;TZID=\(zone):\(start)",
                "DTSTART;TZID=\(zone):\(start.dropLast(6))\(String(format: "%02d", 10 + index % 10))0000",
                "DURATION:PT30M", "END:VEVENT",
            ]
        }
        return lines
    }

    static func document(_ indices: some Sequence<Int>) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//almanac//tests//EN"] + indices.flatMap(events) + [
            "END:VCALENDAR"
        ])
        .joined(separator: "\r\n")
    }

    static func rows(_ events: [CalendarEvent]) -> [String] {
        events.map {
            "\($0.uid) \($0.start.json) \($0.end.json) \($0.recurrenceId?.json ?? "-") \($0.summary ?? "(no title)")"
        }.sorted()
    }

    @Test("500 events expanded across cores equal the same events expanded one document each")
    func sameAsSerial() async throws {
        let count = 500
        #expect(count > ICalendarDocument.parallelThreshold)
        guard let zone = TimeZone(identifier: "UTC"),
            let from = TimeText.parseInstant("2024-06-01T00:00:00Z"),
            let to = TimeText.parseInstant("2025-06-01T00:00:00Z")
        else { throw CalendarTestFailure("bad test dates") }
        let window = ExpansionWindow(start: from, end: to, zone: zone)

        var serial: [CalendarEvent] = []
        for index in 0..<count {
            let single = try ICalendarDocument(text: Self.document([index]), name: "one")
            serial += await single.expand(in: window, calendar: "c").events
        }
        let expected = Self.rows(serial)
        #expect(expected.count > 10_000)

        // Several runs: a race would show as a difference in some of them.
        let whole = try ICalendarDocument(text: Self.document(0..<count), name: "all")
        for _ in 0..<5 {
            let expansion = await whole.expand(in: window, calendar: "c")
            #expect(expansion.warnings.isEmpty)
            #expect(Self.rows(expansion.events) == expected)
        }
    }
}

struct CalendarTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
