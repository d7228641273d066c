public import Foundation
public import Logging

/// Cache behaviour for one run.
public struct FetchOptions: Sendable, Equatable {
    /// Serve a fresh cached entry instead of asking providers (`--no-cache` turns this off).
    var readCache: Bool
    /// Store successful results.
    var writeCache: Bool

    /// Creates options; both default to on.
    public init(readCache: Bool = true, writeCache: Bool = true) {
        self.readCache = readCache
        self.writeCache = writeCache
    }
}

/// One provider, bound to a query, as the coordinator sees it: a name and a closure.
public struct ProviderCall<Output: Sendable>: Sendable {
    var name: String
    /// Fetches the value, with a note for the attempt's detail.
    var run: @Sendable () async throws -> NotedAnswer<Output>
    /// The provider's own older answer, asked for only when every provider failed.
    var staleCopy: @Sendable () async -> StaleCopy<Output>?
    /// Whether its rate-limit note is read before the attempt (``Provider/mayRateLimit``).
    var mayRateLimit = true

    /// Creates a call.
    public init(
        name: String, run: @escaping @Sendable () async throws -> Output,
        staleCopy: @escaping @Sendable () async -> StaleCopy<Output>? = { nil }
    ) {
        self.name = name
        self.run = { NotedAnswer(value: try await run()) }
        self.staleCopy = staleCopy
    }

    /// A call whose answer may carry a note for its attempt's detail (a factory, so a trailing
    /// closure given to ``init(name:run:staleCopy:)`` is never ambiguous).
    static func noted(
        name: String, run: @escaping @Sendable () async throws -> NotedAnswer<Output>,
        staleCopy: @escaping @Sendable () async -> StaleCopy<Output>? = { nil }, mayRateLimit: Bool = true
    ) -> ProviderCall {
        var call = ProviderCall(name: name, answering: run, staleCopy: staleCopy)
        call.mayRateLimit = mayRateLimit
        return call
    }

    private init(
        name: String, answering: @escaping @Sendable () async throws -> NotedAnswer<Output>,
        staleCopy: @escaping @Sendable () async -> StaleCopy<Output>?
    ) {
        self.name = name
        run = answering
        self.staleCopy = staleCopy
    }
}

/// A request to the coordinator: which tool, the normalized key, and the providers in order.
public struct CoordinatedRequest<Output: Sendable>: Sendable {
    var tool: String
    /// Normalized request key (without the tool name).
    var key: String
    /// Providers, already in priority order.
    var providers: [ProviderCall<Output>]
    /// Overrides the configured freshness.
    var ttl: Duration?
    /// Freshness by the provider that answered, overriding ``ttl`` for its entries (a paid API's
    /// answers kept longer than a self-hosted one's).
    var providerTTL: [String: Duration]
    /// Whether the result goes through the cache. When false (sources cheaper to read again than
    /// to cache, such as local files), nothing is read from or stored in it, no stale copy is
    /// served, and the value is handed back as the provider returned it (no JSON round trip).
    var cached: Bool

    /// Creates a request.
    public init(
        tool: String, key: String, providers: [ProviderCall<Output>], ttl: Duration? = nil, cached: Bool = true,
        providerTTL: [String: Duration] = [:]
    ) {
        self.tool = tool
        self.key = key
        self.providers = providers
        self.ttl = ttl
        self.cached = cached
        self.providerTTL = providerTTL
    }

    var cacheKey: String { "\(tool):\(key)" }
}

