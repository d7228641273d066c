import AlmanacCore
import Foundation

extension CalendarWriteRun {
    /// A calendar's text as it is now, for finding items and previewing (no lock: the write
    /// finds the item again under the lock).
    func currentCalendar(_ source: CalendarSource) throws -> RawCalendar {
        switch source.location {
        case .file(let path):
            if !FileManager.default.fileExists(atPath: path), let empty = RawCalendar(RawCalendar.empty) {
                return empty
            }
            guard let data = FileManager.default.contents(atPath: path),
                let text = String(validating: data, as: UTF8.self),
                let calendar = RawCalendar(text)
            else {
                throw AlmanacError.usage(
                    "calendar '\(source.name)': the file is not UTF-8 iCalendar text Almanac can rewrite; "
                        + "left as it is",
                    suggestion: "repair it or write to another calendar")
            }
            return calendar
        case .caldav, .feed:
            // A CalDAV calendar is read object by object (``candidates(_:)``); feeds are read-only.
            throw AlmanacError.usage(
                "calendar '\(source.name)': not a local .ics file", suggestion: "name a calendar of this machine")
        }
    }

    /// The calendars WORDS are looked for in: the file, or each object of a CalDAV calendar
    /// (with where it is and its ETag).
    func candidates(_ source: CalendarSource) async throws -> [(RawCalendar, RemoteObject?)] {
        guard case .caldav = source.location else { return [(try currentCalendar(source), nil)] }
        let writer = try CalDAVWriter(source: source, environment: context.environment)
        return try await writer.allObjects().compactMap { object in RawCalendar(object.text).map { ($0, object) } }
    }

    /// The one item WORDS name across `sources`, and what to do to it.
    func findPlan(in sources: [CalendarSource]) async throws -> (CalendarSource, WritePlan) {
        guard let typed = words else {
            throw AlmanacError.usage(
                "calendar \(command.rawValue) needs words of the item's title, or its UID",
                suggestion: "usage: \(Self.usage[command] ?? "")")
        }
        // Read once: a CalDAV calendar is every object of its collection.
        var looked: [(source: CalendarSource, calendar: RawCalendar, remote: RemoteObject?)] = []
        for source in sources {
            looked += try await candidates(source).map { (source, $0.0, $0.1) }
        }
        let words = try startingAt(in: looked.map(\.calendar)) ?? typed
        let finder = ItemFinder(command: command, zone: zone)
        let found = looked.flatMap { source, calendar, remote in
            finder.matches(words, in: calendar).map { (source, calendar, $0, remote) }
        }
        let what = finder.kinds == ["VTODO"] ? "task" : finder.kinds == ["VEVENT"] ? "event" : "event or task"
        guard let (source, calendar, item, remote) = found.first, let uid = item.uid else {
            throw AlmanacError.usage(
                "calendar: no \(what) matches '\(words)' in \(sources.map(\.name).joined(separator: ", "))",
                suggestion:
                    "name it by words of its title or by its UID "
                    + "(tools run calendar \(what == "task" ? "tasks" : "week") lists them)"
            )
        }
        guard found.count == 1 else {
            let list = found.prefix(8).map { finder.describe($0.2) + (sources.count > 1 ? " in \($0.0.name)" : "") }
            throw AlmanacError.usage(
                "calendar: \(found.count) items match '\(words)': \(list.joined(separator: "; ")); which one?",
                suggestion: "say more words of its title, or its UID")
        }
        var change = ItemChange(
            command: command, uid: uid, summary: item.summary, kind: item.kind, occurrence: nil, newStart: nil,
            series: item.repeats, remote: remote)
        if command == .move || command == .cancel {
            let series = arguments.flag(CalendarParameter.series)
            let dateText = arguments.string(CalendarParameter.date)
            if item.repeats {
                if series, dateText != nil {
                    throw AlmanacError.usage("--date and --series both say which", suggestion: "give one of them")
                }
                if !series, dateText == nil {
                    let rule = item.first("RRULE").map { " (\($0.value))" } ?? ""
                    throw AlmanacError.usage(
                        "\"\(item.summary ?? uid)\" repeats\(rule): which occurrence?",
                        suggestion: "add --date DAY for one occurrence, or --series for all of them")
                }
                if let dateText {
                    change.series = false
                    change.occurrence = try await occurrence(of: uid, in: calendar, on: dateText, item: item)
                }
            } else if series {
                throw AlmanacError.usage("\(finder.describe(item)) does not repeat", suggestion: "drop --series")
            } else if let dateText, let line = item.first("DTSTART"), let start = ReadTime(line, viewer: zone) {
                let day = try self.day(dateText)
                let startDay: CivilDate
                switch start.time {
                case .day(let first): startDay = first
                case .instant(let date): startDay = CivilDate(date, in: zone)
                }
                guard day == startDay else {
                    throw AlmanacError.usage(
                        "\(finder.describe(item)) does not repeat and is not on \(day)", suggestion: "drop --date")
                }
            }
        }
        if command == .move {
            guard let to = arguments.string(CalendarParameter.to) else {
                throw AlmanacError.usage("calendar move needs --to WHEN", suggestion: WhenReader.examples)
            }
            change.newStart = try reader.read(to, option: "--to")
        }
        return (source, .change(change))
    }

