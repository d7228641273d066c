public import AlmanacCore
import CLibxml2
import Foundation

/// `tools run news [TOPIC] [--feed URL_OR_PATH] [--since DURATION] [--count N]`: the newest items
/// of the user's feeds (RSS 2.0, RSS 1.0, Atom, JSON Feed; OPML lists), merged, deduplicated
/// across feeds, newest first, summaries as plain text fenced as third-party text.
///
/// Feeds are configured in config.toml (docs/news.md): `[news] feeds` (and `[me] feeds`) are read
/// when no topic is named; `[news.topics] NAME = [...]` names a topic's own feeds; any other topic
/// is searched as news (Brave, then SearXNG). `--feed` (a URL or a file) is the command line's
/// alone: callers of serve, mcp or a model read configured feeds only (docs/security.md).
public struct NewsTool: Tool {
    /// Items shown when `--count` is not given.
    static let defaultCount = 10
    /// The most items shown.
    static let maximumCount = 50
    /// Shortest time between two fetches of one feed, unless `[news] min_interval` says otherwise.
    static let defaultMinimumInterval: Duration = .seconds(15 * 60)
    /// How long a topic search is served from the cache (Brave's news lifetime).
    static let searchLifetime: Duration = .seconds(600)

    /// Creates the tool.
    public init() {}

    /// `news`.
    public var name: String { "news" }

    /// One line for `tools list`.
    public var summary: String {
        "The newest items of your feeds (RSS, Atom, JSON Feed) or news on a topic, fenced as untrusted text"
    }

    /// `[topic...] [--feed URL_OR_PATH] [--since DURATION] [--count N]`.
    public var schema: ToolSchema { Self.schema }

    static let schema = ToolSchema([
        ToolParameter(
            NewsParameter.topic, .string,
            help: "a topic: its configured feeds ([news.topics]), else a news search; none: your feeds",
            placement: .remainder),
        ToolParameter(
            NewsParameter.feed, .string,
            help:
                "read this feed (a URL or a file: RSS, Atom, JSON Feed or an OPML list) instead of the configured ones",
            access: .commandLineOnly),
        ToolParameter(NewsParameter.since, .string, help: "only items from the last DURATION, e.g. 6h, 2d, 1w"),
        ToolParameter(
            NewsParameter.count, .integer, help: "how many items to show, 1-50 (default 10)", aliases: ["-n"]),
        ToolParameter(
            NewsParameter.mine, .boolean, help: "your feeds and your topics ([me] topics), merged: \"what's new\""),
    ])

    /// The feeds, then news search for a topic without feeds.
    public var providerDescriptors: [ProviderDescriptor] { [FeedsProvider.descriptor, NewsSearchProvider.descriptor] }

    /// libxml2's XML parser reads every XML feed.
    public var nativeLibraries: [NativeLibrary] {
        [
            NativeLibrary(
                name: "libxml2", package: "libxml2", usedFor: "news",
                open: { almanac_xml_load() == 0 ? nil : String(cString: almanac_xml_error()) },
                opened: { String(cString: almanac_xml_opened()) })
        ]
    }

    /// Checks the arguments and the configuration, then reads the feeds (or searches the topic)
    /// through the coordinator.
    public func run(_ arguments: ToolArguments, context: ToolContext) async throws -> ToolResult {
        if arguments.flag(NewsParameter.mine) { return try await runMine(arguments, context: context) }
        let request = try Self.request(from: arguments, settings: context.settings)
        let fetched = try await fetch(request, context: context)
        let payload = NewsPayload(
            result: fetched.value, count: request.count, since: request.since, sinceText: request.sinceText,
            now: context.now)
        return ToolResult(metadata: fetched.metadata, payload: payload)
    }

    /// The request's feeds (or its topic's news search) through the coordinator.
    func fetch(_ request: Request, context: ToolContext) async throws -> Fetched<NewsResult> {
        let query = NewsQuery(feeds: request.feeds, topic: request.topic, minimumInterval: request.minimumInterval)
        let search = request.feeds.isEmpty
        if search, let reason = NewsSearchProvider.descriptor.unconfiguredReason(context.settings) {
            throw AlmanacError.configuration(
                "news: no feed is configured for '\(UntrustedText.clean(request.topic ?? "", limit: 80))' and \(reason)",
                suggestion: "add it under [news.topics] in config.toml (docs/news.md)")
        }
        // A search is kept for news' lifetime, feeds for their interval; local files alone are
        // cheaper to read again than to cache.
        return try await context.fetch(
            tool: name, key: query.cacheKey, query: query, providers: [FeedsProvider(), NewsSearchProvider()],
            ttl: search ? Self.searchLifetime : request.minimumInterval,
            cached: search || request.feeds.contains { !$0.isFile })
    }

