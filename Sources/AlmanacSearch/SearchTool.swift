import AlmanacCore
import Foundation
import Logging

/// `tools run search "<query>"`: Brave web (or `--news`) results as plain text, fenced as
/// untrusted data in context output.
///
/// One Brave request always asks for the maximum of 20 results (Brave bills per request, not per
/// result) and `--count` only decides how many are shown, so `--count 3` and `--count 10` for the
/// same query share one cached answer. Web answers stay fresh for an hour, news for ten minutes
/// (`ALMANAC_CACHE_TTL=0` still forces a refetch).
public struct SearchTool: Tool {
    /// Results shown when `--count` is not given (small enough for a small model's context).
    public static let defaultCount = 5
    /// Brave's maximum `count` for web search, and the most results shown.
    public static let maximumCount = 20

    let client: BraveClient

    /// Creates the search tool with the live Brave client.
    public init() {
        self.init(client: BraveClient())
    }

    init(client: BraveClient) {
        self.client = client
    }

    /// `search`.
    public var name: String { "search" }

    /// One line for `tools list`.
    public var summary: String { "Web or news search results (Brave Search API), fenced as untrusted text" }

    /// `<query...> [--news] [--count N] [--freshness day|week|month] [--country XX]`.
    public var schema: ToolSchema { Self.schema }

    static let schema = ToolSchema([
        ToolParameter(
            "query", .string, help: "what to search for (at most 400 characters and 50 words)",
            placement: .remainder, required: true),
        ToolParameter("news", .boolean, help: "search news articles instead of the web"),
        ToolParameter("count", .integer, help: "how many results to show, 1-20 (default 5)", aliases: ["-n"]),
        ToolParameter(
            "freshness", .choice(SearchFreshness.allCases.map(\.rawValue)),
            help: "only results discovered in the past day, week or month"),
        ToolParameter("country", .string, help: "2-letter country code the results come from, e.g. US, DE, GB"),
    ])

    /// Every search provider.
    public var providerDescriptors: [ProviderDescriptor] { [BraveSearchProvider.descriptor] }

    /// Nil with a Brave key (or in replay mode), else how to set one.
    public func unconfiguredReason(in context: ToolContext) -> String? {
        BraveClient.unconfiguredReason(context.settings).map {
            "\($0) (set BRAVE_API_KEY, or api_key under [brave] in config.toml)"
        }
    }

    /// Validates the arguments, checks the key, then asks Brave through the coordinator.
    public func run(_ arguments: ToolArguments, context: ToolContext) async throws -> ToolResult {
        let request = try Self.request(from: arguments)
        if BraveClient.unconfiguredReason(context.settings) != nil {
            throw AlmanacError.configuration(
                "search needs a Brave Search API key", suggestion: BraveClient.missingKeyHelp)
        }
        // A bad ALMANAC_BRAVE_URL is a usage error, not a provider failure.
        _ = try BraveSearchProvider.descriptor.baseURL(context.settings)

        let upstream = SearchQuery(
            text: request.text, kind: request.kind, count: Self.maximumCount, freshness: request.freshness,
            country: request.country)
        let key = Self.cacheKey(upstream)
        context.logger.debug("search: \(request.kind.rawValue) search via brave, cache key \(key)")
        let fetched = try await context.fetch(
            tool: name, key: key, query: upstream, providers: [BraveSearchProvider(client: client)],
            ttl: ttl(for: request.kind, context: context))
        let payload = SearchPayload(
            query: request.text, kind: request.kind, freshness: request.freshness, country: request.country,
            results: Array(fetched.value.results.prefix(request.count)))
        return ToolResult(metadata: fetched.metadata, payload: payload)
    }

    // MARK: Arguments

    struct Request: Equatable {
        var text: String
        var kind: SearchKind
        var count: Int
        var freshness: SearchFreshness?
        var country: String?
    }

    /// Checks every argument before any network call; errors name the value and what would be right.
    static func request(from arguments: ToolArguments) throws -> Request {
        let text = HTMLText.collapseWhitespace(arguments.string("query") ?? "")
        guard !text.isEmpty else {
            throw AlmanacError.usage(
                "search needs a query", suggestion: "usage: \(ToolArguments.usage(schema, tool: "search"))")
        }
        // Brave's documented limits for `q`; longer queries would be rejected upstream.
        let words = text.split(separator: " ").count
        guard text.count <= 400, words <= 50 else {
            throw AlmanacError.usage(
                "search query is too long (\(text.count) characters, \(words) words)",
                suggestion: "Brave accepts at most 400 characters and 50 words")
        }

        var count = defaultCount
        if arguments.values["count"] != nil {
            guard let value = arguments.integer("count"), (1...maximumCount).contains(value) else {
                throw AlmanacError.usage(
                    "count must be between 1 and \(maximumCount), got '\(arguments.string("count") ?? "")'",
                    suggestion: "e.g. --count \(defaultCount)")
            }
            count = value
        }

        var freshness: SearchFreshness?
        if let raw = arguments.string("freshness") {
            guard let value = SearchFreshness(rawValue: raw.lowercased()) else {
                throw AlmanacError.usage(
                    "search: '\(raw)' is not a valid freshness", suggestion: "expected one of: day, week, month")
            }
            freshness = value
        }

        var country: String?
        if let raw = arguments.string("country")?.trimmingCharacters(in: .whitespaces) {
            let letters = raw.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.isAlphabetic }
            guard letters, raw.count == 2 || raw.lowercased() == "all" else {
                throw AlmanacError.usage(
                    "country must be a 2-letter code, got '\(raw)'", suggestion: "e.g. --country US, DE, GB (or ALL)")
            }
            country = raw.uppercased()
        }

        return Request(
            text: text, kind: arguments.flag("news") ? .news : .web, count: count, freshness: freshness,
            country: country)
    }

    /// Same question, same key: kind, filters and the query with case and spacing normalized.
    /// `count` is not part of it (every request asks Brave for the maximum).
    static func cacheKey(_ query: SearchQuery) -> String {
        [
            "brave", query.kind.rawValue, query.freshness?.rawValue ?? "any", query.country ?? "default",
            query.text.lowercased(),
        ].joined(separator: "|")
    }

    private func ttl(for kind: SearchKind, context: ToolContext) -> Duration {
        if context.coordinator.configuration.ttl == .zero { return .zero }
        return kind == .web ? .seconds(3600) : .seconds(600)
    }
}
