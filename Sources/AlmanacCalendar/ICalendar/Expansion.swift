import CLibical
import Foundation

/// The span events are expanded into: `[start, end)`, plus the viewer's zone for all-day events.
struct ExpansionWindow: Sendable {
    /// First instant (inclusive).
    let start: Date
    /// Last instant (exclusive).
    let end: Date
    /// The viewer's zone: all-day events and floating times are read in it.
    let zone: TimeZone
    /// The first local day the window touches.
    let firstDay: Int
    /// The local day after the last one the window touches.
    let endDay: Int

    /// The window `[start, end)` seen from `zone`. The day bounds are worked out here, once: every
    /// all-day instance is checked against them, and each costs a Foundation calendar call.
    init(start: Date, end: Date, zone: TimeZone) {
        self.start = start
        self.end = end
        self.zone = zone
        firstDay = CivilDate(start, in: zone).dayNumber
        let last = CivilDate(end, in: zone)
        endDay = last.start(in: zone) == end ? last.dayNumber : last.dayNumber + 1
    }

    /// Whether `[start, end)` overlaps the window (a zero-length event must start inside it).
    func overlaps(_ start: EventTime, _ end: EventTime) -> Bool {
        switch (start, end) {
        case (.day(let first), .day(let after)):
            return first.dayNumber < endDay && max(after.dayNumber, first.dayNumber + 1) > firstDay
        default:
            let from = start.date(in: zone)
            let to = end.date(in: zone)
            if to <= from { return from >= self.start && from < self.end }
            return from < self.end && to > self.start
        }
    }
}

/// Events and problems found in one document.
struct Expansion {
    var events: [CalendarEvent] = []
    var warnings: [String] = []
    /// Events that matched but were not kept (over ``EventKeep/limit``).
    var omitted = 0
}

/// How long an instance lasts: whole days (all-day) or seconds.
private enum Length {
    case days(Int)
    case seconds(Int)
}

/// Identifies an instance for EXDATE and RECURRENCE-ID matching: a local day (all-day events, or
/// DATE values against timed events) or a UTC instant in whole seconds.
private enum InstanceKey: Hashable {
    case day(Int)
    case time(Int64)
}

/// An RRULE as libical reads it, with the COUNT libical refused beside an UNTIL (applied here).
private struct Rule {
    var recurrence: icalrecurrencetype
    /// At most this many occurrences (a COUNT that came with an UNTIL, or COUNT=0), else nil.
    var limit: Int?
}

/// A value kept out of line: an indirect case is one pointer to a box (and nil, none).
private indirect enum OutOfLine<Value> {
    case boxed(Value)

    var value: Value {
        switch self {
        case .boxed(let value): return value
        }
    }
}

/// A VEVENT read into Swift values (strings copied, zones resolved).
private struct EventRecord {
    var uid: String
    /// nil when the event has no SUMMARY.
    var summary: String?
    var location: String?
    var description: String?
    var cancelled: Bool
    var start: Stamp
    var length: Length
    /// What makes it a series or an instance of one, which most events lack: out of line, one
    /// pointer (nil for a one-off event) instead of ~80 bytes in each of a big feed's records.
    private let recurrence: OutOfLine<Recurrence>?
    var rrules: [Rule] { recurrence?.value.rrules ?? [] }
    var rdates: [(Stamp, Length?)] { recurrence?.value.rdates ?? [] }
    var exdates: [Stamp] { recurrence?.value.exdates ?? [] }
    var recurrenceId: Stamp? { recurrence?.value.recurrenceId }
    var thisAndFuture: Bool { recurrence?.value.thisAndFuture ?? false }
    /// Which revision it is (read at once: the libical tree it came from may be freed before
    /// revisions are chosen), with its position in the file.
    var revision: Revision
    var position: Int { revision.position }
    /// An override with an RRULE of its own whose SEQUENCE is below its master's (set while
    /// choosing revisions).
    var olderThanMaster = false

    private struct Recurrence {
        var rrules: [Rule]
        var rdates: [(Stamp, Length?)]
        var exdates: [Stamp]
        var recurrenceId: Stamp?
        var thisAndFuture: Bool
    }

    init(
        uid: String, summary: String?, location: String?, description: String?, cancelled: Bool, start: Stamp,
        length: Length, rrules: [Rule], rdates: [(Stamp, Length?)], exdates: [Stamp], recurrenceId: Stamp?,
        thisAndFuture: Bool, revision: Revision
    ) {
        self.uid = uid
        self.summary = summary
        self.location = location
        self.description = description
        self.cancelled = cancelled
        self.start = start
        self.length = length
        let plain = rrules.isEmpty && rdates.isEmpty && exdates.isEmpty && recurrenceId == nil && !thisAndFuture
        recurrence =
            plain
            ? nil
            : .boxed(
                Recurrence(
                    rrules: rrules, rdates: rdates, exdates: exdates, recurrenceId: recurrenceId,
                    thisAndFuture: thisAndFuture))
        self.revision = revision
    }

    func end(from start: EventTime) -> EventTime { Self.end(from: start, length: length) }

    static func end(from start: EventTime, length: Length) -> EventTime {
        switch (start, length) {
        case (.day(let day), .days(let days)): return .day(day.adding(days: max(days, 1)))
        case (.day(let day), .seconds(let seconds)): return .day(day.adding(days: max(1, seconds / 86_400)))
        case (.instant(let date), .seconds(let seconds)):
            return .instant(date.addingTimeInterval(TimeInterval(seconds)))
        case (.instant(let date), .days(let days)):
            return .instant(date.addingTimeInterval(TimeInterval(days * 86_400)))
        }
    }
}

/// Orders revisions of one component (same UID and RECURRENCE-ID), oldest first: RFC 5545 says a
/// higher SEQUENCE is a newer revision; producers that keep every revision (and those that do
/// not bump SEQUENCE) stamp it with LAST-MODIFIED and DTSTAMP; the last in the file breaks ties,
/// so byte-identical copies count once.
private struct Revision: Comparable {
    /// SEQUENCE, -1 when absent.
    var sequence: Int
    /// LAST-MODIFIED and DTSTAMP as written (`YYYYMMDDTHHMMSSZ`), empty when absent.
    var lastModified: String
    var stamp: String
    /// The position in the file.
    var position: Int

    /// The revision `component` at `position` is. As text: both stamps are UTC date-times (RFC
    /// 5545 3.8.7.2, 3.8.7.3), so their text sorts as their time.
    init(of component: OpaquePointer, position: Int) {
        func text(_ kind: icalproperty_kind) -> String? {
            guard let property = icalcomponent_get_first_property(component, kind),
                let value = icalproperty_get_value_as_string(property)
            else { return nil }
            return String(cString: value).trimmingCharacters(in: .whitespaces)
        }
        sequence = text(ICAL_SEQUENCE_PROPERTY).flatMap { Int($0) } ?? -1
        lastModified = Self.compact(text(ICAL_LASTMODIFIED_PROPERTY) ?? "")
        stamp = Self.compact(text(ICAL_DTSTAMP_PROPERTY) ?? "")
        self.position = position
    }

