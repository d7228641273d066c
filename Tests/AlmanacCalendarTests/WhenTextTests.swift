import AlmanacCore
import Foundation
import Testing

@testable import AlmanacCalendar

@Suite("Calendar writes: WHEN and DURATION in the user's zone")
struct WhenTextTests {
    /// Thursday 2026-03-26 11:00 in Berlin (CET); DST starts Sunday 2026-03-29 at 02:00.
    let berlin = WhenReader(
        now: Date(timeIntervalSince1970: 1_774_519_200), zone: TimeZone(identifier: "Europe/Berlin") ?? .current)

    func utc(_ text: String, _ reader: WhenReader? = nil) throws -> String {
        let reader = reader ?? berlin
        switch try reader.read(text, option: "--at") {
        case .time(let date): return TimeText.isoUTC(date)
        case .day(let day): return "day \(day)"
        }
    }

    @Test("named days and times")
    func named() throws {
        #expect(try utc("thursday 15:00") == "2026-03-26T14:00:00Z")
        #expect(try utc("Thursday 9:00") == "2026-04-02T07:00:00Z")  // passed today: next week, CEST
        #expect(try utc("next thursday 15:00") == "2026-04-02T13:00:00Z")
        #expect(try utc("tomorrow 6pm") == "2026-03-27T17:00:00Z")
        #expect(try utc("6pm tomorrow") == "2026-03-27T17:00:00Z")
        #expect(try utc("tomorrow at 6") == "2026-03-27T17:00:00Z")
        #expect(try utc("tomorrow 6:30 am") == "2026-03-27T05:30:00Z")
        #expect(try utc("15:00") == "2026-03-26T14:00:00Z")
        #expect(try utc("09:00") == "2026-03-27T08:00:00Z")
        #expect(try utc("noon") == "2026-03-26T11:00:00Z")
        #expect(try utc("dec 3 3pm") == "2026-12-03T14:00:00Z")
        #expect(try utc("3 December 15:00") == "2026-12-03T14:00:00Z")
        #expect(try utc("friday") == "day 2026-03-27")
        #expect(try utc("tomorrow") == "day 2026-03-27")
    }

    @Test("dates and ISO times")
    func iso() throws {
        #expect(try utc("2026-12-03 15:00") == "2026-12-03T14:00:00Z")
        #expect(try utc("2026-07-03 15:00") == "2026-07-03T13:00:00Z")
        #expect(try utc("2026-12-03T15:00") == "2026-12-03T14:00:00Z")
        #expect(try utc("2026-12-03T15:00:00Z") == "2026-12-03T15:00:00Z")
        #expect(try utc("2026-12-03T15:00+05:30") == "2026-12-03T09:30:00Z")
        #expect(try utc("2026-12-03") == "day 2026-12-03")
    }

    @Test("relative times: elapsed hours, wall-clock days, across the DST change")
    func relative() throws {
        #expect(try utc("in 2 hours") == "2026-03-26T12:00:00Z")
        #expect(try utc("in 90 minutes") == "2026-03-26T11:30:00Z")
        #expect(try utc("in an hour") == "2026-03-26T11:00:00Z")
        #expect(try utc("in 1h30m") == "2026-03-26T11:30:00Z")
        // Sunday is in CEST: three days on keeps 11:00 on the clock; 72 hours is 12:00.
        #expect(try utc("in 3 days") == "2026-03-29T09:00:00Z")
        #expect(try utc("in 72 hours") == "2026-03-29T10:00:00Z")
    }

    @Test("DST days: the skipped hour moves forward, the repeated hour is its first pass")
    func dst() throws {
        #expect(try utc("sunday 02:30") == "2026-03-29T01:30:00Z")  // 03:30 CEST
        #expect(try utc("sunday 01:30") == "2026-03-29T00:30:00Z")
        #expect(try utc("sunday 12:00") == "2026-03-29T10:00:00Z")
        #expect(try utc("2026-10-25 02:30") == "2026-10-25T00:30:00Z")  // first pass, CEST
        #expect(try utc("2026-10-25 03:30") == "2026-10-25T02:30:00Z")
        let newYork = WhenReader(
            now: Date(timeIntervalSince1970: 1_793_462_400), zone: TimeZone(identifier: "America/New_York") ?? .current)
        // Saturday 2026-10-31 12:00 EDT; the clocks go back on Sunday.
        #expect(try utc("tomorrow 6pm", newYork) == "2026-11-01T23:00:00Z")
        #expect(try utc("tomorrow 1:30am", newYork) == "2026-11-01T05:30:00Z")
    }

    @Test("what is not a time is one usage error with examples")
    func errors() throws {
        for text in ["blah", "25:00", "tomorrow tomorrow", "in 2 parsecs", "2026-02-30 10:00", "13pm", ""] {
            #expect(throws: AlmanacError.self) { try berlin.read(text, option: "--at") }
        }
        do {
            _ = try berlin.time("friday", option: "--at")
            Issue.record("a day without a time was taken as a time")
        } catch let error as AlmanacError {
            #expect(error.message.contains("names a day (2026-03-27) but no time"))
        }
    }

    @Test("durations")
    func durations() {
        #expect(DurationText.parse("90m") == 5400)
        #expect(DurationText.parse("1h30m") == 5400)
        #expect(DurationText.parse("2 hours") == 7200)
        #expect(DurationText.parse("45") == 2700)
        #expect(DurationText.parse("PT1H30M") == 5400)
        #expect(DurationText.parse("1d") == 86_400)
        #expect(DurationText.parse("1 week") == 604_800)
        #expect(DurationText.parse("x") == nil)
        #expect(DurationText.parse("0") == nil)
    }
}
