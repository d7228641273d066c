public import AlmanacCore
import Foundation

/// A search provider of the search tool's chain: what kinds of search it has and how long its
/// answers stay fresh.
protocol SearchProvider: DescribedProvider<SearchQuery, SearchResults> {
    /// Web, news or both.
    var kinds: Set<SearchKind> { get }
    /// How long an answer of `kind` from this provider is served from the cache.
    func cacheLifetime(_ kind: SearchKind) -> Duration
    /// What setting it up gives, for the line naming how to enable search: "for Brave Search".
    static var enables: String { get }
    /// Where its key is obtained, when it needs one.
    static var keyPage: String? { get }
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
    /// Every search provider, in the order tried: the one place the chain is written.
    /// - Parameter client: Brave's client (tests inject one that does not sleep).
    static func providers(client: BraveClient = BraveClient()) -> [any SearchProvider] {
        [BraveSearchProvider(client: client), SearXNGProvider()]
    }

    /// Every search provider with the live clients.
    static let all = providers()

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
    static var enablingVariables: [String] { descriptors.compactMap(enablingVariable) }

    /// With neither provider configured: one line naming every way to enable search.
    public static let unconfiguredHelp = help(all)

    /// One line naming how to enable each of `providers`, the variables and config values taken
    /// from their descriptors: "set BRAVE_API_KEY (or api_key under [brave] in ...; keys: ...)
    /// for Brave Search, or ALMANAC_SEARXNG_URL (or url under [searxng]) to your own SearXNG instance".
    static func help(_ providers: [any SearchProvider]) -> String {
        var mentionedFile = false
        let ways = providers.map { provider -> String in
            let kind = type(of: provider)
            let descriptor = kind.descriptor
            var aside: [String] = []
            if let path = enablingConfig(descriptor), let key = path.last {
                let section = path.dropLast().joined(separator: ".")
                // The file's path once, at its first mention.
                aside.append("or \(key) under [\(section)]" + (mentionedFile ? "" : " in \(configFile)"))
                mentionedFile = true
            }
            if let page = kind.keyPage { aside.append("keys: \(page)") }
            let note = aside.isEmpty ? "" : " (\(aside.joined(separator: "; ")))"
            return (enablingVariable(descriptor) ?? descriptor.name) + note + " " + kind.enables
        }
        return "set " + ways.joined(separator: ", or ")
    }

    /// Where the config file lives, as the help names it.
    static let configFile = "$XDG_CONFIG_HOME/almanac/config.toml"

    /// The variable that enables a provider: its key when it needs one, else its base URL.
    static func enablingVariable(_ descriptor: ProviderDescriptor) -> String? {
        for case .environment(let name) in descriptor.secrets { return name }
        return descriptor.endpoints.first?.env
    }

    /// The config value that enables a provider, the same way: its key's, else its base URL's.
    static func enablingConfig(_ descriptor: ProviderDescriptor) -> [String]? {
        for case .config(let path) in descriptor.secrets { return path }
        return descriptor.endpoints.first?.config
    }
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
    func searchNoted(
        _ query: String, count: Int, in environment: ProviderEnvironment
    ) async throws
        -> NotedAnswer<[WebSearchHit]>
    {
        let text = HTMLText.collapseWhitespace(query)
        guard !text.isEmpty else { return NotedAnswer(value: []) }
        let wanted = min(max(count, 1), SearchTool.maximumCount)
        let results = try await provider.fetch(SearchQuery(text: text, kind: .web, count: wanted), in: environment)
        return NotedAnswer(value: results.results.prefix(wanted).map(\.webSearchHit), note: results.notes)
    }
}
