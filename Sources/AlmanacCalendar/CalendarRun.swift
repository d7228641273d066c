import AlmanacCore
import Foundation

/// One run of the calendar tool: fetch every source through the coordinator, expand, merge.
struct CalendarRun {
    var request: CalendarRequest
    var sources: [CalendarSource]
    var context: ToolContext

    var providers: [any Provider<CalendarFetch, CalendarSnapshot>]

    /// What the sources held for the request, with the problems met reading them.
    struct Found {
        /// The events the answer can hold, while documents are read (see ``EventSelection``).
        var selection: EventSelection
        /// Documents whose events were offered to `selection` (orders them across documents).
        var documents = 0
        var events: [CalendarEvent] = []
        var tasks: [CalendarTask] = []
        var warnings: [String] = []
    }

    /// What an answer keeps of the events: those `--search` finds, at most the per-answer cap
    /// (or N, for `next N`), the first in display order.
    func keep(cap: Int) -> EventKeep {
        var limit = cap
        if case .next(let count) = request.mode { limit = min(count, cap) }
        var matches: (@Sendable (CalendarEvent) -> Bool)?
        if let search = request.search { matches = { Self.event($0, matches: search) } }
        return EventKeep(limit: limit, zone: request.window.zone, matches: matches)
    }

    /// Whether `--search TEXT` finds `event` (title, place or notes; case and accents ignored).
    static func event(_ event: CalendarEvent, matches search: String) -> Bool {
        [event.summary ?? "", event.location ?? "", event.description ?? ""].contains {
            $0.range(of: search, options: [.caseInsensitive, .diacriticInsensitive]) != nil
        }
    }

    /// Fetches every source, reads and expands what came back, and narrows it to the request.
    func result() async throws -> ToolResult {
        // Before fetching anything: without libical no source can be read.
        if let failure = LibICal.loadFailure {
            throw AlmanacError.configuration(
                "calendar: libical could not be opened: \(failure)", suggestion: "install it: apt install libical3")
        }
        // A year of a busy feed is tens of thousands of instances: an answer carries the first
        // ones and says how many were left out, rather than megabytes no model can read. Only
        // those are kept while expanding: a feed's month of 95,000 events is never held whole.
        let cap = try CalendarLimits.maxOccurrences(context.settings)
        var (fetched, failures) = await fetchAll()
        if fetched.isEmpty, let first = failures.first { throw first.1 }
        var found = Found(
            selection: EventSelection(keep(cap: cap)),
            warnings: failures.map { source, error in
                "calendar '\(source.name)' unavailable: \(Self.describe(error))"
            })
        for index in fetched.indices {
            // Taken out of `fetched`: a feed's text (megabytes) is gone once read, not kept
            // through sorting and rendering.
            let snapshot = fetched[index].1.value
            fetched[index].1.value = CalendarSnapshot(documents: [], warnings: [])
            await read(snapshot, of: fetched[index].0, into: &found)
        }
        let matched = found.selection.matched
        found.events = found.selection.sorted()
        found.selection = EventSelection(found.selection.keep)
        narrow(&found)
        var omitted = matched - found.events.count
        if case .next(let count) = request.mode { omitted = max(0, min(count, matched) - cap) }
        var seen = Set<String>()
        if let hours = request.freeHours {
            let payload = FreeBusyPayload(
                events: found.events, firstDay: request.firstDay, lastDay: request.lastDay, hours: hours,
                zone: request.window.zone, now: request.now,
                warnings: found.warnings.filter { seen.insert($0).inserted })
            return ToolResult(metadata: Self.merge(fetched.map(\.1.metadata)), payload: payload)
        }
        var payload = CalendarPayload(
            request: request, events: found.events, tasks: found.tasks,
            warnings: found.warnings.filter { seen.insert($0).inserted })
        payload.omitted = omitted
        return ToolResult(metadata: Self.merge(fetched.map(\.1.metadata)), payload: payload)
    }

    /// Each source through the coordinator (cache, providers), in order, and the ones that failed.
    private func fetchAll() async -> (
        fetched: [(CalendarSource, Fetched<CalendarSnapshot>)], failures: [(CalendarSource, any Error)]
    ) {
        var fetched: [(CalendarSource, Fetched<CalendarSnapshot>)] = []
        var failures: [(CalendarSource, any Error)] = []
        for source in sources {
            let query = CalendarFetch(source: source, window: request.window, wantsTasks: request.mode == .tasks)
            var writes = 0
            if case .caldav = source.location {
                writes = await CalDAVWriteCount.load(source, in: context.environment.state)
            }
            let key = CalendarKey.fetch(
                source, from: request.firstDay, to: request.lastDay, tasks: request.mode == .tasks, writes: writes
            ).text
            // Local files are re-read every time: caching one would write megabytes to SQLite and
            // JSON-encode and decode them for an entry that is never read.
            var cached = true
            if case .file = source.location { cached = false }
            do {
                let result = try await context.fetch(
                    tool: "calendar", key: key, query: query, providers: providers, cached: cached)
                fetched.append((source, result))
            } catch {
                failures.append((source, error))
            }
        }
        return (fetched, failures)
    }

