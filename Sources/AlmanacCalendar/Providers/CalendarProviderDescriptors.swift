import AlmanacCore
import Foundation

// The calendar's providers read the user's own sources (files, feeds, CalDAV servers), so they
// have no upstream base URL or health probe of their own; `tools doctor` checks libical instead.

extension ICSFileProvider: DescribedProvider {
    /// `ics-file`: local .ics files and folders; also the iCalendar path the fuzzer drives.
    static let descriptor = ProviderDescriptor(
        name: "ics-file", tool: "calendar", priority: 0, summary: "local .ics files and folders",
        decoders: [
            UpstreamDecoder(name: "calendar", seeds: ["Fixtures/calendar/ics/*.ics"]) { CalendarFuzzing.run($0) }
        ])
}

extension ICSFeedProvider: DescribedProvider {
    /// `ics-url`: http(s) and webcal feeds.
    static let descriptor = ProviderDescriptor(
        name: "ics-url", tool: "calendar", priority: 0, summary: "http(s)/webcal feeds")
}

extension CalDAVProvider: DescribedProvider {
    /// `caldav`: discovery and sync-token; the password never leaves the Authorization header.
    static let descriptor = ProviderDescriptor(
        name: "caldav", tool: "calendar", priority: 0, summary: "CalDAV with discovery and sync-token",
        secrets: [.environment(CalendarSources.passwordVariable)])
}

/// The whole iCalendar path a downloaded file takes (libical's parser, expansion over a year in
/// two zones, the task list), for the fuzzer.
enum CalendarFuzzing {
    static let now = Date(timeIntervalSince1970: 1_750_000_000)

    static func run(_ data: Data) {
        let done = DispatchSemaphore(value: 0)
        // Expansion is async (child tasks for big calendars); the fuzzer's callback is not, and it
        // runs on libFuzzer's own thread, outside the cooperative pool, so blocking here is safe.
        Task {
            defer { done.signal() }
            guard let document = try? ICalendarDocument(text: String(decoding: data, as: UTF8.self), name: "fuzz")
            else { return }
            for zone in ["UTC", "America/New_York"] {
                guard let timeZone = TimeZone(identifier: zone) else { continue }
                let window = ExpansionWindow(start: now, end: now.addingTimeInterval(366 * 86_400), zone: timeZone)
                _ = await document.expand(in: window, calendar: "fuzz")
                _ = document.tasks(now: now, zone: timeZone, calendar: "fuzz")
            }
        }
        done.wait()
    }
}