    private func day(_ text: String) throws -> CivilDate {
        switch try reader.read(text, option: "--date") {
        case .day(let day): day
        case .time(let date): CivilDate(date, in: zone)
        }
    }

    /// The original start of `uid`'s occurrence on the day `text` names.
    private func occurrence(
        of uid: String, in calendar: RawCalendar, on text: String, item: RawComponent
    ) async throws
        -> EventTime
    {
        let day = try self.day(text)
        let document = try ICalendarDocument(text: calendar.text, name: "calendar")
        let window = ExpansionWindow(
            start: day.start(in: zone), end: day.adding(days: 1).start(in: zone), zone: zone)
        let events = await document.expand(in: window, calendar: "calendar").events.filter { $0.uid == uid }
        guard let first = events.first else {
            throw AlmanacError.usage(
                "\(ItemFinder(command: command, zone: zone).describe(item)) has no occurrence on \(day)",
                suggestion: "give a --date it falls on")
        }
        return first.recurrenceId ?? first.start
    }

    /// Writes `plan` to `source`.
    func apply(_ plan: WritePlan, to source: CalendarSource) async throws -> WrittenItem {
        if case .caldav = source.location { return try await applyCalDAV(plan, to: source) }
        guard case .file(let path) = source.location else {
            throw AlmanacError.internal("calendar: no writer for \(source.name)")
        }
        var create = false
        if case .add = plan { create = true }
        return try LocalCalendarFile.modify(path: path, create: create, name: source.name) { calendar in
            try change(&calendar, plan, calendar: source.name)
        }
    }

    /// Applies `plan` to a calendar's text; what was written.
    func change(_ calendar: inout RawCalendar, _ plan: WritePlan, calendar name: String) throws -> WrittenItem {
        let lineEnd = calendar.lineEnd
        switch plan {
        case .add(let item):
            // A retry of the same add: the request id's UID, or the same item written minutes ago.
            if let twin = calendar.components.first(where: { $0.uid == item.uid || isRecentTwin($0, of: item) }) {
                var written = describe(twin, action: "unchanged", calendar: name)
                written.sentence = "Already there (a retry; nothing new written): " + written.sentence
                return written
            }
            for zone in item.zones where !calendar.timeZoneIDs.contains(zone.identifier) {
                calendar.append(VTimeZoneBuilder.block(for: zone, years: item.zoneYears))
            }
            calendar.append(item.component)
            var written = describe(
                RawCalendar(item.calendar)?.components.last ?? RawComponent(kind: "", lines: []),
                action: "added", calendar: name)
            written.rule = item.repetition.flatMap { rule in item.start.map { rule.rule(start: $0) } }
            written.sentence = "Added " + written.sentence
            return written
        case .change(let change):
            return try apply(change, to: &calendar, calendar: name, lineEnd: lineEnd)
        }
    }

    /// Whether `component` is `item` written by an earlier try in the last 10 minutes.
    private func isRecentTwin(_ component: RawComponent, of item: WriteItem) -> Bool {
        guard component.kind == (item.kind == .event ? "VEVENT" : "VTODO"), component.summary == item.summary,
            let created = component.first("CREATED").flatMap({ ReadTime($0, viewer: zone) }),
            case .instant(let at) = created.time, abs(now.timeIntervalSince(at)) <= 600
        else { return false }
        let property = item.kind == .event ? "DTSTART" : "DUE"
        let mine = item.kind == .event ? item.start : item.due
        let theirs = component.first(property).flatMap { ReadTime($0, viewer: zone)?.time }
        return theirs == mine?.eventTime
    }

