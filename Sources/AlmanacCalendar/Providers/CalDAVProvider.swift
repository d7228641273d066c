import AlmanacCore
import Foundation

/// CalDAV: discovery, then per calendar an incremental mirror kept in ``ProviderStateStore``.
///
/// Discovery follows RFC 6764/4791: `/.well-known/caldav` (when given only a host) →
/// `current-user-principal` → `calendar-home-set` → the calendar collections (PROPFIND Depth 1).
/// A collection that reports a `sync-token` is mirrored with `sync-collection` REPORTs (RFC 6578):
/// an unchanged token costs no further request, otherwise only changed objects are fetched with
/// `calendar-multiget`. A server without sync support is asked with a `calendar-query` REPORT
/// limited to the window (ETags only), and again only changed objects are fetched.
struct CalDAVProvider: Provider {
    // Name and priority come from its descriptor (CalendarProviderDescriptors.swift).
    /// When false, sync-collection is not used even if offered (tests of the calendar-query path).
    var useSync = true

    func supports(_ query: CalendarFetch) -> Bool {
        if case .caldav = query.source.location { return true }
        return false
    }

    func fetch(_ query: CalendarFetch, in environment: ProviderEnvironment) async throws -> CalendarSnapshot {
        guard case .caldav(let url) = query.source.location else {
            throw ProviderFailure(.unconfigured, "CalDAV: not a CalDAV source")
        }
        let client = CalDAVClient(
            environment: environment, credential: query.source.credentials?.bound(to: url),
            configured: query.source.configuredOrigins(trust: environment.egress.trust))
        let username = query.source.credentials?.username
        let collections = try await client.discover(url)
        await CalDAVIndex(collections.map { .init(url: $0.url.absoluteString, displayName: $0.displayName) })
            .save(CalendarKey.calDAVIndex(url, username: username).text, to: environment.state)
        var snapshot = CalendarSnapshot(documents: [], warnings: [])
        for collection in collections {
            let key = CalendarKey.calDAVCollection(collection.url.absoluteString, username: username).text
            var state = await CalDAVState.load(key, from: environment.state)
            let objects: [CalDAVState.Object]
            if useSync, let token = collection.syncToken {
                objects = try await client.sync(collection, token: token, state: &state)
                state.mirrorsCollection = true
            } else {
                objects = try await client.query(
                    collection, window: query.window, tasks: query.wantsTasks, state: &state)
                state.mirrorsCollection = false
            }
            state.syncedAt = environment.now
            await state.save(key, to: environment.state)
            for object in objects {
                snapshot.documents.append(
                    .init(name: object.name, collection: collection.displayName, text: object.data))
            }
        }
        return snapshot
    }

    /// When the server cannot be reached: every object mirrored for this source's calendars, as of
    /// the oldest of their syncs, so any window can be answered (labelled stale by the Coordinator).
    func staleCopy(_ query: CalendarFetch, in environment: ProviderEnvironment) async -> StaleCopy<CalendarSnapshot>? {
        guard case .caldav(let url) = query.source.location else { return nil }
        let username = query.source.credentials?.username
        guard
            let index = await CalDAVIndex.load(
                CalendarKey.calDAVIndex(url, username: username).text, from: environment.state)
        else { return nil }
        var snapshot = CalendarSnapshot(documents: [], warnings: [])
        var oldest: Date?
        for collection in index.collections {
            let state = await CalDAVState.load(
                CalendarKey.calDAVCollection(collection.url, username: username).text, from: environment.state)
            guard let syncedAt = state.syncedAt else { continue }
            oldest = min(oldest ?? syncedAt, syncedAt)
            if state.mirrorsCollection != true {
                snapshot.warnings.append(
                    "calendar '\(collection.displayName ?? collection.url)': the server has no sync, so the saved copy holds only events of windows asked before"
                )
            }
            for object in state.objects.values.sorted(by: { $0.name < $1.name }) {
                snapshot.documents.append(
                    .init(name: object.name, collection: collection.displayName, text: object.data))
            }
        }
        guard let oldest else { return nil }
        return StaleCopy(value: snapshot, fetchedAt: oldest)
    }
}

/// The calendars discovery found for one source (URL and user), so a later run that cannot reach
/// the server still knows which mirrors are its own.
struct CalDAVIndex: StoredCalDAVValue, Sendable {
    struct Collection: Codable, Sendable {
        var url: String
        var displayName: String?
    }

