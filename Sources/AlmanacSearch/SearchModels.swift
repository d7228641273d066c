public import AlmanacCore
import Foundation

/// Which index to ask: Brave's web or news endpoint, SearXNG's `general` or `news` category.
enum SearchKind: String, Sendable, Codable, Hashable, CaseIterable {
    /// Brave `/res/v1/web/search`, SearXNG `categories=general`.
    case web
    /// Brave `/res/v1/news/search`, SearXNG `categories=news`.
    case news
}

/// How recent results must be (Brave's `freshness`: discovered within the window).
enum SearchFreshness: String, Sendable, Codable, Hashable, CaseIterable {
    /// Last 24 hours (`pd`).
    case day
    /// Last 7 days (`pw`).
    case week
    /// Last 31 days (`pm`).
    case month

    /// The value Brave expects in the `freshness` query parameter.
    var braveValue: String {
        switch self {
        case .day: "pd"
        case .week: "pw"
        case .month: "pm"
        }
    }
}

/// A typed search request, as the provider sees it.
struct SearchQuery: Sendable, Hashable {
    /// The words to search for, as given.
    var text: String
    /// Web or news.
    var kind: SearchKind
    /// How many results to ask upstream for (1–20).
    var count: Int
    /// Optional recency window.
    var freshness: SearchFreshness?
    /// Optional 2-letter country (upper case), or `ALL`.
    var country: String?
    /// Optional language of the results (`en`, `de`, `pt-BR`).
    var language: String?
    /// Which page of results, from 1 (Brave `offset` = page - 1, SearXNG `pageno`).
    var page: Int

    init(
        text: String, kind: SearchKind = .web, count: Int = 20, freshness: SearchFreshness? = nil,
        country: String? = nil, language: String? = nil, page: Int = 1
    ) {
        self.text = text
        self.kind = kind
        self.count = count
        self.freshness = freshness
        self.country = country
        self.language = language
        self.page = page
    }
}

/// One result: plain text only (tags removed, entities decoded); still untrusted.
public struct SearchHit: Sendable, Codable, Hashable {
    /// Page or article title.
    public var title: String
    /// The result's URL.
    public var url: String
    /// The description Brave shows under the title.
    public var snippet: String
    /// Brave's `age` text ("4 days ago", "September 6, 2019"), relative to when Brave answered.
    @Nullable var age: String?
    /// Brave's `page_age` timestamp as sent ("2024-12-27T15:49:55", no zone given).
    @Nullable public var pageAge: String?
    /// The engines that found it, for a metasearch answer (SearXNG's `engines`); nil for Brave.
    @Nullable var engines: [String]?

    init(
        title: String, url: String, snippet: String, age: String? = nil, pageAge: String? = nil,
        engines: [String]? = nil
    ) {
        self.title = title
        self.url = url
        self.snippet = snippet
        self.age = age
        self.pageAge = pageAge
        self.engines = engines
    }

    /// The hit in Core's provider-neutral shape (for web-search fallbacks in other tools).
    var webSearchHit: WebSearchHit {
        WebSearchHit(title: title, url: url, snippet: snippet, age: age ?? pageAge)
    }
}

/// The domain result of one search (what is cached).
struct SearchResults: Sendable, Codable, Hashable {
    /// The query as the user gave it.
    var query: String
    /// Web or news.
    var kind: SearchKind
    /// Results in upstream rank order.
    var results: [SearchHit]
    /// Direct answers the upstream computed (SearXNG's `answers`), shown before the results.
    var answers: [String]
    /// The upstream's fact box as one compact line (SearXNG's first infobox), if any.
    var infobox: String?
    /// Other queries to try; shown only when there are no results.
    var suggestions: [String]
    /// What went wrong on the way without failing the answer (SearXNG's unresponsive engines),
    /// for the attempt's `detail`.
    var notes: String?

    init(
        query: String, kind: SearchKind, results: [SearchHit], answers: [String] = [], infobox: String? = nil,
        suggestions: [String] = [], notes: String? = nil
    ) {
        self.query = query
        self.kind = kind
        self.results = results
        self.answers = answers
        self.infobox = infobox
        self.suggestions = suggestions
        self.notes = notes
    }

    enum CodingKeys: String, CodingKey {
        case query, kind, results, answers, infobox, suggestions, notes
    }

    /// Reads entries cached before answers, infobox and suggestions existed as empty ones.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        query = try container.decode(String.self, forKey: .query)
        kind = try container.decode(SearchKind.self, forKey: .kind)
        results = try container.decode([SearchHit].self, forKey: .results)
        answers = try container.decodeIfPresent([String].self, forKey: .answers) ?? []
        infobox = try container.decodeIfPresent(String.self, forKey: .infobox)
        suggestions = try container.decodeIfPresent([String].self, forKey: .suggestions) ?? []
        notes = try container.decodeIfPresent(String.self, forKey: .notes)
    }
}
