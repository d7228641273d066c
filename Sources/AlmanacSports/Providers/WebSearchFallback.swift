import AlmanacCore
import Foundation

/// Last resort: when ESPN fails, ask the configured web search ("NBA scores 2024-12-15") and hand back
/// its hits, fenced as untrusted text. Unsupported (skipped) when no web search is configured.
struct WebSearchFallback: Provider {
    /// The search provider's name (`brave`), so the envelope says who actually answered.
    let name: String
    /// After every sports API.
    let priority = 100
    /// Whether a searcher was configured when the provider list was built.
    let available: Bool

    init(searcher: (any WebSearching)?) {
        name = searcher?.providerName ?? "web"
        available = searcher != nil
    }

    func supports(_ query: SportsQuery) -> Bool { available }

    func fetch(_ query: SportsQuery, in environment: ProviderEnvironment) async throws -> SportsData {
        guard let searcher = environment.webSearch else {
            throw ProviderFailure(.unconfigured, "web search is not configured")
        }
        let text = Self.question(for: query)
        let hits = try await searcher.search(text, count: 5, in: environment)
        guard !hits.isEmpty else { throw ProviderFailure(.notFound, "\(name): no results for '\(text)'") }
        return .web(WebAnswer(query: text, hits: hits))
    }

    /// The search words for a sports question.
    static func question(for query: SportsQuery) -> String {
        let league = query.league.name
        let team = query.team?.label
        switch query.view {
        case .scores:
            let day = query.day?.isoDate ?? ""
            return [team, league, team == nil ? "scores" : "score", day].compactMap { $0 }.joined(separator: " ")
        case .standings: return "\(league) standings"
        case .news: return [team, league, "news"].compactMap { $0 }.joined(separator: " ")
        case .schedule: return [team, league, "next game schedule"].compactMap { $0 }.joined(separator: " ")
        }
    }
}
