import AlmanacCore
import Foundation

/// What the read tool asks its providers for.
struct ReadQuery: Sendable, Hashable {
    /// The page.
    var url: URL
    /// Whether links are kept as `[text](url)`.
    var links: Bool
}

/// A page as a provider returns it: where it came from and its extracted text. Cached whole
/// (the coordinator's cache holds this, never the raw bytes).
struct FetchedPage: Sendable, Codable, Hashable {
    /// The URL asked for.
    var requested: String
    /// The URL the text came from after redirects (the site's, or the archive's snapshot).
    var final: String
    /// For an archived copy: when the archive took it (ISO 8601 UTC).
    var archivedAt: String?
    /// The extracted page.
    var page: ReadPage
}

/// The site itself: robots.txt honoured (cached per host), conditional requests with the
/// validators of the last answer (kept in the provider-state store with its extracted text).
struct SiteProvider: DescribedProvider {
    static let service = "site"

    static let descriptor = ProviderDescriptor(
        name: "site", tool: "read", priority: 0,
        summary: "the page itself (robots.txt honoured, conditional requests)",
        terms: UpstreamTerms(conditionalRequests: true),
        decoders: [
            UpstreamDecoder(
                name: "read-html",
                seeds: [
                    "Fixtures/read/pages/aclu/*.html", "Fixtures/read/pages/hidden-nodes/*.html",
                    "Fixtures/read/pages/wikipedia/*.html",
                ]
            ) { data in
                _ = try? PageExtractor.extract(
                    data, contentType: "text/html", url: URL(string: "https://example.org/a/b"))
                _ = try? PageExtractor.extract(
                    data, contentType: "text/html; charset=windows-1252", url: nil, links: true)
            }
        ])

    /// What is kept between runs for one URL: validators and the text they validate.
    struct Validated: Codable {
        var etag: String?
        var lastModified: String?
        var page: FetchedPage
    }

    func fetch(_ query: ReadQuery, in environment: ProviderEnvironment) async throws -> FetchedPage {
        let service = Self.service
        let rules = try await RobotsCache.rules(for: query.url, service: service, in: environment)
        let path = Self.pathAndQuery(query.url)
        guard rules.allows(path) else {
            throw ProviderFailure(
                .unauthorized,
                rules.disallowAll
                    ? "\(service): robots.txt of \(query.url.host ?? "the site") could not be read (server error); not fetching"
                    : "\(service): robots.txt of \(query.url.host ?? "the site") disallows \(Self.shortPath(path)) for \(RobotsRules.agentToken)"
            )
        }
        let key = "read.page|\(query.links ? "links" : "plain")|\(query.url.absoluteString)"
        let stored = await environment.state.value(for: key).flatMap {
            try? JSONDecoder().decode(Validated.self, from: $0)
        }
        var headers = ["Accept": "text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.8,*/*;q=0.5"]
        if let etag = stored?.etag { headers["If-None-Match"] = etag }
        if let modified = stored?.lastModified { headers["If-Modified-Since"] = modified }
        let (response, final) = try await PageFetch.fetchPage(
            query.url, headers: headers, service: service, in: environment)
        if response.status == 304, let stored { return stored.page }
        try Self.check(response, service: service, now: environment.now)
        let page = try Self.extract(response, url: final, links: query.links, service: service)
        let fetched = FetchedPage(
            requested: query.url.absoluteString, final: final.absoluteString, archivedAt: nil, page: page)
        let etag = response.header("etag")
        let modified = response.header("last-modified")
        if etag != nil || modified != nil,
            let data = try? JSONEncoder().encode(Validated(etag: etag, lastModified: modified, page: fetched))
        {
            await environment.state.setValue(data, for: key)
        }
        return fetched
    }

    /// 2xx, or a one-line failure.
    static func check(_ response: HTTPResponse, service: String, now: Date) throws {
        switch response.status {
        case 200..<300: return
        case 401, 403: throw ProviderFailure(.unauthorized, "\(service): HTTP \(response.status), access refused")
        case 404, 410: throw ProviderFailure(.notFound, "\(service): HTTP \(response.status), no such page")
        case 429:
            throw ProviderFailure(
                .rateLimited, "\(service): HTTP 429, rate limited",
                retryAfter: RetryAfter.date(from: response, now: now))
        default: throw ProviderFailure(.http, "\(service): HTTP \(response.status)")
        }
    }

    /// The extracted page; an unreadable type (a PDF) fails this provider in one line.
    static func extract(_ response: HTTPResponse, url: URL, links: Bool, service: String) throws -> ReadPage {
        do {
            return try PageExtractor.extract(
                response.body, contentType: response.header("content-type"), url: url, links: links)
        } catch let unreadable as UnreadableContent {
            throw ProviderFailure(.decoding, "\(service): \(unreadable.message)")
        } catch let failure as HTMLParseFailure {
            throw ProviderFailure(.decoding, "\(service): \(failure.reason)")
        }
    }

    static func pathAndQuery(_ url: URL) -> String {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "/" }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return components.percentEncodedQuery.map { "\(path)?\($0)" } ?? path
    }

    /// The path for a message: without the query (it may hold tokens), at most 80 characters.
    static func shortPath(_ path: String) -> String {
        let bare = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
        return bare.count > 80 ? String(bare.prefix(79)) + "…" : bare
    }
}

