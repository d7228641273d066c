import CLibical
import Foundation

extension ICalendarDocument {
    /// Every VTODO that is not cancelled, with its state relative to `now`.
    func tasks(now: Date, zone: TimeZone, calendar name: String) -> (tasks: [CalendarTask], warnings: [String]) {
        var tasks: [CalendarTask] = []
        var warnings: [String] = []
        var notes: [ItemNote] = []
        for calendar in calendars {
            let zones = ZoneResolver(calendar: calendar, viewer: zone)
            // An iTIP cancellation (METHOD:CANCEL) cancels every task in it, as it does events.
            let cancelled = Self.cancels(calendar)
            for component in children(of: calendar, kind: ICAL_VTODO_COMPONENT) {
                let status = icalcomponent_get_status(component)
                if status == ICAL_STATUS_CANCELLED || cancelled { continue }
                // nil in JSON, as for events: "(no title)" is the context's wording, not the task's.
                let summary = textProperty(component, ICAL_SUMMARY_PROPERTY)
                let uid = icalcomponent_get_uid(component).map { String(cString: $0) } ?? ""
                if uid.isEmpty {
                    let item = "'\(summary ?? "(no title)")'"
                    notes.append(
                        ItemNote(line: "\(self.name): task \(item) has no UID", group: " have no UID", item: item))
                }
                var due: EventTime?
                if let property = icalcomponent_get_first_property(component, ICAL_DUE_PROPERTY),
                    let stamp = zones.stamp(icalproperty_get_due(property), of: property)
                {
                    due = stamp.isDate ? .day(stamp.civil) : .instant(stamp.instant)
                }
                let completed =
                    status == ICAL_STATUS_COMPLETED
                    || icalcomponent_get_first_property(component, ICAL_COMPLETED_PROPERTY) != nil
                var priority: Int?
                if let property = icalcomponent_get_first_property(component, ICAL_PRIORITY_PROPERTY) {
                    let value = Int(icalproperty_get_priority(property))
                    priority = (1...9).contains(value) ? value : nil
                }
                let state: CalendarTask.State
                if completed {
                    state = .completed
                } else if let due {
                    // A DATE due means "by the end of that day".
                    let deadline: Date
                    switch due {
                    case .day(let day): deadline = day.adding(days: 1).start(in: zone)
                    case .instant(let date): deadline = date
                    }
                    if deadline <= now {
                        state = .overdue
                    } else if deadline.timeIntervalSince(now) <= 86_400 {
                        state = .due
                    } else {
                        state = .open
                    }
                } else {
                    state = .open
                }
                tasks.append(
                    CalendarTask(uid: uid, summary: summary, due: due, state: state, priority: priority, calendar: name)
                )
            }
            for tzid in zones.unknown {
                warnings.append("\(self.name): unknown time zone '\(tzid)', read as \(zone.identifier)")
            }
        }
        return (tasks, ItemNote.lines(notes, file: self.name, nouns: "tasks") + warnings)
    }
}

extension CalendarTask {
    /// Overdue first, then due, then open, then completed; earlier due first; no due date last.
    static func displayOrder(_ a: CalendarTask, _ b: CalendarTask) -> Bool {
        func rank(_ state: State) -> Int {
            switch state {
            case .overdue: 0
            case .due: 1
            case .open: 2
            case .completed: 3
            }
        }
        if rank(a.state) != rank(b.state) { return rank(a.state) < rank(b.state) }
        let utc = TimeZone(identifier: "UTC") ?? .current
        switch (a.due, b.due) {
        case (let x?, let y?) where x.date(in: utc) != y.date(in: utc): return x.date(in: utc) < y.date(in: utc)
        case (.some, nil): return true
        case (nil, .some): return false
        default: return (a.priority ?? 10, a.summary ?? "", a.uid) < (b.priority ?? 10, b.summary ?? "", b.uid)
        }
    }
}