/// Runs providers in priority order behind a cache, with per-attempt deadlines, in-flight
/// de-duplication and stale-on-error.
///
/// Order: a fresh cache entry wins; otherwise providers are tried one after another (lower
/// priority value first, registration order on ties) and the first success is cached and
/// returned. When all fail, the newest of the expired cache entry and the providers' own copies
/// (``Provider/staleCopy(_:in:)``) younger than ``Configuration/staleLimit`` is served marked
/// stale; otherwise ``AlmanacError/unavailable(tool:attempts:)`` lists every attempt.
/// Failures and partial results are never cached.
public actor Coordinator {
    /// Tunables with documented defaults.
    public struct Configuration: Sendable {
        /// How long a result is fresh (`ALMANAC_CACHE_TTL`, default 60 s). Zero always refetches.
        var ttl: Duration
        /// Deadline per provider attempt (`ALMANAC_TIMEOUT`, default 8 s), enforced here.
        var timeout: Duration
        /// The oldest entry served when every provider fails (default 7 days).
        var staleLimit: Duration

        /// Creates a configuration.
        public init(
            ttl: Duration = .seconds(60), timeout: Duration = .seconds(8), staleLimit: Duration = .seconds(7 * 86_400)
        ) {
            self.ttl = ttl
            self.timeout = timeout
            self.staleLimit = staleLimit
        }
    }

    private struct Resolution: Sendable {
        var entry: CacheEntry
        var attempts: [ProviderAttempt]
        var stale: Bool
        /// The provider's own value (nil when the entry came from the cache), handed back as it is
        /// for ``OwnCacheBytes`` values instead of decoded again from the bytes just written.
        var value: (any Sendable)?
    }

    /// A provider's answer with the bytes it is cached as.
    private struct Encoded: Sendable {
        var payload: Data
        var value: any Sendable
    }

    nonisolated let configuration: Configuration
    private nonisolated let cache: any CacheStore
    private nonisolated let now: @Sendable () -> Date
    private let clock: AttemptClock
    private nonisolated let logger: Logger
    private var inFlight: [String: Task<Resolution, any Error>] = [:]
    private var upstreamCalls = 0

    /// Creates a coordinator.
    ///
    /// - Parameters:
    ///   - cache: Where results live (memory, or memory over SQLite).
    ///   - configuration: TTL, timeout and stale limit.
    ///   - now: The wall clock; injected so tests control TTL expiry.
    ///   - clock: Times attempts and enforces their deadline; injected so deadline tests do not
    ///     wait in real time.
    public init(
        cache: any CacheStore, configuration: Configuration = .init(),
        now: @escaping @Sendable () -> Date = { Date() }, clock: AttemptClock = AttemptClock(ContinuousClock()),
        logger: Logger = Logger(label: "almanac.coordinator")
    ) {
        self.cache = cache
        self.configuration = configuration
        self.now = now
        self.clock = clock
        self.logger = logger
    }

    /// How many provider calls this coordinator has started (for tests of de-duplication).
    var providerCallCount: Int { upstreamCalls }

    /// Waits for the cache writes not yet stored (a write-behind cache; a server's shutdown).
    public nonisolated func flushCache() async {
        await cache.flush()
    }

    /// Empties the cache; returns how many entries were removed.
    public func clearCache() async throws -> Int {
        try await cache.removeAll()
    }

    /// Resolves `request`: cache, then providers in order, then stale fallback.
    ///
    /// Nonisolated: decoding a cached or just-fetched result is pure work on Sendable values, so
    /// it runs on the caller's task, not the actor, and runs that share this coordinator (the
    /// briefing's sections) decode in parallel. The actor keeps only the in-flight table and the
    /// attempt count.
    public nonisolated func fetch<Output: Codable & Sendable>(
        _ request: CoordinatedRequest<Output>, options: FetchOptions = .init()
    ) async throws -> Fetched<Output> {
        if !request.cached { return try await fetchUncached(request) }
        let key = request.cacheKey
        // A tool's own TTL (finished games, web results) replaces the default, but an explicit
        // ALMANAC_CACHE_TTL=0 means "always refetch" and wins over it.
        var ttl = configuration.ttl == .zero ? .zero : (request.ttl ?? configuration.ttl)
        // Only an entry that may be served fresh is read here: the stale fallback is read again
        // when every provider failed, so a refetch of a big entry does not hold the old one too.
        if options.readCache, configuration.ttl != .zero {
            var cached: CacheEntry?
            do {
                cached = try await cache.entry(for: key)
            } catch {
                // A broken cache must not stop an answer; it is only an optimisation.
                logger.warning("cache read failed: \(error)")
            }
            if let entry = cached, let own = request.providerTTL[entry.provider] { ttl = own }
            if let entry = cached, age(of: entry) < ttl, let value = Self.decode(Output.self, entry) {
                let attempt = ProviderAttempt(provider: entry.provider, outcome: .cached, milliseconds: 0)
                return Fetched(value: value, metadata: metadata(entry, attempts: [attempt], stale: false))
            }
        }
        let resolution = try await resolution(request, key: key, options: options)
        if Output.self is any OwnCacheBytes.Type, let value = resolution.value as? Output {
            let provenance = metadata(resolution.entry, attempts: resolution.attempts, stale: resolution.stale)
            return Fetched(value: value, metadata: provenance)
        }
        guard let value = Self.decode(Output.self, resolution.entry) else {
            throw AlmanacError.internal("\(request.tool): could not decode a stored result")
        }
        return Fetched(
            value: value, metadata: metadata(resolution.entry, attempts: resolution.attempts, stale: resolution.stale))
    }

    /// A request that skips the cache: providers in order, the value as the provider returned it.
    private func fetchUncached<Output: Sendable>(_ request: CoordinatedRequest<Output>) async throws -> Fetched<Output>
    {
        var attempts: [ProviderAttempt] = []
        guard let (value, provider) = try await firstSuccess(request.providers, attempts: &attempts) else {
            throw AlmanacError.unavailable(tool: request.tool, attempts: attempts)
        }
        let metadata = ResultMetadata(
            tool: request.tool, provider: provider, fetchedAt: now(), ageSeconds: 0, stale: false, attempts: attempts)
        return Fetched(value: value, metadata: metadata)
    }

    /// The providers' answer (or a stale copy) for `key`, joining a resolution already in flight.
    /// Encoding happens in the provider's own task (``Deadline``), not here.
    private func resolution<Output: Codable & Sendable>(
        _ request: CoordinatedRequest<Output>, key: String, options: FetchOptions
    ) async throws -> Resolution {
        let task: Task<Resolution, any Error>
        if let running = inFlight[key] {
            task = running
        } else {
            let providers = request.providers.map { call in
                ProviderCall<Encoded>.noted(
                    name: call.name,
                    run: {
                        let answer = try await call.run()
                        let encoded = Encoded(payload: try Self.encode(answer.value), value: answer.value)
                        return NotedAnswer(value: encoded, note: answer.note)
                    },
                    staleCopy: {
                        guard let copy = await call.staleCopy(), let payload = try? Self.encode(copy.value) else {
                            return nil
                        }
                        return StaleCopy(value: Encoded(payload: payload, value: copy.value), fetchedAt: copy.fetchedAt)
                    }, mayRateLimit: call.mayRateLimit)
            }
            task = Task {
                try await self.resolve(tool: request.tool, key: key, providers: providers, options: options)
            }
            inFlight[key] = task
        }
        do {
            let resolution = try await task.value
            if inFlight[key] == task { inFlight[key] = nil }
            return resolution
        } catch {
            if inFlight[key] == task { inFlight[key] = nil }
            throw error
        }
    }

    private func resolve(
        tool: String, key: String, providers: [ProviderCall<Encoded>], options: FetchOptions
    ) async throws -> Resolution {
        var attempts: [ProviderAttempt] = []
        if let (answer, provider) = try await firstSuccess(providers, attempts: &attempts) {
            let entry = CacheEntry(key: key, tool: tool, provider: provider, fetchedAt: now(), payload: answer.payload)
            if options.writeCache {
                do { try await cache.store(entry) } catch { logger.warning("cache write failed: \(error)") }
            }
            return Resolution(entry: entry, attempts: attempts, stale: false, value: answer.value)
        }
        if Task.isCancelled { throw CancellationError() }
        var candidates: [CacheEntry] = []
        do {
            if let fallback = try await cache.entry(for: key) { candidates.append(fallback) }
        } catch {
            logger.warning("cache read failed: \(error)")
        }
        for provider in providers {
            if let copy = await provider.staleCopy() {
                candidates.append(
                    CacheEntry(
                        key: key, tool: tool, provider: provider.name, fetchedAt: copy.fetchedAt,
                        payload: copy.value.payload))
            }
        }
        // Never cached: the cache keeps only what an upstream answered for this very request.
        if let newest = candidates.max(by: { $0.fetchedAt < $1.fetchedAt }), age(of: newest) <= configuration.staleLimit
        {
            return Resolution(entry: newest, attempts: attempts, stale: true)
        }
        throw AlmanacError.unavailable(tool: tool, attempts: attempts)
    }

    /// Tries `providers` in order (skipping rate-limited ones, each under the deadline) and returns
    /// the first value with its provider's name, or nil when every one failed. Every attempt is
    /// appended to `attempts`.
    private func firstSuccess<Value: Sendable>(
        _ providers: [ProviderCall<Value>], attempts: inout [ProviderAttempt]
    ) async throws -> (value: Value, provider: String)? {
        for provider in providers {
            let limitKey = "ratelimit:\(provider.name)"
            // A provider that cannot be rate limited has no note: no read on its call's path.
            if provider.mayRateLimit, let note = try? await cache.note(for: limitKey), let until = Double(note),
                Date(timeIntervalSince1970: until) > now()
            {
                let resume = Date(timeIntervalSince1970: until)
                attempts.append(
                    ProviderAttempt(
                        provider: provider.name, outcome: .skipped, milliseconds: 0,
                        detail: "rate limited for another \(Int(resume.timeIntervalSince(now()).rounded(.up))) s"))
                continue
            }
            upstreamCalls += 1
            let elapsedTime = clock.stopwatch()
            do {
                let answer = try await Deadline.run(configuration.timeout, clock: clock, provider.run)
                let elapsed = Self.milliseconds(elapsedTime())
                attempts.append(
                    ProviderAttempt(provider: provider.name, outcome: .ok, milliseconds: elapsed, detail: answer.note))
                return (answer.value, provider.name)
            } catch {
                let elapsed = Self.milliseconds(elapsedTime())
                attempts.append(
                    Self.attempt(provider.name, error: error, milliseconds: elapsed, timeout: configuration.timeout))
                if let failure = error as? ProviderFailure, failure.kind == .rateLimited, let until = failure.retryAfter
                {
                    try? await cache.setNote(String(until.timeIntervalSince1970), for: limitKey)
                }
                if error is CancellationError || Task.isCancelled { throw CancellationError() }
            }
        }
        return nil
    }

    private static func attempt(
        _ provider: String, error: any Error, milliseconds: Int, timeout: Duration
    )
        -> ProviderAttempt
    {
        switch error {
        case is DeadlineExceeded:
            return ProviderAttempt(
                provider: provider, outcome: .timeout, milliseconds: milliseconds,
                detail: "no answer within \(Self.seconds(timeout)) s")
        case let failure as ProviderFailure:
            return ProviderAttempt(
                provider: provider, outcome: failure.kind == .timeout ? .timeout : .failed,
                milliseconds: milliseconds, detail: failure.message)
        case let failure as AlmanacError:
            return ProviderAttempt(
                provider: provider, outcome: .failed, milliseconds: milliseconds, detail: failure.message)
        case is DecodingError:
            return ProviderAttempt(
                provider: provider, outcome: .failed, milliseconds: milliseconds, detail: "unexpected response shape")
        default:
            return ProviderAttempt(
                provider: provider, outcome: .failed, milliseconds: milliseconds, detail: "\(type(of: error))")
        }
    }

    private nonisolated func age(of entry: CacheEntry) -> Duration {
        .milliseconds(Int64((now().timeIntervalSince(entry.fetchedAt) * 1000).rounded()))
    }

    private nonisolated func metadata(_ entry: CacheEntry, attempts: [ProviderAttempt], stale: Bool) -> ResultMetadata {
        ResultMetadata(
            tool: entry.tool, provider: entry.provider, fetchedAt: entry.fetchedAt,
            ageSeconds: max(0, Int(now().timeIntervalSince(entry.fetchedAt))), stale: stale, attempts: attempts)
    }

    private static func decode<Output: Decodable>(_ type: Output.Type, _ entry: CacheEntry) -> Output? {
        if let own = type as? any OwnCacheBytes.Type { return (try? own.init(cacheBytes: entry.payload)) as? Output }
        return try? Self.decoder.decode(type, from: entry.payload)
    }

    private static func encode<Value: Encodable>(_ value: Value) throws -> Data {
        if let own = value as? any OwnCacheBytes { return try own.cacheBytes() }
        return try encoder.encode(value)
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }

    private static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return value.rounded() == value ? String(Int(value)) : String(format: "%.2g", value)
    }

    static let encoder = JSONOutput.storageEncoder()

    static let decoder = JSONOutput.storageDecoder()
}
