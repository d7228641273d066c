import AlmanacCore
import Foundation

/// A CalDAV object as read for a write: where it is, the ETag it had, and its text.
struct RemoteObject: Sendable {
    var url: URL
    var etag: String?
    var text: String
}

/// Writes to one configured CalDAV calendar. Every request is conditional, so another client's
/// change is never overwritten: a new object goes with `If-None-Match: *`, a change or a delete
/// with `If-Match` and the ETag the object was read with. A 412 is a conflict (nothing written,
/// run again); a write the server failed or did not answer is one line, exit 69, and a retry
/// finds what an earlier try wrote instead of writing it twice.
struct CalDAVWriter {
    let source: CalendarSource
    let root: URL
    let client: CalDAVClient

    init(source: CalendarSource, environment: ProviderEnvironment) throws {
        guard case .caldav(let url) = source.location else {
            throw AlmanacError.internal("calendar: \(source.name) is not a CalDAV calendar")
        }
        self.source = source
        root = url
        client = CalDAVClient(
            environment: environment, credential: source.credentials?.bound(to: url),
            configured: source.configuredOrigins(trust: environment.egress.trust))
    }

    var name: String { source.name }
    var host: String { root.host ?? "the server" }

    // MARK: Reading

    /// The calendar collections the configured URL leads to (discovery, as reading does).
    func collections() async throws -> [CalDAVCollection] {
        do {
            return try await client.discover(root)
        } catch {
            throw readFailure(error)
        }
    }

    /// The one collection new items go to.
    func addCollection() async throws -> CalDAVCollection {
        let found = try await collections()
        guard found.count == 1, let only = found.first else {
            let names = found.map { $0.displayName ?? $0.url.lastPathComponent }
            throw AlmanacError.usage(
                "calendar '\(name)': \(host) has \(found.count) calendars (\(names.joined(separator: ", "))); "
                    + "Almanac adds to one",
                suggestion: "point caldav in [calendars.\(name)] at the URL of the calendar to write to")
        }
        return only
    }

    /// The objects of `collection` a `calendar-query` with `filter` (inside the VCALENDAR
    /// comp-filter) returns, with their ETags and text, in one REPORT.
    func objects(in collection: CalDAVCollection, filter: String = "") async throws -> [RemoteObject] {
        let body = DAV.calendarQuery(filter: filter, withData: true)
        let listing: (responses: [DAV.Response], syncToken: String?)
        do {
            listing = try await client.multistatus("REPORT", collection.url, depth: "1", body: body)
        } catch {
            throw readFailure(error)
        }
        return listing.responses.compactMap { response in
            guard let url = client.resolve(response.href, against: collection.url), url.path != collection.url.path,
                let text = response.property("calendar-data", DAV.caldav)?.text, !text.isEmpty
            else { return nil }
            let etag = response.property("getetag")?.value
            return RemoteObject(url: url, etag: (etag?.isEmpty ?? true) ? nil : etag, text: text)
        }
    }

    /// Every object of every collection, for finding an item by WORDS.
    func allObjects() async throws -> [RemoteObject] {
        var all: [RemoteObject] = []
        for collection in try await collections() {
            all += try await objects(in: collection)
        }
        return all
    }