    /// `YYYYMMDDTHHMMSSZ` as its 14 digits, which sort as the text did (against each other and
    /// against any other text: the letters go at the same places) and fit in a String's inline
    /// 15 bytes, where the 16 of the text took a heap block each (6 MB on a 95,000-event feed).
    /// Other text is kept as written.
    static func compact(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.count == 16, utf8[utf8.index(utf8.startIndex, offsetBy: 8)] == UInt8(ascii: "T"),
            utf8.last == UInt8(ascii: "Z")
        else { return text }
        let digits = Array(utf8.prefix(8)) + Array(utf8.dropFirst(9).prefix(6))
        guard digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return text }
        return String(decoding: digits, as: UTF8.self)
    }

    static func < (a: Revision, b: Revision) -> Bool {
        (a.sequence, a.lastModified, a.stamp, a.position) < (b.sequence, b.lastModified, b.stamp, b.position)
    }
}

/// What choosing revisions needs of a one-off event outside the window: it shows nothing, but a
/// newer revision of it hides an older one inside the window. Kept instead of the whole record,
/// which is ~300 bytes before its strings: a 19 MB feed is mostly such events.
private struct OutsideOneOff {
    var uid: String
    var revision: Revision
}

/// The current revision of every component of one calendar: masters (one per UID; events without
/// a UID each stand alone) and overrides by UID, one per RECURRENCE-ID (an override without a UID
/// is filed under a key no UID has, so it stands alone).
private struct CurrentRevisions {
    /// Every record read, superseded ones included: masters point into it rather than copy
    /// ~300-byte records (a month of a busy feed is 95,000 of them, one copy is 30 MB).
    var records: [EventRecord]
    /// The masters, as positions in `records`, in the order their UIDs were first met.
    var masters: [Int] = []
    var overrides: [String: [EventRecord]] = [:]

    /// A UID's master so far: where it was first met (masters keep that order), its newest full
    /// record's position in `records`, and the revision of a newer one-off outside the window
    /// when one won.
    private struct Newest {
        var firstSeen: Int
        var slot: Int?
        /// A position in `outside` (its revision is read there: an entry per UID stays small).
        var outside: Int?
    }

    /// Keeps the newest revision of each component, in one pass over `records` and `outside`
    /// (both in file order; a dictionary lookup each; revisions are read only where a UID
    /// repeats), so that no later step looks at superseded ones. A one-off outside the window
    /// that wins its UID shows nothing, unless overrides name that UID: then `reread` reads its
    /// whole record again from its position. Reads libical: call it on one thread.
    init(
        _ records: consuming [EventRecord], outside: [OutsideOneOff] = [],
        reread: (Int) -> EventRecord? = { _ in nil }
    ) {
        self.records = records
        var newest: [String: Newest] = [:]
        // Sized once: growing it rehashes into a new table while the old one still lives.
        newest.reserveCapacity(self.records.count + outside.count)
        var alone: [(firstSeen: Int, slot: Int)] = []
        var overrideAt: [String: [InstanceKey: Int]] = [:]
        var pending = outside.indices[...]
        func revision(of entry: Newest) -> Revision? {
            entry.outside.map { outside[$0].revision } ?? entry.slot.map { self.records[$0].revision }
        }
        func takeOutside(before position: Int) {
            while let index = pending.first, outside[index].revision.position < position {
                pending.removeFirst()
                let next = outside[index]
                guard var entry = newest[next.uid] else {
                    newest[next.uid] = Newest(firstSeen: next.revision.position, slot: nil, outside: index)
                    continue
                }
                if let current = revision(of: entry), current < next.revision {
                    entry.outside = index
                    newest[next.uid] = entry
                }
            }
        }
        for slot in self.records.indices {
            let record = self.records[slot]
            takeOutside(before: record.position)
            if record.recurrenceId != nil, record.uid.isEmpty {
                // An instance of a series it cannot name: shown alone, as one instance (its own
                // RDATEs or RRULE make no series of it). The key matches no UID.
                overrides["\u{0}\(record.position)"] = [record]
            } else if let rid = record.recurrenceId {
                let key: InstanceKey =
                    rid.isDate ? .day(rid.civil.dayNumber) : .time(Int64(rid.instant.timeIntervalSince1970.rounded()))
                if let at = overrideAt[record.uid]?[key] {
                    if overrides[record.uid, default: []][at].revision < record.revision {
                        overrides[record.uid, default: []][at] = record
                    }
                } else {
                    overrideAt[record.uid, default: [:]][key] = overrides[record.uid, default: []].count
                    overrides[record.uid, default: []].append(record)
                }
            } else if record.uid.isEmpty {
                alone.append((record.position, slot))
            } else if var entry = newest[record.uid] {
                guard revision(of: entry).map({ $0 < record.revision }) ?? true else { continue }
                entry.outside = nil
                entry.slot = slot
                newest[record.uid] = entry
            } else {
                newest[record.uid] = Newest(firstSeen: record.position, slot: slot, outside: nil)
            }
        }
        takeOutside(before: .max)
        // Overrides that are series of their own: which are older than their master.
        for (uid, list) in overrides where list.contains(where: { !$0.rrules.isEmpty }) {
            guard let entry = newest[uid], let master = revision(of: entry) else { continue }
            for index in list.indices where !list[index].rrules.isEmpty {
                overrides[uid, default: []][index].olderThanMaster = list[index].revision.sequence < master.sequence
            }
        }
        var ordered = alone
        for (uid, entry) in newest {
            if let index = entry.outside {
                guard overrides[uid] != nil, let record = reread(outside[index].revision.position) else { continue }
                ordered.append((entry.firstSeen, self.records.count))
                self.records.append(record)
            } else if let slot = entry.slot {
                ordered.append((entry.firstSeen, slot))
            }
        }
        ordered.sort { $0.firstSeen < $1.firstSeen }
        masters = ordered.map(\.slot)
    }
}

/// Hands values that are only read to child tasks (libical pointers are not `Sendable`).
private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
}

/// One candidate instance of a recurring event before overrides are applied.
private struct Candidate {
    var key: InstanceKey
    var wallDay: Int
    var start: EventTime
    var length: Length?
}

extension ICalendarDocument {
    /// The most occurrences one RRULE may produce before expansion stops (guards FREQ=SECONDLY).
    static let occurrenceLimit = 50_000

