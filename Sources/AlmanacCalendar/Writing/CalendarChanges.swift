import AlmanacCore
import Foundation

/// How a DTSTART (RECURRENCE-ID, EXDATE) was written, so a new value for the same item is written
/// the same way.
enum TimeForm: Sendable {
    case date
    case utc
    case zoned(TimeZone)
    case floating
    /// A TZID the zone database does not know (a custom VTIMEZONE): values are read in the
    /// viewer's zone and written in UTC.
    case unknownZone(String)
}

/// A DTSTART/DTEND/DUE/RECURRENCE-ID/EXDATE value read from a raw line.
struct ReadTime: Sendable {
    var time: EventTime
    var form: TimeForm

    /// Reads `line` (first value only); nil when it is not a date or date-time.
    init?(_ line: ContentLine, viewer: TimeZone) {
        let value = line.value.split(separator: ",").first.map(String.init)?.trimmingCharacters(in: .whitespaces) ?? ""
        let digits = value.filter(\.isNumber)
        guard digits.count >= 8, let year = Int(digits.prefix(4)), let month = Int(digits.dropFirst(4).prefix(2)),
            let dayNumber = Int(digits.dropFirst(6).prefix(2)),
            let day = CivilDate(iso: String(format: "%04d-%02d-%02d", year, month, dayNumber))
        else { return nil }
        if line.parameters["VALUE"]?.uppercased() == "DATE" || !value.uppercased().contains("T") {
            self.init(time: .day(day), form: .date)
            return
        }
        guard digits.count >= 14, let h = Int(digits.dropFirst(8).prefix(2)),
            let m = Int(digits.dropFirst(10).prefix(2)),
            let s = Int(digits.dropFirst(12).prefix(2))
        else { return nil }
        let seconds = h * 3600 + m * 60 + s
        if value.uppercased().hasSuffix("Z") {
            self.init(
                time: .instant(Date(timeIntervalSince1970: TimeInterval(day.dayNumber * 86_400 + seconds))), form: .utc)
            return
        }
        if let tzid = line.parameters["TZID"] {
            if let zone = Self.zone(named: tzid) {
                self.init(time: .instant(WallClock.instant(day, seconds: seconds, in: zone)), form: .zoned(zone))
            } else {
                self.init(
                    time: .instant(WallClock.instant(day, seconds: seconds, in: viewer)), form: .unknownZone(tzid))
            }
            return
        }
        self.init(time: .instant(WallClock.instant(day, seconds: seconds, in: viewer)), form: .floating)
    }

    init(time: EventTime, form: TimeForm) {
        self.time = time
        self.form = form
    }

    /// A database zone for a TZID: the name itself, or the `Area/Location` at the end of a
    /// vendor-prefixed one (`/mozilla.org/20050126_1/Europe/Berlin`).
    static func zone(named tzid: String) -> TimeZone? {
        let trimmed = tzid.trimmingCharacters(in: CharacterSet(charactersIn: "/\" "))
        if trimmed.contains("/"), let zone = TimeZone(identifier: trimmed) { return zone }
        let parts = trimmed.split(separator: "/")
        if parts.count >= 2, let zone = TimeZone(identifier: parts.suffix(2).joined(separator: "/")) { return zone }
        if parts.count >= 3, let zone = TimeZone(identifier: parts.suffix(3).joined(separator: "/")) { return zone }
        return nil
    }

    /// The zone values of this form are read in.
    func zone(viewer: TimeZone) -> TimeZone {
        switch form {
        case .zoned(let zone): zone
        case .utc: TimeText.utc
        default: viewer
        }
    }
}

extension TimeForm {
    /// `time` written in this form: `NAME;PARAMS:VALUE` as a folded line.
    func line(_ name: String, _ time: EventTime, viewer: TimeZone) -> String {
        switch (self, time) {
        case (_, .day(let day)):
            return ICalendarText.line(name, ICalendarText.date(day), parameters: [("VALUE", "DATE")])
        case (.zoned(let zone), .instant(let date)):
            let (value, parameters) = WriteTime.zoned(date, zone).property
            return ICalendarText.line(name, value, parameters: parameters)
        case (.floating, .instant(let date)):
            return ICalendarText.line(name, ICalendarText.wall(date, in: viewer))
        case (_, .instant(let date)):
            return ICalendarText.line(name, ICalendarText.utc(date))
        }
    }

    var zone: TimeZone? {
        if case .zoned(let zone) = self { return zone }
        return nil
    }
}

/// What a write will do, worked out before anything is written (for the preview) and again
/// under the calendar's lock (for the write).
enum WritePlan: Sendable {
    case add(WriteItem)
    case change(ItemChange)

