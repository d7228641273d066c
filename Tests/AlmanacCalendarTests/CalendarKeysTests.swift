import AlmanacCore
import Foundation
import Testing

@testable import AlmanacCalendar

/// The calendar's typed seams: parameter names declared once (CalendarParameter) and every key
/// built by one function (CalendarKey), keeping the strings the cache and state store already hold.
@Suite("calendar keys")
struct CalendarKeysTests {
    @Test("the schema names exactly the CalendarParameter cases, in order")
    func schemaNamesTheParameters() {
        #expect(CalendarTool().schema.parameters.map(\.name) == CalendarParameter.allCases.map(\.rawValue))
    }

    @Test("a value given under a CalendarParameter name is read back through the same case")
    func readerTakesTheSameKeys() throws {
        let tool = CalendarTool()
        let arguments = try ToolArguments.parse(
            cli: ["add", "dentist", "--at", "friday 15:00", "--all-day", "--repeat-count", "3"], schema: tool.schema,
            tool: tool.name)
        #expect(arguments.string(CalendarParameter.range) == "add")
        #expect(arguments.string(CalendarParameter.at) == "friday 15:00")
        #expect(arguments.flag(CalendarParameter.allDay))
        #expect(arguments.integer(CalendarParameter.repeatCount) == 3)
    }

    @Test("cache and state keys: the same strings as before, no URL or user in them")
    func keys() throws {
        let user = Credentials(username: "me", password: "secret")
        let dav = CalendarSource(
            name: "work", location: .caldav(try #require(URL(string: "https://dav.example/cal/"))), credentials: user,
            configured: true)
        let file = CalendarSource(name: "a", location: .file("/tmp/a.ics"), credentials: nil, configured: false)
        let feed = CalendarSource(
            name: "a", location: .feed(try #require(URL(string: "https://feed.example/a.ics"))), credentials: nil,
            configured: false)
        let (from, to) = (CivilDate(year: 2026, month: 1, day: 1), CivilDate(year: 2026, month: 1, day: 7))
        #expect(CalendarKey.fetch(file, from: from, to: to, tasks: true, writes: 2).text == "file:/tmp/a.ics")
        #expect(CalendarKey.fetch(feed, from: from, to: to, tasks: false, writes: 0).text == "feed:10fb729f1bd1d561")
        #expect(
            CalendarKey.fetch(dav, from: from, to: to, tasks: false, writes: 0).text
                == "caldav:a32a540f1cbd80df:2026-01-01..2026-01-07")
        #expect(
            CalendarKey.fetch(dav, from: from, to: to, tasks: true, writes: 2).text
                == "caldav:a32a540f1cbd80df:2026-01-01..2026-01-07:tasks:w2")
        #expect(CalendarKey.writeCount(dav).text == "caldav-writes:caldav:a32a540f1cbd80df")
        #expect(
            CalendarKey.calDAVIndex(try #require(URL(string: "https://dav.example/cal/")), username: "me").text
                == "caldav-source:a32a540f1cbd80df")
        #expect(
            CalendarKey.calDAVCollection("https://dav.example/cal/work/", username: "me").text
                == "caldav:f61964beba922d7f")
    }
}