    var collections: [Collection]

    init(_ collections: [Collection]) { self.collections = collections }

    static func load(_ key: String, from store: any ProviderStateStore) async -> CalDAVIndex? {
        await stored(key, in: store)
    }
}

/// A value kept as JSON in the provider state store between runs (CalDAV's index and mirrors).
protocol StoredCalDAVValue: Codable {}

extension StoredCalDAVValue {
    /// The value under `key`, or nil when there is none or it no longer decodes.
    static func stored(_ key: String, in store: any ProviderStateStore) async -> Self? {
        guard let data = await store.value(for: key) else { return nil }
        return try? JSONDecoder().decode(Self.self, from: data)
    }

    func save(_ key: String, to store: any ProviderStateStore) async {
        await store.setValue(try? JSONEncoder().encode(self), for: key)
    }
}

/// What is kept between runs for one collection: the sync token and every object with its ETag.
/// Holds calendar data, never credentials.
struct CalDAVState: StoredCalDAVValue, Sendable {
    struct Object: Codable, Sendable {
        var etag: String
        var data: String
        /// The href's last path component, for messages.
        var name: String
    }

    var syncToken: String?
    var objects: [String: Object] = [:]
    /// When the server last answered for this collection.
    var syncedAt: Date?
    /// True when `objects` is the whole collection (sync-collection), false when it is only what
    /// calendar-query returned for the windows asked so far.
    var mirrorsCollection: Bool?

    static func load(_ key: String, from store: any ProviderStateStore) async -> CalDAVState {
        await stored(key, in: store) ?? CalDAVState()
    }
}

/// A calendar collection found by discovery.
struct CalDAVCollection: Sendable {
    var url: URL
    var displayName: String?
    var syncToken: String?
}

/// The CalDAV requests, over the HTTP seam. Credentials go in the `Authorization` header only.
struct CalDAVClient {
    /// The transport, deadline and egress policy every request goes through.
    let environment: ProviderEnvironment
    /// Bound to the source's origin: hosts its answers name never get it.
    let credential: BoundCredential?
    /// The source's own origin, when the operator named it.
    let configured: Set<Origin>
    /// Objects fetched per calendar-multiget.
    static let batch = 100

    // MARK: Requests

    func send(_ method: String, _ url: URL, depth: String?, body: String?) async throws -> HTTPResponse {
        var headers = ["Content-Type": "application/xml; charset=utf-8", "Accept": "application/xml, text/xml"]
        if let depth { headers["Depth"] = depth }
        let request = HTTPRequest(method: method, url: url, headers: headers, body: body.map { Data($0.utf8) })
        let host = url.host ?? "server"
        do {
            return try await environment.fetch(
                request, service: "caldav", configured: configured, credential: credential)
        } catch let failure as ProviderFailure {
            // `Kind` is a struct: its static members match as values (`~=`), hence the `default`.
            switch failure.kind {
            case .unauthorized:
                let message: String
                if let credential, credential.origin != Origin(url) {
                    // Credentials never follow a redirect or a link to another server.
                    message =
                        "CalDAV: \(host) wants a login, but the credentials are for \(credential.origin.host) only; configure \(host)'s URL itself"
                } else if credential == nil {
                    message =
                        "CalDAV: \(host) wants a login (HTTP 401); set username and password_env in [calendars.NAME] or ALMANAC_CALDAV_USER/ALMANAC_CALDAV_PASSWORD"
                } else if failure.message.contains("not sending credentials") {
                    message = failure.message
                } else {
                    message = "CalDAV: \(host) refused the username or password (HTTP 401/403)"
                }
                throw ProviderFailure(.unauthorized, message)
            case .notFound:
                throw ProviderFailure(.notFound, "CalDAV: \(host) has nothing at \(url.path) (HTTP 404)")
            case .timeout:
                throw ProviderFailure(.timeout, "CalDAV: \(host) did not answer in time")
            default:
                throw failure
            }
        }
    }

