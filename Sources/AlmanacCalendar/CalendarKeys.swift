import AlmanacCore
import Foundation

/// Every parameter of the calendar's schema, named once: the schema (``CalendarTool/schema``)
/// and every reader of the arguments take these cases.
enum CalendarParameter: String, CaseIterable, Sendable {
    case range, count, title, from, to, hours, search, ics, caldav, calendar
    // The write commands' options (``CalendarWriteRun/parameters``).
    case at, `for`, until
    case allDay = "all-day"
    case location
    case `repeat`
    case repeatCount = "repeat-count"
    case repeatUntil = "repeat-until"
    case due, alarm, date, series
    case requestID = "request-id"
    case yes, confirm
}

/// Every key the calendar keeps something under, built in one place: the coordinator's cache
/// key of a fetch, and CalDAV's entries in the provider state store. URLs may carry private
/// tokens, so they are hashed with the user; paths are not secret.
enum CalendarKey {
    /// One source's fetch; a CalDAV answer may be limited to the days asked (time-range query),
    /// and after Almanac wrote to it (`writes`), an answer from before the write is not this one.
    case fetch(CalendarSource, from: CivilDate, to: CivilDate, tasks: Bool, writes: Int)
    /// How many writes Almanac made to a CalDAV source (``CalDAVWriteCount``).
    case writeCount(CalendarSource)
    /// The collections discovery found for a CalDAV URL and user (``CalDAVIndex``).
    case calDAVIndex(URL, username: String?)
    /// One collection's mirror and sync token (``CalDAVState``).
    case calDAVCollection(String, username: String?)

    var text: String {
        switch self {
        case .fetch(let source, let from, let to, let tasks, let writes):
            guard case .caldav = source.location else { return Self.name(source) }
            return Self.name(source) + ":\(from)..\(to)" + (tasks ? ":tasks" : "") + (writes > 0 ? ":w\(writes)" : "")
        case .writeCount(let source): return "caldav-writes:" + Self.name(source)
        case .calDAVIndex(let url, let username): return "caldav-source:" + Self.hash(url.absoluteString, username)
        case .calDAVCollection(let url, let username): return "caldav:" + Self.hash(url, username)
        }
    }

    /// A source named without secrets.
    private static func name(_ source: CalendarSource) -> String {
        switch source.location {
        case .file(let path): "file:\(path)"
        case .feed(let url): "feed:\(StableHash.hex(url.absoluteString))"
        case .caldav(let url): "caldav:\(hash(url.absoluteString, source.credentials?.username))"
        }
    }

    private static func hash(_ url: String, _ username: String?) -> String {
        StableHash.hex(url + "|" + (username ?? ""))
    }
}