    /// Expands every VEVENT into instances overlapping `window`, merging RECURRENCE-ID overrides.
    ///
    /// libical parses and iterates RRULEs; this adds what `icalcomponent_foreach_recurrence` does
    /// not do: overrides (incl. RANGE=THISANDFUTURE), CANCELLED instances, Windows and prefixed
    /// TZIDs, X-WR-TIMEZONE and floating times in the viewer's zone.
    ///
    /// With `keep`, only the events it wants are kept, at most its limit, in display order (the
    /// rest counted in ``Expansion/omitted``); without, every instance, in the masters' order.
    func expand(in window: ExpansionWindow, calendar name: String, keep: EventKeep? = nil) async -> Expansion {
        var reading = Reading()
        // Revisions are chosen across every VCALENDAR of the file: exporters that append a newer
        // copy of an event write it as a block of its own.
        for calendar in calendars {
            let components = children(of: calendar, kind: ICAL_VEVENT_COMPONENT)
            let zones = ZoneResolver(calendar: calendar, viewer: window.zone)
            await reading.add(
                readAll(
                    components, zones: zones, cancelled: Self.cancels(calendar), firstPosition: reading.position),
                count: components.count)
        }
        return await finish(reading, window: window, calendar: name, keep: keep)
    }

    /// Expands the VEVENTs of `parts` (this document being its ``ICalendarParts/zoneText``) as
    /// ``expand(in:calendar:)`` expands the whole text, with the same result, parsing them a piece
    /// at a time and freeing each piece's tree once it is read; nil when a piece does not parse.
    ///
    /// What is kept of an event is its values; of a one-off event outside the window, only what
    /// choosing among its revisions needs (its texts are never shown).
    func expand(
        _ parts: ICalendarParts, in window: ExpansionWindow, calendar name: String, keep: EventKeep? = nil
    ) async -> Expansion? {
        var reading = Reading()
        guard let calendar = calendars.first else { return nil }
        let zones = ZoneResolver(calendar: calendar, viewer: window.zone)
        // The calendar's own properties (METHOD among them) are in this document, the zone text.
        let cancelled = Self.cancels(calendar)
        // Once, for every event: grown piece by piece, the array was copied at each doubling and
        // left the old block behind (at 96,000 records, 20 MB beside the 40 MB new one).
        reading.records.reserveCapacity(parts.events.count)
        var first = 0
        while first < parts.events.count {
            let range = first..<min(first + Self.eventsPerPiece, parts.events.count)
            first = range.upperBound
            guard let piece = try? ICalendarDocument(text: parts.piece(range), name: self.name),
                let pieceCalendar = piece.calendars.first
            else { return nil }
            let components = children(of: pieceCalendar, kind: ICAL_VEVENT_COMPONENT)
            guard components.count == range.count else { return nil }
            let read = await readAll(components, zones: zones, cancelled: cancelled, firstPosition: reading.position)
            reading.add(read, count: components.count) { event in
                guard event.rrules.isEmpty, event.rdates.isEmpty, event.recurrenceId == nil else { return false }
                let start = eventTime(event.start)
                return !window.overlaps(start, event.end(from: start))
            }
            Self.freeElsewhere(consume piece)
        }
        return await finish(reading, window: window, calendar: name, keep: keep) { position in
            guard let piece = try? ICalendarDocument(text: parts.piece(position..<position + 1), name: self.name),
                let component = piece.calendars.first.flatMap({ children(of: $0, kind: ICAL_VEVENT_COMPONENT).first }),
                case .success(let (record, _)) = read(component, zones: zones, cancelled: cancelled, index: position)
            else { return nil }
            return record
        }
    }

    /// VEVENTs parsed at a time by ``expand(_:in:calendar:)``: small enough that a piece's tree
    /// is a few MB (libical spends some KB an event), large enough that a piece still spreads
    /// over every core.
    static let eventsPerPiece = 512

    /// What was read of a file's VEVENTs so far, in file order.
    private struct Reading {
        var records: [EventRecord] = []
        /// One-off events outside the window, as only their UID and revision.
        var outside: [OutsideOneOff] = []
        var notes: [ItemNote] = []
        var unknown: [String] = []
        var position = 0

        /// Adds what was read of `count` components; those `isOutside` says show nothing in the
        /// window are kept as ``OutsideOneOff`` (and dropped when they have no UID: such an event
        /// stands alone, so it can hide nothing).
        mutating func add(
            _ read: (records: [Result<(EventRecord, [ItemNote]), Problem>], unknownZones: [String]), count: Int,
            isOutside: (EventRecord) -> Bool = { _ in false }
        ) {
            position += count
            // Not reserved piece by piece: an exact reserve per piece would copy the array each time.
            for record in read.records {
                switch record {
                case .failure(let problem): notes.append(problem.note)
                case .success(let (record, recordNotes)):
                    notes += recordNotes
                    if isOutside(record) {
                        if !record.uid.isEmpty {
                            outside.append(OutsideOneOff(uid: record.uid, revision: record.revision))
                        }
                    } else {
                        records.append(record)
                    }
                }
            }
            for tzid in read.unknownZones where !unknown.contains(tzid) { unknown.append(tzid) }
        }
    }

    /// Chooses revisions among what was read and expands it.
    ///
    /// - Parameter reread: the whole record of the event at a position, for a one-off outside
    ///   the window that won its UID and has overrides (which may move it into the window).
    private func finish(
        _ reading: consuming Reading, window: ExpansionWindow, calendar name: String, keep: EventKeep?,
        reread: (Int) -> EventRecord? = { _ in nil }
    ) async -> Expansion {
        var result = Expansion()
        result.warnings = ItemNote.lines(reading.notes, file: self.name, nouns: "events")
        let unknown = reading.unknown
        var records: [EventRecord] = []
        swap(&records, &reading.records)
        let current = CurrentRevisions(consume records, outside: reading.outside, reread: reread)
        reading.outside = []
        var orphans: [CalendarEvent] = []
        appendOrphans(current, window: window, calendar: name, into: &orphans)
        let expanded = await expandAll(current, orphans: orphans, window: window, calendar: name, keep: keep)
        (result.events, result.omitted) = (expanded.events, expanded.omitted)
        result.warnings += expanded.notes
        for tzid in unknown {
            result.warnings.append("\(self.name): unknown time zone '\(tzid)', read as \(window.zone.identifier)")
        }
        return result
    }

    /// Appends the overrides whose master is missing (e.g. Google's birthday calendar): each
    /// stands alone.
    private func appendOrphans(
        _ current: CurrentRevisions, window: ExpansionWindow, calendar: String, into events: inout [CalendarEvent]
    ) {
        let mastered = Set(current.masters.map { current.records[$0].uid })
        for (uid, records) in current.overrides where !mastered.contains(uid) {
            for record in records where !record.cancelled {
                let start = eventTime(record.start)
                let end = record.end(from: start)
                guard window.overlaps(start, end) else { continue }
                events.append(
                    instance(
                        record, start: start, end: end, recurrenceId: record.recurrenceId.map(eventTime),
                        calendar: calendar))
            }
        }
    }

    /// The instances of one run of consecutive masters: all of them in the masters' order, or with
    /// a ``EventKeep`` the first it wants in display order and how many more it wanted.
    private struct Chunk {
        var events: [CalendarEvent] = []
        var omitted = 0
    }

