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
    /// The provider's name for provenance (`brave`).
    var providerName: String { get }
    /// Runs a web search for `query`, returning at most `count` hits.
    func search(_ query: String, count: Int, in environment: ProviderEnvironment) async throws -> [WebSearchHit]
}
