import AlmanacCore
import Foundation

/// The calendar tool's result: events (or tasks) in a window, plus per-file/per-event warnings.
///
/// JSON `data`: `range`, `from`, `to` (local days, inclusive), `timeZone`, `search`,
/// `events[]` (`uid`, `recurrenceId`, `start`, `end`, `allDay`, `summary`, `location`, `calendar`),
/// `tasks[]` (`uid`, `summary`, `due`, `state`, `priority`, `calendar`), `warnings[]`, and
/// `omitted` (only when the per-answer cap left events out: how many).
struct CalendarPayload: CompactJSONPayload {
    var request: CalendarRequest
    var events: [CalendarEvent]
    var tasks: [CalendarTask]
    var warnings: [String]
    /// Events left out past the per-answer cap (``CalendarLimits/maxOccurrences(_:)``).
    var omitted = 0

    enum CodingKeys: String, CodingKey {
        case range, from, to, timeZone, search, events, tasks, warnings, omitted
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(request.rangeName, forKey: .range)
        try container.encode(request.firstDay.description, forKey: .from)
        try container.encode(request.lastDay.description, forKey: .to)
        try container.encode(request.window.zone.identifier, forKey: .timeZone)
        try container.encode(request.search, forKey: .search)
        try container.encode(events, forKey: .events)
        try container.encode(tasks, forKey: .tasks)
        try container.encode(warnings, forKey: .warnings)
        // Only when events were left out: answers within the cap keep their shape.
        if omitted > 0 { try container.encode(omitted, forKey: .omitted) }
    }

    /// The most warnings spelled out; the rest are counted.
    static let shownWarnings = 3
    /// Descriptions are cut to this many characters in context.
    static let descriptionLimit = 160

    // MARK: Context

    func context(_ rendering: Rendering) -> String {
        let zone = request.window.zone
        var top = [rendering.header(title(rendering), zone: zone)]
        let body = request.mode == .tasks ? taskLines(rendering) : eventLines(rendering)
        top.append(summaryLine(rendering))
        guard !body.isEmpty || !warnings.isEmpty else { return top.joined(separator: "\n") }

        let untrusted = body + warningLines()
        let nonce = UntrustedText.nonce(for: untrusted)
        top.append(UntrustedText.notice(nonce))
        top.append(UntrustedText.open(nonce))
        let closing = UntrustedText.close(nonce)
        let reserved = (top + [closing] + warningLines()).joined(separator: "\n")
        let noun = request.mode == .tasks ? "tasks" : "lines"
        let kept = rendering.budget.fit(body, reserved: reserved, minimum: min(2, body.count)) {
            "… \($0) more \(noun) omitted"
        }
        return (top + kept + warningLines() + [closing]).joined(separator: "\n")
    }

    func text(_ rendering: Rendering) -> String {
        let zone = request.window.zone
        var lines = [rendering.header(title(rendering), zone: zone), summaryLine(rendering)]
        lines += request.mode == .tasks ? taskLines(rendering) : eventLines(rendering)
        lines += warningLines()
        return lines.joined(separator: "\n")
    }

    private func title(_ rendering: Rendering) -> String {
        let zone = request.window.zone
        let what: String
        switch request.mode {
        case .tasks: what = "Tasks"
        case .next(let count):
            what = "Next \(count) events from \(TimeText.labelledDay(rendering.now, now: rendering.now, in: zone))"
        case .days:
            let first = request.firstDay.start(in: zone)
            if request.firstDay == request.lastDay {
                what = "Events \(TimeText.labelledDay(first, now: rendering.now, in: zone))"
            } else {
                let last = request.lastDay.start(in: zone)
                what =
                    "Events \(TimeText.labelledDay(first, now: rendering.now, in: zone)) to \(TimeText.labelledDay(last, now: rendering.now, in: zone))"
            }
        }
        return request.search.map { "\(what) matching '\(UntrustedText.clean($0, limit: 60))'" } ?? what
    }

    private func summaryLine(_ rendering: Rendering) -> String {
        let zone = request.window.zone
        let abbreviation = TimeText.zoneAbbreviation(zone, at: rendering.now)
        let now =
            "Now: \(TimeText.day(rendering.now, in: zone)) \(TimeText.clock(rendering.now, in: zone)) \(abbreviation)"
        let zoneText = zone.identifier == abbreviation ? zone.identifier : "\(zone.identifier) (\(abbreviation))"
        switch request.mode {
        case .tasks:
            let open = tasks.filter { $0.state != .completed }
            let overdue = tasks.filter { $0.state == .overdue }.count
            return "\(now). \(count(open.count, "open task"))" + (overdue > 0 ? ", \(overdue) overdue." : ".")
        default:
            let total = events.isEmpty ? "No events." : "\(count(events.count, "event")); times in \(zoneText)."
            guard omitted > 0 else { return "\(now). \(total)" }
            return "\(now). \(total) \(count(omitted, "more event")) left out (over \(events.count) per answer): "
                + "ask for fewer days or use --search."
        }
    }

