import AlmanacCore
import Foundation
import Testing

@testable import AlmanacCalendar

/// Issue 31 item 10: the answer's events are chosen while expanding, in a bounded heap, and the
/// choice is exactly that of sorting every event (stably) and keeping the first N.
@Suite("Event selection (bounded heap)")
struct EventSelectionTests {
    /// `count` events with many ties: few starts, ends, titles, calendars and UIDs, all-day and
    /// timed on the same days, no title, and copies differing only in fields the order ignores.
    static func events(_ count: Int, seed: UInt64) -> [CalendarEvent] {
        var random = SelectionRandom(seed: seed)
        let base = Date(timeIntervalSince1970: 1_717_200_000)  // 2024-06-01T00:00:00Z
        return (0..<count).map { index in
            let day = CivilDate(year: 2024, month: 6, day: 1 + Int(random.next() % 3))
            let allDay = random.next() % 4 == 0
            let start: EventTime
            let end: EventTime
            if allDay {
                start = .day(day)
                end = .day(day.adding(days: 1 + Int(random.next() % 2)))
            } else {
                let begin = base.addingTimeInterval(TimeInterval(random.next() % 3) * 86_400)
                start = .instant(begin)
                end = .instant(begin.addingTimeInterval(TimeInterval(random.next() % 3) * 1_800))
            }
            let titles: [String?] = [nil, "A", "B", "b"]
            return CalendarEvent(
                uid: "u\(random.next() % 3)", recurrenceId: nil, start: start, end: end,
                summary: titles[Int(random.next() % 4)], location: "copy \(index)", description: nil,
                calendar: random.next() % 2 == 0 ? "home" : "work")
        }
    }

    /// What the run did before: sort every event for display, keep the first `limit`.
    static func reference(_ events: [CalendarEvent], limit: Int, zone: TimeZone) -> [CalendarEvent] {
        var all = events
        CalendarRun.sortForDisplay(&all, zone: zone)
        return Array(all.prefix(limit))
    }

    @Test(
        "same events, same order as sorting all then capping, ties included", arguments: [1, 2, 7, 100, 399, 400, 500])
    func sameAsSortThenCap(limit: Int) throws {
        let zone = try #require(TimeZone(identifier: "Europe/Berlin"))
        for seed in [1, 2, 3] as [UInt64] {
            let events = Self.events(400, seed: seed)
            var selection = EventSelection(EventKeep(limit: limit, zone: zone, matches: nil))
            for (index, event) in events.enumerated() { selection.add(event, order: (0, index)) }
            #expect(selection.matched == 400)
            #expect(selection.omitted == max(0, 400 - limit))
            let chosen = selection.sorted()
            #expect(chosen.count == min(limit, 400))
            // `location` tells copies apart: their order is the order they were added in.
            #expect(chosen == Self.reference(events, limit: limit, zone: zone))
        }
    }

    @Test("events offered in parts (documents, chunks) as the parts' kept events keep the same answer")
    func inParts() throws {
        let zone = try #require(TimeZone(identifier: "UTC"))
        let events = Self.events(600, seed: 9)
        let limit = 50
        // Three parts, each choosing its own first 50; then the first 50 of theirs, in part order.
        var merged = EventSelection(EventKeep(limit: limit, zone: zone, matches: nil))
        for (part, slice) in [events[0..<100], events[100..<450], events[450...]].enumerated() {
            var selection = EventSelection(EventKeep(limit: limit, zone: zone, matches: nil))
            for (index, event) in slice.enumerated() { selection.add(event, order: (0, index)) }
            merged.countOmitted(selection.omitted)
            for (position, event) in selection.sorted().enumerated() { merged.add(event, order: (part, position)) }
        }
        #expect(merged.matched == 600)
        #expect(merged.omitted == 550)
        #expect(merged.sorted() == Self.reference(events, limit: limit, zone: zone))
    }

    @Test("only matching events are kept and counted")
    func matching() throws {
        let zone = try #require(TimeZone(identifier: "UTC"))
        let events = Self.events(300, seed: 4)
        let keep = EventKeep(limit: 10, zone: zone, matches: { $0.summary == "B" })
        var selection = EventSelection(keep)
        for (index, event) in events.enumerated() { selection.add(event, order: (0, index)) }
        let wanted = events.filter { $0.summary == "B" }
        #expect(selection.matched == wanted.count)
        #expect(selection.sorted() == Self.reference(wanted, limit: 10, zone: zone))
    }

    @Test("expanding with a limit keeps what expanding everything, sorting and capping keeps")
    func expansionWithKeep() async throws {
        guard let zone = TimeZone(identifier: "Europe/Berlin"),
            let from = TimeText.parseInstant("2024-06-01T00:00:00Z"),
            let to = TimeText.parseInstant("2025-06-01T00:00:00Z")
        else { throw CalendarTestFailure("bad test dates") }
        let window = ExpansionWindow(start: from, end: to, zone: zone)
        let text = ParallelExpansionTests.document(0..<300)
        let everything = try await ICalendarDocument(text: text, name: "big.ics").expand(in: window, calendar: "c")
        #expect(everything.events.count > 3_000)
        #expect(everything.omitted == 0)
        let keep = EventKeep(limit: 1_000, zone: zone, matches: nil)
        let expected = Self.reference(everything.events, limit: 1_000, zone: zone)
        // The whole-file path (parallel chunks) and the piece-by-piece path.
        let whole = try await ICalendarDocument(text: text, name: "big.ics").expand(
            in: window, calendar: "c", keep: keep)
        #expect(whole.events == expected)
        #expect(whole.omitted == everything.events.count - 1_000)
        let parts = try #require(ICalendarParts(text))
        let zones = try ICalendarDocument(text: parts.zoneText, name: "big.ics")
        let pieces = try #require(await zones.expand(parts, in: window, calendar: "c", keep: keep))
        #expect(pieces.events == expected)
        #expect(pieces.omitted == everything.events.count - 1_000)
        #expect(pieces.warnings == everything.warnings)
    }

    @Test("through the tool: the cap, --search and next N answer as before, with the count left out")
    func throughTheTool() async throws {
        try await LargeCalendarTests.withLargeFile(count: 120) { path in
            let all = try await LargeCalendarTests.harness(zone: "Europe/Berlin")
                .payload(["--ics", path] + LargeCalendarTests.words)
            #expect(all.events.count > 500)
            var capped = LargeCalendarTests.harness(zone: "Europe/Berlin")
            capped.settings = Settings(environment: ["ALMANAC_CALENDAR_MAX_OCCURRENCES": "37"])
            let first = try await capped.payload(["--ics", path] + LargeCalendarTests.words)
            #expect(first.events == Array(all.events.prefix(37)))
            #expect(first.omitted == all.events.count - 37)

            let search = all.events.first?.summary ?? ""
            let found = all.events.filter { CalendarRun.event($0, matches: search) }
            let searched = try await capped.payload(["--ics", path, "--search", search] + LargeCalendarTests.words)
            #expect(searched.events == Array(found.prefix(37)))
            #expect(searched.omitted == max(0, found.count - 37))

            let next = try await capped.payload(["next", "5", "--ics", path])
            #expect(next.events.count == 5)
            #expect(next.omitted == 0)
        }
    }
}

/// SplitMix64: the same events on every run.
private struct SelectionRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