    private func apply(
        _ change: ItemChange, to calendar: inout RawCalendar, calendar name: String, lineEnd: String
    )
        throws -> WrittenItem
    {
        let all = calendar.components.filter { $0.uid == change.uid && $0.kind == change.kind }
        guard let master = all.first(where: { !$0.isOverride }) else {
            throw AlmanacError.usage(
                "calendar: \"\(change.summary ?? change.uid)\" was changed or removed meanwhile; nothing written",
                suggestion: "run the command again")
        }
        var action = ""
        var changed: RawComponent = master
        switch change.command {
        case .done:
            if master.status == "COMPLETED" {
                action = "unchanged"
                break
            }
            if master.repeats {
                throw AlmanacError.usage(
                    "\"\(master.summary ?? change.uid)\" repeats; Almanac does not complete repeating tasks yet",
                    suggestion: "mark it done in your calendar app")
            }
            action = "done"
            calendar.update { component in
                guard component.uid == change.uid, component.kind == "VTODO" else { return nil }
                var copy = component
                copy.set("STATUS", to: [ICalendarText.line("STATUS", "COMPLETED")], lineEnd: lineEnd)
                copy.set("COMPLETED", to: [ICalendarText.line("COMPLETED", ICalendarText.utc(now))], lineEnd: lineEnd)
                copy.set("PERCENT-COMPLETE", to: [ICalendarText.line("PERCENT-COMPLETE", "100")], lineEnd: lineEnd)
                copy.stamp(now, lineEnd: lineEnd)
                changed = copy
                return copy
            }
        case .reopen:
            if master.status != "COMPLETED", master.first("COMPLETED") == nil {
                action = "unchanged"
                break
            }
            action = "reopened"
            calendar.update { component in
                guard component.uid == change.uid, component.kind == "VTODO" else { return nil }
                var copy = component
                copy.set("STATUS", to: [ICalendarText.line("STATUS", "NEEDS-ACTION")], lineEnd: lineEnd)
                copy.remove("COMPLETED")
                copy.remove("PERCENT-COMPLETE")
                copy.stamp(now, lineEnd: lineEnd)
                changed = copy
                return copy
            }
        case .delete:
            action = "deleted"
            calendar.update({ _ in nil }, remove: { $0.uid == change.uid && $0.kind == change.kind })
        case .cancel:
            action = "cancelled"
            if let occurrence = change.occurrence {
                try cancelOccurrence(occurrence, of: master, in: &calendar, lineEnd: lineEnd)
            } else {
                calendar.update { component in
                    guard component.uid == change.uid, component.kind == change.kind else { return nil }
                    var copy = component
                    copy.set("STATUS", to: [ICalendarText.line("STATUS", "CANCELLED")], lineEnd: lineEnd)
                    copy.stamp(now, lineEnd: lineEnd)
                    if !copy.isOverride { changed = copy }
                    return copy
                }
            }
        case .move:
            action = "moved"
            guard let target = change.newStart else { throw AlmanacError.internal("move without --to") }
            if let occurrence = change.occurrence {
                changed = try moveOccurrence(occurrence, of: master, to: target, in: &calendar, lineEnd: lineEnd)
            } else {
                if change.series, all.contains(where: \.isOverride) || master.first("EXDATE") != nil {
                    throw AlmanacError.usage(
                        "\"\(master.summary ?? change.uid)\" has occurrences changed one by one; "
                            + "moving the whole series would leave them behind",
                        suggestion: "move occurrences with --date DAY, or change the series in your calendar app")
                }
                var moved = try retimed(master, to: target, lineEnd: lineEnd)
                moved.stamp(now, lineEnd: lineEnd)
                addZones(for: moved, to: &calendar)
                calendar.update { component in
                    component.uid == change.uid && component.kind == change.kind && !component.isOverride ? moved : nil
                }
                changed = moved
            }
        case .add, .remind:
            throw AlmanacError.internal("not a change")
        }
        var written = describe(changed, action: action, calendar: name)
        if let occurrence = change.occurrence {
            written.occurrence = CalendarWritePayload.localISO(occurrence, zone: zone)
        }
        let title = "\"\(change.summary ?? "(no title)")\""
        let occurrenceText =
            change.occurrence.map { " (the occurrence of \(CalendarWritePayload.describe($0, zone: zone)))" } ?? ""
        switch action {
        case "unchanged":
            let state = change.command == .done ? "done" : "open"
            written.sentence = "\(title) in \(name) was already \(state); nothing written. uid \(change.uid)."
        case "done": written.sentence = "Marked task \(title) done in \(name). uid \(change.uid)."
        case "reopened": written.sentence = "Reopened task \(title) in \(name). uid \(change.uid)."
        case "deleted":
            let what = change.kind == "VTODO" ? "task" : "event"
            let all = change.series ? " and all its occurrences" : ""
            written.sentence = "Deleted \(what) \(title)\(all) from \(name). uid \(change.uid)."
            written.span = nil
        case "cancelled":
            let whole = change.series && change.occurrence == nil ? ", the whole series," : ""
            written.sentence = "Cancelled \(title)\(occurrenceText)\(whole) in \(name). uid \(change.uid)."
            written.span = nil
        default:
            let moved = describe(changed, action: action, calendar: name, note: occurrenceText)
            written.sentence = "Moved " + moved.sentence
        }
        return written
    }