/// The Internet Archive's latest snapshot of the page: the availability API
/// (`/wayback/available?url=...`, documented at https://archive.org/help/wayback_api.php), then
/// the snapshot's original bytes (`/web/<timestamp>id_/<url>`, without the archive's toolbar).
struct ArchiveProvider: DescribedProvider {
    static let service = "Internet Archive"

    static let descriptor = ProviderDescriptor(
        name: "archive", tool: "read", priority: 10,
        summary: "the Internet Archive's latest snapshot (Wayback availability API)",
        endpoints: [
            ProviderEndpoint(env: "ALMANAC_ARCHIVE_URL", defaultBase: "https://archive.org"),
            ProviderEndpoint(env: "ALMANAC_WAYBACK_URL", defaultBase: "https://web.archive.org"),
        ],
        probe: HealthProbe(path: "/wayback/available?url=example.com", essential: false),
        decoders: [
            UpstreamDecoder(name: "archive-available", seeds: ["Fixtures/read/archive/*.response.json"]) { data in
                _ = try? ArchiveProvider.snapshot(from: HTTPResponse(status: 200, body: data))
            }
        ],
        // The recorded page (Fixtures/read/archive): the fault matrix serves its snapshot. `--archive`
        // skips the site, whose host is the page's own and so never the loopback server's.
        sampleCall: SampleCall(words: [
            "run", "read",
            "https://www.aclu.org/blog/privacy-technology/internet-privacy/facebook-tracking-me-even-though-im-not-facebook",
            "--archive",
        ]))

    /// The documented answer: `{"archived_snapshots":{"closest":{"available":true,"url":...,
    /// "timestamp":"20130919044612","status":"200"}}}`, or `{"archived_snapshots":{}}`.
    struct Availability: Decodable {
        struct Snapshots: Decodable {
            var closest: Closest?
        }
        struct Closest: Decodable {
            var available: Bool?
            var url: String?
            var timestamp: String?
            var status: String?
        }
        var archivedSnapshots: Snapshots?

        enum CodingKeys: String, CodingKey {
            case archivedSnapshots = "archived_snapshots"
        }
    }

    func fetch(_ query: ReadQuery, in environment: ProviderEnvironment) async throws -> FetchedPage {
        let service = Self.service
        let base = try Self.descriptor.baseURL(environment.settings)
        guard
            var components = URLComponents(
                url: base.appendingPathComponent("wayback/available"), resolvingAgainstBaseURL: false)
        else {
            throw AlmanacError.usage("ALMANAC_ARCHIVE_URL is not a usable URL", suggestion: "e.g. https://archive.org")
        }
        components.queryItems = [URLQueryItem(name: "url", value: query.url.absoluteString)]
        guard let lookup = components.url else {
            throw AlmanacError.internal("read: could not build the archive lookup URL")
        }
        // Both base URLs are the operator's (ALMANAC_ARCHIVE_URL, ALMANAC_WAYBACK_URL).
        let configured = Set(
            [base, try Self.descriptor.baseURL(environment.settings, endpoint: 1)].compactMap { Origin($0) })
        let (answer, _) = try await PageFetch.fetchPage(
            lookup, headers: ["Accept": "application/json"], service: service, configured: configured, in: environment)
        try SiteProvider.check(answer, service: service, now: environment.now)
        let (timestamp, _) = try Self.snapshot(from: answer)
        let wayback = try Self.descriptor.baseURL(environment.settings, endpoint: 1)
        let snapshot = try Self.snapshotURL(wayback: wayback, timestamp: timestamp, page: query.url)
        let (response, final) = try await PageFetch.fetchPage(
            snapshot, service: service, configured: configured, in: environment)
        try SiteProvider.check(response, service: service, now: environment.now)
        let page = try SiteProvider.extract(response, url: query.url, links: query.links, service: service)
        return FetchedPage(
            requested: query.url.absoluteString, final: final.absoluteString, archivedAt: Self.isoTimestamp(timestamp),
            page: page)
    }

    /// The closest snapshot's 14-digit timestamp and URL, or a one-line failure.
    static func snapshot(from response: HTTPResponse) throws -> (timestamp: String, url: String) {
        let answer = try UpstreamJSON.decode(Availability.self, from: response.body, service: service)
        guard let closest = answer.archivedSnapshots?.closest, closest.available != false, let url = closest.url,
            let timestamp = closest.timestamp, timestamp.count == 14, timestamp.allSatisfy(\.isASCII),
            timestamp.allSatisfy(\.isNumber)
        else {
            throw ProviderFailure(.notFound, "\(service): no archived copy of the page")
        }
        return (timestamp, url)
    }

    /// `20130919044612` as `2013-09-19T04:46:12Z`.
    static func isoTimestamp(_ raw: String) -> String? {
        let digits = Array(raw)
        guard digits.count == 14 else { return nil }
        func part(_ range: Range<Int>) -> String { String(digits[range]) }
        return "\(part(0..<4))-\(part(4..<6))-\(part(6..<8))T\(part(8..<10)):\(part(10..<12)):\(part(12..<14))Z"
    }
}
