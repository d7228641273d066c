import AlmanacCore
import Foundation
import Testing

@testable import AlmanacCalendar

/// A small deterministic generator (SplitMix64): the same items every run.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Generated events and tasks for the round-trip properties.
enum WriteItemGenerator {
    static let zones = [
        "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "America/St_Johns",
        "Pacific/Chatham", "UTC", "Europe/London", "America/Sao_Paulo", "Asia/Tokyo",
    ]
    // Letters, the TEXT specials, multi-byte characters of every length, a combining mark, a ZWJ emoji.
    static let pieces = [
        "a", "Z", "7", " ", ",", ";", ":", "\\", "\n", "\"", "'", "é", "ß", "€", "日本", "𝄞", "👩‍👩‍👧", "e\u{301}",
        "Zahnarzt", "call mom", "Ω", "—",
    ]

    static func text(_ random: inout SeededRandom, maxPieces: Int) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 1...maxPieces, using: &random) {
            text += pieces[Int.random(in: 0..<pieces.count, using: &random)]
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? "x" : trimmed
    }

    static func item(_ random: inout SeededRandom, kind: WriteItem.Kind, number: Int) -> WriteItem {
        let zone = TimeZone(identifier: zones[Int.random(in: 0..<zones.count, using: &random)]) ?? .current
        // Whole minutes between 1995 and 2045, as instants: second passes through repeated hours included.
        let minute = Int.random(in: 13_150_000...39_450_000, using: &random)
        let start = Date(timeIntervalSince1970: TimeInterval(minute * 60))
        var item = WriteItem(
            kind: kind, uid: "gen-\(number)-\(UInt32.random(in: 0...UInt32.max, using: &random))@almanac",
            summary: text(&random, maxPieces: Int.random(in: 1...60, using: &random)),
            location: Bool.random(using: &random) ? text(&random, maxPieces: 12) : nil,
            notes: Bool.random(using: &random) ? text(&random, maxPieces: 80) : nil,
            stamp: Date(timeIntervalSince1970: 1_790_000_000))
        let allDay = Int.random(in: 0..<5, using: &random) == 0
        switch kind {
        case .event:
            if allDay {
                let day = CivilDate(start, in: zone)
                item.start = .day(day)
                item.end = .day(day.adding(days: Int.random(in: 1...3, using: &random)))
            } else {
                item.start = .zoned(start, zone)
                let length = Int.random(in: 0...(3 * 24 * 60), using: &random) * 60
                item.end = .zoned(start.addingTimeInterval(TimeInterval(length)), zone)
            }
            if Int.random(in: 0..<3, using: &random) == 0 {
                let frequency = Repetition.Frequency.allCases[Int.random(in: 0..<3, using: &random)]
                if Bool.random(using: &random) {
                    item.repetition = Repetition(frequency: frequency, count: Int.random(in: 1...10, using: &random))
                } else {
                    let day = CivilDate(start, in: zone)
                    item.repetition = Repetition(
                        frequency: frequency, until: day.adding(days: Int.random(in: 0...200, using: &random)))
                }
            }
        case .task:
            if allDay {
                item.due = .day(CivilDate(start, in: zone))
            } else if Int.random(in: 0..<5, using: &random) > 0 {
                item.due = .zoned(start, zone)
            }
            if item.due != nil, Bool.random(using: &random) {
                item.alarmBefore = 60 * Int.random(in: 1...600, using: &random)
            }
        }
        return item
    }
}

@Suite("Calendar writer: RFC 5545 text")
struct CalendarWriterTextTests {
    @Test("folding keeps every line within 75 octets and never splits a UTF-8 character")
    func folding() throws {
        var random = SeededRandom(state: 7)
        for _ in 0..<500 {
            let value = WriteItemGenerator.text(&random, maxPieces: 120)
            let folded = ICalendarText.line("SUMMARY", ICalendarText.escape(value))
            let bytes = Array(folded.utf8)
            #expect(bytes.suffix(2) == [0x0D, 0x0A])
            var lines: [[UInt8]] = []
            var current: [UInt8] = []
            var index = 0
            while index < bytes.count {
                if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                    lines.append(current)
                    current = []
                    index += 2
                } else {
                    current.append(bytes[index])
                    index += 1
                }
            }
            for (number, line) in lines.enumerated() {
                #expect(line.count <= 75)
                #expect(String(validating: line, as: UTF8.self) != nil, "line \(number) splits a character")
                if number > 0 { #expect(line.first == 0x20) }
            }
            // Unfolding (drop CRLF + one space) gives the line back.
            let unfolded = lines.enumerated().map { $0.offset == 0 ? $0.element : Array($0.element.dropFirst()) }
                .joined()
            #expect(String(decoding: Array(unfolded), as: UTF8.self) == "SUMMARY:" + ICalendarText.escape(value))
        }
    }

