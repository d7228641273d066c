import AlmanacCore
import Foundation

/// The search tool's provider: Brave Search API, web or news.
struct BraveSearchProvider: DescribedProvider {
    let client: BraveClient

    /// `brave`, first in the search chain when a key is set.
    static let descriptor = ProviderDescriptor(
        name: "brave", tool: "search", priority: 0, summary: "Brave Search API (web, news); needs BRAVE_API_KEY",
        endpoints: [ProviderEndpoint(env: "ALMANAC_BRAVE_URL", defaultBase: "https://api.search.brave.com")],
        secrets: [.environment("BRAVE_API_KEY"), .config(["brave", "api_key"]), .header("x-subscription-token")],
        // Reachability only: no key is sent, so no quota is spent and a 401/422 still proves the host answers.
        probe: HealthProbe(path: "/res/v1/web/search"),
        decoders: [
            UpstreamDecoder(name: "brave", seeds: ["Fixtures/search/brave/*.response.json"]) { data in
                for kind in [SearchKind.web, .news] {
                    _ = try? BraveClient.decode(
                        HTTPResponse(status: 200, body: data), for: SearchQuery(text: "fuzz", kind: kind),
                        now: Date(timeIntervalSince1970: 1_750_000_000))
                }
            }
        ],
        unconfiguredReason: { BraveClient.unconfiguredReason($0) },
        sampleCall: SampleCall(
            words: ["run", "search", "hello", "world", "--count", "20"],
            environment: ["BRAVE_API_KEY": "fault-matrix-key"]),
        liveRequestHeaders: { settings in
            BraveClient.apiKey(settings).map { ["X-Subscription-Token": $0, "Accept": "application/json"] }
        })

    func fetch(_ query: SearchQuery, in environment: ProviderEnvironment) async throws -> SearchResults {
        try await client.search(query, in: environment)
    }
}

/// Brave web search as a fallback capability for other tools (sports, weather), through Core's
/// ``WebSearching`` protocol so they need not depend on this module.
///
/// The runtime puts one into ``ProviderEnvironment/webSearch`` when ``isConfigured(_:)`` is true.
/// Failures are ``ProviderFailure``s (key refused, rate limited with `retryAfter`, ...), safe to
/// show; the key is never part of them.
public struct BraveWebSearch: WebSearching {
    let client: BraveClient

    /// Creates the fallback over the same Brave client the search tool uses.
    public init() {
        self.init(client: BraveClient())
    }

    init(client: BraveClient) {
        self.client = client
    }

    /// `brave`.
    public var providerName: String { "brave" }

    /// Whether a Brave key is configured (`BRAVE_API_KEY` or `[brave] api_key`); also true in
    /// replay mode (`ALMANAC_REPLAY`), where no request leaves the machine.
    public static func isConfigured(_ settings: Settings) -> Bool {
        BraveClient.unconfiguredReason(settings) == nil
    }

    /// Web results for `query` (at most `count`, clamped to Brave's 1–20), as plain text.
    public func search(_ query: String, count: Int, in environment: ProviderEnvironment) async throws
        -> [WebSearchHit]
    {
        let text = HTMLText.collapseWhitespace(query)
        guard !text.isEmpty else { return [] }
        let request = SearchQuery(text: text, kind: .web, count: min(max(count, 1), 20))
        return try await client.search(request, in: environment).results.map(\.webSearchHit)
    }
}
