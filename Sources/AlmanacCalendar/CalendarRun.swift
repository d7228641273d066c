import AlmanacCore
import Foundation

/// One run of the calendar tool: fetch every source through the coordinator, expand, merge.
struct CalendarRun {
    var request: CalendarRequest
    var sources: [CalendarSource]
    var context: ToolContext

    var providers: [any Provider<CalendarFetch, CalendarSnapshot>]

    func result() async throws -> ToolResult {
        var fetched: [(CalendarSource, Fetched<CalendarSnapshot>)] = []
        var failures: [(CalendarSource, any Error)] = []
        for source in sources {
            let query = CalendarFetch(source: source, window: request.window, wantsTasks: request.mode == .tasks)
            var key = source.cacheKey
            if case .caldav = source.location {
                // A CalDAV answer may be limited to the window (time-range query).
                key += ":\(request.firstDay)..\(request.lastDay)" + (request.mode == .tasks ? ":tasks" : "")
            }
            var ttl: Duration?
            if case .file = source.location { ttl = .zero }  // local files are cheap: always re-read
            do {
                let result = try await context.fetch(
                    tool: "calendar", key: key, query: query, providers: providers, ttl: ttl)
                fetched.append((source, result))
            } catch {
                failures.append((source, error))
            }
        }
        if fetched.isEmpty, let first = failures.first { throw first.1 }

        var warnings: [String] = failures.map { source, error in
            "calendar '\(source.name)' unavailable: \(Self.describe(error))"
        }
        var events: [CalendarEvent] = []
        var tasks: [CalendarTask] = []
        for (source, result) in fetched {
            warnings += result.value.warnings
            let collections = Set(result.value.documents.compactMap(\.collection))
            for document in result.value.documents {
                let label: String
                if let collection = document.collection, collections.count > 1 || !source.configured {
                    label = source.configured ? "\(source.name)/\(collection)" : collection
                } else {
                    label = source.name
                }
                let parsed: ICalendarDocument
                do {
                    parsed = try ICalendarDocument(text: document.text, name: document.name)
                } catch {
                    warnings.append("\(error)")
                    continue
                }
                warnings += parsed.warnings
                if request.mode == .tasks {
                    let found = parsed.tasks(now: request.now, zone: request.window.zone, calendar: label)
                    // `tasks` is what is still to do: finished ones would only spend the model's tokens.
                    tasks += found.tasks.filter { $0.state != .completed }
                    warnings += found.warnings
                } else {
                    let expansion = await parsed.expand(in: request.window, calendar: label)
                    // Taken over when it is the only document (the common case): no copy.
                    if events.isEmpty { events = expansion.events } else { events += expansion.events }
                    warnings += expansion.warnings
                }
            }
        }

        let zone = request.window.zone
        if let search = request.search {
            events = events.filter { event in
                [event.summary, event.location ?? "", event.description ?? ""].contains {
                    $0.range(of: search, options: [.caseInsensitive, .diacriticInsensitive]) != nil
                }
            }
            tasks = tasks.filter { $0.summary.range(of: search, options: [.caseInsensitive, .diacriticInsensitive]) != nil }
        }
        // Keys computed once per event and indices sorted, not the events: a year of a busy
        // calendar is tens of thousands of instances, each with five strings to retain on a move.
        let starts = events.map { $0.start.date(in: zone) }
        let ends = events.map { $0.end.date(in: zone) }
        let order = events.indices.sorted { a, b in
            if starts[a] != starts[b] { return starts[a] < starts[b] }
            if events[a].allDay != events[b].allDay { return events[a].allDay }
            if ends[a] != ends[b] { return ends[a] < ends[b] }
            return (events[a].summary, events[a].calendar, events[a].uid) < (events[b].summary, events[b].calendar, events[b].uid)
        }
        events = order.map { events[$0] }
        if case .next(let count) = request.mode { events = Array(events.prefix(count)) }
        tasks.sort(by: CalendarTask.displayOrder)

        var seen = Set<String>()
        let payload = CalendarPayload(
            request: request, events: events, tasks: tasks, warnings: warnings.filter { seen.insert($0).inserted })
        return ToolResult(metadata: Self.merge(fetched.map(\.1.metadata)), payload: payload)
    }

    /// One provenance for several sources: every attempt, the oldest fetch, stale if any is.
    static func merge(_ all: [ResultMetadata]) -> ResultMetadata {
        guard var merged = all.first else {
            return ResultMetadata(tool: "calendar", provider: "none", fetchedAt: Date(), ageSeconds: 0, stale: false, attempts: [])
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
