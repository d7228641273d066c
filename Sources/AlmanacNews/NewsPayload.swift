import AlmanacCore
import Foundation

/// A news answer ready to print: context (fenced, budgeted), JSON `data`, or text.
///
/// JSON `data`: `{"topic":null|"...","since":null|"6h","items":[{"title","link","published","source",
/// "summary"}],"feeds":[{"feed","title","items","status","detail"}],"omitted":N,"undated":N}` —
/// `published` ISO 8601 UTC or null, `title` and `link` null when the item has none; every key
/// always present.
struct NewsPayload: ToolPayload {
    /// The items shown.
    var items: [NewsItem]
    var feeds: [FeedReport]
    var topic: String?
    var searchProvider: String?
    var sinceText: String?
    /// Items left out by `--count` (after `--since`).
    var omitted: Int
    /// Undated items left out by `--since`.
    var undated: Int
    /// The profile's topics read (`--mine`), for the header.
    var topics: [String] = []
    /// Whether a `--mine` answer read configured feeds too.
    var withFeeds = true

    init(result: NewsResult, count: Int, since: Duration?, sinceText: String?, now: Date) {
        var candidates = result.items
        var undated = 0
        if let since {
            let cutoff = now.addingTimeInterval(-Double(since.components.seconds))
            undated = candidates.filter { $0.published == nil }.count
            candidates = candidates.filter { ($0.published ?? .distantPast) >= cutoff }
        }
        items = Array(candidates.prefix(count))
        omitted = max(0, candidates.count - count)
        self.undated = undated
        feeds = result.feeds
        topic = result.topic
        searchProvider = result.searchProvider
        self.sinceText = sinceText
    }

    enum CodingKeys: String, CodingKey {
        case topic, since, items, feeds, omitted, undated
    }

    struct ItemJSON: Encodable {
        @Nullable var title: String?
        @Nullable var link: String?
        @Nullable var published: String?
        var source: String
        var summary: String
    }

