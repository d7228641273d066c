import Foundation

/// Which events one answer can hold: those `matches` accepts, the first `limit` in display order
/// (``CalendarRun/sortForDisplay(_:zone:)``). Given to the expansion, so that a feed of 95,000
/// events in the asked month never holds more than the answer's thousand at a time.
struct EventKeep: Sendable {
    /// At most this many events are kept.
    var limit: Int
    /// The viewer's zone, where all-day events start.
    var zone: TimeZone
    /// Whether an event is wanted at all (`--search`); nil: every event.
    var matches: (@Sendable (CalendarEvent) -> Bool)?
}

/// The first `limit` events in display order among those added, kept in a bounded heap while
/// they are added (O(n log limit), never more than `limit` held), with how many matched in all.
///
/// The answer is the one sorting every event stably and taking the first `limit` gives: events
/// that tie on start, all-day, end, summary, calendar and UID keep the order they were added in,
/// which `order` carries (two numbers, compared in turn: a document's, then one within it).
struct EventSelection {
    let keep: EventKeep
    /// Events `keep.matches` accepted, kept or not.
    private(set) var matched = 0
    /// A max-heap: the root is the last of the kept events in display order.
    private var heap: [Entry] = []
    /// All-day boundaries cost a Foundation calendar call each: once per distinct day.
    private var dayStarts: [CivilDate: Double] = [:]

    private struct Entry {
        var start: Double
        var end: Double
        var allDay: Bool
        var order: (Int, Int)
        var event: CalendarEvent
    }

    init(_ keep: EventKeep) { self.keep = keep }

    /// How many matched events are not kept.
    var omitted: Int { matched - heap.count }

    /// Adds `event`, the `order`-th (ties keep the lower order first).
    mutating func add(_ event: CalendarEvent, order: (Int, Int)) {
        if let matches = keep.matches, !matches(event) { return }
        matched += 1
        guard keep.limit > 0 else { return }
        let entry = Entry(
            start: seconds(event.start), end: seconds(event.end), allDay: event.allDay, order: order, event: event)
        if heap.count < keep.limit {
            heap.append(entry)
            siftUp(heap.count - 1)
        } else if Self.before(entry, heap[0]) {
            heap[0] = entry
            siftDown(0)
        }
    }

    /// Counts `count` matched events that were not offered (a part kept elsewhere left them out).
    mutating func countOmitted(_ count: Int) { matched += count }

    /// The kept events, in display order.
    consuming func sorted() -> [CalendarEvent] {
        heap.sort(by: Self.before)
        return heap.map(\.event)
    }

    private mutating func seconds(_ time: EventTime) -> Double {
        switch time {
        case .instant(let date): return date.timeIntervalSinceReferenceDate
        case .day(let day):
            if let known = dayStarts[day] { return known }
            let start = day.start(in: keep.zone).timeIntervalSinceReferenceDate
            dayStarts[day] = start
            return start
        }
    }

    /// Display order: start, all-day first, end, summary, calendar, UID, then the order added.
    private static func before(_ a: Entry, _ b: Entry) -> Bool {
        if a.start != b.start { return a.start < b.start }
        if a.allDay != b.allDay { return a.allDay }
        if a.end != b.end { return a.end < b.end }
        let (x, y) = (a.event, b.event)
        let (summaryX, summaryY) = (x.summary ?? "", y.summary ?? "")
        if summaryX != summaryY { return summaryX < summaryY }
        if x.calendar != y.calendar { return x.calendar < y.calendar }
        if x.uid != y.uid { return x.uid < y.uid }
        return a.order < b.order
    }

    private mutating func siftUp(_ index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.before(heap[parent], heap[child]) else { return }
            heap.swapAt(parent, child)
            child = parent
        }
    }

    private mutating func siftDown(_ index: Int) {
        var parent = index
        while true {
            var largest = parent
            let (left, right) = (2 * parent + 1, 2 * parent + 2)
            if left < heap.count, Self.before(heap[largest], heap[left]) { largest = left }
            if right < heap.count, Self.before(heap[largest], heap[right]) { largest = right }
            guard largest != parent else { return }
            heap.swapAt(parent, largest)
            parent = largest
        }
    }
}