    @Test("a 4-byte character at the fold point moves whole to the next line")
    func foldAtCharacter() {
        let value = String(repeating: "a", count: 66) + "𝄞b"  // "SUMMARY:" is 8 octets: 𝄞 would span 74..77
        let folded = ICalendarText.line("SUMMARY", value)
        #expect(folded == "SUMMARY:" + String(repeating: "a", count: 66) + "\r\n 𝄞b\r\n")
    }

    @Test("TEXT escaping of backslash, semicolon, comma and line ends")
    func escaping() {
        #expect(ICalendarText.escape("a,b;c\\d\ne\r\nf\rg") == "a\\,b\\;c\\\\d\\ne\\nf\\ng")
        #expect(ICalendarText.unescape("a\\,b\\;c\\\\d\\ne\\Nf") == "a,b;c\\d\ne\nf")
        #expect(ICalendarText.escape("tab\there") == "tab here")
    }

    @Test("durations")
    func durations() {
        #expect(ICalendarDuration.text(900) == "PT15M")
        #expect(ICalendarDuration.text(5400) == "PT1H30M")
        #expect(ICalendarDuration.text(86_400) == "P1D")
        #expect(ICalendarDuration.text(604_800) == "P1W")
        #expect(ICalendarDuration.text(90_061) == "P1DT1H1M1S")
    }

    @Test("a time in the second pass of a repeated hour is written in UTC; the first pass with its TZID")
    func repeatedHour() throws {
        let zone = try #require(TimeZone(identifier: "Europe/Berlin"))
        // 2026-10-25 02:30 happens twice in Berlin: 00:30Z (CEST) and 01:30Z (CET).
        let first = Date(timeIntervalSince1970: 1_792_888_200)
        let second = first.addingTimeInterval(3600)
        #expect(WriteTime.zoned(first, zone).property.value == "20261025T023000")
        #expect(WriteTime.zoned(second, zone).property.value == "20261025T013000Z")
    }
}

