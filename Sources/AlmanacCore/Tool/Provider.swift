public import Foundation

/// The SPI a data source implements: one upstream API, no caching, no output formatting.
///
/// ## Implementation requirements
/// - Speak only through ``ProviderEnvironment/transport`` so replay and loopback tests work.
/// - Throw ``ProviderFailure`` with a short message that never contains secrets.
/// - Return complete results or throw: a partial result must not look like success.
public protocol Provider<Query, Output>: Sendable {
    /// The typed request this provider understands.
    associatedtype Query: Sendable
    /// The API-agnostic domain value it returns.
    associatedtype Output: Sendable
    /// Stable name, e.g. `espn`, shown in attempts and JSON `provider`.
    var name: String { get }
    /// Lower is tried first. Ties keep registration order.
    var priority: Int { get }
    /// Whether this provider can answer `query` at all (unsupported providers are skipped silently).
    func supports(_ query: Query) -> Bool
    /// Fetches and decodes. Cancellation must be honoured (the coordinator enforces deadlines).
    func fetch(_ query: Query, in environment: ProviderEnvironment) async throws -> Output
    /// The answer with a note for its attempt's detail: what went wrong on the way without
    /// failing it (SearXNG engines that did not answer). Default: ``fetch(_:in:)``, no note.
    func fetchNoted(_ query: Query, in environment: ProviderEnvironment) async throws -> NotedAnswer<Output>
    /// An older answer to `query` the provider keeps itself (a CalDAV mirror), with when it was
    /// fetched. Asked only when every provider failed; served labelled stale. Default: none.
    func staleCopy(_ query: Query, in environment: ProviderEnvironment) async -> StaleCopy<Output>?
    /// Whether it can be rate limited (throw ``ProviderFailure`` `.rateLimited` with a reset time):
    /// only then does the coordinator read its rate-limit note before each attempt. Default: true.
    var mayRateLimit: Bool { get }
}

/// A provider that declares itself with a ``ProviderDescriptor``: its name and priority come
/// from the descriptor, so they are written once.
public protocol DescribedProvider<Query, Output>: Provider {
    /// What this provider is (name, priority, upstream, secrets, terms, probe, decoders).
    static var descriptor: ProviderDescriptor { get }
}

extension DescribedProvider {
    /// The descriptor's name.
    public var name: String { Self.descriptor.name }
    /// The descriptor's priority.
    public var priority: Int { Self.descriptor.priority }
    /// The descriptor.
    public var descriptor: ProviderDescriptor { Self.descriptor }
}

/// An answer and what went wrong on the way without failing it, for the attempt's detail.
public struct NotedAnswer<Value: Sendable>: Sendable {
    /// The answer.
    public var value: Value
    /// One line for the answering attempt's `detail`, or nil.
    public var note: String?

    /// Creates a noted answer.
    public init(value: Value, note: String? = nil) {
        self.value = value
        self.note = note
    }
}

/// A provider's own older answer, offered when its upstream cannot be reached.
public struct StaleCopy<Value: Sendable>: Sendable {
    /// The answer as it was.
    var value: Value
    /// When it was fetched from upstream.
    var fetchedAt: Date

    /// Creates a copy.
    public init(value: Value, fetchedAt: Date) {
        self.value = value
        self.fetchedAt = fetchedAt
    }
}

extension Provider {
    /// Most providers support every query of their type.
    public func supports(_ query: Query) -> Bool { true }

    /// Any provider over HTTP may be told to wait.
    public var mayRateLimit: Bool { true }

    /// Most providers have nothing to note beside an answer.
    public func fetchNoted(_ query: Query, in environment: ProviderEnvironment) async throws -> NotedAnswer<Output> {
        NotedAnswer(value: try await fetch(query, in: environment))
    }

    /// Most providers keep nothing beyond the Coordinator's cache.
    public func staleCopy(_ query: Query, in environment: ProviderEnvironment) async -> StaleCopy<Output>? { nil }

    /// The provider's listing entry.
    public var info: ProviderInfo { ProviderInfo(name: name, priority: priority) }
}

/// What a provider may use: the HTTP seam, settings and the current time.
public struct ProviderEnvironment: Sendable {
    /// The HTTP seam (live, replay or a test double).
    public var transport: any HTTPTransport
    /// Environment variables and the config file.
    public var settings: Settings
    /// The reference "now" (injectable for tests and fixtures).
    public var now: Date
    /// The viewer's time zone.
    var timeZone: TimeZone
    /// Per-attempt deadline; transports get it too, so they can give up early.
    public var timeout: Duration
    /// Web search, when a search provider is configured; used by fallback providers.
    public var webSearch: (any WebSearching)?
    /// Persistent provider state (sync tokens, ETags); survives across processes in the runtime.
    public var state: any ProviderStateStore
    /// Who asked, and what a URL from that caller or from data may reach (docs/security.md).
    public var egress: EgressPolicy

    /// Creates a provider environment.
    public init(
        transport: any HTTPTransport, settings: Settings, now: Date, timeZone: TimeZone,
        timeout: Duration, webSearch: (any WebSearching)? = nil, state: any ProviderStateStore = MemoryStateStore(),
        egress: EgressPolicy = .commandLine
    ) {
        self.egress = egress
        self.transport = transport
        self.settings = settings
        self.now = now
        self.timeZone = timeZone
        self.timeout = timeout
        self.webSearch = webSearch
        self.state = state
    }
}

extension ProviderEnvironment {
    /// Fetches through the egress policy (``EgressPolicy/fetch(_:via:timeout:service:configured:credential:)``)
    /// with this environment's transport and deadline: for URLs that come from callers or from data,
    /// and for any request that carries a secret.
    public func fetch(
        _ request: HTTPRequest, service: String, configured: Set<Origin> = [], credential: BoundCredential? = nil
    ) async throws -> HTTPResponse {
        try await egress.fetch(
            request, via: transport, timeout: timeout, service: service, configured: configured, credential: credential)
    }
}
