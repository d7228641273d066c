public import AlmanacCore
public import Foundation
import Logging
import Synchronization

/// The provider contract kit: one call checks any described provider against its recorded
/// answers, the way the Coordinator and the user depend on it.
///
/// ```swift
/// let violations = await ProviderContract.check(
///     ESPNProvider(), query: query, recorded: try ReplayTransport(directory: Fixtures.directory), now: now)
/// #expect(violations.isEmpty, "\(violations)")
/// ```
///
/// What it checks, each against the recorded answers bent one way:
/// - the recorded answers decode to a value (the baseline);
/// - no configured secret appears in any failure text or log line;
/// - the deadline is honoured even when the transport ignores cancellation (on a manual clock);
/// - a malformed body is a `decoding` failure;
/// - a 429 with `Retry-After` is remembered: a second coordinator on the same cache (another
///   process, with the runtime's SQLite cache) skips the provider;
/// - a 5xx falls through to the next provider;
/// - a partial answer (any one of its bodies cut short) is never a success.
public enum ProviderContract {
    /// The secret each of the provider's declared environment secrets is set to during the check.
    public static let sentinelSecret = "contract-kit-secret-7f3a"

    /// Runs every check; returns what broke (empty when the provider keeps the contract).
    ///
    /// - Parameters:
    ///   - provider: The provider under test.
    ///   - query: A query the recorded answers fit.
    ///   - recorded: Serves the recorded answers (usually a ``ReplayTransport`` over Fixtures/).
    ///   - settings: Settings the provider needs besides its secrets (a contact, a URL); every
    ///     environment and config secret it declares is set to ``sentinelSecret`` on top of them.
    ///   - now: The reference time of the recording.
    ///   - makeCache: The cache two coordinators share (a fresh one per call).
    ///   - reopen: The same cache as another process opens it (default: the same instance). With
    ///     the runtime's SQLite cache, a second store on the same file: the 429 check then proves
    ///     Retry-After is remembered across processes.
    public static func check<P: DescribedProvider>(
        _ provider: P, query: P.Query, recorded: any HTTPTransport, settings: Settings = Settings(), now: Date,
        makeCache: @escaping @Sendable () -> any CacheStore = { MemoryCacheStore() },
        reopen: @escaping @Sendable (any CacheStore) -> any CacheStore = { $0 }
    ) async -> [String] where P.Output: Codable {
        let run = ContractRun(
            provider: provider, query: query, recorded: recorded,
            settings: secretSettings(for: P.descriptor, base: settings),
            now: now, makeCache: makeCache, reopen: reopen)
        let baseline: P.Output
        let requests: Int
        do {
            (baseline, requests) = try await run.baseline()
        } catch {
            return ["baseline: the recorded answers do not decode: \(error)"]
        }
        var violations = await run.malformedBody()
        violations += await run.partialAnswers(requests: requests)
        violations += await run.serverError(next: baseline)
        violations += await run.retryAfter(next: baseline)
        violations += await run.deadline()
        violations += run.logs.lines.compactMap { run.leak($0, "log") }
        return violations
    }

    /// `base` with every secret the provider declares, in the environment or the config file,
    /// set to the sentinel (the environment wins where both are read, as in the runtime).
    static func secretSettings(for descriptor: ProviderDescriptor, base: Settings) -> Settings {
        var settings = base
        for secret in descriptor.secrets {
            switch secret {
            case .environment(let name): settings.environment[name] = sentinelSecret
            case .config(let path): settings.config = setting(path[...], in: settings.config)
            case .header, .queryParameter: break
            }
        }
        return settings
    }

    /// `table` with the value at `path` (creating tables on the way) set to the sentinel.
    private static func setting(_ path: ArraySlice<String>, in table: [String: ConfigValue]) -> [String: ConfigValue] {
        guard let key = path.first else { return table }
        var table = table
        if path.count == 1 {
            table[key] = .string(sentinelSecret)
        } else {
            table[key] = .table(setting(path.dropFirst(), in: table[key]?.tableValue ?? [:]))
        }
        return table
    }

    static func call<P: DescribedProvider>(
        _ provider: P, _ query: P.Query, _ environment: ProviderEnvironment
    )
        -> ProviderCall<P.Output>
    {
        ProviderCall(name: provider.name) { try await provider.fetch(query, in: environment) }
    }
}

