public import Foundation
public import Logging

/// Everything a tool needs for one run: the coordinator, the provider environment and options.
public struct ToolContext: Sendable {
    /// Shared cache, fallback and de-duplication.
    public var coordinator: Coordinator
    /// What providers get.
    public var environment: ProviderEnvironment
    /// Cache behaviour for this run.
    public var fetchOptions: FetchOptions
    /// Logs go to stderr (never secrets).
    public var logger: Logger

    /// Creates a context.
    public init(
        coordinator: Coordinator, environment: ProviderEnvironment,
        fetchOptions: FetchOptions = .init(), logger: Logger = Logger(label: "almanac")
    ) {
        self.coordinator = coordinator
        self.environment = environment
        self.fetchOptions = fetchOptions
        self.logger = logger
    }

    /// Shortcut for `environment.now`.
    public var now: Date { environment.now }
    /// Shortcut for `environment.timeZone`.
    public var timeZone: TimeZone { environment.timeZone }
    /// Who asked for this run (`environment.egress.trust`).
    public var trust: CallerTrust { environment.egress.trust }
    /// Shortcut for `environment.settings`.
    public var settings: Settings { environment.settings }

    /// Runs `providers` that support `query` through the coordinator, caching under `key`.
    ///
    /// An untrusted caller's answers are cached apart (``EgressPolicy/cacheScope`` before `key`):
    /// what the command line fetched, any address reachable, never answers them, fresh or stale.
    ///
    /// - Parameters:
    ///   - tool: The tool name (part of the cache key and the envelope).
    ///   - key: A normalized description of the question: equal questions give equal keys.
    ///   - query: The typed query handed to each provider.
    ///   - providers: Candidates; sorted here by priority (stable for ties).
    ///   - ttl: Overrides the configured freshness for this kind of data.
    ///   - cached: False for sources cheaper to read again than to cache (local files): see
    ///     ``CoordinatedRequest/cached``.
    ///   - providerTTL: Freshness by the provider that answered (``CoordinatedRequest/providerTTL``).
    public func fetch<Query: Sendable, Output: Codable & Sendable>(
        tool: String, key: String, query: Query,
        providers: [any Provider<Query, Output>], ttl: Duration? = nil, cached: Bool = true,
        providerTTL: [String: Duration] = [:]
    ) async throws -> Fetched<Output> {
        let environment = self.environment
        let calls = providers.enumerated()
            .sorted { ($0.element.priority, $0.offset) < ($1.element.priority, $1.offset) }
            .map(\.element)
            .filter { $0.supports(query) }
            .map { provider in
                ProviderCall<Output>.noted(
                    name: provider.name,
                    run: { try await provider.fetchNoted(query, in: environment) },
                    staleCopy: { await provider.staleCopy(query, in: environment) },
                    mayRateLimit: provider.mayRateLimit)
            }
        return try await coordinator.fetch(
            CoordinatedRequest(
                tool: tool, key: environment.egress.cacheScope + key, providers: calls, ttl: ttl, cached: cached,
                providerTTL: providerTTL),
            options: fetchOptions
        )
    }
}
