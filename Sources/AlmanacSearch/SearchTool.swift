public import AlmanacCore
import AlmanacRead
import Foundation
import Logging

/// `tools run search "<query>"`: web (or `--news`) results as plain text, fenced as untrusted data
/// in context output, from the one search chain: Brave (when a key is set), then the user's
/// SearXNG (when configured).
///
/// One Brave request always asks for the maximum of 20 results (Brave bills per request, not per
/// result) and `--count` only decides how many are shown, so `--count 3` and `--count 10` for the
/// same query share one cached answer. How long an answer stays fresh depends on who gave it
/// (Brave: web an hour, news ten minutes; SearXNG: 15 and 5 minutes); `ALMANAC_CACHE_TTL=0`
/// still forces a refetch.
public struct SearchTool: Tool {
    /// Results shown when `--count` is not given (small enough for a small model's context).
    static let defaultCount = 5
    /// Brave's maximum `count` for web search, and the most results shown.
    static let maximumCount = 20
    /// The last page `--page` may ask for (Brave's `offset` goes up to 9).
    static let maximumPage = 10

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
    public var summary: String {
        "Web or news search results (Brave Search API or your SearXNG), fenced as untrusted text"
    }

    /// `<query...> [--news] [--count N] [--freshness day|week|month] [--country XX] [--language LL] [--page N]`.
    public var schema: ToolSchema { Self.schema }

    static let schema = ToolSchema([
        ToolParameter(
            SearchParameter.query, .string, help: "what to search for (at most 400 characters and 50 words)",
            placement: .remainder, required: true),
        ToolParameter(SearchParameter.news, .boolean, help: "search news articles instead of the web"),
        ToolParameter(
            SearchParameter.count, .integer, help: "how many results to show, 1-20 (default 5)", aliases: ["-n"]),
        ToolParameter(
            SearchParameter.freshness, .choice(SearchFreshness.allCases.map(\.rawValue)),
            help: "only results discovered in the past day, week or month"),
        ToolParameter(
            SearchParameter.country, .string, help: "2-letter country code the results come from, e.g. US, DE, GB"),
        ToolParameter(SearchParameter.language, .string, help: "language of the results, e.g. en, de, pt-BR"),
        ToolParameter(SearchParameter.page, .integer, help: "which page of results, 1-10 (default 1)"),
        ToolParameter(
            SearchParameter.read, .integer, help: "also read result N's page (1 = the top hit) with the read tool",
            access: .withTool("read")),
    ])

    /// Every search provider (the chain's order).
    public var providerDescriptors: [ProviderDescriptor] { SearchChain.descriptors }

    /// The chain with this tool's Brave client (tests inject one that does not sleep).
    var chain: [any SearchProvider] { SearchChain.providers(client: client) }

    /// Nil when Brave or SearXNG is configured, else how to configure either.
    public func unconfiguredReason(in context: ToolContext) -> String? {
        SearchChain.configured(context.settings).isEmpty ? "no search provider (\(SearchChain.unconfiguredHelp))" : nil
    }

    /// Validates the arguments, checks that a provider is configured, then asks the chain
    /// through the coordinator.
    public func run(_ arguments: ToolArguments, context: ToolContext) async throws -> ToolResult {
        let request = try Self.request(from: arguments)
        let configured = chain.filter { $0.descriptor.unconfiguredReason(context.settings) == nil }
        guard !configured.isEmpty else {
            throw AlmanacError.configuration(
                "search needs a search provider: set " + SearchChain.enablingVariables.joined(separator: " or "),
                suggestion: SearchChain.unconfiguredHelp)
        }
        // A bad base URL is a usage error, not a provider failure.
        for provider in configured { _ = try provider.descriptor.baseURL(context.settings) }

        let upstream = SearchQuery(
            text: request.text, kind: request.kind, count: Self.maximumCount, freshness: request.freshness,
            country: request.country, language: request.language, page: request.page)
        let providers = configured.filter { $0.kinds.contains(request.kind) }
        guard !providers.isEmpty else {
            throw AlmanacError.configuration(
                "no configured search provider has \(request.kind.rawValue) search",
                suggestion: SearchChain.unconfiguredHelp)
        }
        let key = Self.cacheKey(upstream)
        context.logger.debug(
            "search: \(request.kind.rawValue) search via \(providers.map(\.name).joined(separator: ", ")), cache key \(key)"
        )
        var lifetimes: [String: Duration] = [:]
        for provider in providers { lifetimes[provider.name] = provider.cacheLifetime(request.kind) }
        var fetched = try await context.fetch(
            tool: name, key: key, query: upstream, providers: providers.map(\.asProvider),
            ttl: lifetimes[providers[0].name], providerTTL: lifetimes)
        // What went wrong on the way without failing the answer (unresponsive engines) goes into
        // the answering attempt's detail.
        if let notes = fetched.value.notes,
            let index = fetched.metadata.attempts.lastIndex(where: {
                $0.provider == fetched.metadata.provider && $0.outcome == .ok
            })
        {
            fetched.metadata.attempts[index].detail = notes
        }
        let results = fetched.value
        let payload = SearchPayload(
            query: request.text, kind: request.kind, freshness: request.freshness, country: request.country,
            results: Array(results.results.prefix(request.count)), answers: results.answers, infobox: results.infobox,
            suggestions: results.results.isEmpty ? results.suggestions : [])
        guard let rank = request.read else { return ToolResult(metadata: fetched.metadata, payload: payload) }
        return try await Self.reading(rank, of: payload, metadata: fetched.metadata, context: context)
    }

