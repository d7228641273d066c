import Foundation

/// An error a user sees: one line saying what was wrong and what would be right, and an exit status.
///
/// The message never contains secrets; providers scrub their own failure text (see
/// ``ProviderFailure``).
public struct AlmanacError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure, which decides the exit status.
    public enum Kind: Sendable, Equatable {
        /// Bad input (exit 64).
        case usage
        /// Every provider failed and nothing was cached (exit 69).
        case unavailable
        /// A configuration problem the user must fix, such as a missing key (exit 64 too: usage).
        case configuration
        /// A bug (exit 70).
        case `internal`
    }

    /// The kind.
    public let kind: Kind
    /// The one-line message.
    public let message: String
    /// What would be right, or how to fix it.
    public let suggestion: String?
    /// For ``Kind/unavailable``: each provider's attempt.
    public let attempts: [ProviderAttempt]

    init(kind: Kind, message: String, suggestion: String?, attempts: [ProviderAttempt] = []) {
        self.kind = kind
        // Messages echo arguments: every one is escaped here, once, for all error paths.
        self.message = TerminalText.escaped(message)
        self.suggestion = suggestion.map(TerminalText.escaped)
        self.attempts = attempts
    }

    /// Bad input: names what was wrong and what would be right.
    public static func usage(_ message: String, suggestion: String?) -> AlmanacError {
        AlmanacError(kind: .usage, message: message, suggestion: suggestion)
    }

    /// Missing or refused configuration (API key, calendar URL).
    public static func configuration(_ message: String, suggestion: String?) -> AlmanacError {
        AlmanacError(kind: .configuration, message: message, suggestion: suggestion)
    }

    /// Every provider failed and no cached copy exists.
    public static func unavailable(tool: String, attempts: [ProviderAttempt]) -> AlmanacError {
        let message =
            attempts.isEmpty
            ? "\(tool): no provider supports this request"
            : "\(tool): every provider failed"
        return AlmanacError(kind: .unavailable, message: message, suggestion: nil, attempts: attempts)
    }

    /// A bug.
    public static func `internal`(_ message: String) -> AlmanacError {
        AlmanacError(kind: .internal, message: message, suggestion: nil)
    }

    /// The process exit status for this error (sysexits.h).
    public var exitStatus: Int32 {
        switch kind {
        case .usage, .configuration: 64
        case .unavailable: 69
        case .internal: 70
        }
    }

    /// The lines printed to stderr: the message, then one line per provider attempt or the suggestion.
    public var lines: [String] {
        var lines = ["error: \(message)"]
        for attempt in attempts {
            lines.append("  \(attempt.provider): \(attempt.detail ?? attempt.outcome.rawValue) (\(attempt.milliseconds) ms)")
        }
        if let suggestion, !suggestion.isEmpty { lines.append("  \(suggestion)") }
        return lines
    }

    /// All lines joined.
    public var description: String { lines.joined(separator: "\n") }
}

/// Why one provider attempt failed; the text is safe to show (no secrets, no raw bodies).
public struct ProviderFailure: Error, Sendable, CustomStringConvertible, Equatable {
    /// Coarse class of failure, recorded in attempts.
    public enum Kind: String, Sendable, Codable {
        /// The deadline passed.
        case timeout
        /// Could not connect, or the connection broke.
        case network
        /// A non-success HTTP status.
        case http
        /// 401/403: credentials refused.
        case unauthorized
        /// 429: rate limited.
        case rateLimited
        /// The body could not be decoded.
        case decoding
        /// The request cannot be answered by this provider (not found, no such place).
        case notFound
        /// Missing configuration (no key).
        case unconfigured
    }

    /// The class.
    public var kind: Kind
    /// One line, e.g. "HTTP 500 from site.api.espn.com".
    public var message: String
    /// For rate limits: when to try again.
    public var retryAfter: Date?

    /// Creates a failure.
    public init(_ kind: Kind, _ message: String, retryAfter: Date? = nil) {
        self.kind = kind
        self.message = message
        self.retryAfter = retryAfter
    }

    /// The message.
    public var description: String { message }
}
