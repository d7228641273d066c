import AlmanacCore
import AlmanacRead
package import Foundation

/// The feeds themselves, read in parallel: URLs with conditional requests (`If-None-Match`,
/// `If-Modified-Since`) and at most one fetch per feed per minimum interval (what was read last
/// is kept in the provider-state store, so every process on the machine shares it), local files
/// read directly, OPML lists expanded into their feeds.
///
/// One feed that fails is a line in the answer, not a failure: the answer fails only when every
/// feed failed (then with the first feed's failure, so a 429's Retry-After reaches the coordinator).
struct FeedsProvider: DescribedProvider {
    static let descriptor = ProviderDescriptor(
        name: "feeds", tool: "news", priority: 0,
        summary: "your feeds (RSS 2.0, RSS 1.0, Atom, JSON Feed; OPML lists), URLs or files",
        terms: UpstreamTerms(conditionalRequests: true),
        decoders: [
            UpstreamDecoder(name: "news-feed", seeds: ["Fixtures/news/feeds/*.xml", "Fixtures/news/feeds/*.json"]) {
                data in
                _ = try? FeedParser.parse(data, url: URL(string: "https://example.org/feed/"))
                _ = try? OPML.parse(data)
            }
        ])

    /// The largest feed read: a bigger one is refused in one line (no feed worth reading is this
    /// large; the biggest recorded one is 0.5 MB).
    static let maximumFeedBytes = 10 << 20
    /// Markup of one summary read for its text.
    static let summaryMarkupBytes = 8 << 10
    /// Feeds an OPML list may add.
    static let maximumFeeds = 100
    /// Items kept per answer (newest first), before `--count` picks what is shown.
    static let maximumItems = 300
    /// An item dated further ahead than this is taken as undated (a wrong clock or a placeholder
    /// date would keep it first for years).
    static let futureTolerance: TimeInterval = 3600

    func supports(_ query: NewsQuery) -> Bool { !query.feeds.isEmpty }

    func fetch(_ query: NewsQuery, in environment: ProviderEnvironment) async throws -> NewsResult {
        let sources = try await expand(query.feeds, in: environment)
        var outcomes: [(FeedSource, Result<ReadFeed, ProviderFailure>)] = []
        await withTaskGroup(of: (Int, Result<ReadFeed, ProviderFailure>).self) { group in
            for (index, source) in sources.enumerated() {
                group.addTask {
                    do {
                        return (index, .success(try await read(source, query: query, in: environment)))
                    } catch let failure as ProviderFailure {
                        return (index, .failure(failure))
                    } catch {
                        return (index, .failure(ProviderFailure(.network, "\(source.label): \(error)")))
                    }
                }
            }
            var results: [(Int, Result<ReadFeed, ProviderFailure>)] = []
            for await result in group { results.append(result) }
            outcomes = results.sorted { $0.0 < $1.0 }.map { (sources[$0.0], $0.1) }
        }
        if let failure = outcomes.lazy.compactMap({ outcome -> ProviderFailure? in
            if case .failure(let failure) = outcome.1 { return failure }
            return nil
        }).first, !outcomes.contains(where: { if case .success = $0.1 { true } else { false } }) {
            guard outcomes.count > 1 else { throw failure }
            let lines = outcomes.compactMap { outcome -> String? in
                if case .failure(let failure) = outcome.1 { return failure.message }
                return nil
            }
            throw ProviderFailure(
                failure.kind, "every feed failed: " + lines.joined(separator: "; "), retryAfter: failure.retryAfter)
        }
        return Self.merge(outcomes, now: environment.now)
    }

    /// A feed as read in one run.
    struct ReadFeed: Sendable {
        var feed: ParsedFeed
        var status: String
    }

    /// What is kept between runs for one feed URL.
    struct Stored: Codable {
        var etag: String?
        var lastModified: String?
        var fetchedAt: Date
        var feed: ParsedFeed
    }

    /// OPML lists replaced by the feeds they name (a list's feeds are data: not configured).
    func expand(_ sources: [FeedSource], in environment: ProviderEnvironment) async throws -> [FeedSource] {
        var expanded: [FeedSource] = []
        for source in sources {
            guard source.looksLikeOPML else {
                expanded.append(source)
                continue
            }
            let data = try await body(of: source, headers: [:], in: environment).response.body
            let outlines: [OPML.Outline]
            do {
                outlines = try OPML.parse(data)
            } catch let error as FeedError {
                throw ProviderFailure(.decoding, "\(source.label): \(error.reason)")
            }
            for outline in outlines {
                guard let url = URL(string: outline.url), let scheme = url.scheme?.lowercased(),
                    scheme == "http" || scheme == "https", url.host != nil
                else { continue }
                expanded.append(FeedSource(location: url.absoluteString, isFile: false, configured: false))
            }
        }
        var seen = Set<String>()
        return Array(expanded.filter { seen.insert($0.location).inserted }.prefix(Self.maximumFeeds))
    }