    /// The chunks' instances put together, in the masters' order, or with a ``EventKeep`` as each
    /// chunk arrives (its kept events offered, in order, to one selection): then no more than the
    /// answer can hold is ever waiting, however many chunks there are.
    private struct Merge {
        var selection: EventSelection?
        var chunks: [[CalendarEvent]] = []
        var notes: [[String]] = []

        init(keep: EventKeep?, count: Int) {
            selection = keep.map(EventSelection.init)
            if keep == nil { chunks = Array(repeating: [], count: count) }
            notes = Array(repeating: [], count: count)
        }

        mutating func add(_ chunk: Chunk, notes chunkNotes: [String], at index: Int) {
            notes[index] = chunkNotes
            guard selection != nil else {
                chunks[index] = chunk.events
                return
            }
            selection?.countOmitted(chunk.omitted)
            for (position, event) in chunk.events.enumerated() { selection?.add(event, order: (index, position)) }
        }

        /// Every instance with the orphans after them (or the selection's), and the notes in order.
        consuming func finish(orphans: [CalendarEvent]) -> (events: [CalendarEvent], omitted: Int, notes: [String]) {
            // The orphans come after every chunk.
            let after = notes.count
            let notes = notes.flatMap { $0 }
            if var selection {
                for (position, event) in orphans.enumerated() { selection.add(event, order: (after, position)) }
                let omitted = selection.omitted
                return (selection.sorted(), omitted, notes)
            }
            // One copy into an array of the final size (appending chunk by chunk would regrow it).
            var events: [CalendarEvent] = []
            events.reserveCapacity(chunks.reduce(orphans.count) { $0 + $1.count })
            for index in chunks.indices {
                events += chunks[index]
                chunks[index] = []
            }
            return (events + orphans, 0, notes)
        }
    }

    /// Expands the masters of `current` on every core when there are enough of them to pay for
    /// the tasks, then adds `orphans` (overrides without a master) after them.
    ///
    /// Each master's RRULE iteration is independent, and libical's iterator does its date
    /// arithmetic through ICU at ~1.5 µs a step, which makes it most of the time on a big calendar.
    /// libical is built with pthreads (zone-coverage and builtin-zone mutexes, per-thread errno) and
    /// every master's zones were already resolved while reading, so tasks only read shared state.
    /// Child tasks rather than `concurrentPerform` (called from the cooperative pool, dispatch_apply
    /// ran everything on one thread), in small chunks because rule costs differ by 100x.
    /// Results keep the masters' order (see ``Merge``).
    private func expandAll(
        _ current: CurrentRevisions, orphans: [CalendarEvent], window: ExpansionWindow, calendar: String,
        keep: EventKeep?
    ) async -> (events: [CalendarEvent], omitted: Int, notes: [String]) {
        let masters = current.masters
        guard masters.count >= Self.parallelThreshold, ProcessInfo.processInfo.activeProcessorCount > 1 else {
            var merge = Merge(keep: keep, count: 1)
            let (chunk, notes) = expandChunk(masters[...], of: current, window: window, calendar: calendar, keep: keep)
            merge.add(chunk, notes: notes, at: 0)
            return merge.finish(orphans: orphans)
        }
        let shared = UncheckedSendable(value: (document: self, current: current))
        let count = (masters.count + Self.chunkSize - 1) / Self.chunkSize
        var merge = Merge(keep: keep, count: count)
        await withTaskGroup(of: (Int, Chunk, [String]).self) { group in
            func start(_ index: Int) {
                group.addTask {
                    let (document, current) = shared.value
                    let first = index * Self.chunkSize
                    let (chunk, notes) = document.expandChunk(
                        current.masters[first..<min(first + Self.chunkSize, current.masters.count)], of: current,
                        window: window, calendar: calendar, keep: keep)
                    return (index, chunk, notes)
                }
            }
            // A few chunks per core at a time, the next started as one is merged: with all of
            // them started at once, finished chunks waited to be merged (17 MB of a 95,000-event
            // month) while the cores ran ahead.
            let inFlight = 4 * ProcessInfo.processInfo.activeProcessorCount
            var next = min(inFlight, count)
            for index in 0..<next { start(index) }
            for await (index, chunk, notes) in group {
                merge.add(chunk, notes: notes, at: index)
                if next < count {
                    start(next)
                    next += 1
                }
            }
        }
        return merge.finish(orphans: orphans)
    }

    /// Expands consecutive masters (positions in `current.records`), in their order.
    private func expandChunk(
        _ masters: ArraySlice<Int>, of current: CurrentRevisions, window: ExpansionWindow, calendar: String,
        keep: EventKeep?
    ) -> (Chunk, [String]) {
        var events: [CalendarEvent] = []
        var notes: [String] = []
        var selection = keep.map(EventSelection.init)
        var added = 0
        for slot in masters {
            let master = current.records[slot]
            expand(
                master, overrides: current.overrides[master.uid] ?? [], window: window, calendar: calendar,
                into: &events, notes: &notes)
            guard selection != nil else { continue }
            // Offered to the selection master by master: only what it keeps is held.
            for event in events {
                selection?.add(event, order: (0, added))
                added += 1
            }
            events.removeAll(keepingCapacity: true)
        }
        guard let selection else { return (Chunk(events: events), notes) }
        let omitted = selection.omitted
        return (Chunk(events: selection.sorted(), omitted: omitted), notes)
    }

    /// Reads `components` (VEVENTs of `calendar`) into records, in their order, numbered in the
    /// file from `firstPosition`, with the TZIDs no zone was found for (in order of first use).
    ///
    /// On every core for a big calendar: reading copies strings and converts DTSTART/DTEND through
    /// the zones, ~7 µs an event. Each part has its own ``ZoneResolver`` (it caches), so the
    /// unknown zones are merged in part order, which is the order they were first met in.
    private func readAll(
        _ components: [OpaquePointer], zones: ZoneResolver, cancelled: Bool, firstPosition: Int
    ) async -> (
        records: [Result<(EventRecord, [ItemNote]), Problem>], unknownZones: [String]
    ) {
        let parts = ProcessInfo.processInfo.activeProcessorCount
        guard components.count >= Self.parallelThreshold, parts > 1 else {
            let records = components.enumerated().map {
                read($1, zones: zones, cancelled: cancelled, index: firstPosition + $0)
            }
            return (records, zones.unknown)
        }
        // libical sorts a calendar's VTIMEZONE list on the first lookup: do that one here, before
        // the parts look zones up at the same time. (The resolver above read X-WR-TIMEZONE, which
        // walks the calendar's properties with libical's per-component cursor: also done once.)
        zones.prepareForThreads()
        let shared = UncheckedSendable(value: (document: self, components: components, zones: zones))
        let size = (components.count + parts - 1) / parts
        var results = [(records: [Result<(EventRecord, [ItemNote]), Problem>], unknown: [String])](
            repeating: ([], []), count: parts)
        await withTaskGroup(of: (Int, UncheckedSendable<[Result<(EventRecord, [ItemNote]), Problem>]>, [String]).self) {
            group in
            for part in 0..<parts {
                group.addTask {
                    let (document, components, main) = shared.value
                    let zones = main.fork()
                    let range = min(part * size, components.count)..<min((part + 1) * size, components.count)
                    let records = range.map {
                        document.read(components[$0], zones: zones, cancelled: cancelled, index: firstPosition + $0)
                    }
                    return (part, UncheckedSendable(value: records), zones.unknown)
                }
            }
            for await (part, records, unknown) in group { results[part] = (records.value, unknown) }
        }
        var unknownZones = zones.unknown
        for part in results.indices {
            for tzid in results[part].unknown where !unknownZones.contains(tzid) { unknownZones.append(tzid) }
        }
        return (results.flatMap(\.records), unknownZones)
    }

