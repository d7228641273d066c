import AlmanacCore
import Foundation

/// The search chain's second provider: the user's own SearXNG instance (or its predecessor
/// searx), `/search?q=...&format=json`. No key; no default URL (`ALMANAC_SEARXNG_URL` or
/// `url` under `[searxng]`).
struct SearXNGProvider: SearchProvider {
    /// SearXNG's name in messages.
    static let service = "SearXNG"
    /// How long a rate-limited instance is left alone when it does not say (its limiter sends no
    /// `Retry-After`; asking again at once only prolongs the block).
    static let defaultRateLimitPause: TimeInterval = 60
    /// Engines named in the attempt's detail, at most.
    static let namedEngines = 6

    /// `general` and `news` categories.
    let kinds: Set<SearchKind> = [.web, .news]

    /// A self-hosted instance costs nothing per request, so answers are kept shorter than
    /// Brave's: web 15 minutes, news 5. Still cached: the engines behind an instance throttle
    /// instances that ask too often.
    func cacheLifetime(_ kind: SearchKind) -> Duration { kind == .web ? .seconds(900) : .seconds(300) }

    /// `searxng`, after Brave.
    static let descriptor = ProviderDescriptor(
        name: "searxng", tool: "search", priority: 10,
        summary: "your own SearXNG instance (web, news)",
        endpoints: [ProviderEndpoint(env: "ALMANAC_SEARXNG_URL", config: ["searxng", "url"], defaultBase: nil)],
        // Both SearXNG and searx answer `/healthz` with "OK" and run no search for it.
        probe: HealthProbe(path: "/healthz"),
        decoders: [.search("searxng") { try SearXNGProvider.decode($0, for: $1, now: $2) }],
        unconfiguredReason: { SearXNGProvider.unconfiguredReason($0) },
        sampleCall: SampleCall(words: ["run", "search", "python"]))

    static let enables = "to your own SearXNG instance"
    static let keyPage: String? = nil

    /// Nil when an instance URL is configured, else why not.
    static func unconfiguredReason(_ settings: Settings) -> String? {
        descriptor.endpoints[0].configuredBase(settings) == nil
            ? "ALMANAC_SEARXNG_URL is not set (nor url under [searxng])" : nil
    }

    func fetch(_ query: SearchQuery, in environment: ProviderEnvironment) async throws -> SearchResults {
        let request = try Self.request(for: query, settings: environment.settings)
        let response = try await environment.transport.send(
            request, timeout: environment.timeout, service: Self.service)
        return try Self.decode(response, for: query, now: environment.now)
    }

    /// `GET {base}/search?q=...&format=json&categories=general|news&pageno=N[&language=..][&time_range=..]`.
    static func request(for query: SearchQuery, settings: Settings) throws -> HTTPRequest {
        let base = try descriptor.baseURL(settings)
        guard var components = URLComponents(url: base.appendingPathComponent("search"), resolvingAgainstBaseURL: false)
        else {
            throw AlmanacError.usage(
                "ALMANAC_SEARXNG_URL is not a usable URL", suggestion: "e.g. http://127.0.0.1:8888")
        }
        var items = [
            URLQueryItem(name: "q", value: query.text), URLQueryItem(name: "format", value: "json"),
            URLQueryItem(name: "categories", value: query.kind == .web ? "general" : "news"),
            URLQueryItem(name: "pageno", value: String(query.page)),
        ]
        if let language = language(for: query) { items.append(URLQueryItem(name: "language", value: language)) }
        // SearXNG's time_range takes the same words as --freshness (day, week, month).
        if let freshness = query.freshness { items.append(URLQueryItem(name: "time_range", value: freshness.rawValue)) }
        components.queryItems = items
        // URLComponents leaves `+` bare, which servers read as a space (`c++` became `c  `).
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        guard let url = components.url else {
            throw AlmanacError.internal("search: could not build the SearXNG request URL")
        }
        return HTTPRequest(method: "GET", url: url, headers: ["Accept": "application/json"])
    }

    /// SearXNG's `language` is a language or a locale (`de`, `de-DE`): `--language` alone, or
    /// with `--country` as its region. A country alone says nothing about the language: not sent.
    static func language(for query: SearchQuery) -> String? {
        guard let language = query.language else { return nil }
        if language.contains("-") { return language }
        guard let country = query.country, country != "ALL" else { return language }
        return "\(language)-\(country)"
    }

