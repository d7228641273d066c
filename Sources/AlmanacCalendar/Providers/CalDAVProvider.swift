import AlmanacCore
import Foundation

/// CalDAV (placeholder while the client lands).
struct CalDAVProvider: Provider {
    let name = "caldav"
    let priority = 0

    func supports(_ query: CalendarFetch) -> Bool {
        if case .caldav = query.source.location { return true }
        return false
    }

    func fetch(_ query: CalendarFetch, in environment: ProviderEnvironment) async throws -> CalendarSnapshot {
        throw ProviderFailure(.unconfigured, "caldav: not implemented yet")
    }
}
