import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCalendar

/// A big feed is held once (issue 31 item 10): the answer's bytes are the snapshot's text and
/// its cache entry, not a `String` made from them and then a cache copy of that. A 19 MB feed's
/// three copies made `--ics URL` peak 40 MB above `--ics FILE` (scripts/bench-calendar-memory).
@Suite("Calendar feeds held once")
struct FeedBufferTests {
    static let now = Date(timeIntervalSince1970: 1_710_000_000)

    /// A feed of `count` events; `bom` puts a UTF-8 byte order mark first.
    static func feed(events count: Int, bom: Bool = false) -> Data {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//almanac//buffer test//EN\r\n"
        for index in 0..<count {
            text += "BEGIN:VEVENT\r\nUID:e\(index)\r\nDTSTAMP:20240101T000000Z\r\nDTSTART:20240310T0900"
            text += "00Z\r\nSUMMARY:Caf\u{E9} \(index)\r\nEND:VEVENT\r\n"
        }
        text += "END:VCALENDAR\r\n"
        return (bom ? Data([0xEF, 0xBB, 0xBF]) : Data()) + Data(text.utf8)
    }

    static func fetch(_ body: Data) async throws -> CalendarSnapshot {
        let transport = StubTransport { _ in
            HTTPResponse(status: 200, headers: ["Content-Type": "text/calendar"], body: body)
        }
        let source = CalendarSource(
            name: "feed", location: .feed(try #require(URL(string: "https://calendar.example.org/team.ics"))),
            credentials: nil, configured: false)
        let window = ExpansionWindow(start: now, end: now.addingTimeInterval(86_400), zone: TimeText.utc)
        return try await ICSFeedProvider().fetch(
            CalendarFetch(source: source, window: window, wantsTasks: false),
            in: testEnvironment(transport: transport, now: now))
    }

    /// Where `data`'s bytes start in memory.
    static func address(_ data: Data) -> UInt? {
        data.withUnsafeBytes { $0.baseAddress.map { UInt(bitPattern: $0) } }
    }

    /// Whether `part`'s bytes lie inside `whole`'s (the same memory, not a copy of it).
    static func shares(_ part: Data, with whole: Data) -> Bool {
        guard let inner = address(part), let outer = address(whole) else { return false }
        return inner >= outer && inner + UInt(part.count) <= outer + UInt(whole.count)
    }

    @Test("a feed's text is its cache entry's bytes, not a second copy; read back, the entry's bytes again")
    func heldOnce() async throws {
        for bom in [false, true] {
            let body = Self.feed(events: 200, bom: bom)
            let snapshot = try await Self.fetch(body)
            let document = try #require(snapshot.documents.first)
            // The text as decoded, the byte order mark dropped.
            #expect(document.text == CalendarText.decode(body))
            let entry = try snapshot.cacheBytes()
            #expect(Self.shares(document.utf8, with: entry), "the cache entry copied the text")
            #expect(entry.count < body.count + 200, "\(entry.count) bytes for \(body.count)")
            // A cached feed read back: its text is a slice of the entry, not a copy.
            let read = try CalendarSnapshot(cacheBytes: entry)
            #expect(read == snapshot)
            #expect(Self.shares(try #require(read.documents.first).utf8, with: entry))
            #expect(ICalendarParts(utf8: document.utf8)?.events.count == 200)
        }
    }

    @Test("a feed that needs decoding (windows-1252, a C1 control) is stored as its decoded text")
    func decoded() async throws {
        var body = Self.feed(events: 3)
        let at = try #require(body.range(of: Data("Caf".utf8))).upperBound
        body[at] = 0x92  // windows-1252's apostrophe, in place of é's first byte
        body.remove(at: at + 1)
        let snapshot = try await Self.fetch(body)
        let document = try #require(snapshot.documents.first)
        #expect(document.text == CalendarText.decode(body))
        #expect(document.text.contains("Caf\u{2019} 0"))
        #expect(try CalendarSnapshot(cacheBytes: snapshot.cacheBytes()) == snapshot)
    }

    @Test("a feed cut short is refused, whatever its encoding")
    func cutShort() async throws {
        for body in [Self.feed(events: 3).dropLast(20), Self.feed(events: 3).dropLast(20) + Data([0x92])] {
            await #expect(throws: ProviderFailure.self) { try await Self.fetch(Data(body)) }
        }
    }

    @Test(
        "bytes are used as they are exactly when they are the decoded text's UTF-8",
        arguments: [
            [0x41, 0x42],
            [0xEF, 0xBB, 0xBF, 0x41, 0xE2, 0x80, 0x99],  // BOM, UTF-8 apostrophe
            [0x42, 0x6F, 0x62, 0x92, 0x73],  // windows-1252 apostrophe
            [0x41, 0xC2, 0x92, 0x42],  // UTF-8 of the C1 control U+0092
            [0x41, 0xC2, 0xA0, 0x42],  // U+00A0, the first after the C1 controls
            [0xE2, 0x80, 0x41],  // a cut-off sequence
            [0xC0, 0xAF],  // overlong
            [0xE0, 0x9F, 0x80],  // overlong
            [0xED, 0xA0, 0x80],  // a surrogate
            [0xF4, 0x90, 0x80, 0x80],  // past U+10FFFF
            [0xF0, 0x9F, 0x8E, 0x89],  // 🎉
            [0xF0, 0x9F, 0x8E],  // cut off at the end
            Array("0123456789abcdefé0123456789".utf8),
        ] as [[UInt8]])
    func plainBytes(bytes: [UInt8]) {
        let data = Data(bytes)
        let utf8 = CalendarText.utf8(data)
        #expect(String(decoding: utf8, as: UTF8.self) == CalendarText.decode(data))
        if let start = CalendarText.plainUTF8Start(data) {
            #expect(utf8 == data.dropFirst(start))
        }
    }

    @Test("the in-place check agrees with Swift's UTF-8 validation on every short sequence")
    func validation() {
        // Every 1- and 2-byte sequence, and 3- and 4-byte ones from a fixed pseudo-random walk.
        var samples: [[UInt8]] = (0...255).map { [UInt8($0)] }
        for first in 0...255 { for second in 0...255 { samples.append([UInt8(first), UInt8(second)]) } }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<200_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let length = 3 + Int(state >> 63)
            // Lead bytes from C0 up, the rest mostly continuation bytes: the cases that matter.
            samples.append(
                (0..<length).map { index in
                    let byte = UInt8(truncatingIfNeeded: state >> (8 * index + 8))
                    return index == 0 ? 0xC0 | byte : (byte & 0x07 == 0 ? byte : 0x80 | (byte & 0x3F))
                })
        }
        var disagreements: [[UInt8]] = []
        for sample in samples {
            let swift = String(validating: sample, as: UTF8.self).map { text in
                !text.unicodeScalars.contains { (0x80..<0xA0).contains($0.value) }
            }
            let ours = sample.withUnsafeBytes { CalendarText.isPlainUTF8($0) }
            if ours != (swift ?? false) { disagreements.append(sample) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }
}