    /// Masters per child task.
    static let chunkSize = 32

    /// Fewer masters than this are expanded on one thread (thread start-up would cost more).
    static let parallelThreshold = 64

    private func eventTime(_ stamp: Stamp) -> EventTime {
        stamp.isDate ? .day(stamp.civil) : .instant(stamp.instant)
    }

    private func instance(
        _ record: EventRecord, start: EventTime, end: EventTime, recurrenceId: EventTime?, calendar: String
    ) -> CalendarEvent {
        CalendarEvent(
            uid: record.uid, recurrenceId: recurrenceId, start: start, end: end, summary: record.summary,
            location: record.location, description: record.description, calendar: calendar)
    }

    // MARK: Reading

    private struct Problem: Error { let note: ItemNote }

    /// Whether `calendar` is an iTIP cancellation (RFC 5546 `METHOD:CANCEL`): every event in it
    /// is cancelled, whatever its STATUS says (Outlook and Exchange send such files without one).
    static func cancels(_ calendar: OpaquePointer) -> Bool {
        guard let property = icalcomponent_get_first_property(calendar, ICAL_METHOD_PROPERTY),
            let value = icalproperty_get_value_as_string(property)
        else { return false }
        return String(cString: value).trimmingCharacters(in: .whitespaces).uppercased() == "CANCEL"
    }

    /// Reads one VEVENT; `cancelled` when its calendar cancels every event in it (``cancels(_:)``).
    private func read(
        _ component: OpaquePointer, zones: ZoneResolver, cancelled: Bool = false, index: Int
    ) -> Result<
        (EventRecord, [ItemNote]), Problem
    > {
        var notes: [ItemNote] = []
        let summary = textProperty(component, ICAL_SUMMARY_PROPERTY)
        let uid = icalcomponent_get_uid(component).map { String(cString: $0) } ?? ""
        let title = summary ?? "(no title)"
        let item = "'\(title)'" + (uid.isEmpty ? "" : " (\(uid))")
        let label = "\(name): event \(item)"
        // `problem` follows the event's name: alone "LABEL: problem", in a group "N events: problem".
        func note(_ problem: String) -> ItemNote {
            ItemNote(line: "\(label): \(problem)", group: ": " + problem, item: item)
        }
        if uid.isEmpty {
            notes.append(
                ItemNote(
                    line: "\(name): event '\(title)' has no UID; shown, but overrides cannot apply to it",
                    group: " have no UID; shown, but overrides cannot apply to them", item: item))
        }

        var rrules: [Rule] = []
        for error in properties(of: component, kind: ICAL_XLICERROR_PROPERTY) {
            guard let text = icalproperty_get_xlicerror(error) else { continue }
            let message = String(cString: text)
            if var repaired = Self.repairedRule(fromError: message) {
                repaired.dropped += Self.dropInvalidParts(of: &repaired.rule.recurrence)
                rrules.append(repaired.rule)
                for part in repaired.dropped {
                    notes.append(note("RRULE part '\(part)' is invalid; dropped, the rest of the rule is expanded"))
                }
                continue
            }
            // Only errors about timing matter. An empty property ("No value for DESCRIPTION",
            // "RRULE:" with nothing after it) is harmless noise some producers even export.
            if !message.hasPrefix("No value for"),
                ["RRULE", "DTSTART", "DTEND", "DURATION", "EXDATE", "RDATE", "RECURRENCE-ID"].contains(where: {
                    message.contains($0)
                })
            {
                let detail = message.split(separator: ":").first.map(String.init) ?? message
                notes.append(note("unreadable property skipped (\(detail.trimmingCharacters(in: .whitespaces)))"))
            }
        }

        guard let startProperty = icalcomponent_get_first_property(component, ICAL_DTSTART_PROPERTY),
            var start = zones.stamp(icalproperty_get_dtstart(startProperty), of: startProperty)
        else {
            return .failure(
                Problem(
                    note: ItemNote(
                        line: "\(label) has no valid DTSTART; skipped", group: " have no valid DTSTART; skipped",
                        item: item)))
        }
        let (length, swapped) = readLength(component, start: &start, zones: zones)
        if swapped { notes.append(note("DTEND before DTSTART; read as swapped")) }

        for property in properties(of: component, kind: ICAL_RRULE_PROPERTY) {
            var rule = icalproperty_get_rrule(property)
            if rule.freq == ICAL_NO_RECURRENCE {
                notes.append(note("bad RRULE; only its first occurrence is shown"))
            } else {
                for part in Self.dropInvalidParts(of: &rule) {
                    notes.append(note("RRULE part '\(part)' is invalid; dropped, the rest of the rule is expanded"))
                }
                rrules.append(Rule(recurrence: rule, limit: nil))
            }
        }
        var recurrenceId: Stamp?
        var thisAndFuture = false
        if let property = icalcomponent_get_first_property(component, ICAL_RECURRENCEID_PROPERTY) {
            // libical does not attach a zone to RECURRENCE-ID: resolve its TZID here, or overrides
            // silently fail to match.
            recurrenceId = zones.stamp(icalproperty_get_recurrenceid(property), of: property)
            if let range = icalproperty_get_first_parameter(property, ICAL_RANGE_PARAMETER) {
                thisAndFuture = icalparameter_get_range(range) == ICAL_RANGE_THISANDFUTURE
            }
        }
        let record = EventRecord(
            uid: uid, summary: summary, location: textProperty(component, ICAL_LOCATION_PROPERTY),
            description: textProperty(component, ICAL_DESCRIPTION_PROPERTY),
            cancelled: cancelled || icalcomponent_get_status(component) == ICAL_STATUS_CANCELLED, start: start,
            length: length,
            rrules: rrules, rdates: readRDates(component, zones: zones), exdates: readExdates(component, zones: zones),
            recurrenceId: recurrenceId, thisAndFuture: thisAndFuture, revision: Revision(of: component, position: index)
        )
        return .success((record, notes))
    }