    /// Parses every document of one source's snapshot and adds its events (expanded into the
    /// window) or its tasks still to do to `found`.
    private func read(_ snapshot: CalendarSnapshot, of source: CalendarSource, into found: inout Found) async {
        found.warnings += snapshot.warnings
        let collections = Set(snapshot.documents.compactMap(\.collection))
        for document in snapshot.documents {
            let label: String
            if let collection = document.collection, collections.count > 1 || !source.configured {
                label = source.configured ? "\(source.name)/\(collection)" : collection
            } else {
                label = source.name
            }
            // The document's bytes as they came (a feed's answer, a file): no `String` of them.
            if request.mode != .tasks, let parts = ICalendarParts(utf8: document.utf8),
                let zones = try? ICalendarDocument(text: parts.zoneText, name: document.name),
                let expansion = await zones.expand(
                    parts, in: request.window, calendar: label, keep: found.selection.keep)
            {
                // A piece at a time: the whole file's libical tree is never built.
                add(expansion, to: &found)
                continue
            }
            let parsed: ICalendarDocument
            do {
                parsed = try ICalendarDocument(text: document.text, name: document.name)
            } catch {
                found.warnings.append("\(error)")
                continue
            }
            found.warnings += parsed.warnings
            if request.mode == .tasks {
                let tasks = parsed.tasks(now: request.now, zone: request.window.zone, calendar: label)
                // `tasks` is what is still to do: finished ones would only spend the model's tokens.
                found.tasks += tasks.tasks.filter { $0.state != .completed }
                found.warnings += tasks.warnings
            } else {
                add(await parsed.expand(in: request.window, calendar: label, keep: found.selection.keep), to: &found)
            }
            ICalendarDocument.freeElsewhere(consume parsed)
        }
    }

    /// Offers the events one document kept to the run's selection (they come in display order,
    /// so their positions keep ties in it), and counts those it had already left out.
    private func add(_ expansion: Expansion, to found: inout Found) {
        found.selection.countOmitted(expansion.omitted)
        for (position, event) in expansion.events.enumerated() {
            found.selection.add(event, order: (found.documents, position))
        }
        found.documents += 1
        found.warnings += expansion.warnings
    }

    /// Applies `--search` to tasks (events were chosen by ``keep(cap:)``), sorts for display.
    private func narrow(_ found: inout Found) {
        if let search = request.search {
            found.tasks = found.tasks.filter {
                ($0.summary ?? "").range(of: search, options: [.caseInsensitive, .diacriticInsensitive]) != nil
            }
        }
        Self.sortForDisplay(&found.events, zone: request.window.zone)
        found.tasks.sort(by: CalendarTask.displayOrder)
    }

    /// Sorts `events` by start, all-day first, end, then summary, calendar and UID.
    ///
    /// A year of a busy calendar is tens of thousands of instances of ~170 bytes with several
    /// strings each: the keys are computed once into a flat array, that is sorted (stably, as
    /// `sorted(by:)` does), and the events are then moved into their places as bytes, with no
    /// retain or release per string.
    static func sortForDisplay(_ events: inout [CalendarEvent], zone: TimeZone) {
        struct Key {
            // Seconds since the reference date: `Date`'s own value, so no rounding on the way.
            var start: Double
            var end: Double
            var allDay: Bool
            var index: Int
        }
        // All-day boundaries cost a Foundation calendar call each: once per distinct day.
        var dayStarts: [CivilDate: Double] = [:]
        func seconds(_ time: EventTime) -> Double {
            switch time {
            case .instant(let date): return date.timeIntervalSinceReferenceDate
            case .day(let day):
                if let known = dayStarts[day] { return known }
                let start = day.start(in: zone).timeIntervalSinceReferenceDate
                dayStarts[day] = start
                return start
            }
        }
        var keys: [Key] = []
        keys.reserveCapacity(events.count)
        for index in events.indices {
            keys.append(
                Key(
                    start: seconds(events[index].start), end: seconds(events[index].end), allDay: events[index].allDay,
                    index: index))
        }
        events.withUnsafeMutableBufferPointer { events in
            keys.sort { a, b in
                if a.start != b.start { return a.start < b.start }
                if a.allDay != b.allDay { return a.allDay }
                if a.end != b.end { return a.end < b.end }
                let (x, y) = (events[a.index], events[b.index])
                return (x.summary ?? "", x.calendar, x.uid) < (y.summary ?? "", y.calendar, y.uid)
            }
            guard let base = events.baseAddress else { return }
            // Every event is moved out once, in the new order, and the block moved back: the
            // buffer is whole again before the closure returns.
            let sorted = UnsafeMutablePointer<CalendarEvent>.allocate(capacity: keys.count)
            defer { sorted.deallocate() }
            for (position, key) in keys.enumerated() {
                (sorted + position).moveInitialize(from: base + key.index, count: 1)
            }
            base.moveInitialize(from: sorted, count: keys.count)
        }
    }

    /// One provenance for several sources: every attempt, the oldest fetch, stale if any is.
    static func merge(_ all: [ResultMetadata]) -> ResultMetadata {
        guard var merged = all.first else {
            return ResultMetadata(
                tool: "calendar", provider: "none", fetchedAt: Date(), ageSeconds: 0, stale: false, attempts: [])
        }
        for other in all.dropFirst() {
            var providers = merged.provider.split(separator: "+").map(String.init)
            if !providers.contains(other.provider) { providers.append(other.provider) }
            merged.provider = providers.joined(separator: "+")
            if other.fetchedAt < merged.fetchedAt { merged.fetchedAt = other.fetchedAt }
            merged.ageSeconds = max(merged.ageSeconds, other.ageSeconds)
            merged.stale = merged.stale || other.stale
            merged.attempts += other.attempts
        }
        return merged
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? AlmanacError {
            let details = error.attempts.compactMap(\.detail)
            return details.isEmpty ? error.message : details.joined(separator: "; ")
        }
        if let failure = error as? ProviderFailure { return failure.message }
        return "\(type(of: error))"
    }
}
