import Foundation

/// One web search hit, as any tool may show it (fenced: its text is untrusted).
public struct WebSearchHit: Sendable, Codable, Hashable {
    /// Page title (plain text).
    public var title: String
    /// Page URL.
    public var url: String
    /// Snippet (plain text: tags removed, entities decoded).
    public var snippet: String
    /// Upstream's age text or date, when given.
    public var age: String?

    /// Creates a hit.
    public init(title: String, url: String, snippet: String, age: String? = nil) {
        self.title = title
        self.url = url
        self.snippet = snippet
        self.age = age
    }
}

/// Web search as a capability other tools can fall back to without depending on the search module.
public protocol WebSearching: Sendable {
    /// The provider's name for provenance (`brave`, `searxng`).
    var providerName: String { get }
    /// Runs a web search for `query`, returning at most `count` hits.
    func search(_ query: String, count: Int, in environment: ProviderEnvironment) async throws -> [WebSearchHit]
    /// The hits with a note on what went wrong without failing the search (SearXNG engines that
    /// did not answer). Default: ``search(_:count:in:)``, no note.
    func searchNoted(
        _ query: String, count: Int, in environment: ProviderEnvironment
    ) async throws
        -> NotedAnswer<[WebSearchHit]>
    /// The single searchers behind this one, in the order they are tried (default: itself).
    var searchers: [any WebSearching] { get }
}

extension WebSearching {
    /// A single searcher is its own chain.
    public var searchers: [any WebSearching] { [self] }

    /// Most searchers have nothing to note beside their hits.
    public func searchNoted(
        _ query: String, count: Int, in environment: ProviderEnvironment
    ) async throws
        -> NotedAnswer<[WebSearchHit]>
    {
        NotedAnswer(value: try await search(query, count: count, in: environment))
    }
}

/// The configured web searchers in the order tried (the search tool's own chain: Brave, then
/// SearXNG): one chain that every tool's web fallback shares.
public struct WebSearchChain: WebSearching {
    /// The members, in the order tried.
    let members: [any WebSearching]

    /// Creates a chain; nil when `members` is empty (no web search configured).
    public init?(_ members: [any WebSearching]) {
        guard !members.isEmpty else { return nil }
        self.members = members.flatMap(\.searchers)
    }

    /// The members' names joined (`brave+searxng`); a fallback names the one that answered.
    public var providerName: String { members.map(\.providerName).joined(separator: "+") }

    /// The members.
    public var searchers: [any WebSearching] { members }

    /// The first member's hits that are not empty; the last failure when every member failed.
    public func search(_ query: String, count: Int, in environment: ProviderEnvironment) async throws -> [WebSearchHit]
    {
        try await searchNoted(query, count: count, in: environment).value
    }

    /// The first member's hits that are not empty, with its note.
    public func searchNoted(
        _ query: String, count: Int, in environment: ProviderEnvironment
    ) async throws
        -> NotedAnswer<[WebSearchHit]>
    {
        var lastFailure: (any Error)?
        for member in members {
            do {
                let answer = try await member.searchNoted(query, count: count, in: environment)
                if !answer.value.isEmpty { return answer }
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                lastFailure = error
            }
        }
        if let lastFailure { throw lastFailure }
        return NotedAnswer(value: [])
    }
}

/// How many hits a web fallback shows, in every tool: enough to cross-check, few enough for a
/// small model's context.
public enum WebSearchFallbacks {
    /// Hits asked for and shown.
    static let hitCount = 5
    /// The priority of the first searcher; each later one is one more (after every tool's own API).
    public static let firstPriority = 100
}

/// Web search standing in for a tool's own upstream, last in its chain: one per configured
/// searcher, named after it (`brave`, `searxng`), so the envelope's `provider` and `attempts`
/// say which search answered or failed.
///
/// A tool says how its query becomes search words and how the hits become its output:
///
/// ```swift
/// WebSearchFallback.chain(context.environment.webSearch,
///     question: { $0.searchText },
///     answer: { query, words, hits in .web(WebWeather(place: query.placeText, query: words, hits: hits)) })
/// ```
public struct WebSearchFallback<Query: Sendable, Output: Sendable>: Provider {
    let searcher: any WebSearching
    /// Lower is tried first.
    public let priority: Int
    /// The search words for a query; nil or empty: this query cannot be searched (skipped).
    let question: @Sendable (Query) -> String?
    /// The tool's output from the query, the words searched and the hits (never empty).
    let answer: @Sendable (Query, String, [WebSearchHit]) -> Output

    /// Creates the fallback over one searcher.
    init(
        searcher: any WebSearching, priority: Int = WebSearchFallbacks.firstPriority,
        question: @escaping @Sendable (Query) -> String?,
        answer: @escaping @Sendable (Query, String, [WebSearchHit]) -> Output
    ) {
        self.searcher = searcher
        self.priority = priority
        self.question = question
        self.answer = answer
    }

    /// One fallback per searcher of `chain` (none when it is nil), priorities 100, 101, ...
    public static func chain(
        _ chain: (any WebSearching)?, question: @escaping @Sendable (Query) -> String?,
        answer: @escaping @Sendable (Query, String, [WebSearchHit]) -> Output
    ) -> [WebSearchFallback] {
        (chain?.searchers ?? []).enumerated().map { index, searcher in
            WebSearchFallback(
                searcher: searcher, priority: WebSearchFallbacks.firstPriority + index, question: question,
                answer: answer)
        }
    }

    /// The searcher's name (`brave`, `searxng`).
    public var name: String { searcher.providerName }

    /// Only queries that give search words.
    public func supports(_ query: Query) -> Bool { !(words(query) ?? "").isEmpty }

    /// Searches; no hits is a `notFound` failure, so the chain goes on.
    public func fetch(_ query: Query, in environment: ProviderEnvironment) async throws -> Output {
        try await fetchNoted(query, in: environment).value
    }

    /// Searches, keeping the searcher's note (unresponsive engines) for the attempt's detail.
    public func fetchNoted(_ query: Query, in environment: ProviderEnvironment) async throws -> NotedAnswer<Output> {
        guard let text = words(query), !text.isEmpty else {
            throw ProviderFailure(.notFound, "\(name): nothing to search for")
        }
        let found = try await searcher.searchNoted(text, count: WebSearchFallbacks.hitCount, in: environment)
        guard !found.value.isEmpty else { throw ProviderFailure(.notFound, "\(name): no web results for '\(text)'") }
        return NotedAnswer(
            value: answer(query, text, Array(found.value.prefix(WebSearchFallbacks.hitCount))), note: found.note)
    }

    private func words(_ query: Query) -> String? {
        question(query)?.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
