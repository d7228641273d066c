import AlmanacCore
import Foundation

/// What a calendar provider is asked for: one source, and the window (CalDAV servers filter by it).
struct CalendarFetch: Sendable {
    /// The calendar.
    var source: CalendarSource
    /// The expansion window (CalDAV time-range queries are widened from it).
    var window: ExpansionWindow
    /// Whether VTODOs are wanted (CalDAV queries them separately).
    var wantsTasks: Bool
}

/// Raw calendar data as fetched: the iCalendar texts, expanded later by the tool (so one fetch
/// serves any window, and the cache keeps the source, not one view of it).
struct CalendarSnapshot: Sendable, Codable, Equatable {
    /// One iCalendar stream.
    struct Document: Sendable, Codable, Equatable {
        /// File name or CalDAV href, for messages.
        var name: String
        /// The collection's display name (CalDAV), when the source holds several calendars.
        var collection: String?
        /// The iCalendar text.
        var text: String
    }

    /// The documents.
    var documents: [Document]
    /// Per-file problems (too large, unreadable) that did not stop the rest.
    var warnings: [String]
}

/// Limits for untrusted calendar input.
enum CalendarLimits {
    /// The largest calendar file or response read (bytes); larger ones are reported and skipped.
    static let maxBytes = 20 << 20
}

/// Decodes calendar bytes: UTF-8 (BOM dropped), else Latin-1 (old Outlook exports).
func calendarText(_ data: Data) -> String {
    var bytes = data
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    return String(data: bytes, encoding: .utf8) ?? String(data: bytes, encoding: .isoLatin1) ?? ""
}

/// Local `.ics` files and folders of them.
struct ICSFileProvider: Provider {
    let name = "ics-file"
    let priority = 0
    /// Files larger than this are skipped with a warning.
    var maxBytes = CalendarLimits.maxBytes

    func supports(_ query: CalendarFetch) -> Bool {
        if case .file = query.source.location { return true }
        return false
    }

    func fetch(_ query: CalendarFetch, in environment: ProviderEnvironment) async throws -> CalendarSnapshot {
        guard case .file(let path) = query.source.location else {
            throw ProviderFailure(.unconfigured, "not a file source")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ProviderFailure(.notFound, "no such file or folder: \(path)")
        }
        var files: [URL] = []
        if isDirectory.boolValue {
            let folder = URL(fileURLWithPath: path)
            let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
            while let file = walker?.nextObject() as? URL {
                if file.pathExtension.lowercased() == "ics" { files.append(file) }
            }
            files.sort { $0.path < $1.path }
            guard !files.isEmpty else { throw ProviderFailure(.notFound, "no .ics files in \(path)") }
        } else {
            files = [URL(fileURLWithPath: path)]
        }
        var snapshot = CalendarSnapshot(documents: [], warnings: [])
        for file in files {
            try Task.checkCancellation()
            let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
            if size > maxBytes {
                snapshot.warnings.append(
                    "\(file.lastPathComponent): \(size >> 20) MB is over the \(maxBytes >> 20) MB limit; skipped")
                continue
            }
            do {
                let data = try Data(contentsOf: file)
                snapshot.documents.append(.init(name: file.lastPathComponent, collection: nil, text: calendarText(data)))
            } catch {
                snapshot.warnings.append("\(file.lastPathComponent): cannot be read; skipped")
            }
        }
        if snapshot.documents.isEmpty, files.count == 1, let warning = snapshot.warnings.first {
            throw ProviderFailure(.decoding, "\(warning)")
        }
        return snapshot
    }
}

/// `.ics` feeds over http(s) (and `webcal://`), through the HTTP seam.
struct ICSFeedProvider: Provider {
    let name = "ics-url"
    let priority = 0

    func supports(_ query: CalendarFetch) -> Bool {
        if case .feed = query.source.location { return true }
        return false
    }

    func fetch(_ query: CalendarFetch, in environment: ProviderEnvironment) async throws -> CalendarSnapshot {
        guard case .feed(let url) = query.source.location else {
            throw ProviderFailure(.unconfigured, "not a feed source")
        }
        let host = url.host ?? "server"
        let request = HTTPRequest(url: url, headers: ["Accept": "text/calendar, */*;q=0.5"])
        let response: HTTPResponse
        do {
            response = try await environment.fetch(
                request, service: "ics-url", configured: query.source.configuredOrigins(trust: environment.egress.trust),
                credential: query.source.credentials?.bound(to: url))
        } catch let failure as ProviderFailure where failure.kind == .notFound {
            // Private feed URLs carry their secret in the path: name the host only.
            throw ProviderFailure(.notFound, "HTTP 404 from \(host) (feed not found)")
        }
        guard response.body.count <= CalendarLimits.maxBytes else {
            throw ProviderFailure(
                .decoding, "feed from \(host) is \(response.body.count >> 20) MB, over the \(CalendarLimits.maxBytes >> 20) MB limit")
        }
        let text = calendarText(response.body)
        guard text.contains("BEGIN:VCALENDAR") else {
            throw ProviderFailure(.decoding, "\(host) did not return an iCalendar file")
        }
        // A transfer cut short must not pass for the whole calendar (its stale copy is better):
        // every iCalendar stream ends with END:VCALENDAR (names are case-insensitive).
        guard text.suffix(64).uppercased().trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("END:VCALENDAR")
        else {
            throw ProviderFailure(.decoding, "the feed from \(host) was cut short (no END:VCALENDAR)")
        }
        let name = url.lastPathComponent.isEmpty || url.lastPathComponent == "/" ? host : url.lastPathComponent
        return CalendarSnapshot(documents: [.init(name: name, collection: nil, text: text)], warnings: [])
    }
}