    /// One feed: the stored copy when it is younger than the interval, else a conditional fetch.
    func read(_ source: FeedSource, query: NewsQuery, in environment: ProviderEnvironment) async throws -> ReadFeed {
        if source.isFile {
            let data = try await body(of: source, headers: [:], in: environment).response.body
            return ReadFeed(feed: try ParsedFeed(reading: data, from: source, url: nil), status: "read")
        }
        let key = "news.feed|\(source.location)"
        let stored = await environment.state.value(for: key).flatMap {
            try? JSONDecoder().decode(Stored.self, from: $0)
        }
        let interval = Double(query.minimumInterval.components.seconds)
        if let stored, environment.now.timeIntervalSince(stored.fetchedAt) < interval,
            environment.now >= stored.fetchedAt
        {
            return ReadFeed(feed: stored.feed, status: "kept")
        }
        var headers: [String: String] = [:]
        if let etag = stored?.etag { headers["If-None-Match"] = etag }
        if let modified = stored?.lastModified { headers["If-Modified-Since"] = modified }
        let response: HTTPResponse
        let final: URL?
        do {
            (response, final) = try await body(of: source, headers: headers, in: environment)
        } catch let failure as ProviderFailure {
            // A feed that cannot be reached now still has what it said last time.
            if let stored, failure.kind != .rateLimited {
                return ReadFeed(
                    feed: stored.feed, status: "stale (\(failure.message.prefix(120)))")
            }
            throw failure
        }
        if response.status == 304, var stored {
            stored.fetchedAt = environment.now
            if let data = try? JSONEncoder().encode(stored) { await environment.state.setValue(data, for: key) }
            return ReadFeed(feed: stored.feed, status: "not modified")
        }
        let feed = try ParsedFeed(reading: response.body, from: source, url: final)
        let record = Stored(
            etag: response.header("etag"), lastModified: response.header("last-modified"), fetchedAt: environment.now,
            feed: feed)
        if let data = try? JSONEncoder().encode(record) { await environment.state.setValue(data, for: key) }
        return ReadFeed(feed: feed, status: "fetched")
    }

    /// `text` cut at a word boundary before `limit` characters, with an ellipsis.
    static func bounded(_ text: String, limit: Int) -> String {
        guard text.count > limit else { return text }
        let cut = text.prefix(limit - 1)
        let word = cut.lastIndex(of: " ").map { cut[..<$0] } ?? cut
        return word.trimmingCharacters(in: .whitespaces) + "…"
    }

