import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCalendar
@testable import AlmanacCore

/// One corpus file with the window, zone and "now" its golden is rendered for; each window is
/// chosen so the file's interesting instances (DST changes, EXDATEs, moved instances) fall inside.
struct CorpusCase: Sendable, CustomStringConvertible {
    var file: String
    var zone: String
    var now: String
    var from: String
    var to: String
    /// Names a second window of the same file (its goldens are `<stem>-<variant>.*`).
    var variant: String? = nil

    var description: String { variant.map { "\(file) (\($0))" } ?? file }
    var stem: String { String(file.dropLast(4)) + (variant.map { "-\($0)" } ?? "") }
}

let corpusCases: [CorpusCase] = [
    // Christmas holidays; DTSTART without VALUE=DATE, empty RRULE lines.
    .init(
        file: "calendarlabs-germany-holidays.ics", zone: "Europe/Berlin", now: "2019-12-23T08:00:00Z",
        from: "2019-12-23", to: "2020-01-06"),
    // Weekly Tuesday series across the 27 Oct 2019 DST change with nine comma-listed EXDATEs.
    .init(
        file: "davx5-ical4j-exdate-berlin.ics", zone: "Europe/Berlin", now: "2019-10-14T08:00:00Z", from: "2019-10-14",
        to: "2019-12-31"),
    // All-day weekly series with the 22 Sep instance overridden.
    .init(
        file: "evolution-recurrence-sequence.ics", zone: "Europe/London", now: "2020-09-14T08:00:00Z",
        from: "2020-09-14", to: "2020-09-30"),
    // Windows TZID "Eastern Standard Time" with its own VTIMEZONE.
    .init(
        file: "exchange2010-eastern-standard-time.ics", zone: "America/New_York", now: "2024-10-28T12:00:00Z",
        from: "2024-10-28", to: "2024-10-28"),
    // All-day fortnightly bins; overrides keyed by a GMT Standard Time midnight move 16 Apr to 17 Apr.
    .init(
        file: "exchange2010-gmt-standard-time-recurrence-id.ics", zone: "Europe/London", now: "2020-04-01T08:00:00Z",
        from: "2020-04-01", to: "2020-04-30"),
    // Daily series in Europe/Berlin (VTIMEZONE only for the Windows name), 27 Apr excluded by a UTC EXDATE.
    .init(
        file: "exchange2010-windows-tzid-w-europe-exdate.ics", zone: "Europe/Berlin", now: "2020-04-25T08:00:00Z",
        from: "2020-04-25", to: "2020-04-30"),
    // Birthday overrides without a master, a COUNT=1 series and an unparsable RDATE.
    .init(
        file: "google-contacts-birthdays-allday-yearly.ics", zone: "America/Los_Angeles", now: "2012-12-01T08:00:00Z",
        from: "2012-12-01", to: "2014-12-31"),
    // Berlin DST change 28 Oct 2018; the 27 Oct repair café moved to 20 Oct.
    .init(
        file: "google-makerspace-dst-rrule-exdate-recurrence-id-berlin.ics", zone: "Europe/Berlin",
        now: "2018-10-18T08:00:00Z", from: "2018-10-18", to: "2018-10-31"),
    // Timed series moved from Tue 15 Aug to Mon 14 Aug; all-day series moved from 17 to 16 Aug.
    .init(
        file: "google-moved-event-recurrence-id-sydney.ics", zone: "Australia/Sydney", now: "2023-08-07T00:00:00Z",
        from: "2023-08-07", to: "2023-08-27"),
    // DTSTART;VALUE=DATE with no DTEND: one day.
    .init(
        file: "google-only-dtstart-date.ics", zone: "America/Los_Angeles", now: "2012-06-30T16:00:00Z",
        from: "2012-06-30", to: "2012-06-30"),
    // Chicago DST end 1 Nov 2020 (13:15Z becomes 14:15Z); 6 Nov EXDATEs incl. an exdated DTSTART.
    .init(
        file: "google-rrule-exdate-chicago-dst.ics", zone: "America/Chicago", now: "2020-10-29T12:00:00Z",
        from: "2020-10-29", to: "2020-11-06"),
    // UTC times with X-WR-TIMEZONE: the 02:00Z event is 21:00 on the 22nd in New York.
    .init(
        file: "google-x-wr-timezone-utc-events.ics", zone: "America/New_York", now: "2021-12-22T12:00:00Z",
        from: "2021-12-22", to: "2021-12-22"),
    // Public feed: monthly first-Saturday series and the Berlin DST change 28 Oct 2018.
    .init(
        file: "icalcreator-fablab-public-feed.ics", zone: "Europe/Berlin", now: "2018-10-06T08:00:00Z",
        from: "2018-10-06", to: "2018-10-28"),
    // The monthly Repair Café years after the embedded VTIMEZONE's last transition (March 2020):
    // Sat 7 Jan 2023 14:00 in Berlin is 13:00Z by the zone database (CET), not 12:00Z.
    .init(
        file: "icalcreator-fablab-public-feed.ics", zone: "Europe/Berlin", now: "2023-01-02T08:00:00Z",
        from: "2023-01-02", to: "2023-01-08", variant: "2023"),
    // COUNT=3 series with the middle instance edited.
    .init(
        file: "nextcloud-sabredav-three-events-one-edited.ics", zone: "Europe/Berlin", now: "2019-03-18T00:00:00Z",
        from: "2019-03-18", to: "2019-03-20"),
    // Weekly series over the 31 Mar 2019 DST change with two UTC EXDATEs (11 and 25 Mar).
    .init(
        file: "nextcloud-sabredav-weekly-two-exdates.ics", zone: "Europe/Berlin", now: "2019-03-04T00:00:00Z",
        from: "2019-03-04", to: "2019-04-30"),
    // Outlook all-day holidays around New Year.
    .init(
        file: "outlook12-germany-holidays-allday.ics", zone: "Europe/Berlin", now: "2012-12-20T08:00:00Z",
        from: "2012-12-20", to: "2013-01-06"),
    // Overrides that change duration, and one that becomes all-day.
    .init(
        file: "thunderbird-changed-duration-allday.ics", zone: "Europe/Berlin", now: "2019-03-07T00:00:00Z",
        from: "2019-03-07", to: "2019-03-20"),
    // Moved instances (earlier and later than their original time).
    .init(
        file: "thunderbird-recurring-events-moved.ics", zone: "Europe/Berlin", now: "2019-03-07T00:00:00Z",
        from: "2019-03-07", to: "2019-03-20"),
    // Weekday series across the 4 Nov 2012 Los Angeles DST change; folded ATTENDEE lines.
    .init(
        file: "zimbra-parserv2-folded.ics", zone: "America/Los_Angeles", now: "2012-11-01T15:00:00Z",
        from: "2012-11-01", to: "2012-11-07"),
]

@Suite("Calendar corpus goldens")
struct CorpusGoldenTests {
    @Test("every corpus file has a case")
    func everyFileCovered() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Fixtures.url("calendar/ics").path)
            .filter { $0.hasSuffix(".ics") }.sorted()
        #expect(files == Set(corpusCases.map(\.file)).sorted())
    }

    @Test("context and JSON goldens", arguments: corpusCases)
    func golden(_ item: CorpusCase) async throws {
        let harness = CalendarHarness(now: item.now, zone: item.zone)
        let result = try await harness.run([
            "--ics", Fixtures.url("calendar/ics/\(item.file)").path, "--from", item.from, "--to", item.to,
        ])
        #expect(
            Golden.check(try harness.context(result) + "\n", against: "calendar/ics/\(item.stem).context.txt") == nil)
        #expect(
            Golden.check(try Envelope.dataJSON(result.payload) + "\n", against: "calendar/ics/\(item.stem).data.json")
                == nil)
    }
}
