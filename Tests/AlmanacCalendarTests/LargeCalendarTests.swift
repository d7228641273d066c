import Foundation
import Testing

@testable import AlmanacCalendar
@testable import AlmanacCore

/// A year of a big calendar (thousands of instances) through the whole tool: the paths that only
/// large results take (sorting by keys, `events[]` written on two threads, reading on several
/// cores) and local files kept out of the cache. Kept to a few thousand instances: the test
/// process's peak memory counts in the fault matrix's memory bound (a spawned child inherits it).
@Suite("Large calendars")
struct LargeCalendarTests {
    /// `count` generated events (see ``ParallelExpansionTests``) in a temporary `.ics` file.
    static func withLargeFile<T>(count: Int = 250, _ body: (String) async throws -> T) async throws -> T {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "almanac-large-\(UUID().uuidString).ics")
        try Data(ParallelExpansionTests.document(0..<count).utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try await body(url.path)
    }

    static let words = ["--from", "2024-06-01", "--to", "2025-05-31"]

    /// A harness with the per-answer cap (1,000 events) lifted: these tests are about the paths
    /// only thousands of instances take.
    static func harness(zone: String) -> CalendarHarness {
        var harness = CalendarHarness(now: "2024-06-01T00:00:00Z", zone: zone)
        harness.settings = Settings(environment: ["ALMANAC_CALENDAR_MAX_OCCURRENCES": "100000"])
        return harness
    }

    @Test("instances come sorted as by start, all-day first, end, summary, calendar, UID")
    func sorted() async throws {
        let harness = Self.harness(zone: "Europe/Berlin")
        let payload = try await Self.withLargeFile { try await harness.payload(["--ics", $0] + Self.words) }
        #expect(payload.events.count > 5_000)
        let zone = try #require(TimeZone(identifier: "Europe/Berlin"))
        // The straightforward comparator the keys stand in for.
        let expected = payload.events.sorted { a, b in
            let (startA, startB) = (a.start.date(in: zone), b.start.date(in: zone))
            if startA != startB { return startA < startB }
            if a.allDay != b.allDay { return a.allDay }
            let (endA, endB) = (a.end.date(in: zone), b.end.date(in: zone))
            if endA != endB { return endA < endB }
            return (a.summary ?? "", a.calendar, a.uid) < (b.summary ?? "", b.calendar, b.uid)
        }
        #expect(payload.events == expected)
    }

    /// The fields of one written instance.
    struct Row: Decodable, Equatable {
        var allDay: Bool
        var calendar: String
        var end: String
        var location: String?
        var recurrenceId: String?
        var start: String
        var summary: String
        var uid: String
    }

    struct Rows: Decodable, Equatable {
        var events: [Row]
        var from: String
        var to: String
        var timeZone: String
        var warnings: [String]
    }

    @Test("events[] written on two threads decodes to the same rows as JSONEncoder's")
    func parallelJSON() async throws {
        let harness = Self.harness(zone: "UTC")
        let payload = try await Self.withLargeFile { try await harness.payload(["--ics", $0] + Self.words) }
        #expect(payload.events.count > CalendarPayload.parallelJSONThreshold)
        let fast = try JSONDecoder().decode(Rows.self, from: Data(try payload.compactDataJSON().utf8))
        let slow = try JSONDecoder().decode(Rows.self, from: Data(try Envelope.dataJSON(payload).utf8))
        #expect(fast == slow)
        #expect(fast.events.count == payload.events.count)
    }

    @Test("read on several cores, unknown TZIDs are reported once each, in the order they first appear")
    func unknownZonesInOrder() async throws {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//almanac//tests//EN"]
        let zones = [10: "Mars/Olympus", 150: "Venus/Maxwell", 160: "Mars/Olympus", 190: "Io/Loki"]
        for index in 0..<200 {
            let zone = zones[index] ?? "Europe/Berlin"
            lines += [
                "BEGIN:VEVENT", "UID:z-\(index)", "DTSTAMP:20240101T000000Z", "SUMMARY:Event \(index)",
                "DTSTART;TZID=\(zone):20240610T090000", "DURATION:PT1H", "END:VEVENT",
            ]
        }
        lines.append("END:VCALENDAR")
        #expect(200 > ICalendarDocument.parallelThreshold)
        let document = try ICalendarDocument(text: lines.joined(separator: "\r\n"), name: "zones.ics")
        let zone = try #require(TimeZone(identifier: "UTC"))
        let from = try #require(TimeText.parseInstant("2024-06-01T00:00:00Z"))
        let window = ExpansionWindow(start: from, end: from.addingTimeInterval(30 * 86_400), zone: zone)
        let expansion = await document.expand(in: window, calendar: "c")
        #expect(expansion.events.count == 200)
        #expect(
            expansion.warnings
                == ["Mars/Olympus", "Venus/Maxwell", "Io/Loki"].map {
                    "zones.ics: unknown time zone '\($0)', read as \(zone.identifier)"
                })
    }

    @Test("a local file is read again each time and never stored in the cache")
    func localFilesNotCached() async throws {
        let cache = MemoryCacheStore()
        let harness = CalendarHarness(now: "2024-06-01T00:00:00Z", zone: "UTC", cache: cache)
        try await Self.withLargeFile(count: 80) { path in
            let result = try await harness.run(["--ics", path] + Self.words)
            #expect(result.metadata.provider == "ics-file")
            #expect(result.metadata.attempts.map(\.outcome) == [.ok])
        }
        #expect(await cache.removeAll() == 0)
    }
}
