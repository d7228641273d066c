import AlmanacCore
import Foundation

/// The search tool's first provider: Brave Search API, web or news.
struct BraveSearchProvider: SearchProvider {
    let client: BraveClient

    /// Both of Brave's indexes.
    let kinds: Set<SearchKind> = [.web, .news]

    /// Brave bills per request: web answers are kept an hour, news ten minutes.
    func cacheLifetime(_ kind: SearchKind) -> Duration { kind == .web ? .seconds(3600) : .seconds(600) }

    /// `brave`, first in the search chain when a key is set.
    static let descriptor = ProviderDescriptor(
        name: "brave", tool: "search", priority: 0, summary: "Brave Search API (web, news); needs BRAVE_API_KEY",
        endpoints: [ProviderEndpoint(env: "ALMANAC_BRAVE_URL", defaultBase: "https://api.search.brave.com")],
        secrets: [.environment("BRAVE_API_KEY"), .config(["brave", "api_key"]), .header("x-subscription-token")],
        // Reachability only: no key is sent, so no quota is spent and a 401/422 still proves the host answers.
        probe: HealthProbe(path: "/res/v1/web/search"),
        decoders: [.search("brave") { try BraveClient.decode($0, for: $1, now: $2) }],
        unconfiguredReason: { BraveClient.unconfiguredReason($0) },
        sampleCall: SampleCall(
            words: ["run", "search", "hello", "world", "--count", "20"],
            environment: ["BRAVE_API_KEY": "fault-matrix-key"]),
        liveRequestHeaders: { settings in
            BraveClient.apiKey(settings).map { ["X-Subscription-Token": $0, "Accept": "application/json"] }
        })

    static let enables = "for Brave Search"
    static let keyPage: String? = "https://api-dashboard.search.brave.com"

    func fetch(_ query: SearchQuery, in environment: ProviderEnvironment) async throws -> SearchResults {
        try await client.search(query, in: environment)
    }
}