/// One contract check of one provider: each check bends the recorded answers one way and returns
/// what broke.
struct ContractRun<P: DescribedProvider>: Sendable where P.Output: Codable {
    let provider: P
    let query: P.Query
    let recorded: any HTTPTransport
    /// The settings with every declared secret set to the sentinel.
    let settings: Settings
    let now: Date
    let makeCache: @Sendable () -> any CacheStore
    let reopen: @Sendable (any CacheStore) -> any CacheStore
    let logs = LogCapture()

    func environment(_ transport: any HTTPTransport, timeout: Duration = .seconds(5)) -> ProviderEnvironment {
        ProviderEnvironment(
            transport: transport, settings: settings, now: now, timeZone: TimeZone(identifier: "UTC") ?? .current,
            timeout: timeout)
    }

    func coordinator(_ cache: any CacheStore, clock: AttemptClock = AttemptClock(ContinuousClock())) -> Coordinator {
        Coordinator(
            cache: cache, configuration: .init(ttl: .seconds(60), timeout: .seconds(8)), now: { now }, clock: clock,
            logger: logs.logger)
    }

    /// A violation when `text` carries the sentinel secret.
    func leak(_ text: String, _ place: String) -> String? {
        text.contains(ProviderContract.sentinelSecret) ? "\(place): a secret appears in '\(text)'" : nil
    }

    func call(_ environment: ProviderEnvironment) -> ProviderCall<P.Output> {
        ProviderContract.call(provider, query, environment)
    }

    /// The recorded answers decode, and how many requests one answer takes.
    func baseline() async throws -> (P.Output, requests: Int) {
        let counting = CountingTransport(inner: recorded)
        let output = try await provider.fetch(query, in: environment(counting))
        return (output, counting.count)
    }

    /// A malformed body is a decoding failure, never a value.
    func malformedBody() async -> [String] {
        do {
            _ = try await provider.fetch(
                query,
                in: environment(
                    Bent(inner: recorded) { _, response in
                        var broken = response
                        broken.body = Data("{\"unexpected\": [1, 2,".utf8)
                        return broken
                    }))
            return ["malformed body: returned a value"]
        } catch let failure as ProviderFailure {
            var violations = [leak(failure.message, "malformed body")].compactMap { $0 }
            if failure.kind != .decoding {
                violations.append("malformed body: failure kind \(failure.kind), not decoding")
            }
            return violations
        } catch {
            return ["malformed body: threw \(type(of: error)), not a ProviderFailure"]
        }
    }

    /// A partial answer: each of its bodies cut in half in turn must fail the whole attempt.
    func partialAnswers(requests: Int) async -> [String] {
        var violations: [String] = []
        for index in 0..<max(requests, 1) {
            do {
                _ = try await provider.fetch(
                    query,
                    in: environment(
                        Bent(inner: recorded) { number, response in
                            guard number == index else { return response }
                            var cut = response
                            cut.body = response.body.prefix(response.body.count / 2)
                            return cut
                        }))
                violations.append("partial answer: body \(index + 1) of \(requests) cut in half still returned a value")
            } catch let failure as ProviderFailure {
                violations += [leak(failure.message, "partial answer")].compactMap { $0 }
            } catch {
                violations.append("partial answer: threw \(type(of: error)), not a ProviderFailure")
            }
        }
        return violations
    }

    /// A 5xx falls through to the next provider, and the failure is named.
    func serverError(next answer: P.Output) async -> [String] {
        do {
            let failing = environment(
                Bent(inner: recorded) { _, _ in HTTPResponse(status: 503, body: Data("busy".utf8)) })
            let next = ProviderCall<P.Output>(name: "contract-next") { answer }
            let request = CoordinatedRequest(
                tool: P.descriptor.tool, key: "contract-5xx", providers: [call(failing), next])
            let result = try await coordinator(makeCache()).fetch(request)
            var violations: [String] = []
            if result.metadata.provider != "contract-next" {
                violations.append("5xx: answered by \(result.metadata.provider), not the next provider")
            }
            let first = result.metadata.attempts.first
            if first?.provider != provider.name || first?.outcome != .failed {
                violations.append(
                    "5xx: first attempt \(String(describing: first)), expected a failure of \(provider.name)")
            }
            return violations + [leak(first?.detail ?? "", "5xx")].compactMap { $0 }
        } catch {
            return ["5xx: did not fall through: \(error)"]
        }
    }

