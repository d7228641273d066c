public import AlmanacCore
public import Foundation
import Synchronization

/// A settable wall clock for coordinator tests.
public final class ManualNow: Sendable {
    private let current: Mutex<Date>

    /// Starts at `date`.
    public init(_ date: Date = Date(timeIntervalSince1970: 1_750_000_000)) {
        current = Mutex(date)
    }

    /// The current value.
    public var date: Date { current.withLock { $0 } }

    /// Moves time forward.
    public func advance(_ seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// A closure for ``Coordinator/init(cache:configuration:now:logger:)``.
    public var closure: @Sendable () -> Date { { self.date } }
}

/// Fixed metadata for golden renders (no clocks, no timings).
public enum TestMetadata {
    /// Metadata as if `provider` answered at `fetchedAt`, `age` seconds ago.
    public static func fresh(tool: String, provider: String, fetchedAt: Date, age: Int = 0) -> ResultMetadata {
        ResultMetadata(
            tool: tool, provider: provider, fetchedAt: fetchedAt, ageSeconds: age, stale: false,
            attempts: [ProviderAttempt(provider: provider, outcome: .ok, milliseconds: 0)])
    }
}

/// A transport that answers from a closure (fault injection the real peers cannot produce on demand).
public struct StubTransport: HTTPTransport {
    let handler: @Sendable (HTTPRequest) async throws -> HTTPResponse

    /// Creates a stub.
    public init(_ handler: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) {
        self.handler = handler
    }

    /// Calls the handler.
    public func send(_ request: HTTPRequest, timeout: Duration) async throws -> HTTPResponse {
        try await handler(request)
    }
}

/// Builds a provider environment for tests.
public func testEnvironment(
    transport: any HTTPTransport, now: Date, timeZone: String = "UTC", settings: Settings = Settings(),
    timeout: Duration = .seconds(5)
) -> ProviderEnvironment {
    ProviderEnvironment(
        transport: transport, settings: settings, now: now,
        timeZone: TimeZone(identifier: timeZone) ?? TimeZone(secondsFromGMT: 0)!, timeout: timeout)
}