    /// The objects a retried add may have written already: events around `start`, or every task.
    func twinCandidates(in collection: CalDAVCollection, item: WriteItem) async throws -> [RemoteObject] {
        guard item.kind == .event else {
            return try await objects(in: collection, filter: #"<c:comp-filter name="VTODO"/>"#)
        }
        guard let start = item.start?.eventTime else { return [] }
        let instant: Date
        switch start {
        case .day(let day): instant = day.start(in: TimeText.utc)
        case .instant(let date): instant = date
        }
        // A day each side: all-day events are floating days.
        let from = CalDAVClient.utcStamp(instant.addingTimeInterval(-86_400))
        let to = CalDAVClient.utcStamp(instant.addingTimeInterval(86_400))
        return try await objects(
            in: collection,
            filter: #"<c:comp-filter name="VEVENT"><c:time-range start="\#(from)" end="\#(to)"/></c:comp-filter>"#)
    }

    /// The object at `url` now: its text and ETag; nil when there is none (404).
    func get(_ url: URL) async throws -> RemoteObject? {
        let response = try await exchange("GET", url, headers: ["Accept": "text/calendar"], body: nil)
        if response.status == 404 || response.status == 410 { return nil }
        guard (200..<300).contains(response.status) else { throw statusFailure(response.status, writing: false) }
        return RemoteObject(
            url: url, etag: response.header("etag"), text: CalendarText.decode(response.body))
    }

    // MARK: Writing

    /// The URL a new item with `uid` goes to: the collection and the UID, made path-safe.
    static func objectURL(uid: String, in collection: URL) -> URL {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._@")
        let safe = uid.unicodeScalars.allSatisfy { $0.isASCII && allowed.contains($0) } ? uid : StableHash.hex(uid)
        let base = collection.absoluteString.hasSuffix("/") ? collection : collection.appendingPathComponent("")
        return URL(string: safe + ".ics", relativeTo: base)?.absoluteURL ?? base.appendingPathComponent(safe + ".ics")
    }

    enum Outcome {
        /// Written; the ETag the server gave (or a follow-up read found).
        case written(etag: String?)
        /// A conditional request failed (412): someone else's change, or our own earlier try.
        case preconditionFailed
    }

    /// PUTs `text` to `url`, only if nothing is there (`ifMatch` nil) or only if the object still
    /// has the ETag `ifMatch`.
    func put(_ text: String, to url: URL, ifMatch: String?) async throws -> Outcome {
        var headers = ["Content-Type": "text/calendar; charset=utf-8"]
        if let ifMatch { headers["If-Match"] = ifMatch } else { headers["If-None-Match"] = "*" }
        let response = try await exchange("PUT", url, headers: headers, body: Data(text.utf8))
        if response.status == 412 { return .preconditionFailed }
        // A 404 for a change: the object is gone since it was read.
        if response.status == 404 || response.status == 410, ifMatch != nil { return .preconditionFailed }
        guard (200..<300).contains(response.status) else { throw statusFailure(response.status, writing: true) }
        if let etag = response.header("etag"), !etag.isEmpty, !etag.hasPrefix("W/") { return .written(etag: etag) }
        // No (strong) ETag in the answer: the object as stored says it.
        return .written(etag: (try? await get(url))?.flatMap(\.etag))
    }

    /// DELETEs `url` only if it still has the ETag `ifMatch`.
    func delete(_ url: URL, ifMatch: String) async throws -> Outcome {
        let response = try await exchange("DELETE", url, headers: ["If-Match": ifMatch], body: nil)
        if response.status == 412 || response.status == 404 || response.status == 410 { return .preconditionFailed }
        guard (200..<300).contains(response.status) else { throw statusFailure(response.status, writing: true) }
        return .written(etag: nil)
    }

    /// One request through the egress policy (credentials bound to the configured origin), any
    /// status an answer; transport failures become one line naming the calendar and host.
    private func exchange(
        _ method: String, _ url: URL, headers: [String: String], body: Data?
    ) async throws
        -> HTTPResponse
    {
        let environment = client.environment
        let request = HTTPRequest(method: method, url: url, headers: headers, body: body)
        let writing = method != "GET"
        do {
            let (response, _) = try await environment.egress.send(
                request, via: environment.transport, timeout: environment.timeout, service: "caldav",
                configured: client.configured, credential: client.credential)
            if response.status == 401 || response.status == 403 {
                throw statusFailure(response.status, writing: writing)
            }
            return response
        } catch let failure as ProviderFailure {
            throw transportFailure(failure, writing: writing)
        }
    }

    // MARK: Failures (one line each; never a password, a body or a URL's query)

    /// The conflict: the object is not as it was read.
    var conflict: AlmanacError {
        AlmanacError.unavailable(
            "calendar '\(name)': the item changed on the server since it was read; nothing was written — run again",
            suggestion: nil)
    }

    private func statusFailure(_ status: Int, writing: Bool) -> AlmanacError {
        switch status {
        case 401:
            return AlmanacError.configuration(
                "calendar '\(name)': \(host) refused the username or password (HTTP 401); nothing was written",
                suggestion: "check username and password_env in [calendars.\(name)]")
        case 403:
            return AlmanacError.configuration(
                "calendar '\(name)': \(host) does not let this account \(writing ? "write to" : "read") "
                    + "the calendar (HTTP 403); nothing was written",
                suggestion: "check the account's rights on the server, or remove writable = true")
        case 500..<600:
            return AlmanacError.unavailable(
                "calendar '\(name)': \(host) failed the \(writing ? "write" : "read") (HTTP \(status)); "
                    + "run again — a retry does not write the item twice",
                suggestion: nil)
        default:
            return AlmanacError.unavailable(
                "calendar '\(name)': \(host) refused the \(writing ? "write" : "read") (HTTP \(status)); "
                    + "nothing was written",
                suggestion: nil)
        }
    }

    private func transportFailure(_ failure: ProviderFailure, writing: Bool) -> any Error {
        if failure.kind == .timeout {
            return AlmanacError.unavailable(
                "calendar '\(name)': \(host) did not answer the \(writing ? "write" : "read") in time"
                    + (writing ? "; it may have been saved — run again, a retry does not write it twice" : ""),
                suggestion: nil)
        }
        if failure.kind == .network {
            return AlmanacError.unavailable(
                "calendar '\(name)': could not reach \(host) (\(failure.message)); run again", suggestion: nil)
        }
        return AlmanacError.unavailable("calendar '\(name)': \(failure.message); nothing was written", suggestion: nil)
    }

    /// A failure of the discovery or query before a write.
    private func readFailure(_ error: any Error) -> any Error {
        guard let failure = error as? ProviderFailure else { return error }
        if failure.kind == .unauthorized {
            return AlmanacError.configuration(
                "calendar '\(name)': \(failure.message); nothing was written",
                suggestion: "check username and password_env in [calendars.\(name)]")
        }
        if failure.kind == .timeout {
            return AlmanacError.unavailable(
                "calendar '\(name)': \(host) did not answer in time; nothing was written", suggestion: nil)
        }
        return AlmanacError.unavailable("calendar '\(name)': \(failure.message); nothing was written", suggestion: nil)
    }
}

extension RawCalendar {
    /// Whether any event or task is left (a CalDAV object without one is deleted, not written).
    var hasItems: Bool { components.contains { $0.kind == "VEVENT" || $0.kind == "VTODO" || $0.kind == "VJOURNAL" } }
}

extension CalendarWriteRun {
    /// Writes `plan` to a CalDAV calendar, conditionally; the answer carries the new ETag.
    func applyCalDAV(_ plan: WritePlan, to source: CalendarSource) async throws -> WrittenItem {
        let writer = try CalDAVWriter(source: source, environment: context.environment)
        var written: WrittenItem
        switch plan {
        case .add(let item): written = try await addCalDAV(item, plan: plan, writer: writer)
        case .change(let change): written = try await changeCalDAV(change, plan: plan, writer: writer)
        }
        written.provider = "caldav"
        if written.action != "unchanged" { await CalDAVWriteCount.bump(source, in: context.environment.state) }
        return written
    }

    private func addCalDAV(_ item: WriteItem, plan: WritePlan, writer: CalDAVWriter) async throws -> WrittenItem {
        let collection = try await writer.addCollection()
        // A retry of the same add (the same item written minutes ago, whose answer may have been
        // lost) finds it on the server instead of writing it twice.
        for object in try await writer.twinCandidates(in: collection, item: item) {
            guard var calendar = RawCalendar(object.text) else { continue }
            var twin = try change(&calendar, plan, calendar: writer.name)
            if twin.action == "unchanged" {
                twin.etag = object.etag
                return twin
            }
        }
        guard var calendar = RawCalendar(RawCalendar.empty) else { throw AlmanacError.internal("empty calendar") }
        var written = try change(&calendar, plan, calendar: writer.name)
        let url = CalDAVWriter.objectURL(uid: item.uid, in: collection.url)
        switch try await writer.put(calendar.text, to: url, ifMatch: nil) {
        case .written(let etag):
            written.etag = etag
            return written
        case .preconditionFailed:
            // Something has this URL: an earlier try of this very write (its answer lost, or the
            // same --request-id) is reported as written; anything else is not overwritten.
            if let existing = try await writer.get(url), var stored = RawCalendar(existing.text),
                let component = stored.components.first(where: { $0.uid == item.uid && !$0.isOverride }),
                component.kind == (item.kind == .event ? "VEVENT" : "VTODO"), component.summary == item.summary
            {
                var again = try change(&stored, plan, calendar: writer.name)
                again.etag = existing.etag
                return again
            }
            throw writer.conflict
        }
    }

    private func changeCalDAV(
        _ change: ItemChange, plan: WritePlan, writer: CalDAVWriter
    ) async throws
        -> WrittenItem
    {
        guard let listed = change.remote else {
            throw AlmanacError.internal("calendar: a CalDAV change without its object")
        }
        // The object's own bytes and ETag (a listing's XML would have normalised its line ends).
        guard var remote = try await writer.get(listed.url) else { throw writer.conflict }
        if remote.etag == nil {
            guard remote.text == listed.text, listed.etag != nil else {
                throw AlmanacError.unavailable(
                    "calendar '\(writer.name)': \(writer.host) gives no ETag for the item, and Almanac changes "
                        + "nothing it cannot change conditionally; nothing was written",
                    suggestion: nil)
            }
            remote.etag = listed.etag
        }
        guard var calendar = RawCalendar(remote.text), let etag = remote.etag else {
            throw AlmanacError.usage(
                "calendar '\(writer.name)': the item on \(writer.host) is not well-formed iCalendar text; left as it is",
                suggestion: "repair it in your calendar app")
        }
        let original = calendar.text
        var written = try self.change(&calendar, plan, calendar: writer.name)
        written.etag = etag
        if calendar.text == original { return written }
        let outcome =
            calendar.hasItems
            ? try await writer.put(calendar.text, to: remote.url, ifMatch: etag)
            : try await writer.delete(remote.url, ifMatch: etag)
        switch outcome {
        case .written(let newTag): written.etag = newTag
        case .preconditionFailed: throw writer.conflict
        }
        return written
    }
}

/// How many writes Almanac made to a CalDAV calendar, kept in the provider state store: part
/// of the read cache's key, so a read after a write asks the server instead of answering from
/// before it.
enum CalDAVWriteCount {
    static func load(_ source: CalendarSource, in store: any ProviderStateStore) async -> Int {
        guard let data = await store.value(for: CalendarKey.writeCount(source).text) else { return 0 }
        return Int(String(decoding: data, as: UTF8.self)) ?? 0
    }

    static func bump(_ source: CalendarSource, in store: any ProviderStateStore) async {
        let next = await load(source, in: store) &+ 1
        await store.setValue(Data(String(next).utf8), for: CalendarKey.writeCount(source).text)
    }
}
