import AlmanacCore
import Foundation

/// A search provider of the search tool's chain: what kinds of search it has and how long its
/// answers stay fresh.
protocol SearchProvider: DescribedProvider<SearchQuery, SearchResults> {
    /// Web, news or both.
    var kinds: Set<SearchKind> { get }
    /// How long an answer of `kind` from this provider is served from the cache.
    func cacheLifetime(_ kind: SearchKind) -> Duration
}

extension SearchProvider {
    /// Only the kinds it has (`--news` goes only to providers with news).
    func supports(_ query: SearchQuery) -> Bool { kinds.contains(query.kind) }

    /// Itself as a plain provider of the chain (an existential of this protocol does not upcast).
    var asProvider: any Provider<SearchQuery, SearchResults> { self }
}

/// The one search chain: Brave (when a key is set), then the user's SearXNG (when configured).
/// The search tool asks it, and every other tool's web fallback asks the same chain through
/// ``configuredWebSearch(_:)``.
public enum SearchChain {
    /// Every search provider, in the order tried.
    static let all: [any SearchProvider] = [BraveSearchProvider(client: BraveClient()), SearXNGProvider()]

    /// Every search provider's descriptor.
    static var descriptors: [ProviderDescriptor] { all.map(\.descriptor) }

    /// The providers usable with `settings`, in the order tried.
    static func configured(_ settings: Settings) -> [any SearchProvider] {
        all.filter { $0.descriptor.unconfiguredReason(settings) == nil }
    }

    /// The web searcher other tools fall back to: the configured members of the chain, or nil
    /// when none is configured.
    public static func configuredWebSearch(_ settings: Settings) -> (any WebSearching)? {
        WebSearchChain(configured(settings).map { ChainWebSearch(provider: $0) })
    }

    /// The variable that enables each provider (its key when it needs one, else its base URL),
    /// for the first line of the error when none is configured: "set BRAVE_API_KEY or ALMANAC_SEARXNG_URL".
    static var enablingVariables: [String] {
        descriptors.compactMap { descriptor in
            for case .environment(let name) in descriptor.secrets { return name }
            return descriptor.endpoints.first?.env
        }
    }

    /// With neither provider configured: one line naming both ways to enable search.
    public static let unconfiguredHelp =
        "set BRAVE_API_KEY (or api_key under [brave] in $XDG_CONFIG_HOME/almanac/config.toml; keys:"
        + " https://api-dashboard.search.brave.com) for Brave Search, or ALMANAC_SEARXNG_URL (or url under [searxng])"
        + " to your own SearXNG instance"
}

extension UpstreamDecoder {
    /// A search provider's fuzz target: `decode` fed the bytes as a 200 answer to a web and to a
    /// news query; seeds are its recorded bodies under `Fixtures/search/<name>/`.
    static func search(
        _ name: String, decode: @escaping @Sendable (HTTPResponse, SearchQuery, Date) throws -> SearchResults
    ) -> UpstreamDecoder {
        UpstreamDecoder(name: name, seeds: ["Fixtures/search/\(name)/*.response.json"]) { data in
            for kind in SearchKind.allCases {
                _ = try? decode(
                    HTTPResponse(status: 200, body: data), SearchQuery(text: "fuzz", kind: kind),
                    Date(timeIntervalSince1970: 1_750_000_000))
            }
        }
    }
}

/// One search provider as a ``WebSearching`` for other tools' fallbacks: a web search whose
/// hits are the provider's results, plain text, at most `count` (Brave's 1-20).
struct ChainWebSearch: WebSearching {
    let provider: any SearchProvider

    var providerName: String { provider.name }

    func search(_ query: String, count: Int, in environment: ProviderEnvironment) async throws -> [WebSearchHit] {
        try await searchNoted(query, count: count, in: environment).value
    }

    /// The hits, with the provider's notes (SearXNG's unresponsive engines) for the attempt.
    func searchNoted(_ query: String, count: Int, in environment: ProviderEnvironment) async throws
        -> NotedAnswer<[WebSearchHit]>
    {
        let text = HTMLText.collapseWhitespace(query)
        guard !text.isEmpty else { return NotedAnswer(value: []) }
        let wanted = min(max(count, 1), SearchTool.maximumCount)
        let results = try await provider.fetch(SearchQuery(text: text, kind: .web, count: wanted), in: environment)
        return NotedAnswer(value: results.results.prefix(wanted).map(\.webSearchHit), note: results.notes)
    }
}
