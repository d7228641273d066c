import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCalendar
@testable import AlmanacCore

@Suite("UTC instants in JSON")
struct ISOTests {
    /// The reference: Foundation's ISO 8601 formatter in UTC.
    static func reference(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        return formatter.string(from: date)
    }

    @Test("isoUTC agrees with ISO8601DateFormatter from 1900 to 2200, leap days and negatives included")
    func agreesWithFoundation() {
        var generator = SystemRandomNumberGenerator()
        var samples: [TimeInterval] = [0, -1, 951_782_400, 951_868_799, 4_107_542_399, -2_208_988_800, 1_709_164_800]
        for _ in 0..<5000 {
            samples.append(TimeInterval(Int64.random(in: -2_208_988_800...7_258_118_400, using: &generator)))
        }
        for seconds in samples {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(TimeText.isoUTC(date) == Self.reference(date), "at \(seconds)")
        }
    }
}

@Suite("Calendar JSON written by hand")
struct CompactJSONTests {
    @Test(
        "the envelope's data parses to the same value as JSONEncoder's, for every corpus file", arguments: corpusCases)
    func sameValue(_ item: CorpusCase) async throws {
        let harness = CalendarHarness(now: item.now, zone: item.zone)
        let result = try await harness.run([
            "--ics", Fixtures.url("calendar/ics/\(item.file)").path, "--from", item.from, "--to", item.to,
        ])
        let payload = try #require(result.payload as? CalendarPayload)
        let fast = try JSONSerialization.jsonObject(with: Data(try payload.compactDataJSON().utf8)) as? NSDictionary
        let slow = try JSONSerialization.jsonObject(with: Data(try Envelope.dataJSON(payload).utf8)) as? NSDictionary
        #expect(fast != nil && fast == slow)
        #expect(((fast?["events"] as? [Any])?.count ?? 0) == payload.events.count)
    }

    @Test("strings with quotes, backslashes, control characters and non-ASCII round-trip")
    func escaping() throws {
        for text in [
            "plain", "quote \" and \\ backslash", "line\nbreak\ttab\r", "bell \u{07} nul \u{00}", "Zürich 東京 🎉", "",
        ] {
            var writer = JSONWriter()
            writer.string(text)
            let literal = writer.text
            let parsed = try JSONSerialization.jsonObject(with: Data("[\(literal)]".utf8)) as? [String]
            #expect(parsed == [text])
        }
        var writer = JSONWriter()
        writer.string(nil as String?)
        #expect(writer.text == "null")
    }
}