@Suite("Calendar writer: round trip through our libical reader")
struct CalendarWriterRoundTripTests {
    @Test("generated events: serialize, parse, expand, equal")
    func events() async throws {
        var random = SeededRandom(state: 20_261_128)
        for number in 0..<300 {
            let item = WriteItemGenerator.item(&random, kind: .event, number: number)
            let text = item.calendar
            let (start, end) = try (#require(item.start), #require(item.end))
            let zone = try #require(item.zones.first ?? TimeZone(identifier: "Europe/Berlin"))
            let from = start.eventTime.date(in: zone).addingTimeInterval(-86_400 * 2)
            let document = try ICalendarDocument(text: text, name: "gen")
            let window = ExpansionWindow(start: from, end: from.addingTimeInterval(86_400 * 420), zone: zone)
            let expansion = await document.expand(in: window, calendar: "gen")
            #expect(expansion.warnings.isEmpty, "\(expansion.warnings)\n\(text)")
            let first = try #require(expansion.events.first, "nothing read back:\n\(text)")
            #expect(first.uid == item.uid)
            if !Self.libicalDatabaseGap(zone, year: start.year) {
                #expect(first.start == start.eventTime, "\(text)")
                #expect(first.end == end.eventTime, "\(text)")
            }
            // The file alone (its VTIMEZONE, under a name no database knows) gives the same times.
            let alone = try await Self.readAlone(text, zone: zone, window: window)
            #expect(alone.first?.start == start.eventTime, "\(text)")
            #expect(alone.first?.end == end.eventTime, "\(text)")
            #expect(first.summary == item.summary)
            #expect(first.location == item.location)
            #expect(first.description == item.notes)
            #expect(expansion.events.count == expectedCount(item, zone: zone), "\(text)")
        }
    }

    /// Where libical 3.0.16's zones built from the system's tzdata disagree with the database
    /// itself (and so the reader, which uses them): summer times after 2037 (the TZif tables end
    /// there) and São Paulo's old summer time. Found by this test; the written file is right there
    /// too, as ``readAlone(_:zone:window:)`` shows.
    static func libicalDatabaseGap(_ zone: TimeZone, year: Int) -> Bool {
        year >= 2037 || zone.identifier == "America/Sao_Paulo"
    }

    /// The events of `text` with its TZID renamed to one no database knows (and no X-LIC-LOCATION),
    /// so the reader can only use the file's own VTIMEZONE.
    static func readAlone(_ text: String, zone: TimeZone, window: ExpansionWindow) async throws -> [CalendarEvent] {
        let renamed = text.replacingOccurrences(of: "X-LIC-LOCATION:\(zone.identifier)\r\n", with: "")
            .replacingOccurrences(of: "TZID=\(zone.identifier):", with: "TZID=Almanac Test Zone:")
            .replacingOccurrences(of: "TZID:\(zone.identifier)\r\n", with: "TZID:Almanac Test Zone\r\n")
        let document = try ICalendarDocument(text: renamed, name: "alone")
        return await document.expand(in: window, calendar: "alone").events
    }

    /// Occurrences a series has (all of them fall in the test's window).
    func expectedCount(_ item: WriteItem, zone: TimeZone) -> Int {
        guard let repetition = item.repetition, let start = item.start else { return 1 }
        if let count = repetition.count { return count }
        guard let until = repetition.until else { return 1 }
        let first: CivilDate
        switch start {
        case .day(let day): first = day
        case .zoned(let date, let zone): first = CivilDate(date, in: zone)
        }
        let days = first.days(to: until)
        switch repetition.frequency {
        case .daily: return days + 1
        case .weekly: return days / 7 + 1
        case .monthly:
            var count = 0
            var (year, month) = (first.year, first.month)
            while true {
                let day = CivilDate(iso: String(format: "%04d-%02d-%02d", year, month, first.day))
                if let day {
                    if day > until { break }
                    count += 1
                } else if CivilDate(year: year, month: month, day: 1) > until {
                    break
                }
                month += 1
                if month > 12 { (year, month) = (year + 1, 1) }
            }
            return count
        }
    }

    @Test("generated tasks: serialize, parse, equal")
    func tasks() throws {
        var random = SeededRandom(state: 33)
        for number in 0..<300 {
            let item = WriteItemGenerator.item(&random, kind: .task, number: number)
            let text = item.calendar
            let zone = try #require(item.zones.first ?? TimeZone(identifier: "UTC"))
            let document = try ICalendarDocument(text: text, name: "gen")
            let read = document.tasks(now: Date(timeIntervalSince1970: 0), zone: zone, calendar: "gen")
            #expect(read.warnings.isEmpty)
            let task = try #require(read.tasks.first)
            #expect(task.uid == item.uid)
            #expect(task.summary == item.summary)
            if let due = item.due, !Self.libicalDatabaseGap(zone, year: due.year) {
                #expect(task.due == due.eventTime, "\(text)")
            }
            #expect(task.state != .completed)
            if let alarm = item.alarmBefore {
                #expect(text.contains("TRIGGER;RELATED=END:-\(ICalendarDuration.text(alarm))\r\n"))
            }
        }
    }

    @Test("the VTIMEZONE alone gives the database's offsets, years after the event too")
    func vtimezoneAlone() async throws {
        for name in ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Sao_Paulo", "Asia/Tokyo"] {
            let zone = try #require(TimeZone(identifier: name))
            let day = CivilDate(year: 2026, month: 1, day: 5)
            let start = WallClock.instant(day, seconds: 9 * 3600 + 1800, in: zone)
            var item = WriteItem(
                kind: .event, uid: "tz-\(name)", summary: "weekly", start: .zoned(start, zone),
                end: .zoned(start.addingTimeInterval(3600), zone), stamp: start)
            item.repetition = Repetition(frequency: .weekly, count: 200)
            // A name no database knows, without X-LIC-LOCATION: only the file's rules can place it.
            let text = item.calendar.replacingOccurrences(of: name, with: "Custom Zone")
                .replacingOccurrences(of: "X-LIC-LOCATION:Custom Zone\r\n", with: "")
            let document = try ICalendarDocument(text: text, name: "tz")
            let window = ExpansionWindow(
                start: start.addingTimeInterval(-86_400), end: start.addingTimeInterval(86_400 * 7 * 201), zone: zone)
            let events = await document.expand(in: window, calendar: "tz").events
            #expect(events.count == 200)
            for (week, event) in events.enumerated() {
                let expected = WallClock.instant(day.adding(days: 7 * week), seconds: 9 * 3600 + 1800, in: zone)
                #expect(event.start == .instant(expected), "\(name) week \(week)")
            }
        }
    }
}
