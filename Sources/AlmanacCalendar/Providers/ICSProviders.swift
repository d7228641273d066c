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
        /// The iCalendar text as UTF-8 (see ``CalendarText/utf8(_:)``), often a slice of a larger
        /// buffer: the bytes of a file or a feed's answer, kept as they came rather than copied
        /// into a `String` (19 MB more for a big feed, held through the whole parse).
        var utf8: Data

        /// A document of `text`.
        init(name: String, collection: String?, text: String) {
            self.init(name: name, collection: collection, utf8: Data(text.utf8))
        }

        /// A document of UTF-8 bytes, taken as they are.
        init(name: String, collection: String?, utf8: Data) {
            self.name = name
            self.collection = collection
            self.utf8 = utf8
        }

        /// The text, as a new `String` (a copy: for small documents and the whole-file parse).
        var text: String { String(decoding: utf8, as: UTF8.self) }

        private enum CodingKeys: String, CodingKey { case name, collection, text }

        // The JSON form (older cache entries) keeps the text as a string.
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                name: try container.decode(String.self, forKey: .name),
                collection: try container.decodeIfPresent(String.self, forKey: .collection),
                text: try container.decode(String.self, forKey: .text))
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encodeIfPresent(collection, forKey: .collection)
            try container.encode(text, forKey: .text)
        }
    }

    /// The documents.
    var documents: [Document] { didSet { stored = nil } }
    /// Per-file problems (too large, unreadable) that did not stop the rest.
    var warnings: [String] { didSet { stored = nil } }
    /// These documents and warnings already laid out as ``cacheBytes()`` writes them, with the
    /// documents' bytes slices of it: a feed's answer becomes its own cache entry in place.
    private var stored: Data?

    private enum CodingKeys: String, CodingKey { case documents, warnings }

    init(documents: [Document], warnings: [String]) {
        self.documents = documents
        self.warnings = warnings
    }

    static func == (lhs: CalendarSnapshot, rhs: CalendarSnapshot) -> Bool {
        lhs.documents == rhs.documents && lhs.warnings == rhs.warnings
    }
}

extension CalendarSnapshot: OwnCacheBytes {
    /// What the first layout started with; older entries still are JSON and start with `{`.
    private static let magic = Array("almanac-calendar-snapshot 1\n".utf8)
    /// What the current layout ends with.
    private static let trailer = Array("\nalmanac-calendar-snapshot 2\n".utf8)

    /// Everything but the texts, as JSON: each text's place (first layout: its length only, the
    /// texts one after another).
    private struct Header: Codable {
        struct Entry: Codable {
            var name: String
            var collection: String?
            /// Where the text starts (current layout; the first one has the texts back to back).
            var start: Int?
            var bytes: Int
        }
        var documents: [Entry]
        var warnings: [String]
    }

    /// The one document `utf8` (a file's or a feed's bytes) with the cache layout built around it:
    /// its bytes stay where they are and the header follows them, so the text, the snapshot and
    /// its cache entry are one buffer. `utf8` is best uniquely referenced (else it is copied once).
    init(name: String, utf8 buffer: consuming Data, skipping prefix: Int = 0) throws {
        let base = buffer.startIndex
        let length = buffer.count - prefix
        let header = try JSONEncoder().encode(
            Header(documents: [.init(name: name, collection: nil, start: prefix, bytes: length)], warnings: []))
        buffer.append(header)
        withUnsafeBytes(of: UInt64(header.count).littleEndian) { buffer.append(contentsOf: $0) }
        buffer.append(contentsOf: Self.trailer)
        let text = buffer[(base + prefix)..<(base + prefix + length)]
        self.init(documents: [Document(name: name, collection: nil, utf8: text)], warnings: [])
        stored = buffer
    }

    /// The texts, then the header as JSON, its length (8 bytes, little-endian) and the trailer
    /// line; read by slicing, so a cached feed is not copied either. A snapshot a provider built
    /// with ``init(name:utf8:skipping:)`` is already laid out so and returns its own buffer.
    func cacheBytes() throws -> Data {
        if let stored { return stored }
        var entries: [Header.Entry] = []
        var offset = 0
        for document in documents {
            entries.append(
                .init(name: document.name, collection: document.collection, start: offset, bytes: document.utf8.count))
            offset += document.utf8.count
        }
        let header = try JSONEncoder().encode(Header(documents: entries, warnings: warnings))
        var data = Data()
        data.reserveCapacity(offset + header.count + 8 + Self.trailer.count)
        for document in documents { data.append(document.utf8) }
        data.append(header)
        withUnsafeBytes(of: UInt64(header.count).littleEndian) { data.append(contentsOf: $0) }
        data.append(contentsOf: Self.trailer)
        return data
    }

