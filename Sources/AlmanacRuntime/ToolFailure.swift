public import AlmanacCore
import Foundation

/// A failed tool call, mapped once for every front: its class, the exit status, the HTTP status,
/// the words metrics count it by, and its one-line forms.
public struct ToolFailure: Error, Sendable {
    /// What went wrong, as a front tells its caller.
    public enum Kind: Sendable, Equatable {
        /// Bad arguments, or a write refused: the caller can put it right.
        case usage
        /// The operator switched the tool off for untrusted callers.
        case switchedOff
        /// No tool has that name (none the caller may reach).
        case unknownTool
        /// Every provider failed.
        case unavailable
        /// The tool is not configured.
        case unconfigured
        /// A bug.
        case failed
        /// The call was cancelled.
        case cancelled
    }

    /// The class.
    public var kind: Kind
    /// The error as Almanac words it (a foreign error as an internal one).
    public var error: AlmanacError
    /// The error was not Almanac's own: a server says no more than "internal failure".
    public var foreign = false

    /// Maps any error a call can throw.
    public init(_ error: any Error) {
        switch error {
        case let failure as ToolFailure:
            self = failure
        case let known as AlmanacError:
            self.error = known
            // Kinds are not a closed enum: anything not named here is a bug.
            switch known.kind {
            case .usage: kind = .usage
            case .unavailable: kind = .unavailable
            case .configuration: kind = .unconfigured
            default: kind = .failed
            }
        case is CancellationError:
            self.error = .internal("cancelled")
            kind = .cancelled
            foreign = true
        default:
            self.error = .internal("unexpected \(type(of: error)): \(error)")
            kind = .failed
            foreign = true
        }
    }

    init(_ error: AlmanacError, kind: Kind) {
        self.error = error
        self.kind = kind
    }

    /// The words metrics count it by: usage, unavailable, unconfigured or error.
    var status: String {
        switch kind {
        case .usage, .switchedOff, .unknownTool: "usage"
        case .unavailable: "unavailable"
        case .unconfigured: "unconfigured"
        case .failed, .cancelled: "error"
        }
    }

    /// The HTTP status: 400, 403, 404, 502, 503 or 500.
    public var httpStatus: Int {
        switch kind {
        case .usage: 400
        case .switchedOff: 403
        case .unknownTool: 404
        case .unavailable: 502
        case .unconfigured: 503
        case .failed, .cancelled: 500
        }
    }

    /// The process exit status (sysexits.h; 130 when cancelled).
    var exitStatus: Int32 { kind == .cancelled ? 130 : error.exitStatus }

    /// One line: the message, then each provider's failure, else the suggestion.
    public var line: String {
        var line = "error: \(error.message)"
        if !error.attempts.isEmpty {
            line +=
                " ("
                + error.attempts.map { "\($0.provider): \($0.detail ?? $0.outcome.rawValue)" }
                .joined(separator: "; ") + ")"
        } else if let suggestion = error.suggestion, !suggestion.isEmpty {
            line += "; \(suggestion)"
        }
        return line
    }
}