    func multistatus(
        _ method: String, _ url: URL, depth: String?, body: String
    ) async throws -> (
        responses: [DAV.Response], syncToken: String?
    ) {
        let response = try await send(method, url, depth: depth, body: body)
        let multistatus: (responses: [DAV.Response], syncToken: String?)?
        do {
            multistatus = try Self.readMultistatus(response.body)
        } catch let unavailable as XMLUnavailable {
            throw ProviderFailure(
                .unconfigured, "CalDAV: libxml2 could not be opened: \(unavailable.reason); install libxml2")
        } catch let malformed as XMLMalformed {
            throw ProviderFailure(
                .decoding,
                "CalDAV: unreadable XML from \(url.host ?? "server") for \(method) \(url.path): \(malformed.reason)")
        }
        guard let parsed = multistatus else {
            throw ProviderFailure(
                .decoding, "CalDAV: \(url.host ?? "server") sent no WebDAV multistatus for \(method) \(url.path)")
        }
        return parsed
    }

    /// The multistatus in `body`. A server that stored a calendar's windows-1252 bytes as they
    /// came sends them inside its UTF-8 XML, which libxml2 refuses whole: such a body is read
    /// again as calendar bytes are (``CalendarText``), so one event's apostrophe does not cost
    /// the collection.
    static func readMultistatus(_ body: Data) throws -> (responses: [DAV.Response], syncToken: String?)? {
        do {
            return try DAV.multistatus(body)
        } catch let malformed as XMLMalformed {
            guard String(validating: body, as: UTF8.self) == nil else { throw malformed }
            return try DAV.multistatus(Data(CalendarText.decode(body).utf8))
        }
    }

    // MARK: Discovery