    /// The bytes of `source`: a file (size checked first) or a GET through the egress policy.
    func body(
        of source: FeedSource, headers: [String: String], in environment: ProviderEnvironment
    ) async throws -> (response: HTTPResponse, final: URL?) {
        let label = source.label
        if source.isFile {
            let attributes = try? FileManager.default.attributesOfItem(atPath: source.location)
            guard let size = (attributes?[.size] as? NSNumber)?.intValue else {
                throw ProviderFailure(.notFound, "\(label): no such file")
            }
            guard size <= Self.maximumFeedBytes else {
                throw ProviderFailure(
                    .decoding, "\(label): \(size >> 20) MB is larger than a feed may be (10 MB); not read")
            }
            guard let data = FileManager.default.contents(atPath: source.location) else {
                throw ProviderFailure(.notFound, "\(label): cannot be read")
            }
            return (HTTPResponse(status: 200, body: data), nil)
        }
        guard let url = source.url, let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw ProviderFailure(.network, "\(label): only http and https feeds are fetched")
        }
        var request = HTTPRequest(url: url, headers: headers)
        request.headers["Accept"] =
            "application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, text/xml;q=0.9, application/json;q=0.8, */*;q=0.5"
        request.headers["User-Agent"] = UpstreamTerms().userAgentValue(environment.settings)
        request.maxBodyBytes = Self.maximumFeedBytes
        let configured: Set<Origin> = source.configured ? Set([Origin(url)].compactMap { $0 }) : []
        let response: HTTPResponse
        let final: HTTPRequest
        do {
            (response, final) = try await environment.egress.send(
                request, via: environment.transport, timeout: environment.timeout, service: label,
                configured: configured)
        } catch let failure as ProviderFailure where failure.message.contains("larger than") {
            throw ProviderFailure(.decoding, "\(label): larger than a feed may be (10 MB); not read")
        }
        if response.status == 304 { return (response, final.url) }
        if response.body.count > Self.maximumFeedBytes {
            throw ProviderFailure(.decoding, "\(label): larger than a feed may be (10 MB); not read")
        }
        switch response.status {
        case 200..<300: break
        case 401, 403: throw ProviderFailure(.unauthorized, "\(label): HTTP \(response.status), access refused")
        case 404, 410: throw ProviderFailure(.notFound, "\(label): HTTP \(response.status), no such feed")
        case 429:
            throw ProviderFailure(
                .rateLimited, "\(label): HTTP 429, rate limited",
                retryAfter: RetryAfter.date(from: response, now: environment.now))
        default: throw ProviderFailure(.http, "\(label): HTTP \(response.status)")
        }
        // A body shorter than its Content-Length was cut short on the way.
        if (response.header("content-encoding") ?? "identity").lowercased() == "identity",
            let declared = response.header("content-length").flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }),
            declared != response.body.count
        {
            throw ProviderFailure(.decoding, "\(label): cut short (\(response.body.count) of \(declared) bytes)")
        }
        return (response, final.url)
    }

    /// Every feed's items in one list: future dates dropped (with a note), duplicates across
    /// feeds (same link or same title) kept once, newest first, undated last in feed order.
    static func merge(_ outcomes: [(FeedSource, Result<ReadFeed, ProviderFailure>)], now: Date) -> NewsResult {
        var reports: [FeedReport] = []
        var candidates: [(item: NewsItem, feed: Int, order: Int)] = []
        for (feedIndex, (source, outcome)) in outcomes.enumerated() {
            switch outcome {
            case .failure(let failure):
                reports.append(
                    FeedReport(feed: source.label, title: nil, items: 0, status: "failed", detail: failure.message))
            case .success(let read):
                let name = read.feed.title.flatMap { $0.isEmpty ? nil : String($0.prefix(80)) } ?? source.label
                var notes = read.feed.notes
                var future = 0
                for (order, item) in read.feed.items.enumerated() {
                    var published = item.published
                    if let date = published, date.timeIntervalSince(now) > futureTolerance {
                        future += 1
                        published = nil
                    }
                    candidates.append(
                        (
                            NewsItem(
                                title: item.title, link: item.link, published: published, source: name,
                                summary: item.summary),
                            feedIndex, order
                        ))
                }
                if future > 0 {
                    notes.append("\(future) item\(future == 1 ? "" : "s") dated in the future; shown undated")
                }
                reports.append(
                    FeedReport(
                        feed: source.label, title: read.feed.title, items: read.feed.items.count, status: read.status,
                        detail: notes.isEmpty ? nil : notes.joined(separator: "; ")))
            }
        }
        candidates.sort { left, right in
            switch (left.item.published, right.item.published) {
            case (let a?, let b?) where a != b: return a > b
            case (_?, nil): return true
            case (nil, _?): return false
            default: return (left.feed, left.order) < (right.feed, right.order)
            }
        }
        // Within one feed every item stays (a podcast may link every episode to its home page);
        // across feeds, a link or title already shown by another feed is a duplicate.
        var links: [String: Int] = [:]
        var titles: [String: Int] = [:]
        var items: [NewsItem] = []
        for candidate in candidates {
            let (link, title) = candidate.item.duplicateKeys
            if let link, let feed = links[link], feed != candidate.feed { continue }
            if let title, let feed = titles[title], feed != candidate.feed { continue }
            if let link, links[link] == nil { links[link] = candidate.feed }
            if let title, titles[title] == nil { titles[title] = candidate.feed }
            items.append(candidate.item)
            if items.count == maximumItems { break }
        }
        return NewsResult(items: items, feeds: reports, topic: nil, searchProvider: nil)
    }

    /// A link compared without its scheme, `www.`, fragment or a trailing slash.
    static func linkKey(_ link: String) -> String {
        var text = link.lowercased()
        if let hash = text.firstIndex(of: "#") { text = String(text[..<hash]) }
        for prefix in ["https://", "http://"] where text.hasPrefix(prefix) { text.removeFirst(prefix.count) }
        if text.hasPrefix("www.") { text.removeFirst(4) }
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}

extension ParsedFeed {
    /// The feed in `data` parsed, summaries made plain text and bounded: what the provider keeps
    /// and caches. `package`: almanac-news-bench times it (scripts/bench-news).
    package init(reading data: Data, from source: FeedSource, url: URL?) throws {
        var feed: ParsedFeed
        do {
            feed = try FeedParser.parse(data, url: url)
        } catch let error as FeedError {
            throw ProviderFailure(.decoding, "\(source.label): \(error.reason)")
        }
        for index in feed.items.indices {
            let item = feed.items[index]
            let base = item.link.flatMap { URL(string: $0) } ?? url
            // 400 characters of text lie within the first 8 KB of markup in any summary worth showing; a
            // full post in `content:encoded` is not parsed whole for them.
            let html =
                item.summary.utf8.count > FeedsProvider.summaryMarkupBytes
                ? String(decoding: item.summary.utf8.prefix(FeedsProvider.summaryMarkupBytes), as: UTF8.self)
                : item.summary
            let text = item.summaryIsHTML ? FragmentText.plain(html, base: base) : item.summary
            feed.items[index].summary = FeedsProvider.bounded(Spaces.collapse(text), limit: NewsItem.summaryLimit)
            feed.items[index].summaryIsHTML = false
        }
        self = feed
    }
}
