import Foundation

/// The kinds of feed the parser reads.
enum FeedFormat: String, Sendable, Codable, Hashable {
    /// RSS 2.0 (and the 0.9x versions without RDF).
    case rss
    /// RSS 1.0 and 0.90 (RDF).
    case rdf
    /// Atom 1.0 (and 0.3).
    case atom
    /// JSON Feed 1.0 and 1.1.
    case json
}

/// One item of a feed as its producer wrote it: text still as the feed had it (a summary may be
/// HTML), links resolved against `xml:base` and the feed's own URL.
package struct FeedItem: Sendable, Codable, Hashable {
    /// The title (plain text), if the item has one.
    var title: String?
    /// The item's page.
    var link: String?
    /// When it was published (else updated).
    var published: Date?
    /// The summary (else the content), at most ``FeedParser/maximumSummaryBytes``.
    var summary: String
    /// Whether `summary` is HTML (else plain text).
    var summaryIsHTML: Bool
    /// The producer's id (`guid`, Atom `id`, JSON Feed `id`).
    var id: String?
}

/// A parsed feed (`package`: the benchmark counts its items).
package struct ParsedFeed: Sendable, Codable, Hashable {
    /// Which kind it was.
    var format: FeedFormat
    /// The feed's own title.
    var title: String?
    /// The feed's site.
    var link: String?
    /// Items in document order.
    package var items: [FeedItem]
    /// What was wrong with the feed without making it unreadable (not well-formed, broken
    /// encoding), one line each.
    var notes: [String]
}

/// Why bytes are not a readable feed, in one line ("an HTML page, not a feed").
struct FeedError: Error, Sendable, Equatable {
    var reason: String
}
