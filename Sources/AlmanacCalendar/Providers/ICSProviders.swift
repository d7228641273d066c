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

extension CalendarSnapshot: OwnCacheBytes {
    /// What the bytes start with; older entries are JSON and start with `{`.
    private static let magic = Array("almanac-calendar-snapshot 1\n".utf8)

    /// Everything but the texts, as JSON, with each text's length in bytes.
    private struct Header: Codable {
        struct Entry: Codable {
            var name: String
            var collection: String?
            var bytes: Int
        }
        var documents: [Entry]
        var warnings: [String]
    }

    /// The magic line, the header's length (8 bytes, little-endian), the header, then the texts'
    /// UTF-8 one after another: written in one pass into a buffer of the final size, read by
    /// slicing. The JSON form of a 19 MB feed escaped every line end and was parsed back whole.
    func cacheBytes() throws -> Data {
        let header = try JSONEncoder().encode(
            Header(
                documents: documents.map { .init(name: $0.name, collection: $0.collection, bytes: $0.text.utf8.count) },
                warnings: warnings))
        var data = Data()
        data.reserveCapacity(Self.magic.count + 8 + header.count + documents.reduce(0) { $0 + $1.text.utf8.count })
        data.append(contentsOf: Self.magic)
        withUnsafeBytes(of: UInt64(header.count).littleEndian) { data.append(contentsOf: $0) }
        data.append(header)
        for document in documents {
            if document.text.utf8.withContiguousStorageIfAvailable({ data.append(contentsOf: $0) }) == nil {
                data.append(contentsOf: Array(document.text.utf8))
            }
        }
        return data
    }

    init(cacheBytes data: Data) throws {
        guard data.starts(with: Self.magic) else {
            self = try JSONDecoder().decode(CalendarSnapshot.self, from: data)
            return
        }
        let unreadable = DecodingError.dataCorrupted(
            .init(codingPath: [], debugDescription: "cut-short calendar snapshot"))
        self = try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws -> CalendarSnapshot in
            var offset = Self.magic.count
            guard bytes.count >= offset + 8 else { throw unreadable }
            var length: UInt64 = 0
            withUnsafeMutableBytes(of: &length) {
                $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 8]))
            }
            offset += 8
            guard let headerLength = Int(exactly: UInt64(littleEndian: length)), headerLength <= bytes.count - offset
            else { throw unreadable }
            let header = try JSONDecoder().decode(
                Header.self, from: Data(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + headerLength])))
            offset += headerLength
            var documents: [Document] = []
            for entry in header.documents {
                guard entry.bytes >= 0, entry.bytes <= bytes.count - offset else { throw unreadable }
                let utf8 = UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + entry.bytes])
                let text = String(decoding: utf8, as: UTF8.self)
                documents.append(Document(name: entry.name, collection: entry.collection, text: text))
                offset += entry.bytes
            }
            guard offset == bytes.count else { throw unreadable }
            return CalendarSnapshot(documents: documents, warnings: header.warnings)
        }
    }
}

/// Limits for untrusted calendar input.
enum CalendarLimits {
    /// The default for the largest calendar file or response read (bytes); larger ones are
    /// reported and skipped. `[calendar] max_source_bytes` or ALMANAC_CALENDAR_MAX_SOURCE_BYTES.
    static let maxBytes = 10 << 20
    /// The default for the most events one answer lists (`[calendar] max_occurrences` or
    /// ALMANAC_CALENDAR_MAX_OCCURRENCES); the rest are counted.
    static let occurrences = 1_000
    /// Entries a folder walk looks at before it stops (a folder of calendars, not a filesystem).
    static let maxWalkedEntries = 20_000

    /// The configured size limit per calendar source, in bytes.
    static func maxSourceBytes(_ settings: Settings) throws -> Int {
        try number(settings, env: "ALMANAC_CALENDAR_MAX_SOURCE_BYTES", key: "max_source_bytes", default: maxBytes)
    }

    /// The configured cap on events per answer.
    static func maxOccurrences(_ settings: Settings) throws -> Int {
        try number(settings, env: "ALMANAC_CALENDAR_MAX_OCCURRENCES", key: "max_occurrences", default: occurrences)
    }

    /// "12.5 MB", or bytes under one MB.
    static func size(_ bytes: Int) -> String {
        bytes < 1 << 20 ? "\(bytes) bytes" : String(format: "%.1f MB", Double(bytes) / Double(1 << 20))
    }

    private static func number(_ settings: Settings, env: String, key: String, default value: Int) throws -> Int {
        guard let raw = settings.value(env: env, config: "calendar", key) else { return value }
        guard let number = Int(raw.trimmingCharacters(in: .whitespaces)), number > 0 else {
            throw AlmanacError.configuration(
                "\(env) ([calendar] \(key)) must be a whole number above 0, got '\(raw)'",
                suggestion: "e.g. \(env)=\(value)")
        }
        return number
    }
}