    /// A 429 with Retry-After is remembered by the shared cache, so a second coordinator (another
    /// process, when `reopen` opens the file anew) skips the provider.
    func retryAfter(next answer: P.Output) async -> [String] {
        do {
            let limited = environment(
                Bent(inner: recorded) { _, _ in
                    HTTPResponse(status: 429, headers: ["Retry-After": "120"], body: Data())
                })
            let cache = makeCache()
            let next = ProviderCall<P.Output>(name: "contract-next") { answer }
            _ = try await coordinator(cache).fetch(
                CoordinatedRequest(tool: P.descriptor.tool, key: "contract-429-a", providers: [call(limited), next]))
            let second = try await coordinator(reopen(cache)).fetch(
                CoordinatedRequest(
                    tool: P.descriptor.tool, key: "contract-429-b", providers: [call(environment(recorded)), next]))
            guard second.metadata.attempts.first?.outcome == .skipped else {
                return [
                    "429: Retry-After not remembered; the next run's first attempt was \(String(describing: second.metadata.attempts.first))"
                ]
            }
            return []
        } catch {
            return ["429: \(error)"]
        }
    }

    /// The deadline holds even when the transport ignores cancellation (manual clock: no waiting).
    func deadline() async -> [String] {
        let manual = ManualClock()
        let stuck = environment(
            StubTransport { _ in
                try? await Task.sleep(for: .seconds(30))
                throw ProviderFailure(.network, "too late")
            }, timeout: .seconds(8))
        let deadline = coordinator(makeCache(), clock: AttemptClock(manual))
        let waiting = Task {
            try await deadline.fetch(
                CoordinatedRequest(tool: P.descriptor.tool, key: "contract-deadline", providers: [call(stuck)]))
        }
        do {
            try await manual.waitForSleepers()
            manual.advance(by: .seconds(8))
            _ = try await waiting.value
            return ["deadline: a transport that never answers produced a value"]
        } catch let error as AlmanacError {
            var violations = error.lines.compactMap { leak($0, "deadline") }
            if error.kind != .unavailable {
                violations.append("deadline: \(error.kind), expected every provider failed")
            }
            // "(8000 ms)": timed on the manual clock, not the wall's.
            if !error.lines.joined().contains("no answer within 8 s (8000 ms)") {
                violations.append("deadline: the failure does not say it timed out: \(error.lines)")
            }
            return violations
        } catch {
            waiting.cancel()
            return ["deadline: \(error)"]
        }
    }
}

/// Counts the requests passed to the transport it wraps.
final class CountingTransport: HTTPTransport {
    let inner: any HTTPTransport
    private let counter = Mutex(0)

    init(inner: any HTTPTransport) { self.inner = inner }

    var count: Int { counter.withLock { $0 } }

    /// Counts answers with a body to decode (2xx): a 401 challenge before the credentialed retry
    /// is the egress policy's, and is skipped once the origin is known to ask (docs/security.md).
    func send(_ request: HTTPRequest, timeout: Duration) async throws -> HTTPResponse {
        let response = try await inner.send(request, timeout: timeout)
        if (200..<300).contains(response.status) { counter.withLock { $0 += 1 } }
        return response
    }
}

/// Serves the recorded answers, each bent by `bend` (given its order of arrival among 2xx answers).
final class Bent: HTTPTransport {
    let inner: any HTTPTransport
    let bend: @Sendable (Int, HTTPResponse) -> HTTPResponse
    private let counter = Mutex(0)

    init(inner: any HTTPTransport, bend: @escaping @Sendable (Int, HTTPResponse) -> HTTPResponse) {
        self.inner = inner
        self.bend = bend
    }

    /// Numbers 2xx answers only (as ``CountingTransport`` counts them); others are bent as number -1.
    func send(_ request: HTTPRequest, timeout: Duration) async throws -> HTTPResponse {
        let response = try await inner.send(request, timeout: timeout)
        guard (200..<300).contains(response.status) else { return bend(-1, response) }
        let number = counter.withLock { value in
            defer { value += 1 }
            return value
        }
        return bend(number, response)
    }
}

/// Every log line written through its logger, for the no-secret check.
final class LogCapture: Sendable {
    private let storage = Mutex<[String]>([])

    var lines: [String] { storage.withLock { $0 } }

    var logger: Logger {
        var logger = Logger(label: "contract-kit") { _ in Handler(capture: self) }
        logger.logLevel = .trace
        return logger
    }

    func append(_ line: String) { storage.withLock { $0.append(line) } }

    struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            capture.append("\(event.level) \(event.message) \(event.metadata ?? [:]) \(metadata)")
        }
    }
}