    init(cacheBytes data: Data) throws {
        let unreadable = DecodingError.dataCorrupted(
            .init(codingPath: [], debugDescription: "cut-short calendar snapshot"))
        let base = data.startIndex
        let count = data.count
        if count >= Self.trailer.count + 8, data.suffix(Self.trailer.count).elementsEqual(Self.trailer) {
            let lengthAt = count - Self.trailer.count - 8
            guard let headerLength = Int(exactly: Self.number(in: data, at: base + lengthAt)), headerLength <= lengthAt
            else {
                throw unreadable
            }
            let headerAt = lengthAt - headerLength
            let header = try JSONDecoder().decode(Header.self, from: data[(base + headerAt)..<(base + lengthAt)])
            var documents: [Document] = []
            for entry in header.documents {
                guard let start = entry.start, start >= 0, entry.bytes >= 0, entry.bytes <= headerAt - start else {
                    throw unreadable
                }
                // A slice: the document's bytes stay in the entry's buffer.
                let utf8 = data[(base + start)..<(base + start + entry.bytes)]
                documents.append(Document(name: entry.name, collection: entry.collection, utf8: utf8))
            }
            self.init(documents: documents, warnings: header.warnings)
            stored = data
            return
        }
        guard data.starts(with: Self.magic) else {
            self = try JSONDecoder().decode(CalendarSnapshot.self, from: data)
            return
        }
        // The first layout: magic line, header length, header, the texts back to back.
        var offset = Self.magic.count
        guard count >= offset + 8 else { throw unreadable }
        let length = Self.number(in: data, at: base + offset)
        offset += 8
        guard let headerLength = Int(exactly: length), headerLength <= count - offset else {
            throw unreadable
        }
        let header = try JSONDecoder().decode(Header.self, from: data[(base + offset)..<(base + offset + headerLength)])
        offset += headerLength
        var documents: [Document] = []
        for entry in header.documents {
            guard entry.bytes >= 0, entry.bytes <= count - offset else { throw unreadable }
            let utf8 = data[(base + offset)..<(base + offset + entry.bytes)]
            documents.append(Document(name: entry.name, collection: entry.collection, utf8: utf8))
            offset += entry.bytes
        }
        guard offset == count else { throw unreadable }
        self.init(documents: documents, warnings: header.warnings)
    }

    /// The little-endian 64-bit number at `index` (8 bytes there, checked by the caller).
    private static func number(in data: Data, at index: Data.Index) -> UInt64 {
        (0..<8).reduce(0) { $0 | UInt64(data[index + $1]) << (8 * $1) }
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
                    .init(name: named(file), collection: nil, utf8: CalendarText.utf8(data)))
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
        var response: HTTPResponse
        do {
            response = try await environment.fetch(
                request, service: "ics-url",
                configured: query.source.configuredOrigins(trust: environment.egress.trust),
                credential: query.source.credentials?.bound(to: url))
        } catch let failure as ProviderFailure where failure.kind == .notFound {
            // Private feed URLs carry their secret in the path: name the host only.
            throw ProviderFailure(.notFound, "HTTP 404 from \(host) (feed not found)")
        }
        // Taken out of the response: held once, the body becomes the snapshot and its cache
        // entry in place (a 19 MB feed was also held as a String and copied for the cache).
        var body = Data()
        swap(&body, &response.body)
        guard body.count <= maxBytes else {
            throw ProviderFailure(
                .decoding,
                "feed from \(host) is \(CalendarLimits.size(body.count)), over the \(CalendarLimits.size(maxBytes)) limit"
            )
        }
        // Looked for in the bytes, before any text is made: an answer that is not iCalendar costs no copy.
        guard body.range(of: Data("BEGIN:VCALENDAR".utf8)) != nil else {
            throw ProviderFailure(.decoding, "\(host) did not return an iCalendar file")
        }
        let name = url.lastPathComponent.isEmpty || url.lastPathComponent == "/" ? host : url.lastPathComponent
        let snapshot: CalendarSnapshot
        if let start = CalendarText.plainUTF8Start(body) {
            snapshot = try CalendarSnapshot(name: name, utf8: consume body, skipping: start)
        } else {
            snapshot = try CalendarSnapshot(name: name, utf8: Data(CalendarText.decode(body).utf8))
        }
        // A transfer cut short must not pass for the whole calendar (its stale copy is better):
        // every iCalendar stream ends with END:VCALENDAR (names are case-insensitive).
        guard let text = snapshot.documents.first?.utf8, Self.endsCalendar(text) else {
            throw ProviderFailure(.decoding, "the feed from \(host) was cut short (no END:VCALENDAR)")
        }
        return snapshot
    }

    /// Whether `utf8`'s last characters, blanks aside, are END:VCALENDAR (in any case).
    static func endsCalendar(_ utf8: Data) -> Bool {
        // The last 64 characters, from at most 256 bytes (a cut character there is far before them).
        let tail = String(decoding: utf8.suffix(256), as: UTF8.self)
        return tail.suffix(64).uppercased().trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("END:VCALENDAR")
    }
}