    func preview(_ calendar: String, zone: TimeZone) -> String {
        switch self {
        case .add(let item): return item.preview(calendar: calendar)
        case .change(let change): return change.preview(calendar: calendar, zone: zone)
        }
    }
}

/// A change to an item that exists.
struct ItemChange: Sendable {
    var command: CalendarWriteCommand
    var uid: String
    var summary: String?
    var kind: String
    /// The original start of the one occurrence changed (`--date`), nil for the whole item.
    var occurrence: EventTime?
    /// For `move`: the new start.
    var newStart: WhenReader.When?
    /// The item repeats (and `--series` said all of it).
    var series: Bool
    /// For a CalDAV calendar: the object the item was found in.
    var remote: RemoteObject? = nil

    func preview(calendar: String, zone: TimeZone) -> String {
        let name = "\"\(summary ?? "(no title)")\" (uid \(uid))"
        let which =
            occurrence.map { " on \(CalendarWritePayload.describe($0, zone: zone))" }
            ?? (series ? ", the whole series," : "")
        switch command {
        case .done: return "mark task \(name) done in \(calendar)"
        case .reopen: return "reopen task \(name) in \(calendar)"
        case .delete:
            return
                "delete \(kind == "VTODO" ? "task" : "event") \(name)"
                + "\(series ? " and every occurrence" : "") from \(calendar)"
        case .cancel: return "cancel \(name)\(which) in \(calendar)"
        case .move:
            let target: String
            switch newStart {
            case .time(let date)?: target = CalendarWritePayload.describe(.instant(date), zone: zone)
            case .day(let day)?: target = day.description
            case nil: target = "?"
            }
            return "move \(name)\(which) to \(target) in \(calendar)"
        case .add, .remind: return "\(command.rawValue) \(name)"
        }
    }
}

extension WriteItem {
    func preview(calendar: String) -> String {
        var text =
            kind == .event ? "add event \"\(summary)\" to \(calendar): " : "add task \"\(summary)\" to \(calendar)"
        if kind == .event, let start, let end {
            text += CalendarWritePayload.describe(span: start, end)
        }
        if let due { text += ", due " + CalendarWritePayload.describe(due) }
        if let repetition { text += ", repeating \(repetition.describe)" }
        if let location { text += " at \(location)" }
        if let alarmBefore {
            text +=
                alarmBefore == 0 ? ", alarm at the due time" : ", alarm \(ICalendarDuration.text(alarmBefore)) before"
        }
        return text
    }
}

extension Repetition {
    var describe: String {
        var text = frequency.rawValue
        if let count { text += ", \(count) times" }
        if let until { text += " until \(until)" }
        return text
    }
}

/// Finds items by WORDS and applies changes to a calendar's raw text.
struct ItemFinder {
    var command: CalendarWriteCommand
    var zone: TimeZone

    /// The component kinds the command works on.
    var kinds: Set<String> {
        switch command {
        case .done, .reopen: ["VTODO"]
        case .move, .cancel: ["VEVENT"]
        default: ["VEVENT", "VTODO"]
        }
    }

    /// The masters and one-off items whose UID is `words` or whose title holds every word.
    func matches(_ words: String, in calendar: RawCalendar) -> [RawComponent] {
        let items = calendar.components.filter { kinds.contains($0.kind) && !$0.isOverride && $0.uid != nil }
        if let exact = items.first(where: { $0.uid == words }) { return [exact] }
        let wanted = words.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        var found = items.filter { item in
            let title = (item.summary ?? "").lowercased()
            return !wanted.isEmpty && wanted.allSatisfy { title.contains($0) }
        }
        // What the command would change: done looks among open tasks, reopen among done ones,
        // move and cancel among events not cancelled; when none is left, the rest answer.
        let preferred = found.filter { item in
            switch command {
            case .done: item.status != "COMPLETED" && item.status != "CANCELLED"
            case .reopen: item.status == "COMPLETED" || item.first("COMPLETED") != nil
            case .move, .cancel: item.status != "CANCELLED"
            default: true
            }
        }
        if !preferred.isEmpty { found = preferred }
        var seen = Set<String>()
        return found.filter { seen.insert($0.uid ?? "").inserted }
    }

    /// A short description of a candidate for the one-line question.
    func describe(_ item: RawComponent) -> String {
        var text = "\"\(item.summary ?? "(no title)")\""
        if let line = item.first("DTSTART") ?? item.first("DUE"), let time = ReadTime(line, viewer: zone) {
            text += " " + CalendarWritePayload.describe(time.time, zone: zone)
        }
        if item.repeats { text += " (repeats)" }
        if item.status == "COMPLETED" { text += " (done)" }
        return text + " uid \(item.uid ?? "")"
    }
}