    /// `component` with DTSTART at `target` (a day keeps the time of day) and DTEND as far after
    /// it as before; written in the item's own zone.
    private func retimed(_ component: RawComponent, to target: WhenReader.When, lineEnd: String) throws -> RawComponent
    {
        guard let startLine = component.first("DTSTART"), let start = ReadTime(startLine, viewer: zone) else {
            throw AlmanacError.usage("\"\(component.summary ?? "")\" has no start time to move", suggestion: nil)
        }
        let newStart = try moved(start, to: target)
        var copy = component
        copy.set("DTSTART", to: [start.form.line("DTSTART", newStart, viewer: zone)], lineEnd: lineEnd)
        if let endLine = component.first("DTEND"), let end = ReadTime(endLine, viewer: zone) {
            let newEnd = Self.shift(end.time, by: start.time, to: newStart, zone: start.zone(viewer: zone))
            copy.set("DTEND", to: [end.form.line("DTEND", newEnd, viewer: zone)], lineEnd: lineEnd)
        }
        return copy
    }

    /// The new start: all-day items move by days, timed ones to the time (a day alone keeps the
    /// time of day in the item's zone).
    private func moved(_ start: ReadTime, to target: WhenReader.When) throws -> EventTime {
        let itemZone = start.zone(viewer: zone)
        switch (start.time, target) {
        case (.day, .day(let day)): return .day(day)
        case (.day, .time(let date)):
            throw AlmanacError.usage(
                "it is an all-day event; move it to a day, not a time "
                    + "(\(CalendarWritePayload.describe(.instant(date), zone: zone)))",
                suggestion: "e.g. --to friday")
        case (.instant(let old), .day(let day)):
            let (_, seconds) = WallClock.wall(old, in: itemZone)
            return .instant(WallClock.instant(day, seconds: seconds, in: itemZone))
        case (.instant, .time(let date)): return .instant(date)
        }
    }

    /// `time` moved as `from` moved to `to` (days for all-day values, exact seconds otherwise).
    static func shift(_ time: EventTime, by from: EventTime, to: EventTime, zone: TimeZone) -> EventTime {
        switch (time, from, to) {
        case (.day(let end), .day(let a), .day(let b)): return .day(end.adding(days: a.days(to: b)))
        case (.instant(let end), .instant(let a), .instant(let b)):
            return .instant(end.addingTimeInterval(b.timeIntervalSince(a)))
        default: return time
        }
    }

    private func addZones(for component: RawComponent, to calendar: inout RawCalendar) {
        for name in ["DTSTART", "DTEND", "DUE", "RECURRENCE-ID"] {
            guard let line = component.first(name), let tzid = line.parameters["TZID"],
                !calendar.timeZoneIDs.contains(tzid), let zone = TimeZone(identifier: tzid),
                let time = ReadTime(line, viewer: self.zone), case .instant(let date) = time.time
            else { continue }
            let year = CivilDate(date, in: zone).year
            calendar.append(VTimeZoneBuilder.block(for: zone, years: year...(year + 1)))
        }
    }

