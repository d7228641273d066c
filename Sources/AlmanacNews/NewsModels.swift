import AlmanacCore
import Foundation

/// Where one feed comes from: a URL or a local file (a path given on the command line or in the
/// configuration), either a feed or an OPML list of feeds. `package`: the benchmark names a file.
package struct FeedSource: Sendable, Hashable, Codable {
    /// The URL (http or https) or the absolute path, as fetched.
    var location: String
    /// Whether `location` is a path.
    var isFile: Bool
    /// Whether the operator configured it (its origin is then reached whoever asks).
    var configured: Bool

    package init(location: String, isFile: Bool, configured: Bool) {
        self.location = location
        self.isFile = isFile
        self.configured = configured
    }

    /// The URL, for a URL source.
    var url: URL? { isFile ? nil : URL(string: location) }

    /// How messages name it: the host and path of a URL, a file's name.
    var label: String {
        if isFile { return (location as NSString).lastPathComponent }
        guard let url, let host = url.host else { return location }
        let path = url.path == "/" ? "" : url.path
        return String((host + path).prefix(80))
    }

    /// Whether it is an OPML list (by its name; a list is also recognised by its content).
    var looksLikeOPML: Bool { location.lowercased().hasSuffix(".opml") }
}

/// What the news tool asks its providers: some feeds, or a topic to search news for.
struct NewsQuery: Sendable, Hashable {
    /// The feeds to read; empty for a topic search.
    var feeds: [FeedSource]
    /// The topic searched when there are no feeds.
    var topic: String?
    /// Shortest time between two fetches of one feed.
    var minimumInterval: Duration

    /// The coordinator's cache key for this query, built here alone: a topic's news search by the
    /// topic (case folded), feeds by their locations in sorted order (the interval is no part of it).
    var cacheKey: String {
        guard feeds.isEmpty else { return "news|feeds|" + feeds.map(\.location).sorted().joined(separator: " ") }
        return "news|topic|\(topic?.lowercased() ?? "")"
    }
}

/// The news tool's parameter names, declared once: the schema and the argument reader both take
/// these cases, so a misspelt name is a compile error rather than an argument silently absent.
enum NewsParameter: String, CaseIterable {
    case topic, feed, since, count, mine
}

/// One news item as shown: plain text, dated, with its source.
struct NewsItem: Sendable, Codable, Hashable {
    /// The title (plain text); nil when the item has none.
    var title: String?
    /// The item's page.
    var link: String?
    /// When it was published; nil when the feed gave no (usable) date.
    var published: Date?
    /// The feed's title, else its host.
    var source: String
    /// The summary as plain text, at most ``NewsItem/summaryLimit`` characters.
    var summary: String

    /// Characters of summary kept per item.
    static let summaryLimit = 400
}

/// How one feed went in one run.
struct FeedReport: Sendable, Codable, Hashable {
    /// The feed as messages name it.
    var feed: String
    /// Its title, when it was read.
    var title: String?
    /// Items it gave.
    var items: Int
    /// `fetched`, `not modified` (a 304), `kept` (fetched less than the minimum interval ago),
    /// `stale` (kept because the fetch failed) or `failed`.
    var status: String
    /// What went wrong, or what was odd (one line).
    var detail: String?
}

/// The domain result of one news run (what is cached).
struct NewsResult: Sendable, Codable, Hashable {
    /// Items, newest first (undated last), duplicates across feeds removed.
    var items: [NewsItem]
    /// Each feed's outcome (empty for a topic search).
    var feeds: [FeedReport]
    /// For a topic search: the topic and the search provider that answered.
    var topic: String?
    var searchProvider: String?
}

extension NewsItem {
    /// What makes two items one (across feeds, and across `--mine`'s parts).
    typealias DuplicateKeys = (link: String?, title: String?)

    /// The link as ``FeedsProvider/linkKey(_:)`` compares it, and the title without case (nil
    /// when empty).
    var duplicateKeys: DuplicateKeys {
        (link.map(FeedsProvider.linkKey), title.map { $0.lowercased() }.flatMap { $0.isEmpty ? nil : $0 })
    }
}
