import AlmanacCore
import Foundation

/// Which index to ask: Brave's web or news endpoint, SearXNG's `general` or `news` category.
public enum SearchKind: String, Sendable, Codable, Hashable, CaseIterable {
    /// Brave `/res/v1/web/search`, SearXNG `categories=general`.
    case web
    /// Brave `/res/v1/news/search`, SearXNG `categories=news`.
    case news
}

/// How recent results must be (Brave's `freshness`: discovered within the window).
public enum SearchFreshness: String, Sendable, Codable, Hashable, CaseIterable {
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
public struct SearchQuery: Sendable, Hashable {
    /// The words to search for, as given.
    public var text: String
    /// Web or news.
    public var kind: SearchKind
    /// How many results to ask upstream for (1–20).
    public var count: Int
    /// Optional recency window.
    public var freshness: SearchFreshness?
    /// Optional 2-letter country (upper case), or `ALL`.
    public var country: String?
    /// Optional language of the results (`en`, `de`, `pt-BR`).
    public var language: String?
    /// Which page of results, from 1 (Brave `offset` = page - 1, SearXNG `pageno`).
    public var page: Int

    /// Creates a query.
    public init(
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
    @Nullable public var age: String?
    /// Brave's `page_age` timestamp as sent ("2024-12-27T15:49:55", no zone given).
    @Nullable public var pageAge: String?
    /// The engines that found it, for a metasearch answer (SearXNG's `engines`); nil for Brave.
    @Nullable public var engines: [String]?

    /// Creates a hit.
    public init(
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
    public var webSearchHit: WebSearchHit {
        WebSearchHit(title: title, url: url, snippet: snippet, age: age ?? pageAge)
    }
}

/// The domain result of one search (what is cached).
public struct SearchResults: Sendable, Codable, Hashable {
    /// The query as the user gave it.
    public var query: String
    /// Web or news.
    public var kind: SearchKind
    /// Results in upstream rank order.
    public var results: [SearchHit]
    /// Direct answers the upstream computed (SearXNG's `answers`), shown before the results.
    public var answers: [String]
    /// The upstream's fact box as one compact line (SearXNG's first infobox), if any.
    public var infobox: String?
    /// Other queries to try; shown only when there are no results.
    public var suggestions: [String]
    /// What went wrong on the way without failing the answer (SearXNG's unresponsive engines),
    /// for the attempt's `detail`.
    public var notes: String?

    /// Creates results.
    public init(
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
    public init(from decoder: any Decoder) throws {
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