    /// Maps a response to results or a safe ``ProviderFailure`` (no body text).
    static func decode(_ response: HTTPResponse, for query: SearchQuery, now: Date) throws -> SearchResults {
        switch response.status {
        case 200..<300:
            break
        case 403:
            throw ProviderFailure(
                .unauthorized,
                "\(service): HTTP 403 to format=json; add json under search.formats in the instance's settings.yml")
        case 429:
            let resume = RetryAfter.date(from: response, now: now) ?? now.addingTimeInterval(defaultRateLimitPause)
            let seconds = max(1, Int(resume.timeIntervalSince(now).rounded(.up)))
            throw ProviderFailure(
                .rateLimited, "\(service): HTTP 429, rate limited for \(seconds) s", retryAfter: resume)
        default:
            throw ProviderFailure(.http, "\(service): HTTP \(response.status) from the instance")
        }
        let wire = try UpstreamJSON.decode(SearXNGWire.Response.self, from: response.body, service: service)
        let hits = wire.results.compactMap(hit)
        let answers = (wire.answers ?? []).compactMap(\.text).map(HTMLText.plain).filter { !$0.isEmpty }
        let infobox = wire.infoboxes?.lazy.compactMap(factLine).first
        let unresponsive = (wire.unresponsiveEngines ?? []).compactMap(engineTrouble)
        // `number_of_results` is often 0 beside real results: only the lists decide.
        if hits.isEmpty, answers.isEmpty, infobox == nil, !unresponsive.isEmpty {
            throw ProviderFailure(.http, "\(service): no engine answered (\(list(unresponsive)))")
        }
        let suggestions = (wire.suggestions ?? []).compactMap(\.text).map(HTMLText.plain).filter { !$0.isEmpty }
        return SearchResults(
            query: query.text, kind: query.kind, results: Array(hits.prefix(query.count)), answers: answers,
            infobox: infobox, suggestions: suggestions,
            notes: unresponsive.isEmpty ? nil : "unresponsive engines: \(list(unresponsive))")
    }

    private static func hit(_ result: SearXNGWire.Result) -> SearchHit? {
        guard let url = result.url?.trimmingCharacters(in: .whitespaces), !url.isEmpty else { return nil }
        let title = HTMLText.plain(result.title ?? "")
        let engines = (result.engines ?? []).compactMap(\.text).filter { !$0.isEmpty }
        let published = result.publishedDate?.text.map(HTMLText.plain).flatMap { $0.isEmpty ? nil : $0 }
        // An ISO date (SearXNG) is read like Brave's page_age; other text (searx's "5 hour(s) ago") is age text.
        let instant = published.flatMap { TimeText.parseInstant($0) ?? TimeText.parseInstant($0 + "Z") }
        return SearchHit(
            title: title.isEmpty ? url : title, url: url, snippet: HTMLText.plain(result.content ?? ""),
            age: instant == nil ? published : nil, pageAge: instant == nil ? nil : published,
            engines: engines.isEmpty ? (result.engine.map { [$0] }) : engines)
    }

    /// The infobox as one line: `Python: general-purpose programming language; Inception: ...;
    /// website https://www.python.org/`.
    static func factLine(_ box: SearXNGWire.Infobox) -> String? {
        let title = HTMLText.plain(box.infobox ?? "")
        guard !title.isEmpty else { return nil }
        var parts: [String] = []
        let content = HTMLText.plain(box.content ?? "")
        parts.append(content.isEmpty ? title : "\(title): \(content)")
        for attribute in (box.attributes ?? []).prefix(6) {
            let label = HTMLText.plain(attribute.label ?? "")
            let value = HTMLText.plain(attribute.value?.text ?? "")
            if !label.isEmpty, !value.isEmpty { parts.append("\(label): \(value)") }
        }
        if let site = (box.urls ?? []).first(where: { $0.official == true })?.url {
            parts.append("website \(site)")
        } else if let id = box.id, id.hasPrefix("http") {
            parts.append("source \(id)")
        }
        return parts.joined(separator: "; ")
    }

    /// `google (timeout)` from `["google", "timeout"]`.
    private static func engineTrouble(_ pair: [SearXNGWire.Lossy]) -> String? {
        guard let name = pair.first?.text.map(HTMLText.plain), !name.isEmpty else { return nil }
        let reason = pair.dropFirst().compactMap(\.text).map(HTMLText.plain).filter { !$0.isEmpty }.joined(
            separator: ", ")
        return reason.isEmpty ? name : "\(name) (\(reason))"
    }

    private static func list(_ troubles: [String]) -> String {
        let sorted = troubles.sorted()
        let named = sorted.prefix(namedEngines).map { UntrustedText.clean($0, limit: 80) }.joined(separator: ", ")
        return sorted.count > namedEngines ? "\(named) and \(sorted.count - namedEngines) more" : named
    }
}