    /// How long the event lasts, from DTEND or DURATION, and whether DTEND came before DTSTART:
    /// that is read as the two swapped (as the reference libraries do), and `start` becomes the
    /// earlier of them.
    private func readLength(_ component: OpaquePointer, start: inout Stamp, zones: ZoneResolver) -> (Length, Bool) {
        if let endProperty = icalcomponent_get_first_property(component, ICAL_DTEND_PROPERTY),
            let end = zones.stamp(icalproperty_get_dtend(endProperty), of: endProperty)
        {
            if start.isDate {
                let days = start.civil.days(to: end.civil)
                let swapped = days < 0 && end.isDate
                if swapped { start = end }
                // A DATE DTEND on DTSTART's day (or a DATE-TIME one) still lasts the day.
                return (.days(max(1, abs(days))), swapped)
            }
            let seconds = Int(end.instant.timeIntervalSince(start.instant))
            let swapped = seconds < 0 && !end.isDate
            if swapped { start = end }
            return (.seconds(abs(seconds)), swapped)
        }
        if let durationProperty = icalcomponent_get_first_property(component, ICAL_DURATION_PROPERTY) {
            let seconds = Int(icaldurationtype_as_int(icalproperty_get_duration(durationProperty)))
            return (start.isDate ? .days(max(1, seconds / 86_400)) : .seconds(max(0, seconds)), false)
        }
        return (start.isDate ? .days(1) : .seconds(0), false)
    }

    private func readExdates(_ component: OpaquePointer, zones: ZoneResolver) -> [Stamp] {
        properties(of: component, kind: ICAL_EXDATE_PROPERTY).compactMap {
            zones.stamp(icalproperty_get_exdate($0), of: $0)
        }
    }

    private func readRDates(_ component: OpaquePointer, zones: ZoneResolver) -> [(Stamp, Length?)] {
        var rdates: [(Stamp, Length?)] = []
        for property in properties(of: component, kind: ICAL_RDATE_PROPERTY) {
            let value = icalproperty_get_rdate(property)
            if let stamp = zones.stamp(value.time, of: property) {
                rdates.append((stamp, nil))
            } else if let first = zones.stamp(value.period.start, of: property) {
                var periodLength: Length?
                if let last = zones.stamp(value.period.end, of: property) {
                    periodLength = .seconds(max(0, Int(last.instant.timeIntervalSince(first.instant))))
                } else {
                    periodLength = .seconds(max(0, Int(icaldurationtype_as_int(value.period.duration))))
                }
                rdates.append((first, periodLength))
            }
        }
        return rdates
    }

    /// The RRULE libical refused whole, read again without its invalid parts, from the error
    /// libical left in its place ("Can't parse as RECUR value in RRULE property. Removing entire
    /// property: FREQ=DAILY;COUNT=-1;UNTIL=..."); nil for other errors or a rule with no valid FREQ.
    ///
    /// Parts are taken in order and each is kept when the rule still parses with it. A COUNT
    /// beside an UNTIL (RFC 5545 allows one of them; libical refuses both) is kept as a limit this
    /// code applies, so the rule ends at whichever comes first, as other readers do.
    private static func repairedRule(fromError message: String) -> (rule: Rule, dropped: [String])? {
        let marker = "in RRULE property. Removing entire property:"
        guard let range = message.range(of: marker) else { return nil }
        let parts = message[range.upperBound...].replacingOccurrences(of: "\\;", with: ";")
            .split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        func parses(_ parts: [String]) -> Bool {
            icalrecurrencetype_from_string(parts.joined(separator: ";")).freq != ICAL_NO_RECURRENCE
        }
        func name(_ part: String) -> String { part.split(separator: "=").first.map { $0.uppercased() } ?? "" }
        func count(_ part: String) -> Int? {
            guard name(part) == "COUNT", let value = part.split(separator: "=").last, let count = Int(value), count >= 0
            else { return nil }
            return count
        }
        guard let freq = parts.first(where: { name($0) == "FREQ" }), parses([freq]) else { return nil }
        var kept = [freq]
        var limit: Int?
        var dropped: [String] = []
        for part in parts where part != freq {
            if parses(kept + [part]) {
                kept.append(part)
            } else if let count = count(part), kept.contains(where: { name($0) == "UNTIL" }) || count == 0 {
                limit = count
            } else if name(part) == "UNTIL", let index = kept.firstIndex(where: { count($0) != nil }),
                parses(kept.enumerated().filter { $0.offset != index }.map(\.element) + [part])
            {
                limit = count(kept.remove(at: index))
                kept.append(part)
            } else {
                dropped.append(part)
            }
        }
        return (Rule(recurrence: icalrecurrencetype_from_string(kept.joined(separator: ";")), limit: limit), dropped)
    }

    /// A BY rule part libical keeps in a fixed array of the rule: its values, ended by
    /// `ICAL_RECURRENCE_ARRAY_MAX`.
    private struct ByPart: Sendable {
        let name: String
        /// RFC 5545 3.3.10's range; `signed` parts also take the negated values (from the end).
        let range: ClosedRange<Int>
        let signed: Bool
        let values: @Sendable (icalrecurrencetype) -> [Int]
        let clear: @Sendable (inout icalrecurrencetype) -> Void

        func isValid(_ value: Int) -> Bool { range.contains(signed ? abs(value) : value) }
    }

    private static func values<Array>(_ array: Array) -> [Int] {
        withUnsafeBytes(of: array) { bytes in
            var values: [Int] = []
            for offset in stride(from: 0, to: bytes.count, by: MemoryLayout<Int16>.stride) {
                let value = bytes.loadUnaligned(fromByteOffset: offset, as: Int16.self)
                if Int(value) == Int(ICAL_RECURRENCE_ARRAY_MAX.rawValue) { break }
                values.append(Int(value))
            }
            return values
        }
    }

    private static let end = Int16(ICAL_RECURRENCE_ARRAY_MAX.rawValue)

    private static let byParts: [ByPart] = [
        ByPart(
            name: "BYSECOND", range: 0...60, signed: false, values: { values($0.by_second) },
            clear: { $0.by_second.0 = end }),
        ByPart(
            name: "BYMINUTE", range: 0...59, signed: false, values: { values($0.by_minute) },
            clear: { $0.by_minute.0 = end }),
        ByPart(
            name: "BYHOUR", range: 0...23, signed: false, values: { values($0.by_hour) }, clear: { $0.by_hour.0 = end }),
        ByPart(
            name: "BYMONTHDAY", range: 1...31, signed: true, values: { values($0.by_month_day) },
            clear: { $0.by_month_day.0 = end }),
        ByPart(
            name: "BYYEARDAY", range: 1...366, signed: true, values: { values($0.by_year_day) },
            clear: { $0.by_year_day.0 = end }),
        ByPart(
            name: "BYWEEKNO", range: 1...53, signed: true, values: { values($0.by_week_no) },
            clear: { $0.by_week_no.0 = end }),
        ByPart(
            name: "BYMONTH", range: 1...12, signed: false, values: { values($0.by_month) },
            clear: { $0.by_month.0 = end }),
        ByPart(
            name: "BYSETPOS", range: 1...366, signed: true, values: { values($0.by_set_pos) },
            clear: { $0.by_set_pos.0 = end }),
    ]

