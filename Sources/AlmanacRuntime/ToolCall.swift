public import AlmanacCore
public import Foundation

/// One call of a tool by any front (`tools run`, `tools mcp`, `tools serve`): what to run and how
/// the answer is shaped. ``Runtime/answer(_:)`` checks, runs, renders, caps and maps errors for
/// all of them, so the fronts differ only in how they read a request and write an answer.
public struct ToolCall: Sendable {
    /// The arguments as a front reads them.
    public enum Input: Sendable {
        /// Command-line words: the trusted caller, every tool and argument.
        case words([String])
        /// JSON arguments from a caller Almanac does not trust (servers, a model): checked against
        /// the schema such callers see (docs/security.md).
        case json([String: JSONValue])
    }

    /// The tool's name as the caller wrote it.
    var tool: String
    /// Its arguments.
    public var input: Input
    /// The rendering of ``ToolReply/text``.
    public var format: OutputFormat = .context
    /// Token budget of the context text.
    public var budget: Int?
    /// Also give the JSON envelope (servers answer with both).
    public var envelope = false
    /// The cap on the answer's bytes when ``envelope`` is set (the servers' answers), nil for none;
    /// an answer without the envelope is not cut (the command line prints what it gets).
    public var cap: AnswerCap?
    /// JSON values must have the types the schema declares (OpenAPI publishes them as types); MCP
    /// and a model's calls are read as leniently as words are.
    public var strictTypes = false
    /// The viewer's zone for this call, else the runtime's.
    public var timeZone: TimeZone?
    /// Who asks, for untrusted calls: a write's token is good only for the caller it was issued to.
    public var caller: String?
    /// Asks the person behind an untrusted caller to confirm a write (MCP elicitation).
    public var ask: (@Sendable (String) async -> Bool?)?
    /// The command line's answer to a write that needs confirming: returns to write (the words are
    /// run again with the confirming word), throws the refusal otherwise. Nil: the answer is
    /// ``ToolAnswer/Outcome/confirm(_:)``.
    public var confirm: (@Sendable (ConfirmationRequired) async throws -> Void)?

    /// Creates a call of `tool` with `input`.
    public init(tool: String, input: Input) {
        self.tool = tool
        self.input = input
    }
}

/// The cap on one answer (see ``AnswerLimit``): `limit` bytes for the envelope and the context
/// text together, plus `overhead`, the bytes a front adds to join them (HTTP puts both in one body).
public struct AnswerCap: Sendable {
    /// Largest answer in bytes.
    var limit: Int
    /// Bytes the front adds around the two parts.
    var overhead: Int

    /// Creates the cap.
    public init(limit: Int, overhead: Int = 0) {
        self.limit = limit
        self.overhead = overhead
    }
}

/// What became of a ``ToolCall``.
public struct ToolAnswer: Sendable {
    /// The answer, a write waiting for confirmation, or a mapped failure.
    public enum Outcome: Sendable {
        /// The tool answered.
        case reply(ToolReply)
        /// Nothing was written: the preview and how to confirm.
        case confirm(ConfirmationRequired)
        /// The call failed.
        case failed(ToolFailure)
    }

    /// The tool the name resolved to, nil when it named none the caller may reach.
    public var tool: (any Tool)?
    /// How it went.
    public var outcome: Outcome
    /// The providers tried.
    public var attempts: [ProviderAttempt]

    /// Creates an answer (a front that fails before calling, such as on an unreadable body, makes one).
    public init(tool: (any Tool)?, outcome: Outcome, attempts: [ProviderAttempt] = []) {
        self.tool = tool
        self.outcome = outcome
        self.attempts = attempts
    }

    /// How it went in the words metrics count by: ok, confirm, usage, unavailable, unconfigured, error.
    public var status: String {
        switch outcome {
        case .reply: "ok"
        case .confirm: "confirm"
        case .failed(let failure): failure.status
        }
    }
}

/// A tool's answer, rendered and capped.
public struct ToolReply: Sendable {
    /// The result as the tool gave it.
    public var result: ToolResult
    /// The result in the call's format (cut to the cap when one is set with the envelope).
    public var text: [UInt8]
    /// The JSON envelope, when the call asked for it (`data` dropped when over the cap).
    public var envelope: [UInt8]?

    /// ``text`` as a string.
    public var context: String { String(decoding: text, as: UTF8.self) }
}