    private func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    private func eventLines(_ rendering: Rendering) -> [String] {
        let zone = request.window.zone
        let showCalendar = Set(events.map(\.calendar)).count > 1
        var lines: [String] = []
        var currentDay: CivilDate?
        let firstDay = CivilDate(request.window.start, in: zone)
        for event in events {
            let start = event.start.date(in: zone)
            let startDay = max(CivilDate(start, in: zone), firstDay)
            if startDay != currentDay {
                currentDay = startDay
                lines.append(TimeText.labelledDay(startDay.start(in: zone), now: rendering.now, in: zone))
            }
            var parts = [
                "- \(when(event, groupDay: startDay, rendering: rendering)) \(event.summary.map { UntrustedText.clean($0, limit: 120) } ?? "(no title)")"
            ]
            if let location = event.location { parts.append("at \(UntrustedText.clean(location, limit: 80))") }
            if showCalendar { parts.append("[\(UntrustedText.clean(event.calendar, limit: 40))]") }
            lines.append(parts.joined(separator: " · "))
            if let description = event.description {
                let cleaned = UntrustedText.clean(Self.plain(description), limit: Self.descriptionLimit)
                if !cleaned.isEmpty { lines.append("  notes: \(cleaned)") }
            }
        }
        return lines
    }

    /// "09:00–10:00", "all day", "all day, 3 days to Wed 12 Jun", "since Sun 14 Jan 22:00 until 01:00".
    private func when(_ event: CalendarEvent, groupDay: CivilDate, rendering: Rendering) -> String {
        let zone = request.window.zone
        switch (event.start, event.end) {
        case (.day(let first), .day(let after)):
            let days = max(1, first.days(to: after))
            if days == 1 { return "all day:" }
            let last = after.adding(days: -1).start(in: zone)
            let began = first < groupDay ? "since \(TimeText.day(first.start(in: zone), in: zone)), " : ""
            return "all day (\(began)\(days) days, until \(TimeText.day(last, in: zone))):"
        default:
            let start = event.start.date(in: zone)
            let end = event.end.date(in: zone)
            let startDay = CivilDate(start, in: zone)
            var text =
                startDay < groupDay
                ? "since \(TimeText.day(start, in: zone)) \(TimeText.clock(start, in: zone))"
                : TimeText.clock(start, in: zone)
            if end > start {
                let endDay = CivilDate(end.addingTimeInterval(-1), in: zone)
                let endClock = TimeText.clock(end, in: zone)
                text += endDay == groupDay ? "–\(endClock)" : "–\(TimeText.day(end, in: zone)) \(endClock)"
            }
            return text + ":"
        }
    }

    private func taskLines(_ rendering: Rendering) -> [String] {
        let zone = request.window.zone
        let showCalendar = Set(tasks.map(\.calendar)).count > 1
        return tasks.filter { $0.state != .completed }.map { task in
            var due = ""
            switch task.due {
            case .day(let day)?:
                due = " \(TimeText.labelledDay(day.start(in: zone), now: rendering.now, in: zone))"
            case .instant(let date)?:
                due = " \(TimeText.labelledDay(date, now: rendering.now, in: zone)) \(TimeText.clock(date, in: zone))"
            case nil: break
            }
            let state: String
            switch task.state {
            case .overdue: state = "OVERDUE since\(due)"
            case .due: state = "due\(due)"
            case .open: state = task.due == nil ? "open, no due date" : "open, due\(due)"
            case .completed: state = "done"
            }
            var line = "- \(state): \(task.summary.map { UntrustedText.clean($0, limit: 120) } ?? "(no title)")"
            if let priority = task.priority, priority <= 4 { line += " · high priority" }
            if showCalendar { line += " · [\(UntrustedText.clean(task.calendar, limit: 40))]" }
            return line
        }
    }

    /// Descriptions from Google and Outlook often hold HTML: keep the words, drop the markup.
    static func plain(_ text: String) -> String {
        guard text.contains("<") || text.contains("&") else { return text }
        var result = text.replacingOccurrences(
            of: "<br\\s*/?>", with: " ", options: [.regularExpression, .caseInsensitive])
        result = result.replacingOccurrences(of: "<[^>]{0,500}>", with: "", options: .regularExpression)
        for (entity, character) in [
            ("&nbsp;", " "), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&"),
        ] {
            result = result.replacingOccurrences(of: entity, with: character)
        }
        return result
    }

