public import Foundation

/// A write a tool will not make until the caller confirms it: nothing has been changed.
///
/// The command line answers it by asking on the terminal (then runs the same words again with
/// `--yes`), or refuses in one line when there is no terminal to ask on.
public struct ConfirmationRequired: Error, Sendable, CustomStringConvertible {
    /// The tool that asks.
    public var tool: String
    /// One line saying exactly what would be written (item, calendar, local time and zone).
    public var preview: String
    /// The word that confirms on the command line.
    public var confirmWord: String
    /// For an untrusted caller: the single-use token a second, identical call passes as `confirm`.
    public var token: String?
    /// How long ``token`` is good for, in seconds.
    public var validSeconds: Int?

    /// Creates the request.
    public init(
        tool: String, preview: String, confirmWord: String = "--yes", token: String? = nil, validSeconds: Int? = nil
    ) {
        self.tool = tool
        self.preview = preview
        self.confirmWord = confirmWord
        self.token = token
        self.validSeconds = validSeconds
    }

    /// What a caller of a server is told: nothing was written, and how to write it.
    public var callerText: String {
        guard let token else { return description }
        return "not written yet: \(preview). To write exactly this, call \(tool) again with the same arguments "
            + "and \"confirm\": \"\(token)\" within \(validSeconds ?? 300) seconds; the token works once."
    }

    /// The one-line refusal when nobody can be asked.
    public var description: String {
        "\(tool): not written without confirmation: \(preview)"
    }

    /// The error the command line prints when it cannot ask (no terminal).
    public var refusal: AlmanacError {
        AlmanacError.usage(
            "\(tool): \(preview): not written (no terminal to ask on)",
            suggestion: "add \(confirmWord) to write without asking")
    }
}

/// Writes an untrusted caller asks for, on a front where the operator allowed them (`[serve]
/// allow_writes`, docs/security.md). Absent from a policy, every write is refused and the write
/// arguments are absent from the published schemas.
public struct CallerWrites: Sendable {
    /// The front the caller arrived by: `serve`, `mcp` or `ask`.
    var front: String
    /// The process's single-use confirmation tokens.
    public var tokens: WriteTokens
    /// Who asks (an MCP session, an HTTP client and its token): a token is good only for the caller
    /// it was issued to.
    public var caller: String
    /// Asks the person behind the caller (MCP elicitation, a terminal) with the preview: true to
    /// write, false not to, nil when nobody can be asked (then a preview and a token answer).
    public var ask: (@Sendable (String) async -> Bool?)?

    /// Creates the grant for `front`.
    public init(
        front: String, tokens: WriteTokens, caller: String? = nil, ask: (@Sendable (String) async -> Bool?)? = nil
    ) {
        self.front = front
        self.tokens = tokens
        self.caller = caller ?? front
        self.ask = ask
    }

    /// The one-line refusal of a write by an untrusted caller where writes are off.
    public static func refusal(tool: String, what: String) -> AlmanacError {
        AlmanacError.usage(
            "\(tool): \(what) writes, and writing is off for callers of tools serve, mcp or a model",
            suggestion:
                "the operator allows it per front with [serve] allow_writes = [\"mcp\", \"serve\", \"ask\"] "
                + "(docs/security.md); on the command line: tools run \(tool) ...")
    }
}

/// Single-use confirmation tokens for writes, kept in the memory of one server process.
///
/// A token is bound to one write (a fingerprint of the arguments and of the exact preview) and to
/// one caller, and is good for ``lifetime`` seconds. Redeeming it consumes it before the write,
/// so a replay, even a concurrent one, writes nothing.
public actor WriteTokens {
    /// How long a token is good for, in seconds.
    public nonisolated let lifetime: TimeInterval
    private let capacity: Int
    private let clock: @Sendable () -> Date
    private var pending: [String: Pending] = [:]

    private struct Pending {
        var fingerprint: String
        var caller: String
        var expires: Date
    }

    /// The answer to a token.
    public enum Redemption: Sendable, Equatable {
        /// Good: consumed now.
        case confirmed
        /// Never issued to this caller, or already used.
        case unknown
        /// Issued, but its time ran out (now removed).
        case expired
        /// Issued for another write (kept: the write it was issued for may still be confirmed).
        case otherWrite
    }

    /// Creates a store; `clock` is injectable for tests.
    public init(
        lifetime: TimeInterval = 300, capacity: Int = 256, clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.lifetime = lifetime
        self.capacity = capacity
        self.clock = clock
    }

    /// A new random token (128 bits from the system's secure generator, as hex).
    public nonisolated static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%08x", UInt32.random(in: .min ... .max, using: &generator)) }
            .joined()
    }

    /// Keeps `token` for the write `fingerprint` by `caller`.
    public func register(_ token: String, fingerprint: String, caller: String) {
        let now = clock()
        if pending.count >= capacity {
            pending = pending.filter { $0.value.expires > now }
            while pending.count >= capacity, let oldest = pending.min(by: { $0.value.expires < $1.value.expires }) {
                pending.removeValue(forKey: oldest.key)
            }
        }
        pending[token] = Pending(fingerprint: fingerprint, caller: caller, expires: now.addingTimeInterval(lifetime))
    }

    /// Consumes `token` when it was issued to `caller` for `fingerprint` and is still good.
    public func redeem(_ token: String, fingerprint: String, caller: String) -> Redemption {
        guard let entry = pending[token], entry.caller == caller else { return .unknown }
        guard entry.expires > clock() else {
            pending.removeValue(forKey: token)
            return .expired
        }
        guard entry.fingerprint == fingerprint else { return .otherWrite }
        pending.removeValue(forKey: token)
        return .confirmed
    }

    /// Tokens kept now (for tests).
    var count: Int { pending.count }
}