    // MARK: Arguments

    struct Request: Equatable {
        var topic: String?
        var feeds: [FeedSource]
        var count: Int
        var since: Duration?
        var sinceText: String?
        var minimumInterval: Duration
    }

    /// Reads the arguments and the configured feeds; every mistake is one line before any fetch.
    /// `feedsOptional`: no configured feed is no error (`--mine` may have topics only).
    static func request(
        from arguments: ToolArguments, settings: Settings, feedsOptional: Bool = false
    ) throws
        -> Request
    {
        let count =
            try arguments.integer(NewsParameter.count, in: 1...maximumCount, example: "--count \(defaultCount)")
            ?? defaultCount
        var since: Duration?
        let sinceText = try arguments.text(NewsParameter.since, needs: "a duration", example: "--since 6h")
        if let sinceText {
            guard let duration = parseDuration(sinceText) else {
                throw AlmanacError.usage(
                    "news: --since must be a duration, got '\(UntrustedText.clean(sinceText, limit: 40))'",
                    suggestion: "e.g. --since 30m, 6h, 2d or 1w")
            }
            since = duration
        }
        let interval = try minimumInterval(settings)
        let topic = arguments.string(NewsParameter.topic).map { Spaces.collapse($0) }.flatMap {
            $0.isEmpty ? nil : $0
        }
        if let raw = try arguments.text(
            NewsParameter.feed, needs: "a feed URL or file", example: "--feed https://example.org/feed.xml")
        {
            let feeds = try raw.split(separator: " ").map { try commandLineFeed(String($0), settings: settings) }
            return Request(
                topic: topic, feeds: feeds, count: count, since: since, sinceText: sinceText, minimumInterval: interval)
        }
        if let topic {
            let feeds = try topicFeeds(topic, settings: settings)
            return Request(
                topic: topic, feeds: feeds ?? [], count: count, since: since, sinceText: sinceText,
                minimumInterval: interval)
        }
        let feeds = try configuredFeeds(settings)
        guard !feeds.isEmpty || feedsOptional else {
            throw AlmanacError.configuration(
                "news: no feeds are configured",
                suggestion:
                    "add feeds = [\"https://example.org/feed.xml\"] under [news] in config.toml (docs/news.md), pass --feed URL, or name a topic to search news for"
            )
        }
        return Request(
            topic: nil, feeds: feeds, count: count, since: since, sinceText: sinceText, minimumInterval: interval)
    }

    /// `[news] feeds` and `[me] feeds` (or `ALMANAC_NEWS_FEEDS`), without repeats.
    static func configuredFeeds(_ settings: Settings) throws -> [FeedSource] {
        var sources: [FeedSource] = []
        let example = "feeds = [\"https://example.org/feed.xml\", \"~/feeds.opml\"]"
        if let list = try settings.list(env: "ALMANAC_NEWS_FEEDS", config: "news", "feeds", example: example) {
            sources += try list.items.map { try configuredFeed($0, source: list.source, settings: settings) }
        }
        if settings.env("ALMANAC_NEWS_FEEDS") == nil,
            let list = try settings.list(env: "ALMANAC_ME_FEEDS", config: "me", "feeds", example: example)
        {
            sources += try list.items.map { try configuredFeed($0, source: list.source, settings: settings) }
        }
        var seen = Set<String>()
        return sources.filter { seen.insert($0.location).inserted }
    }

    /// The feeds `[news.topics]` gives `topic` (names compared without case), or nil.
    static func topicFeeds(_ topic: String, settings: Settings) throws -> [FeedSource]? {
        guard let table = settings.config("news", "topics")?.tableValue else { return nil }
        guard let entry = table.first(where: { $0.key.lowercased() == topic.lowercased() }) else { return nil }
        let source = "[news.topics] \(entry.key)"
        let items: [String]
        switch entry.value {
        case .string(let text): items = [text]
        case .array(let values):
            items = values.compactMap { if case .string(let text) = $0 { text } else { nil } }
            guard items.count == values.count else {
                throw AlmanacError.usage(
                    "\(source) must be a list of strings",
                    suggestion: "e.g. \(entry.key) = [\"https://example.org/feed.xml\"]")
            }
        default:
            throw AlmanacError.usage(
                "\(source) must be a list of strings",
                suggestion: "e.g. \(entry.key) = [\"https://example.org/feed.xml\"]")
        }
        return try items.map { try configuredFeed($0, source: source, settings: settings) }
    }