/// Decodes calendar bytes: UTF-8, else windows-1252 (old Outlook exports); see ``CalendarText``.
func calendarText(_ data: Data) -> String { CalendarText.decode(data) }

/// Local `.ics` files and folders of them.
struct ICSFileProvider: Provider {
    // Name and priority come from its descriptor (CalendarProviderDescriptors.swift).
    /// Files larger than this are skipped with a warning (nil: the configured limit).
    var maxBytes: Int?

    func supports(_ query: CalendarFetch) -> Bool {
        if case .file = query.source.location { return true }
        return false
    }

    func fetch(_ query: CalendarFetch, in environment: ProviderEnvironment) async throws -> CalendarSnapshot {
        guard case .file(let path) = query.source.location else {
            throw ProviderFailure(.unconfigured, "not a file source")
        }
        // Untrusted callers see the calendar's configured name, never where it lives (docs/security.md).
        let untrusted = environment.egress.trust == .untrusted
        let shown = untrusted ? "calendar '\(query.source.name)'" : path
        let named = { (file: URL) in untrusted ? query.source.name : file.lastPathComponent }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ProviderFailure(.notFound, "no such file or folder: \(shown)")
        }
        let maxBytes = try self.maxBytes ?? CalendarLimits.maxSourceBytes(environment.settings)
        var files: [URL] = []
        if isDirectory.boolValue {
            let folder = URL(fileURLWithPath: path)
            let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
            var walked = 0
            while let file = walker?.nextObject() as? URL {
                // The walk honours the provider's deadline (the coordinator cancels this task),
                // and a folder the size of a filesystem is not walked to its end.
                walked += 1
                if walked % 64 == 0 { try Task.checkCancellation() }
                guard walked <= CalendarLimits.maxWalkedEntries else {
                    throw ProviderFailure(
                        .decoding,
                        "\(shown) holds more than \(CalendarLimits.maxWalkedEntries) entries; name a smaller folder")
                }
                // Regular files only: reading a FIFO or a device named x.ics would block or never end.
                if file.pathExtension.lowercased() == "ics",
                    (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
                {
                    files.append(file)
                }
            }
            files.sort { $0.path < $1.path }
            guard !files.isEmpty else { throw ProviderFailure(.notFound, "no .ics files in \(shown)") }
        } else {
            files = [URL(fileURLWithPath: path)]
        }
        var snapshot = CalendarSnapshot(documents: [], warnings: [])
        for file in files {
            try Task.checkCancellation()
            let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
            if size > maxBytes {
                snapshot.warnings.append(
                    "\(named(file)): \(CalendarLimits.size(size)) is over the \(CalendarLimits.size(maxBytes)) limit; skipped"
                )
                continue
            }
            do {
                let data = try Data(contentsOf: file)
                snapshot.documents.append(
                    .init(name: named(file), collection: nil, text: calendarText(data)))
            } catch {
                snapshot.warnings.append("\(named(file)): cannot be read; skipped")
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
    // Name and priority come from its descriptor (CalendarProviderDescriptors.swift).

    func supports(_ query: CalendarFetch) -> Bool {
        if case .feed = query.source.location { return true }
        return false
    }

    func fetch(_ query: CalendarFetch, in environment: ProviderEnvironment) async throws -> CalendarSnapshot {
        guard case .feed(let url) = query.source.location else {
            throw ProviderFailure(.unconfigured, "not a feed source")
        }
        let host = url.host ?? "server"
        let maxBytes = try CalendarLimits.maxSourceBytes(environment.settings)
        var request = HTTPRequest(url: url, headers: ["Accept": "text/calendar, */*;q=0.5"])
        // The transport stops reading at the limit: a huge feed is never held whole.
        request.maxBodyBytes = maxBytes
        let response: HTTPResponse
        do {
            response = try await environment.fetch(
                request, service: "ics-url",
                configured: query.source.configuredOrigins(trust: environment.egress.trust),
                credential: query.source.credentials?.bound(to: url))
        } catch let failure as ProviderFailure where failure.kind == .notFound {
            // Private feed URLs carry their secret in the path: name the host only.
            throw ProviderFailure(.notFound, "HTTP 404 from \(host) (feed not found)")
        }
        guard response.body.count <= maxBytes else {
            throw ProviderFailure(
                .decoding,
                "feed from \(host) is \(CalendarLimits.size(response.body.count)), over the \(CalendarLimits.size(maxBytes)) limit"
            )
        }
        // Looked for in the bytes, before the text is made: an answer that is not iCalendar costs no copy.
        guard response.body.range(of: Data("BEGIN:VCALENDAR".utf8)) != nil else {
            throw ProviderFailure(.decoding, "\(host) did not return an iCalendar file")
        }
        let text = calendarText(response.body)
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