    /// Removes the BY parts libical parsed but its iterator refuses, which RFC 5545 3.3.10 makes
    /// invalid: one its FREQ forbids (BYMONTHDAY with WEEKLY, BYYEARDAY with DAILY, WEEKLY or
    /// MONTHLY, BYWEEKNO with anything but YEARLY) or one with a value out of range (BYMONTH=13);
    /// returns them as written. Read per rule, not per occurrence. A valid rule that selects no
    /// day (`BYDAY=+6MO` monthly, 30 February) is kept: it has only DTSTART, as in other readers.
    private static func dropInvalidParts(of rule: inout icalrecurrencetype) -> [String] {
        var dropped: [String] = []
        let freq = rule.freq
        for part in byParts {
            let values = part.values(rule)
            guard !values.isEmpty else { continue }
            let forbidden: Bool
            switch part.name {
            case "BYWEEKNO": forbidden = freq != ICAL_YEARLY_RECURRENCE
            case "BYYEARDAY":
                forbidden =
                    freq == ICAL_DAILY_RECURRENCE || freq == ICAL_WEEKLY_RECURRENCE || freq == ICAL_MONTHLY_RECURRENCE
            case "BYMONTHDAY": forbidden = freq == ICAL_WEEKLY_RECURRENCE
            default: forbidden = false
            }
            if forbidden || !values.allSatisfy(part.isValid) {
                part.clear(&rule)
                dropped.append("\(part.name)=\(values.map(String.init).joined(separator: ","))")
            }
        }
        return dropped
    }

    // MARK: Expanding one master

    private func key(_ stamp: Stamp, allDayMaster: Bool) -> InstanceKey {
        if stamp.isDate || allDayMaster { return .day(stamp.civil.dayNumber) }
        return .time(Int64(stamp.instant.timeIntervalSince1970.rounded()))
    }

    /// The instances a master's EXDATEs remove: by key, and by day for DATE values.
    private struct Exclusions {
        let keys: Set<InstanceKey>

        /// Whether the instance with `key` starting on local day `wallDay` is excluded.
        func contains(_ key: InstanceKey, wallDay: Int) -> Bool {
            !keys.isEmpty && (keys.contains(key) || keys.contains(.day(wallDay)))
        }
    }

    /// What a master's overrides do to its series: the instances they replace, and the
    /// THISANDFUTURE ones that also move every later instance (sorted by the instance they start at).
    private struct OverridePlan {
        var replaced = Set<InstanceKey>()
        var future: [(key: InstanceKey, record: EventRecord, shift: TimeInterval)] = []
        var maxShift: TimeInterval = 0
    }

    /// Appends the instances of `master` (with its `overrides` merged) that overlap `window` to
    /// `events`, and its problems to `notes`.
    private func expand(
        _ master: EventRecord, overrides: [EventRecord], window: ExpansionWindow, calendar: String,
        into events: inout [CalendarEvent], notes: inout [String]
    ) {
        let allDay = master.start.isDate
        let excluded = Exclusions(keys: Set(master.exdates.map { key($0, allDayMaster: allDay) }))
        // An override of an instance the master's EXDATE removes is gone: the series was edited
        // (the instance deleted) after the override was written.
        let live = overrides.filter { record in
            guard let rid = record.recurrenceId else { return false }
            return !excluded.contains(key(rid, allDayMaster: allDay), wallDay: rid.civil.dayNumber)
                && !isStale(record, master: master, excluded: excluded, zone: window.zone)
        }
        let plan = overridePlan(master, overrides: live)
        if !master.cancelled {
            let candidates = candidates(of: master, window: window, widenedBy: plan.maxShift, notes: &notes)
            appendInstances(
                of: master, candidates: candidates, excluded: excluded, plan: plan, window: window, calendar: calendar,
                into: &events)
        }
        for record in live where !record.cancelled {
            guard let rid = record.recurrenceId else { continue }
            let start = eventTime(record.start)
            let end = record.end(from: start)
            guard window.overlaps(start, end) else { continue }
            let original: EventTime = allDay ? .day(rid.civil) : (rid.isDate ? .day(rid.civil) : .instant(rid.instant))
            events.append(instance(record, start: start, end: end, recurrenceId: original, calendar: calendar))
        }
    }

    /// Whether `record`, an override that carries an RRULE of its own (a series split off from
    /// one instance) and is older than its master, names an instance the master no longer has: the
    /// series was edited after it was split (for example ended earlier), and the split-off part is
    /// gone, as recurring-ical-events reads it. Only such overrides are checked, so the master's
    /// instances are listed again only for them.
    private func isStale(_ record: EventRecord, master: EventRecord, excluded: Exclusions, zone: TimeZone) -> Bool {
        guard record.olderThanMaster, let rid = record.recurrenceId
        else { return false }
        let ridKey = key(rid, allDayMaster: master.start.isDate)
        let around = ExpansionWindow(
            start: rid.instant.addingTimeInterval(-86_400), end: rid.instant.addingTimeInterval(2 * 86_400), zone: zone)
        var ignored: [String] = []
        return !candidates(of: master, window: around, widenedBy: 0, notes: &ignored).contains {
            $0.key == ridKey && !excluded.contains($0.key, wallDay: $0.wallDay)
        }
    }

    private func overridePlan(_ master: EventRecord, overrides: [EventRecord]) -> OverridePlan {
        var plan = OverridePlan()
        for record in overrides {
            guard let rid = record.recurrenceId else { continue }
            let ridKey = key(rid, allDayMaster: master.start.isDate)
            plan.replaced.insert(ridKey)
            if record.thisAndFuture {
                // The move in the series' wall-clock time: "from Friday 10:00 to Monday 10:00"
                // must stay at 10:00 for a later Friday whose weekend changes DST.
                let zone = master.start.zone
                let shift = wallSeconds(zone.wall(record.start.instant)) - wallSeconds(zone.wall(rid.instant))
                plan.future.append((ridKey, record, shift))
                plan.maxShift = max(plan.maxShift, abs(shift))
            }
        }
        plan.future.sort { order($0.key) < order($1.key) }
        return plan
    }