    /// A configured entry: an http(s) URL, or a path (`~/` is the home folder; a relative path is
    /// relative to the config file's folder).
    static func configuredFeed(_ raw: String, source: String, settings: Settings) throws -> FeedSource {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.contains("://") {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https",
                url.host != nil, url.user == nil, url.password == nil
            else {
                throw AlmanacError.usage(
                    "\(source): '\(UntrustedText.clean(text, limit: 120))' is not an http(s) feed URL",
                    suggestion: "e.g. https://example.org/feed.xml, or a file path")
            }
            return FeedSource(location: url.absoluteString, isFile: false, configured: true)
        }
        guard !text.isEmpty else {
            throw AlmanacError.usage(
                "\(source) has an empty entry", suggestion: "remove it, or name a feed URL or file")
        }
        let folder = settings.configPath.map { ($0 as NSString).deletingLastPathComponent }
        return FeedSource(location: path(text, relativeTo: folder, settings: settings), isFile: true, configured: true)
    }

    /// A `--feed` value: an http(s) URL or an existing file.
    static func commandLineFeed(_ raw: String, settings: Settings) throws -> FeedSource {
        if raw.contains("://") {
            guard let url = URL(string: raw), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https",
                url.host != nil
            else {
                throw AlmanacError.usage(
                    "news: '\(UntrustedText.clean(raw, limit: 120))' is not an http(s) feed URL",
                    suggestion: "e.g. --feed https://example.org/feed.xml, or a file")
            }
            guard url.user == nil, url.password == nil else {
                throw AlmanacError.usage(
                    "news: feed URLs with a user name or password are not fetched",
                    suggestion: "remove the user:password@ part")
            }
            return FeedSource(location: url.absoluteString, isFile: false, configured: true)
        }
        let location = path(raw, relativeTo: FileManager.default.currentDirectoryPath, settings: settings)
        var folder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: location, isDirectory: &folder), !folder.boolValue else {
            throw AlmanacError.usage(
                "news: no such feed file '\(UntrustedText.clean(raw, limit: 120))'",
                suggestion: "--feed takes a URL (https://example.org/feed.xml) or a file (RSS, Atom, JSON Feed, OPML)")
        }
        return FeedSource(location: location, isFile: true, configured: true)
    }

    static func path(_ text: String, relativeTo folder: String?, settings: Settings) -> String {
        if text == "~" || text.hasPrefix("~/") {
            let home = settings.env("HOME") ?? NSHomeDirectory()
            return (home as NSString).appendingPathComponent(String(text.dropFirst(min(2, text.count))))
        }
        if text.hasPrefix("/") { return (text as NSString).standardizingPath }
        return ((folder ?? FileManager.default.currentDirectoryPath) as NSString).appendingPathComponent(text)
    }

    /// `[news] min_interval` in minutes (at least 1; default 15).
    static func minimumInterval(_ settings: Settings) throws -> Duration {
        guard let value = settings.config("news", "min_interval") else { return defaultMinimumInterval }
        switch value {
        case .integer(let minutes) where minutes >= 1: return .seconds(minutes * 60)
        case .string(let text) where parseDuration(text).map({ $0 >= .seconds(60) }) == true:
            return parseDuration(text) ?? defaultMinimumInterval
        default:
            throw AlmanacError.usage(
                "[news] min_interval must be a number of minutes (1 or more)", suggestion: "e.g. min_interval = 15")
        }
    }

    /// `30m`, `6h`, `2d`, `1w` (also `90 min`, `2 days`); nil when it is none of these.
    static func parseDuration(_ text: String) -> Duration? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
        guard let number = Int(digits), number > 0, number < 100_000 else { return nil }
        let unit = trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
        let seconds: Int
        switch unit {
        case "s", "sec", "secs", "second", "seconds": seconds = 1
        case "m", "min", "mins", "minute", "minutes": seconds = 60
        case "h", "hr", "hrs", "hour", "hours": seconds = 3600
        case "d", "day", "days": seconds = 86_400
        case "w", "wk", "week", "weeks": seconds = 604_800
        default: return nil
        }
        return .seconds(number * seconds)
    }
}
