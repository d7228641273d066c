import Foundation

/// The feed parser alone, for scripts/bench-news (beside feedparser on the same files).
public enum NewsBenchmark {
    /// Parses every feed once; returns the items read (so the work cannot be skipped).
    ///
    /// - Parameter plainSummaries: also turn every item's summary into plain text through the page
    ///   reader's extractor, as the tool does for what it keeps.
    public static func parse(_ feeds: [Data], plainSummaries: Bool = false) -> Int {
        var items = 0
        let provider = FeedsProvider()
        let source = FeedSource(location: "/bench", isFile: true, configured: true)
        for data in feeds {
            if plainSummaries {
                items += (try? provider.parse(data, source: source, url: nil).items.count) ?? 0
            } else {
                items += (try? FeedParser.parse(data).items.count) ?? 0
            }
        }
        return items
    }
}
