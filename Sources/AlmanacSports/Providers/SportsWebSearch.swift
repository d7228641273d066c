import AlmanacCore
import Foundation

extension SportsQuery {
    /// The words the web-search fallback searches for ("NBA scores 2024-12-15").
    var webSearchText: String {
        let league = league.name
        let team = team?.label
        switch view {
        case .scores:
            let day = day?.isoDate ?? ""
            return [team, league, team == nil ? "scores" : "score", day].compactMap { $0 }.joined(separator: " ")
        case .standings: return "\(league) standings"
        case .news: return [team, league, "news"].compactMap { $0 }.joined(separator: " ")
        case .schedule: return [team, league, "next game schedule"].compactMap { $0 }.joined(separator: " ")
        }
    }
}

extension SportsTool {
    /// Last resort when every sports API fails: the shared web-search chain (Brave, then SearXNG,
    /// as configured), its hits fenced as untrusted text.
    static func webFallback(_ searcher: (any WebSearching)?) -> [any Provider<SportsQuery, SportsData>] {
        WebSearchFallback<SportsQuery, SportsData>.chain(
            searcher, question: { $0.webSearchText },
            answer: { _, words, hits in .web(WebAnswer(query: words, hits: hits)) })
    }
}
