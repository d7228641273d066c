public import Foundation

/// One provider attempt, as listed in the JSON envelope's `attempts` and in failure messages.
public struct ProviderAttempt: Sendable, Codable, Equatable {
    /// How the attempt ended.
    public enum Outcome: String, Sendable, Codable {
        /// Data came back.
        case ok
        /// The provider threw.
        case failed
        /// The deadline passed.
        case timeout
        /// Served from the cache instead of asking the provider.
        case cached
        /// Skipped: the provider is rate limited until a remembered time.
        case skipped
    }

    /// Provider name.
    public var provider: String
    /// Outcome.
    public var outcome: Outcome
    /// Wall time of the attempt in milliseconds.
    public var milliseconds: Int
    /// A safe one-line reason for failures.
    public var detail: String?

    /// Creates an attempt record.
    public init(provider: String, outcome: Outcome, milliseconds: Int, detail: String? = nil) {
        self.provider = provider
        self.outcome = outcome
        self.milliseconds = milliseconds
        self.detail = detail
    }

    enum CodingKeys: String, CodingKey {
        case provider, outcome
        case milliseconds = "ms"
        case detail
    }

    /// Appends the attempt as JSONEncoder writes it with sorted keys (``CodingKeys``; `detail`
    /// left out when nil), without an encoder run per attempt: the envelope's hot path.
    func writeJSON(to writer: inout JSONWriter) {
        writer.raw("{")
        if let detail {
            writer.raw(#""detail":"#)
            writer.string(detail)
            writer.raw(",")
        }
        writer.raw(#""ms":"#)
        writer.raw(String(milliseconds))
        writer.raw(#","outcome":"#)
        writer.string(outcome.rawValue)
        writer.raw(#","provider":"#)
        writer.string(provider)
        writer.raw("}")
    }
}

/// A coordinated result: the value plus where and when it came from.
public struct Fetched<Value: Sendable>: Sendable {
    /// The domain value.
    public var value: Value
    /// Facts for the envelope and the context header.
    public var metadata: ResultMetadata
}

/// Where and when a result came from, and whether it is stale.
public struct ResultMetadata: Sendable, Equatable {
    var tool: String
    /// The provider that produced the data.
    public var provider: String
    /// When the provider produced it.
    public var fetchedAt: Date
    /// Age in whole seconds at the time of output.
    public var ageSeconds: Int
    /// True when served from an expired cache entry because every provider failed.
    public var stale: Bool
    /// Every attempt made for this run (a cache hit is one `cached` attempt).
    public var attempts: [ProviderAttempt]

    /// Creates metadata.
    public init(
        tool: String, provider: String, fetchedAt: Date, ageSeconds: Int, stale: Bool, attempts: [ProviderAttempt]
    ) {
        self.tool = tool
        self.provider = provider
        self.fetchedAt = fetchedAt
        self.ageSeconds = ageSeconds
        self.stale = stale
        self.attempts = attempts
    }

    /// Failed attempts, for "stale because ... failed" lines.
    public var failures: [ProviderAttempt] {
        attempts.filter { $0.outcome == .failed || $0.outcome == .timeout || $0.outcome == .skipped }
    }
}
