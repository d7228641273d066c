import Foundation
import Testing

@testable import AlmanacCalendar

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
        for _ in 0..<5000 { samples.append(TimeInterval(Int64.random(in: -2_208_988_800...7_258_118_400, using: &generator))) }
        for seconds in samples {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(isoUTC(date) == Self.reference(date), "at \(seconds)")
        }
    }
}
