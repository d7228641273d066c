import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCalendar
@testable import AlmanacCore

/// A feed's snapshot in the cache as its own bytes (the texts unescaped, read back by slicing),
/// not as JSON: what a 19 MB feed cost twice over in `tools serve` (issue 21). The texts come
/// first and the header after them, so a feed's answer is its own cache entry (issue 31 item 10).
@Suite("Calendar snapshots in the cache")
struct SnapshotCacheTests {
    static let snapshot = CalendarSnapshot(
        documents: [
            .init(
                name: "a.ics", collection: nil,
                text: "BEGIN:VCALENDAR\r\nSUMMARY:Café \"quoted\" \\ back\r\nEND:VCALENDAR\r\n"),
            .init(name: "b.ics", collection: "Work", text: ""),
            .init(name: "c.ics", collection: "Home", text: "BEGIN:VCALENDAR\nEND:VCALENDAR\n🎉"),
        ],
        warnings: ["x.ics: 12.5 MB is over the 10.0 MB limit; skipped"])

    static let trailer = Array("\nalmanac-calendar-snapshot 2\n".utf8)

    @Test("written as the raw texts and a header, read back equal; older entries (JSON, header first) still read")
    func roundTrip() throws {
        let bytes = try Self.snapshot.cacheBytes()
        #expect(bytes.suffix(Self.trailer.count).elementsEqual(Self.trailer))
        let texts = Self.snapshot.documents.reduce(0) { $0 + $1.utf8.count }
        #expect(bytes.count < texts + 300, "\(bytes.count) bytes for \(texts) of text")
        #expect(try CalendarSnapshot(cacheBytes: bytes) == Self.snapshot)
        // Read from a slice of a larger buffer, as stores may hand it over.
        #expect(try CalendarSnapshot(cacheBytes: (Data([0x7B]) + bytes).dropFirst()) == Self.snapshot)
        #expect(try CalendarSnapshot(cacheBytes: JSONEncoder().encode(Self.snapshot)) == Self.snapshot)
        #expect(try CalendarSnapshot(cacheBytes: Self.firstLayout(Self.snapshot)) == Self.snapshot)
        // Read back, it is laid out already: written again, the same bytes, not a new copy.
        let read = try CalendarSnapshot(cacheBytes: bytes)
        #expect(try read.cacheBytes() == bytes)
    }

    /// The layout entries were written in before the texts came first: a magic line, the header's
    /// length (8 bytes, little-endian), the header, the texts back to back.
    static func firstLayout(_ snapshot: CalendarSnapshot) throws -> Data {
        struct Entry: Encodable {
            var name: String
            var collection: String?
            var bytes: Int
        }
        struct Header: Encodable {
            var documents: [Entry]
            var warnings: [String]
        }
        let header = try JSONEncoder().encode(
            Header(
                documents: snapshot.documents.map {
                    .init(name: $0.name, collection: $0.collection, bytes: $0.utf8.count)
                },
                warnings: snapshot.warnings))
        var data = Data("almanac-calendar-snapshot 1\n".utf8)
        withUnsafeBytes(of: UInt64(header.count).littleEndian) { data.append(contentsOf: $0) }
        data.append(header)
        for document in snapshot.documents { data.append(document.utf8) }
        return data
    }

    @Test("cut-short or padded bytes are refused, never read as a shorter calendar")
    func cutShort() throws {
        let bytes = try Self.snapshot.cacheBytes()
        let first = try Self.firstLayout(Self.snapshot)
        for broken in [
            bytes.dropLast(1), bytes.prefix(30), bytes + Data([0x41]), first.dropLast(1), first + Data([0x41]),
        ] {
            #expect(throws: (any Error).self) { try CalendarSnapshot(cacheBytes: Data(broken)) }
        }
    }

    @Test("a feed is stored as its own bytes and a repeat call is answered from them, the same events")
    func feedThroughTheCache() async throws {
        let log = RequestLog()
        let cache = MemoryCacheStore()
        var harness = CalendarHarness(now: "2024-06-10T08:00:00Z", zone: "UTC", cache: cache)
        harness.transport = RecordingTransport(
            inner: StubTransport { _ in
                HTTPResponse(status: 200, headers: ["Content-Type": "text/calendar"], body: CalendarSourceTests.feed)
            }, log: log)
        let words = ["--ics", "http://calendar.example.com/basic.ics"]
        let first = try await harness.run(words)
        let second = try await harness.run(words)
        #expect(await log.requests.count == 1)
        #expect(second.metadata.attempts.map(\.outcome) == [.cached])
        let events = { (result: ToolResult) in (result.payload as? CalendarPayload)?.events.map(\.summary) }
        #expect(events(first) == ["From the feed"])
        #expect(events(second) == events(first))
        let key = "calendar:feed:" + StableHash.hex("http://calendar.example.com/basic.ics")
        let stored = try #require(await cache.entry(for: key))
        #expect(stored.payload.suffix(Self.trailer.count).elementsEqual(Self.trailer))
        #expect(stored.payload.starts(with: CalendarSourceTests.feed))
    }
}