    /// The series' instances before overrides: DTSTART, every RRULE occurrence and every RDATE,
    /// once each, until past the window (widened by the largest THISANDFUTURE shift, plus a DST
    /// hour since that shift is wall time).
    private func candidates(
        of master: EventRecord, window: ExpansionWindow, widenedBy shift: TimeInterval, notes: inout [String]
    ) -> [Candidate] {
        let allDay = master.start.isDate
        let horizon = window.end.addingTimeInterval(shift > 0 ? shift + 3_600 : 0)
        let horizonDay = window.endDay + Int((shift / 86_400).rounded(.up))
        var seen = Set<InstanceKey>()
        var candidates: [Candidate] = []
        // `instant` is the stamp's instant when the caller already has it: the conversion goes
        // through libical's zone tables and is most of the cost per occurrence outside the iterator.
        func add(_ stamp: Stamp, instant: Date? = nil, length: Length?) {
            let civil = stamp.civil
            let start: EventTime
            let key: InstanceKey
            if stamp.isDate {
                start = .day(civil)
                key = .day(civil.dayNumber)
            } else {
                let moment = instant ?? stamp.instant
                start = .instant(moment)
                // As `key(_:allDayMaster:)`.
                key = allDay ? .day(civil.dayNumber) : .time(Int64(moment.timeIntervalSince1970.rounded()))
            }
            guard seen.insert(key).inserted else { return }
            candidates.append(Candidate(key: key, wallDay: civil.dayNumber, start: start, length: length))
        }
        // DTSTART is the first instance, unless every rule with an UNTIL ended before it (a
        // series edited to end before it began has no instances left).
        if !startsAfterLastUntil(master) { add(master.start, length: nil) }

        let label = "\(name): event '\(master.summary ?? "(no title)")'"
        for rule in master.rrules {
            guard let iterator = iterator(for: rule.recurrence, from: master.start) else {
                notes.append("\(label): RRULE could not be expanded; only its first occurrence is shown")
                continue
            }
            defer { icalrecur_iterator_free(iterator) }
            var produced = 0
            while true {
                let next = icalrecur_iterator_next(iterator)
                if icaltime_is_null_time(next) != 0 { break }
                if let limit = rule.limit, produced >= limit { break }
                produced += 1
                if produced > Self.occurrenceLimit {
                    notes.append("\(label): recurrence stopped after \(Self.occurrenceLimit) occurrences")
                    break
                }
                var wall = next
                wall.zone = nil
                let stamp = Stamp(wall: wall, isDate: allDay, zone: master.start.zone)
                if allDay {
                    if stamp.civil.dayNumber >= horizonDay { break }
                    add(stamp, length: nil)
                } else {
                    let instant = stamp.instant
                    if instant >= horizon { break }
                    add(stamp, instant: instant, length: nil)
                }
            }
        }
        for (stamp, length) in master.rdates { add(stamp, length: length) }
        return candidates
    }

    /// libical's iterator over `rule` from `start`, in the start's wall-clock time.
    ///
    /// Floating, never in the zone: RFC 5545 repeats the local time, and libical, given the zone,
    /// moves a time that falls in a DST gap (02:30 on the spring-forward day) to after it and then
    /// keeps the moved time for every later instance. Each wall time is made an instant by the
    /// caller, so UNTIL must be floating wall time in the event's zone too.
    private func iterator(for recurrence: icalrecurrencetype, from start: Stamp) -> OpaquePointer? {
        var rule = recurrence
        if !start.isDate, icaltime_is_null_time(rule.until) == 0, rule.until.is_date == 0 {
            let until = Stamp(
                wall: rule.until, isDate: false,
                zone: icaltime_is_utc(rule.until) != 0
                    ? (LibICal.utc.map(ICalZone.libical) ?? start.zone) : start.zone)
            rule.until = start.zone.wall(until.instant)
        }
        return icalrecur_iterator_new(rule, start.wall)
    }

    /// Whether DTSTART comes after the latest UNTIL of the master's rules (those that have one).
    private func startsAfterLastUntil(_ master: EventRecord) -> Bool {
        // All-day series compare days (UNTIL's day), timed ones instants.
        func seconds(_ stamp: Stamp) -> Double {
            master.start.isDate ? Double(stamp.civil.dayNumber) * 86_400 : stamp.instant.timeIntervalSince1970
        }
        var last: Double?
        for rule in master.rrules where icaltime_is_null_time(rule.recurrence.until) == 0 {
            var wall = rule.recurrence.until
            let utc = icaltime_is_utc(wall) != 0
            wall.zone = nil
            let isDate = wall.is_date != 0
            let zone = utc && !isDate ? (LibICal.utc.map(ICalZone.libical) ?? master.start.zone) : master.start.zone
            let until = seconds(Stamp(wall: wall, isDate: isDate, zone: zone))
            last = max(last ?? until, until)
        }
        guard let last else { return false }
        return seconds(master.start) > last
    }

    /// Appends the instances among `candidates` that are not excluded or replaced, with a
    /// THISANDFUTURE override's move and fields applied, that overlap `window`.
    private func appendInstances(
        of master: EventRecord, candidates: [Candidate], excluded: Exclusions, plan: OverridePlan,
        window: ExpansionWindow, calendar: String, into events: inout [CalendarEvent]
    ) {
        let allDay = master.start.isDate
        // The set is only asked when it holds something: hashing every candidate twice for
        // nothing is measurable on a calendar of tens of thousands of instances.
        let checkReplaced = !plan.replaced.isEmpty
        let recurring = !(master.rrules.isEmpty && master.rdates.isEmpty)
        for candidate in candidates {
            if excluded.contains(candidate.key, wallDay: candidate.wallDay) { continue }
            if checkReplaced,
                plan.replaced.contains(candidate.key) || (!allDay && plan.replaced.contains(.day(candidate.wallDay)))
            {
                continue
            }
            // The master's fields, or a THISANDFUTURE override's; not a copy of the whole record
            // per instance.
            var (summary, location, description) = (master.summary, master.location, master.description)
            var length = master.length
            var start = candidate.start
            if !plan.future.isEmpty, let rule = plan.future.last(where: { order($0.key) <= order(candidate.key) }) {
                if rule.record.cancelled { continue }
                (summary, location, description) = (rule.record.summary, rule.record.location, rule.record.description)
                length = rule.record.length
                start = shifted(start, by: rule.shift, in: master.start.zone)
            } else if let candidateLength = candidate.length {
                length = candidateLength
            }
            let end = EventRecord.end(from: start, length: length)
            guard window.overlaps(start, end) else { continue }
            events.append(
                CalendarEvent(
                    uid: master.uid, recurrenceId: recurring ? candidate.start : nil, start: start, end: end,
                    summary: summary, location: location, description: description, calendar: calendar))
        }
    }

    private func order(_ key: InstanceKey) -> Int64 {
        switch key {
        case .day(let day): Int64(day) * 86_400
        case .time(let seconds): seconds
        }
    }

    /// `time` moved by `seconds` of wall-clock time in `zone` (the series' zone).
    private func shifted(_ time: EventTime, by seconds: TimeInterval, in zone: ICalZone) -> EventTime {
        switch time {
        case .day(let day): return .day(day.adding(days: Int((seconds / 86_400).rounded())))
        case .instant(let date):
            let moved = icaltime_from_timet_with_zone(time_t(wallSeconds(zone.wall(date)) + seconds), 0, nil)
            return .instant(zone.instant(moved))
        }
    }

    /// Wall-clock fields as seconds since 1970 read as if UTC (libical's `icaltime_as_timet` on a
    /// floating time), so that two walls subtract to their wall-clock difference.
    private func wallSeconds(_ wall: icaltimetype) -> TimeInterval {
        var floating = wall
        floating.zone = nil
        floating.is_date = 0
        return TimeInterval(icaltime_as_timet(floating))
    }
}
