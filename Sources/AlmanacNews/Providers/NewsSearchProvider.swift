import AlmanacCore
import AlmanacSearch
import Foundation

/// A topic with no configured feed: news search through the search tool's chain (Brave's news
/// endpoint, then the user's SearXNG `news` category). Its upstreams, keys and terms are the
/// search providers' own (AlmanacSearch); this provider names none of them.
struct NewsSearchProvider: DescribedProvider {
    static let descriptor = ProviderDescriptor(
        name: "news-search", tool: "news", priority: 10,
        summary: "a topic without feeds: news search (Brave, then your SearXNG: the search tool's chain)",
        unconfiguredReason: { NewsSearch.unconfiguredReason($0) })

    /// Hits asked for (Brave bills per request, not per result).
    static let requested = 20

    func supports(_ query: NewsQuery) -> Bool { query.feeds.isEmpty && query.topic != nil }

    func fetchNoted(_ query: NewsQuery, in environment: ProviderEnvironment) async throws -> NotedAnswer<NewsResult> {
        let topic = query.topic ?? ""
        let answer = try await NewsSearch.search(topic, count: Self.requested, in: environment)
        let items = answer.hits.map { hit in
            NewsItem(
                title: hit.title, link: hit.url, published: hit.pageAge.flatMap(Self.pageAge),
                source: URL(string: hit.url)?.host.map(Self.site) ?? answer.provider,
                summary: FeedsProvider.bounded(hit.snippet, limit: NewsItem.summaryLimit))
        }
        let result = NewsResult(items: items, feeds: [], topic: topic, searchProvider: answer.provider)
        return NotedAnswer(
            value: result, note: ["via \(answer.provider)", answer.note].compactMap { $0 }.joined(separator: "; "))
    }

    func fetch(_ query: NewsQuery, in environment: ProviderEnvironment) async throws -> NewsResult {
        try await fetchNoted(query, in: environment).value
    }

    /// Brave's `page_age` (no zone given: read as UTC).
    static func pageAge(_ raw: String) -> Date? {
        let text = raw.trimmingCharacters(in: .whitespaces)
        return FeedDates.parse(text)
    }

    /// `www.example.org` as `example.org`.
    static func site(_ host: String) -> String {
        host.hasPrefix("www.") ? String(host.dropFirst(4)) : host
    }
}