    private func warningLines() -> [String] {
        guard !warnings.isEmpty else { return [] }
        var lines = ["warnings: \(count(warnings.count, "problem")) reading the calendars (the rest is shown):"]
        for warning in warnings.prefix(Self.shownWarnings) {
            lines.append("! \(UntrustedText.clean(warning, limit: 200))")
        }
        if warnings.count > Self.shownWarnings { lines.append("! … \(warnings.count - Self.shownWarnings) more") }
        return lines
    }
}

extension CalendarPayload {
    /// From this many events on, `events[]` is written in two halves on two threads.
    static let parallelJSONThreshold = 4_096

    /// `events[]` written by hand: a year of a busy calendar is tens of thousands of instances and
    /// JSONEncoder spends ~6 µs on each. Everything else still goes through `encode(to:)`.
    func compactDataJSON() throws -> String {
        var writer = JSONWriter()
        try writeCompactDataJSON(to: &writer)
        return writer.text
    }

    /// Appends ``compactDataJSON()`` to `writer`, the second half of a long `events[]` written on
    /// another thread meanwhile.
    func writeCompactDataJSON(to writer: inout JSONWriter) throws {
        var rest = self
        rest.events = []
        let skeleton = try JSONOutput.compactText(rest)
        let placeholder = #""events":[]"#
        guard let range = skeleton.range(of: placeholder) else { return writer.raw(skeleton) }
        // Room for every event up front (~200 bytes each): regrowing megabytes copies them. Pages
        // reserved but never written cost nothing.
        writer.bytes.reserveCapacity(writer.bytes.count + skeleton.utf8.count + events.count * 256)
        writer.raw(String(skeleton[..<range.lowerBound]))
        writer.raw(#""events":["#)
        let events = self.events
        if events.count >= Self.parallelJSONThreshold, ProcessInfo.processInfo.activeProcessorCount > 1 {
            let half = events.count / 2
            let tail = onAnotherThread {
                var tail = JSONWriter(capacity: (events.count - half) * 256)
                Self.write(events[half...], to: &tail)
                return tail
            }
            Self.write(events[..<half], to: &writer)
            writer.raw(tail.wait())
        } else {
            Self.write(events[...], to: &writer)
        }
        writer.raw("]")
        writer.raw(String(skeleton[range.upperBound...]))
    }

    /// Appends the events as JSON objects, each but the very first (index 0) after a comma.
    private static func write(_ events: ArraySlice<CalendarEvent>, to writer: inout JSONWriter) {
        for index in events.indices {
            let event = events[index]
            if index > 0 { writer.raw(",") }
            // Keys sorted, as JSONEncoder's .sortedKeys writes them.
            writer.raw(event.allDay ? #"{"allDay":true,"calendar":"# : #"{"allDay":false,"calendar":"#)
            writer.string(event.calendar)
            writer.raw(#","end":"#)
            event.end.appendJSON(to: &writer.bytes)
            writer.raw(#","location":"#)
            writer.string(event.location)
            writer.raw(#","recurrenceId":"#)
            if let recurrenceId = event.recurrenceId {
                recurrenceId.appendJSON(to: &writer.bytes)
            } else {
                writer.raw("null")
            }
            writer.raw(#","start":"#)
            event.start.appendJSON(to: &writer.bytes)
            writer.raw(#","summary":"#)
            writer.string(event.summary)
            writer.raw(#","uid":"#)
            writer.string(event.uid)
            writer.raw("}")
        }
    }
}

/// A value being computed on a thread of its own.
///
/// A plain thread, not a task: JSON is written from synchronous code on a cooperative-pool
/// thread, and blocking that thread on another pool job could wait forever on one core.
final class ThreadResult<Value: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    // Written once by the worker before `done` is signalled, read only after waiting on it.
    private var value: Value?
    private let work: @Sendable () -> Value

    fileprivate init(_ work: @escaping @Sendable () -> Value) { self.work = work }

    fileprivate func start() {
        Thread { [self] in
            value = work()
            done.signal()
        }.start()
    }

    /// Waits for the thread and returns its value.
    func wait() -> Value {
        done.wait()
        guard let value else { return work() }  // unreachable: the worker sets it before signalling
        return value
    }
}

/// Starts `work` on a new thread.
func onAnotherThread<Value: Sendable>(_ work: @escaping @Sendable () -> Value) -> ThreadResult<Value> {
    let result = ThreadResult(work)
    result.start()
    return result
}
