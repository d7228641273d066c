import AlmanacCore
import Foundation

/// The last resort: asks the configured web searcher ("weather in Lisbon") when Open-Meteo
/// cannot answer. Its hits are untrusted text, shown fenced and labelled "from web search".
///
/// Skipped (unsupported) when no searcher is configured.
public struct WebSearchWeatherProvider: Provider {
    /// The searcher, from ``ProviderEnvironment/webSearch``.
    public let searcher: (any WebSearching)?

    /// Creates the fallback over `searcher` (nil: always skipped).
    public init(searcher: (any WebSearching)?) {
        self.searcher = searcher
    }

    /// The searcher's name (`brave`), so JSON `provider` says who answered.
    public var name: String { searcher?.providerName ?? "web-search" }
    /// After every real forecast provider.
    public let priority = 100
    /// How many hits to ask for: enough to cross-check, few enough for a small context.
    static let hitCount = 3

    /// Only with a searcher and something to search for.
    public func supports(_ query: WeatherQuery) -> Bool {
        searcher != nil && !query.searchText.isEmpty
    }

    /// Runs the search.
    public func fetch(_ query: WeatherQuery, in environment: ProviderEnvironment) async throws -> WeatherReport {
        guard let searcher = searcher ?? environment.webSearch else {
            throw ProviderFailure(.unconfigured, "web search: no searcher configured")
        }
        let hits = try await searcher.search(query.searchText, count: Self.hitCount, in: environment)
        guard !hits.isEmpty else {
            throw ProviderFailure(.notFound, "\(searcher.providerName): no web results for '\(query.searchText)'")
        }
        return .web(
            WebWeather(place: query.placeText, query: query.searchText, hits: Array(hits.prefix(Self.hitCount))))
    }
}