    /// The override of `occurrence` (an existing one, or a new copy of the master), at `target`.
    private func moveOccurrence(
        _ occurrence: EventTime, of master: RawComponent, to target: WhenReader.When, in calendar: inout RawCalendar,
        lineEnd: String
    ) throws -> RawComponent {
        guard let startLine = master.first("DTSTART"), let start = ReadTime(startLine, viewer: zone) else {
            throw AlmanacError.usage("\"\(master.summary ?? "")\" has no start time to move", suggestion: nil)
        }
        if let existing = override(of: occurrence, for: master, in: calendar) {
            var moved = try retimed(existing, to: target, lineEnd: lineEnd)
            moved.stamp(now, lineEnd: lineEnd)
            addZones(for: moved, to: &calendar)
            calendar.update { component in
                component.uid == master.uid && component.isOverride && sameOccurrence(component, occurrence)
                    ? moved : nil
            }
            return moved
        }
        // A new override: the master's own lines and alarms, without its rule and times.
        let dropped: Set<String> = [
            "DTSTART", "DTEND", "DURATION", "RRULE", "RDATE", "EXDATE", "EXRULE", "RECURRENCE-ID", "SEQUENCE",
            "DTSTAMP", "LAST-MODIFIED",
        ]
        var copy = master
        copy.lines.removeAll { $0.depth == 0 && dropped.contains($0.parsed?.name ?? "") }
        let length = lengthOf(master, start: start)
        let newStart = try moved(ReadTime(time: occurrence, form: start.form), to: target)
        copy.set("RECURRENCE-ID", to: [start.form.line("RECURRENCE-ID", occurrence, viewer: zone)], lineEnd: lineEnd)
        copy.set("DTSTART", to: [start.form.line("DTSTART", newStart, viewer: zone)], lineEnd: lineEnd)
        switch (newStart, length) {
        case (.day(let day), .days(let days)):
            copy.set(
                "DTEND", to: [start.form.line("DTEND", .day(day.adding(days: days)), viewer: zone)], lineEnd: lineEnd)
        case (.instant(let date), .seconds(let seconds)):
            copy.set(
                "DTEND",
                to: [start.form.line("DTEND", .instant(date.addingTimeInterval(TimeInterval(seconds))), viewer: zone)],
                lineEnd: lineEnd)
        default: break
        }
        copy.set("SEQUENCE", to: [ICalendarText.line("SEQUENCE", String(master.sequence))], lineEnd: lineEnd)
        copy.set("DTSTAMP", to: [ICalendarText.line("DTSTAMP", ICalendarText.utc(now))], lineEnd: lineEnd)
        copy.set("LAST-MODIFIED", to: [ICalendarText.line("LAST-MODIFIED", ICalendarText.utc(now))], lineEnd: lineEnd)
        addZones(for: copy, to: &calendar)
        calendar.append(RawComponent.withLineEnd(copy.raw, "\r\n"))
        return copy
    }

    private enum Length {
        case days(Int)
        case seconds(Int)
    }

    private func lengthOf(_ component: RawComponent, start: ReadTime) -> Length {
        if let endLine = component.first("DTEND"), let end = ReadTime(endLine, viewer: zone) {
            switch (start.time, end.time) {
            case (.day(let a), .day(let b)): return .days(max(1, a.days(to: b)))
            case (.instant(let a), .instant(let b)): return .seconds(max(0, Int(b.timeIntervalSince(a))))
            default: break
            }
        }
        if let duration = component.first("DURATION").flatMap({ DurationText.parse($0.value) }) {
            if case .day = start.time { return .days(max(1, duration / 86_400)) }
            return .seconds(duration)
        }
        if case .day = start.time { return .days(1) }
        return .seconds(0)
    }

    private func cancelOccurrence(
        _ occurrence: EventTime, of master: RawComponent, in calendar: inout RawCalendar, lineEnd: String
    ) throws {
        guard let startLine = master.first("DTSTART"), let start = ReadTime(startLine, viewer: zone) else {
            throw AlmanacError.usage("\"\(master.summary ?? "")\" has no start time", suggestion: nil)
        }
        let exdate = start.form.line("EXDATE", occurrence, viewer: zone)
        calendar.update { component in
            guard component.uid == master.uid, component.kind == master.kind else { return nil }
            var copy = component
            if !component.isOverride {
                copy.add(exdate, lineEnd: lineEnd)
                copy.stamp(now, lineEnd: lineEnd)
                return copy
            }
            guard sameOccurrence(component, occurrence) else { return nil }
            copy.set("STATUS", to: [ICalendarText.line("STATUS", "CANCELLED")], lineEnd: lineEnd)
            copy.stamp(now, lineEnd: lineEnd)
            return copy
        }
    }

    private func override(of occurrence: EventTime, for master: RawComponent, in calendar: RawCalendar) -> RawComponent?
    {
        calendar.components.first { $0.uid == master.uid && $0.kind == master.kind && sameOccurrence($0, occurrence) }
    }