    struct FeedJSON: Encodable {
        var feed: String
        @Nullable var title: String?
        var items: Int
        var status: String
        @Nullable var detail: String?
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Nullable(wrappedValue: topic), forKey: .topic)
        try container.encode(Nullable(wrappedValue: sinceText), forKey: .since)
        try container.encode(
            items.map {
                ItemJSON(
                    title: $0.title, link: $0.link, published: $0.published.map(TimeText.isoUTC), source: $0.source,
                    summary: $0.summary)
            }, forKey: .items)
        try container.encode(
            feeds.map {
                FeedJSON(feed: $0.feed, title: $0.title, items: $0.items, status: $0.status, detail: $0.detail)
            },
            forKey: .feeds)
        try container.encode(omitted, forKey: .omitted)
        try container.encode(undated, forKey: .undated)
    }

    // MARK: Context

    func context(_ rendering: Rendering) -> String {
        let header = rendering.header(title(rendering))
        let blocks = items.enumerated().map { index, item in block(index + 1, item, rendering) }
        let notes = feedNotes()
        guard !blocks.isEmpty else {
            return ([header, emptyLine()] + notes).joined(separator: "\n") + "\n"
        }
        let nonce = UntrustedText.nonce(for: blocks)
        let notice = UntrustedText.notice(nonce)
        let reserved = ([header, notice, UntrustedText.open(nonce), UntrustedText.close(nonce)] + notes).joined(
            separator: "\n")
        let more = omitted
        let omittedLine: (Int) -> String = { "… \($0 + more) more item\($0 + more == 1 ? "" : "s") omitted" }
        let kept = rendering.budget.fit(blocks, reserved: reserved, omitted: omittedLine)
        let truncated = kept != Array(blocks.prefix(kept.count))
        let fenced = truncated ? Array(kept.dropLast()) : kept
        var lines = [header, notice, UntrustedText.open(nonce)] + fenced + [UntrustedText.close(nonce)]
        if truncated, let footer = kept.last {
            lines.append(footer)
        } else if omitted > 0 {
            lines.append(omittedLine(0))
        }
        return (lines + notes).joined(separator: "\n") + "\n"
    }

    /// `news: 10 newest of your 3 feeds · past 6h · Sat 28 Nov 2026 (today)`.
    private func title(_ rendering: Rendering) -> String {
        var parts: [String]
        if let topic, searchProvider != nil {
            parts = ["news on \"\(UntrustedText.clean(topic, limit: 100))\" (news search)"]
        } else if !topics.isEmpty {
            let named = topics.map { "\"\(UntrustedText.clean($0, limit: 60))\"" }.joined(separator: ", ")
            parts = ["newest items of your " + (withFeeds ? "feeds and " : "") + "topics \(named)"]
        } else {
            let count = feeds.count
            let which = topic.map { "\"\(UntrustedText.clean($0, limit: 100))\" " } ?? ""
            parts = ["newest items of \(which)\(count == 1 ? "1 feed" : "\(count) feeds")"]
        }
        if let sinceText { parts.append("past \(UntrustedText.clean(sinceText, limit: 20))") }
        parts.append(TimeText.labelledDay(rendering.now, now: rendering.now, in: rendering.timeZone))
        return parts.joined(separator: " · ")
    }

    private func emptyLine() -> String {
        sinceText.map { "No items in the past \(UntrustedText.clean($0, limit: 20))." } ?? "No items."
    }

    /// Feeds that failed or were odd, one line each, outside the fence (our words; details cleaned).
    private func feedNotes() -> [String] {
        var lines: [String] = []
        for feed in feeds where feed.status == "failed" || feed.detail != nil || feed.status.hasPrefix("stale") {
            let detail = feed.detail.map { UntrustedText.clean($0, limit: 240) }
            if feed.status == "failed" {
                lines.append("feed \(UntrustedText.clean(feed.feed, limit: 100)) failed: \(detail ?? "no detail")")
            } else {
                var line = "feed \(UntrustedText.clean(feed.feed, limit: 100))"
                if feed.status.hasPrefix("stale") { line += ": \(UntrustedText.clean(feed.status, limit: 160))" }
                if let detail { line += ": \(detail)" }
                lines.append(line)
            }
        }
        if undated > 0 { lines.append("\(undated) undated item\(undated == 1 ? "" : "s") left out by --since") }
        return lines
    }

    /// `1. Title (Source · Sat 28 Nov 2026 (today) 09:14 WET)`, link, summary.
    private func block(_ rank: Int, _ item: NewsItem, _ rendering: Rendering) -> String {
        let title = item.title.map { UntrustedText.clean($0, limit: 200) } ?? "(untitled)"
        var meta = [UntrustedText.clean(item.source, limit: 80)]
        meta.append(dated(item.published, rendering) ?? "undated")
        var lines = ["\(rank). \(title) (\(meta.joined(separator: " · ")))"]
        if let link = item.link { lines.append("   \(UntrustedText.clean(link, limit: 300))") }
        let summary = UntrustedText.clean(item.summary, limit: NewsItem.summaryLimit)
        if !summary.isEmpty, summary != title { lines.append("   \(summary)") }
        return lines.joined(separator: "\n")
    }

    /// The item's time in the viewer's zone: `Sat 28 Nov 2026 (today) 09:14 WET`.
    func dated(_ date: Date?, _ rendering: Rendering) -> String? {
        guard let date else { return nil }
        let zone = rendering.timeZone
        return "\(TimeText.labelledDay(date, now: rendering.now, in: zone)) \(TimeText.clock(date, in: zone)) "
            + TimeText.zoneAbbreviation(zone, at: date)
    }

    // MARK: Text

    func text(_ rendering: Rendering) -> String {
        var lines = [rendering.header(title(rendering))]
        if items.isEmpty { lines.append(emptyLine()) }
        for (index, item) in items.enumerated() {
            lines.append("")
            let rank = String(index + 1)
            let pad = String(repeating: " ", count: max(0, 2 - rank.count))
            lines.append("\(pad)\(rank). \(item.title.map { UntrustedText.clean($0, limit: 200) } ?? "(untitled)")")
            lines.append(
                "    \(UntrustedText.clean(item.source, limit: 80)) · \(dated(item.published, rendering) ?? "undated")")
            if let link = item.link { lines.append("    \(UntrustedText.clean(link, limit: 300))") }
            let summary = UntrustedText.clean(item.summary, limit: NewsItem.summaryLimit)
            if !summary.isEmpty { lines.append("    \(summary)") }
        }
        if omitted > 0 { lines += ["", "\(omitted) more item\(omitted == 1 ? "" : "s") not shown (--count)"] }
        let notes = feedNotes()
        if !notes.isEmpty { lines += [""] + notes }
        return lines.joined(separator: "\n") + "\n"
    }
}