    /// The search result followed by hit `rank`'s page, read by the read tool (its own cache,
    /// providers and attempts); a page that cannot be read is said in one line after the results.
    static func reading(
        _ rank: Int, of payload: SearchPayload, metadata: ResultMetadata, context: ToolContext
    ) async throws -> ToolResult {
        guard payload.results.indices.contains(rank - 1) else {
            return ToolResult(
                metadata: metadata,
                payload: SearchReadPayload(search: payload, read: nil, note: "no result \(rank) to read"))
        }
        let url = payload.results[rank - 1].url
        do {
            let read = try await ReadTool().run(
                ToolArguments([ReadParameter.url.rawValue: .string(url)]), context: context)
            return ToolResult(metadata: metadata, payload: SearchReadPayload(search: payload, read: read, note: nil))
        } catch let error as AlmanacError {
            let reason = error.attempts.compactMap(\.detail).first ?? error.message
            return ToolResult(
                metadata: metadata,
                payload: SearchReadPayload(
                    search: payload, read: nil, note: "result \(rank) could not be read: \(reason)"))
        }
    }

    // MARK: Arguments

    struct Request: Equatable {
        var text: String
        var kind: SearchKind
        var count: Int
        var freshness: SearchFreshness?
        var country: String?
        var language: String? = nil
        var page = 1
        var read: Int? = nil
    }

    /// Checks every argument before any network call; errors name the value and what would be right.
    static func request(from arguments: ToolArguments) throws -> Request {
        let text = HTMLText.collapseWhitespace(arguments.string(SearchParameter.query) ?? "")
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

        let count =
            try arguments.integer(SearchParameter.count, in: 1...maximumCount, example: "--count \(defaultCount)")
            ?? defaultCount

        var language: String?
        if let raw = arguments.string(SearchParameter.language)?.trimmingCharacters(in: .whitespaces) {
            // A language code, optionally with a region: en, de, pt-BR, zh-Hans.
            let parts = raw.split(separator: "-", omittingEmptySubsequences: false)
            let letters = { (part: Substring) in
                part.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.isAlphabetic }
            }
            guard (2...3).contains(parts[0].count), parts.count <= 2, parts.allSatisfy(letters),
                parts.dropFirst().allSatisfy({ (2...4).contains($0.count) })
            else {
                throw AlmanacError.usage(
                    "language must be a language code, got '\(raw)'", suggestion: "e.g. --language en, de or pt-BR")
            }
            language = parts.count == 1 ? raw.lowercased() : "\(parts[0].lowercased())-\(parts[1])"
        }

        // Brave serves at most 10 pages (offset 0-9).
        let page = try arguments.integer(SearchParameter.page, in: 1...maximumPage, example: "--page 2") ?? 1

        var freshness: SearchFreshness?
        if let raw = arguments.string(SearchParameter.freshness) {
            guard let value = SearchFreshness(rawValue: raw.lowercased()) else {
                throw AlmanacError.usage(
                    "search: '\(raw)' is not a valid freshness", suggestion: "expected one of: day, week, month")
            }
            freshness = value
        }

        var country: String?
        if let raw = arguments.string(SearchParameter.country)?.trimmingCharacters(in: .whitespaces) {
            let letters = raw.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.isAlphabetic }
            guard letters, raw.count == 2 || raw.lowercased() == "all" else {
                throw AlmanacError.usage(
                    "country must be a 2-letter code, got '\(raw)'", suggestion: "e.g. --country US, DE, GB (or ALL)")
            }
            country = raw.uppercased()
        }

        let read = try arguments.integer(SearchParameter.read, in: 1...count, example: "--read 1")

        return Request(
            text: text, kind: arguments.flag(SearchParameter.news) ? .news : .web, count: count, freshness: freshness,
            country: country, language: language, page: page, read: read)
    }

    /// Same question, same key, whichever provider answers: kind, filters and the query with
    /// case and spacing normalized. `count` is not part of it (every request asks for the maximum).
    static func cacheKey(_ query: SearchQuery) -> String {
        [
            "search", query.kind.rawValue, query.freshness?.rawValue ?? "any", query.country ?? "default",
            query.language?.lowercased() ?? "any", query.text.lowercased(),
        ].joined(separator: "|") + (query.page > 1 ? "|page \(query.page)" : "")
    }
}