    private func sameOccurrence(_ component: RawComponent, _ occurrence: EventTime) -> Bool {
        guard let line = component.first("RECURRENCE-ID"), let time = ReadTime(line, viewer: zone) else { return false }
        switch (time.time, occurrence) {
        case (.day(let a), .instant(let b)): return a == CivilDate(b, in: zone)
        default: return time.time == occurrence
        }
    }

    /// The answer's item from the component as written.
    func describe(_ component: RawComponent, action: String, calendar: String, note: String = "") -> WrittenItem {
        let start = component.first("DTSTART").flatMap { ReadTime($0, viewer: zone) }
        let end = component.first("DTEND").flatMap { ReadTime($0, viewer: zone) }
        let due = component.first("DUE").flatMap { ReadTime($0, viewer: zone) }
        let itemZone = (start ?? due)?.zone(viewer: zone) ?? zone
        let isTask = component.kind == "VTODO"
        var span: (Date, Date)?
        var sentence = "\(isTask ? "task" : "event") \"\(component.summary ?? "(no title)")\"\(note) "
        if let start {
            var endTime = end?.time
            if endTime == nil, let duration = component.first("DURATION").flatMap({ DurationText.parse($0.value) }),
                case .instant(let date) = start.time
            {
                endTime = .instant(date.addingTimeInterval(TimeInterval(duration)))
            }
            let writeStart = Self.writeTime(start.time, zone: itemZone)
            let writeEnd = endTime.map { Self.writeTime($0, zone: itemZone) } ?? writeStart
            sentence += "to \(CalendarWritePayload.describe(span: writeStart, writeEnd))"
            if case .instant(let a) = start.time, case .instant(let b)? = endTime { span = (a, b) }
        }
        if let due { sentence += "due \(CalendarWritePayload.describe(Self.writeTime(due.time, zone: itemZone)))" }
        if start == nil, due == nil { sentence += "(no date)" }
        sentence = sentence.trimmingCharacters(in: .whitespaces) + " in \(calendar). uid \(component.uid ?? "")."
        if let trigger = component.lines.first(where: { $0.depth == 1 && $0.parsed?.name == "TRIGGER" })?.parsed {
            let seconds = DurationText.parse(String(trigger.value.drop { $0 == "-" || $0 == "+" })) ?? 0
            sentence += seconds == 0 ? " Alarm at the due time." : " Alarm \(ICalendarDuration.text(seconds)) before."
        }
        return WrittenItem(
            action: action, uid: component.uid ?? "", calendar: calendar, kind: isTask ? "task" : "event",
            summary: component.summary, start: start.map { CalendarWritePayload.localISO($0.time, zone: itemZone) },
            end: end.map { CalendarWritePayload.localISO($0.time, zone: itemZone) },
            due: due.map { CalendarWritePayload.localISO($0.time, zone: itemZone) }, timeZone: itemZone.identifier,
            allDay: { if case .day? = start?.time { return true } else { return false } }(),
            rule: component.first("RRULE")?.value, occurrence: nil, etag: nil, span: span, sentence: sentence,
            provider: "ics-file")
    }

    static func writeTime(_ time: EventTime, zone: TimeZone) -> WriteTime {
        switch time {
        case .day(let day): .day(day)
        case .instant(let date): .zoned(date, zone)
        }
    }

    /// Events of every configured calendar that overlap `span` (the written one left out).
    func overlaps(with span: (start: Date, end: Date), uid: String) async -> [WriteOverlap] {
        let first = CivilDate(span.start, in: zone)
        let last = CivilDate(span.end.addingTimeInterval(-1), in: zone)
        let arguments = ToolArguments([
            CalendarParameter.from.rawValue: .string(first.description),
            CalendarParameter.to.rawValue: .string(max(first, last).description),
        ])
        guard let result = try? await CalendarTool().run(arguments, context: context),
            let payload = result.payload as? CalendarPayload
        else { return [] }
        return payload.events.compactMap { event in
            guard event.uid != uid, case .instant(let start) = event.start, case .instant(let end) = event.end,
                start < span.end, end > span.start
            else { return nil }
            return WriteOverlap(
                uid: event.uid, summary: event.summary,
                start: CalendarWritePayload.localISO(event.start, zone: zone),
                end: CalendarWritePayload.localISO(event.end, zone: zone), calendar: event.calendar)
        }
    }
}
