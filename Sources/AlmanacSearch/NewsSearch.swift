public import AlmanacCore
import Foundation

/// News search for other tools (the news tool's topic without a configured feed): the search
/// chain's providers with news (Brave's news endpoint, SearXNG's `news` category), tried in the
/// chain's order, so the news tool names no upstream of its own.
public enum NewsSearch {
    /// One answer: who gave it and the hits (plain text, still untrusted).
    public struct Answer: Sendable, Codable, Hashable {
        /// The provider that answered (`brave`, `searxng`).
        public var provider: String
        /// Hits in upstream order.
        public var hits: [SearchHit]
        /// What went wrong on the way without failing the answer (SearXNG's engines).
        public var note: String?
    }

    /// Nil when some provider with news is configured, else how to configure one.
    public static func unconfiguredReason(_ settings: Settings) -> String? {
        providers(settings).isEmpty ? "no news search (\(SearchChain.unconfiguredHelp))" : nil
    }

    /// Searches news for `text`: the first configured provider that answers, at most `count` hits
    /// (1-20), recent first as the upstream ranks them.
    ///
    /// - Throws: the last provider's ``ProviderFailure`` when every one failed.
    public static func search(_ text: String, count: Int, in environment: ProviderEnvironment) async throws -> Answer {
        let query = SearchQuery(
            text: HTMLText.collapseWhitespace(text), kind: .news, count: min(max(count, 1), SearchTool.maximumCount))
        var last: (any Error)?
        for provider in providers(environment.settings) {
            do {
                let noted = try await provider.fetchNoted(query, in: environment)
                return Answer(provider: provider.name, hits: noted.value.results, note: noted.value.notes ?? noted.note)
            } catch {
                last = error
            }
        }
        throw last ?? ProviderFailure(.unconfigured, "no news search configured")
    }

    static func providers(_ settings: Settings) -> [any SearchProvider] {
        SearchChain.configured(settings).filter { $0.kinds.contains(.news) }
    }
}
