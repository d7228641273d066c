import AlmanacCore
import Foundation

/// Speaks the Brave Search API (web and news) through the HTTP seam, for the search chain's
/// first provider (which other tools' web fallbacks ask too).
///
/// The subscription token travels only in the `X-Subscription-Token` request header; it is
/// never put in URLs, messages, cached values or logs.
struct BraveClient: Sendable {
    /// Brave's name in messages.
    static let service = "Brave"
    /// Longest rate-limit wait that is retried in-process (Brave's free tier is 1 request/s).
    static let longestRetryWait: Duration = .seconds(1)

    /// Waits before the one rate-limit retry (injected by tests so they do not sleep).
    var sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }

    /// Where the key comes from: `BRAVE_API_KEY`, else `api_key` under `[brave]` in config.toml.
    static func apiKey(_ settings: Settings) -> String? {
        guard
            let key = settings.value(env: "BRAVE_API_KEY", config: "brave", "api_key")?
                .trimmingCharacters(in: .whitespacesAndNewlines), !key.isEmpty
        else { return nil }
        return key
    }

    /// In replay mode (`ALMANAC_REPLAY`) nothing leaves the machine, so no key is needed.
    static func isReplay(_ settings: Settings) -> Bool {
        settings.env("ALMANAC_REPLAY") != nil
    }

    /// Nil when a search can be made, else a one-line reason naming both ways to set a key.
    static func unconfiguredReason(_ settings: Settings) -> String? {
        apiKey(settings) != nil || isReplay(settings) ? nil : missingKeyMessage
    }

    static let missingKeyMessage = "no Brave Search API key"

    /// The request for `query` (without the key header when `key` is nil).
    static func request(for query: SearchQuery, key: String?, settings: Settings) throws -> HTTPRequest {
        let base = try BraveSearchProvider.descriptor.baseURL(settings)
        let path = query.kind == .web ? "/res/v1/web/search" : "/res/v1/news/search"
        guard var components = URLComponents(url: base.appendingPathComponent(path), resolvingAgainstBaseURL: false)
        else {
            throw AlmanacError.usage(
                "ALMANAC_BRAVE_URL is not a usable URL", suggestion: "e.g. https://api.search.brave.com")
        }
        var items = [
            URLQueryItem(name: "q", value: query.text), URLQueryItem(name: "count", value: String(query.count)),
        ]
        if let freshness = query.freshness {
            items.append(URLQueryItem(name: "freshness", value: freshness.braveValue))
        }
        if let country = query.country { items.append(URLQueryItem(name: "country", value: country)) }
        // `offset` counts pages of `count` results (0-9); page 1 sends none, as before.
        if query.page > 1 { items.append(URLQueryItem(name: "offset", value: String(query.page - 1))) }
        // Brave's `search_lang` takes lower-case codes ("en", "pt-br", "zh-hans").
        if let language = query.language {
            items.append(URLQueryItem(name: "search_lang", value: language.lowercased()))
        }
        components.queryItems = items
        // URLComponents leaves `+` bare, which servers read as a space (`c++` became `c  `).
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        guard let url = components.url else {
            throw AlmanacError.internal("search: could not build the Brave request URL")
        }
        var headers = ["Accept": "application/json"]
        if let key { headers["X-Subscription-Token"] = key }
        return HTTPRequest(method: "GET", url: url, headers: headers)
    }

    /// Runs `query`, retrying once after a short rate-limit wait that fits the deadline.
    func search(_ query: SearchQuery, in environment: ProviderEnvironment) async throws -> SearchResults {
        let key = Self.apiKey(environment.settings)
        if key == nil, !Self.isReplay(environment.settings) {
            throw ProviderFailure(.unconfigured, "\(Self.service): \(Self.missingKeyMessage) (set BRAVE_API_KEY)")
        }
        // The key travels through the egress policy, bound to the configured Brave origin.
        let request = try Self.request(for: query, key: nil, settings: environment.settings)
        let credential = key.flatMap {
            BoundCredential(
                header: "X-Subscription-Token", value: $0, for: request.url, timing: .always,
                allowsPlainHTTP: environment.settings.env("ALMANAC_ALLOW_INSECURE_AUTH") == "1")
        }
        let clock = ContinuousClock()
        let started = clock.now
        var response = try await send(request, credential: credential, in: environment)
        if response.status == 429, let resume = BraveRateLimit.resume(from: response, now: environment.now) {
            let wait = Duration.milliseconds(Int64(max(0, resume.timeIntervalSince(environment.now)) * 1000))
            let remaining = environment.timeout - (clock.now - started)
            // One retry only when the wait is short and leaves room for the retry itself.
            if wait <= Self.longestRetryWait, wait * 2 < remaining {
                try await sleep(wait)
                response = try await send(request, credential: credential, in: environment)
            }
        }
        return try Self.decode(response, for: query, now: environment.now)
    }

    private func send(
        _ request: HTTPRequest, credential: BoundCredential?, in environment: ProviderEnvironment
    )
        async throws -> HTTPResponse
    {
        let origin = Origin(request.url).map { Set([$0]) } ?? []
        return try await environment.egress.send(
            request, via: environment.transport, timeout: environment.timeout, service: Self.service,
            configured: origin, credential: credential
        ).0
    }

    /// Maps a response to results or a safe ``ProviderFailure`` (no key, no body text).
    static func decode(_ response: HTTPResponse, for query: SearchQuery, now: Date) throws -> SearchResults {
        switch response.status {
        case 200..<300:
            break
        case 401, 403:
            throw ProviderFailure(
                .unauthorized,
                "\(service): HTTP \(response.status), the API key was refused; check BRAVE_API_KEY or [brave] api_key")
        case 422:
            throw ProviderFailure(
                .http, "\(service): HTTP 422, a search parameter was rejected (check --country and --language)")
        case 429:
            let resume = BraveRateLimit.resume(from: response, now: now)
            let when = resume.map { " for \(max(1, Int($0.timeIntervalSince(now).rounded(.up)))) s" } ?? ""
            throw ProviderFailure(.rateLimited, "\(service): HTTP 429, rate limited\(when)", retryAfter: resume)
        default:
            throw ProviderFailure(.http, "\(service): HTTP \(response.status) from the search API")
        }
        let expected = query.kind == .web ? "search" : "news"
        let wire: [BraveWire.Result]
        let type = try UpstreamJSON.decode(BraveWire.Envelope.self, from: response.body, service: service).type
        guard type == expected else {
            throw ProviderFailure(
                .decoding,
                "\(service): expected a \(query.kind.rawValue) search answer (type '\(expected)'), got type '\(type ?? "none")'"
            )
        }
        switch query.kind {
        case .web:
            wire =
                try UpstreamJSON.decode(BraveWire.WebResponse.self, from: response.body, service: service).web?.results
                ?? []
        case .news:
            wire =
                try UpstreamJSON.decode(BraveWire.NewsResponse.self, from: response.body, service: service).results
                ?? []
        }
        let hits = wire.compactMap { result -> SearchHit? in
            guard let url = result.url?.trimmingCharacters(in: .whitespaces), !url.isEmpty else { return nil }
            let title = HTMLText.plain(result.title ?? "")
            return SearchHit(
                title: title.isEmpty ? url : title, url: url, snippet: HTMLText.plain(result.description ?? ""),
                age: result.age.map(HTMLText.plain).flatMap { $0.isEmpty ? nil : $0 },
                pageAge: result.pageAge.flatMap { $0.isEmpty ? nil : $0 })
        }
        return SearchResults(query: query.text, kind: query.kind, results: Array(hits.prefix(query.count)))
    }
}
