public import Foundation

/// An error a user sees: one line saying what was wrong and what would be right, and an exit status.
///
/// The message never contains secrets; providers scrub their own failure text (see
/// ``ProviderFailure``).
public struct AlmanacError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure, which decides the exit status.
    ///
    /// A struct over a private code rather than a public enum (the shape of Hummingbird's
    /// errors), so a kind added later breaks no caller: `.usage` reads as before, and callers
    /// compare with `==` (or `switch` with a `default`) instead of switching exhaustively.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Code: String, Sendable, Hashable {
            case usage, unavailable, configuration, `internal`
        }

        private let code: Code

        private init(_ code: Code) { self.code = code }

        /// Bad input (exit 64).
        public static let usage = Kind(.usage)
        /// Every provider failed and nothing was cached (exit 69).
        public static let unavailable = Kind(.unavailable)
        /// A configuration problem the user must fix, such as a missing key (exit 64 too: usage).
        public static let configuration = Kind(.configuration)
        /// A bug (exit 70).
        static let `internal` = Kind(.internal)

        /// The kind's name, e.g. `usage`.
        public var description: String { code.rawValue }

        /// The process exit status for errors of this kind (sysexits.h): 64 usage and
        /// configuration, 69 unavailable, 70 internal.
        public var exitStatus: Int32 {
            switch code {
            case .usage, .configuration: 64
            case .unavailable: 69
            case .internal: 70
            }
        }
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

    /// An upstream failed in a way one line says best (a calendar server refused or lost a write):
    /// exit 69, no per-provider lines.
    public static func unavailable(_ message: String, suggestion: String?) -> AlmanacError {
        AlmanacError(kind: .unavailable, message: message, suggestion: suggestion)
    }

    /// A bug.
    public static func `internal`(_ message: String) -> AlmanacError {
        AlmanacError(kind: .internal, message: message, suggestion: nil)
    }

    /// The process exit status for this error (sysexits.h).
    public var exitStatus: Int32 { kind.exitStatus }

    /// The lines printed to stderr: the message, then one line per provider attempt or the suggestion.
    public var lines: [String] {
        var lines = ["error: \(message)"]
        for attempt in attempts {
            lines.append(
                "  \(attempt.provider): \(attempt.detail ?? attempt.outcome.rawValue) (\(attempt.milliseconds) ms)")
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
    ///
    /// A struct over a private code rather than a public enum, for the reason
    /// ``AlmanacError/Kind`` is one: a kind added later breaks no caller's `switch`.
    public struct Kind: Sendable, Hashable, Codable, CustomStringConvertible {
        private enum Code: String, Sendable, Hashable, Codable {
            case timeout, network, http, unauthorized, rateLimited, decoding, notFound, unconfigured
        }

        private let code: Code

        private init(_ code: Code) { self.code = code }

        /// The deadline passed.
        public static let timeout = Kind(.timeout)
        /// Could not connect, or the connection broke.
        public static let network = Kind(.network)
        /// A non-success HTTP status.
        public static let http = Kind(.http)
        /// 401/403: credentials refused.
        public static let unauthorized = Kind(.unauthorized)
        /// 429: rate limited.
        public static let rateLimited = Kind(.rateLimited)
        /// The body could not be decoded.
        public static let decoding = Kind(.decoding)
        /// The request cannot be answered by this provider (not found, no such place).
        public static let notFound = Kind(.notFound)
        /// Missing configuration (no key).
        public static let unconfigured = Kind(.unconfigured)

        /// The kind's name, e.g. `rateLimited` (what the enum's raw value was).
        var rawValue: String { code.rawValue }
        /// The kind's name.
        public var description: String { code.rawValue }

        /// Decodes the name as the enum encoded it.
        public init(from decoder: any Decoder) throws {
            code = try Code(from: decoder)
        }

        /// Encodes the name, as the enum did.
        public func encode(to encoder: any Encoder) throws {
            try code.encode(to: encoder)
        }
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