    static let propfindBody = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/">
          <d:prop><d:resourcetype/><d:displayname/><d:current-user-principal/><c:calendar-home-set/><d:sync-token/><cs:getctag/><c:supported-calendar-component-set/></d:prop>
        </d:propfind>
        """

    /// The calendar collections reachable from `url` (a collection, a principal, a home, or a host).
    func discover(_ url: URL) async throws -> [CalDAVCollection] {
        var start = url
        if url.path.isEmpty || url.path == "/" {
            // RFC 6764: a bare host is asked at /.well-known/caldav (servers redirect to their root).
            start = url.appendingPathComponent(".well-known/caldav")
        }
        var response: DAV.Response
        do {
            response = try await propfind(start)
        } catch let failure as ProviderFailure where failure.kind == .notFound && start != url {
            response = try await propfind(url)
            start = url
        }
        if isCalendar(response) {
            return [collection(response, base: start)]
        }
        var home = response.property("calendar-home-set", DAV.caldav)?.child("href")?.value
        if home == nil, let principal = response.property("current-user-principal")?.child("href")?.value,
            let principalURL = resolve(principal, against: start)
        {
            home = try await propfind(principalURL).property("calendar-home-set", DAV.caldav)?.child("href")?.value
        }
        let homeURL = home.flatMap { resolve($0, against: start) } ?? start
        let listing = try await multistatus("PROPFIND", homeURL, depth: "1", body: Self.propfindBody)
        let calendars = listing.responses.filter(isCalendar).map { collection($0, base: homeURL) }
        guard !calendars.isEmpty else {
            throw ProviderFailure(.notFound, "CalDAV: no calendars found on \(url.host ?? "server")")
        }
        return calendars.sorted { $0.url.absoluteString < $1.url.absoluteString }
    }

    private func propfind(_ url: URL) async throws -> DAV.Response {
        let result = try await multistatus("PROPFIND", url, depth: "0", body: Self.propfindBody)
        guard let first = result.responses.first else {
            throw ProviderFailure(.decoding, "CalDAV: empty PROPFIND answer from \(url.host ?? "server")")
        }
        return first
    }

    private func isCalendar(_ response: DAV.Response) -> Bool {
        response.property("resourcetype")?.child("calendar", DAV.caldav) != nil
    }

    private func collection(_ response: DAV.Response, base: URL) -> CalDAVCollection {
        let url = resolve(response.href, against: base) ?? base
        let name = response.property("displayname")?.value
        let token = response.property("sync-token")?.value
        return CalDAVCollection(
            url: url, displayName: (name?.isEmpty ?? true) ? url.lastPathComponent : name,
            syncToken: (token?.isEmpty ?? true) ? nil : token)
    }

    func resolve(_ href: String, against base: URL) -> URL? {
        URL(string: href, relativeTo: base)?.absoluteURL
    }

    // MARK: sync-collection (RFC 6578)

    /// Brings `state` up to date with `collection` and returns every object.
    func sync(
        _ collection: CalDAVCollection, token: String, state: inout CalDAVState
    ) async throws
        -> [CalDAVState.Object]
    {
        if state.syncToken == token { return Array(state.objects.values).sorted { $0.name < $1.name } }
        let result: (responses: [DAV.Response], syncToken: String?)
        do {
            result = try await syncReport(collection.url, token: state.syncToken)
        } catch let failure as ProviderFailure
            where state.syncToken != nil && failure.kind != .unauthorized
            && failure.kind != .timeout
        {
            // An expired or unknown token (403/409 valid-sync-token): start over.
            state = CalDAVState()
            result = try await syncReport(collection.url, token: nil)
        }
        var wanted: [String] = []
        for response in result.responses {
            guard let url = resolve(response.href, against: collection.url) else { continue }
            let key = url.path
            if response.status == 404 {
                state.objects[key] = nil
                continue
            }
            if url.path == collection.url.path { continue }
            let etag = response.property("getetag")?.value
            if let etag, state.objects[key]?.etag == etag { continue }
            wanted.append(response.href)
        }
        try await fetchObjects(wanted, from: collection.url, into: &state)
        state.syncToken = result.syncToken ?? token
        return Array(state.objects.values).sorted { $0.name < $1.name }
    }

    private func syncReport(_ url: URL, token: String?) async throws -> (responses: [DAV.Response], syncToken: String?)
    {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:sync-collection xmlns:d="DAV:"><d:sync-token>\(DAV.escape(token ?? ""))</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>
            """
        return try await multistatus("REPORT", url, depth: "0", body: body)
    }

    // MARK: calendar-query (RFC 4791 7.8) with time-range

    /// The objects overlapping `window` (or every VTODO), fetching only those whose ETag changed.
    func query(
        _ collection: CalDAVCollection, window: ExpansionWindow, tasks: Bool, state: inout CalDAVState
    )
        async throws -> [CalDAVState.Object]
    {
        let filter: String
        if tasks {
            filter = #"<c:comp-filter name="VTODO"/>"#
        } else {
            // Widened by a day each side: all-day events are floating days.
            let start = Self.utcStamp(window.start.addingTimeInterval(-86_400))
            let end = Self.utcStamp(window.end.addingTimeInterval(86_400))
            filter = #"<c:comp-filter name="VEVENT"><c:time-range start="\#(start)" end="\#(end)"/></c:comp-filter>"#
        }
        let body = DAV.calendarQuery(filter: filter, withData: false)
        let listing = try await multistatus("REPORT", collection.url, depth: "1", body: body)
        var keys: [String] = []
        var wanted: [String] = []
        for response in listing.responses {
            guard let url = resolve(response.href, against: collection.url), url.path != collection.url.path else {
                continue
            }
            keys.append(url.path)
            let etag = response.property("getetag")?.value
            if let etag, state.objects[url.path]?.etag == etag { continue }
            wanted.append(response.href)
        }
        try await fetchObjects(wanted, from: collection.url, into: &state)
        return keys.compactMap { state.objects[$0] }.sorted { $0.name < $1.name }
    }

    static func utcStamp(_ date: Date) -> String {
        TimeText.isoUTC(date).replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
    }

    // MARK: calendar-multiget

    private func fetchObjects(_ hrefs: [String], from collection: URL, into state: inout CalDAVState) async throws {
        var index = 0
        while index < hrefs.count {
            let batch = hrefs[index..<min(index + Self.batch, hrefs.count)]
            index += Self.batch
            let list = batch.map { "<d:href>\(DAV.escape($0))</d:href>" }.joined()
            let body = """
                <?xml version="1.0" encoding="utf-8"?>
                <c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop>\(list)</c:calendar-multiget>
                """
            let result = try await multistatus("REPORT", collection, depth: "1", body: body)
            for response in result.responses {
                guard let url = resolve(response.href, against: collection),
                    let data = response.property("calendar-data", DAV.caldav)?.text, !data.isEmpty
                else { continue }
                let etag = response.property("getetag")?.value ?? ""
                // A server may hold text that went through a Latin-1 decoder (C1 controls).
                state.objects[url.path] = .init(
                    etag: etag, data: CalendarText.repairingC1(data),
                    name: url.lastPathComponent.removingPercentEncoding ?? url.lastPathComponent
                )
            }
        }
    }
}
