import AlmanacCore
import Foundation

/// Which Brave index to ask.
public enum SearchKind: String, Sendable, Codable, Hashable, CaseIterable {
    /// `/res/v1/web/search`.
    case web
    /// `/res/v1/news/search`.
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

    /// Creates a query.
    public init(
        text: String, kind: SearchKind = .web, count: Int = 20, freshness: SearchFreshness? = nil,
        country: String? = nil
    ) {
        self.text = text
        self.kind = kind
        self.count = count
        self.freshness = freshness
        self.country = country
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
    public var age: String?
    /// Brave's `page_age` timestamp as sent ("2024-12-27T15:49:55", no zone given).
    public var pageAge: String?

    /// Creates a hit.
    public init(title: String, url: String, snippet: String, age: String? = nil, pageAge: String? = nil) {
        self.title = title
        self.url = url
        self.snippet = snippet
        self.age = age
        self.pageAge = pageAge
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

    /// Creates results.
    public init(query: String, kind: SearchKind, results: [SearchHit]) {
        self.query = query
        self.kind = kind
        self.results = results
    }
}
