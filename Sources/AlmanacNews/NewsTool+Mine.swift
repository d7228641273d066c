import AlmanacCore
import Foundation

// `tools run news --mine`, what "what's new" asks: the configured feeds ([news] feeds, [me] feeds)
// and the profile's topics ([me] topics), each topic read as `tools run news TOPIC` reads it (its
// [news.topics] feeds, else a news search), through the same cache keys, merged into one list.

extension NewsTool {
    /// One part of a `--mine` answer: the feeds, or one topic.
    struct MinePart: Sendable {
        var label: String
        var request: Request
    }

    /// `--mine`: every part at once; a part that fails is a note and the rest still answer.
    func runMine(_ arguments: ToolArguments, context: ToolContext) async throws -> ToolResult {
        if arguments.string(NewsParameter.topic) != nil || arguments.string(NewsParameter.feed) != nil {
            throw AlmanacError.usage(
                "news: --mine reads your feeds and [me] topics; it takes no topic or --feed",
                suggestion: "tools run news --mine, or tools run news TOPIC")
        }
        // count, since and the interval, checked as a plain run checks them.
        let base = try Self.request(from: arguments, settings: context.settings, feedsOptional: true)
        let parts = try Self.mineParts(base, settings: context.settings)
        var outcomes = [Result<Fetched<NewsResult>, any Error>?](repeating: nil, count: parts.count)
        await withTaskGroup(of: (Int, Result<Fetched<NewsResult>, any Error>).self) { group in
            for (index, part) in parts.enumerated() {
                group.addTask {
                    do { return (index, .success(try await fetch(part.request, context: context))) } catch {
                        return (index, .failure(error))
                    }
                }
            }
            for await (index, outcome) in group { outcomes[index] = outcome }
        }
        var answered: [(label: String, fetched: Fetched<NewsResult>)] = []
        var reports: [FeedReport] = []
        var failures: [any Error] = []
        for (part, outcome) in zip(parts, outcomes) {
            switch outcome {
            case .success(let fetched)?:
                answered.append((part.label, fetched))
                reports += fetched.value.feeds
            case .failure(let error)?:
                failures.append(error)
                let detail = (error as? AlmanacError)?.message ?? "\(type(of: error))"
                reports.append(FeedReport(feed: part.label, title: nil, items: 0, status: "failed", detail: detail))
            case nil:
                break
            }
        }
        guard !answered.isEmpty else {
            if failures.count == 1, let only = failures.first { throw only }
            // Nothing configured for any part (no feed, no search key): what to set, as with one
            // part; configuration errors carry no attempts for the 'unavailable' below to name.
            let configuration = failures.compactMap { $0 as? AlmanacError }.filter { $0.kind == .configuration }
            if configuration.count == failures.count, let first = configuration.first { throw first }
            let attempts = failures.flatMap { ($0 as? AlmanacError)?.attempts ?? [] }
            throw AlmanacError.unavailable(tool: name, attempts: attempts)
        }
        let result = NewsResult(
            items: Self.mineItems(answered.map(\.fetched.value.items)), feeds: reports, topic: nil,
            searchProvider: nil)
        var payload = NewsPayload(
            result: result, count: base.count, since: base.since, sinceText: base.sinceText, now: context.now)
        payload.topics = parts.compactMap(\.request.topic)
        payload.withFeeds = !base.feeds.isEmpty
        let metadata = answered.map(\.fetched.metadata)
        var providers: [String] = []
        for item in metadata where !providers.contains(item.provider) { providers.append(item.provider) }
        let oldest = metadata.min { $0.fetchedAt < $1.fetchedAt } ?? metadata[0]
        return ToolResult(
            metadata: ResultMetadata(
                tool: name, provider: providers.joined(separator: "+"), fetchedAt: oldest.fetchedAt,
                ageSeconds: metadata.map(\.ageSeconds).max() ?? 0, stale: metadata.contains { $0.stale },
                attempts: metadata.flatMap(\.attempts)),
            payload: payload)
    }

    /// The feeds (when any are configured) and each profile topic, in that order.
    ///
    /// - Throws: ``AlmanacError`` (configuration) when neither feeds nor topics are set.
    static func mineParts(_ base: Request, settings: Settings) throws -> [MinePart] {
        var parts: [MinePart] = []
        if !base.feeds.isEmpty { parts.append(MinePart(label: "your feeds", request: base)) }
        for topic in try Profile.read(settings).searchedTopics {
            var request = base
            request.topic = topic
            request.feeds = try topicFeeds(topic, settings: settings) ?? []
            parts.append(MinePart(label: "topic \"\(UntrustedText.clean(topic, limit: 80))\"", request: request))
        }
        guard !parts.isEmpty else {
            throw AlmanacError.configuration(
                "news: --mine needs feeds or topics, and neither is configured",
                suggestion: "set feeds = [...] or topics = [\"swift\"] under [me] in config.toml (docs/news.md)")
        }
        return parts
    }

    /// The parts' items in one list: a link or title already shown by an earlier part left out,
    /// newest first, undated last in part order.
    static func mineItems(_ lists: [[NewsItem]]) -> [NewsItem] {
        var links: Set<String> = []
        var titles: Set<String> = []
        var kept: [(item: NewsItem, order: Int)] = []
        for items in lists {
            var added: [(item: NewsItem, keys: NewsItem.DuplicateKeys, order: Int)] = []
            for item in items {
                let keys = item.duplicateKeys
                if let link = keys.link, links.contains(link) { continue }
                if let title = keys.title, titles.contains(title) { continue }
                added.append((item, keys, kept.count + added.count))
            }
            for entry in added {
                if let link = entry.keys.link { links.insert(link) }
                if let title = entry.keys.title { titles.insert(title) }
            }
            kept += added.map { ($0.item, $0.order) }
        }
        kept.sort { left, right in
            switch (left.item.published, right.item.published) {
            case (let a?, let b?) where a != b: return a > b
            case (_?, nil): return true
            case (nil, _?): return false
            default: return left.order < right.order
            }
        }
        return kept.map(\.item)
    }
}
