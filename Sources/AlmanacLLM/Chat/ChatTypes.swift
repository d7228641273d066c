public import AlmanacCore
import Foundation

/// One OpenAI chat message.
struct ChatMessage: Sendable, Codable, Equatable {
    /// `system`, `user`, `assistant` or `tool`.
    var role: String
    /// The text. Always sent (as "" when empty): chat templates concatenate it.
    var content: String
    /// For assistant messages that call tools.
    var toolCalls: [ToolCall]?
    /// For `tool` messages: the call answered.
    var toolCallID: String?
    /// For `tool` messages: the tool's name.
    var name: String?

    enum CodingKeys: String, CodingKey {
        case role, content, name
        case toolCalls = "tool_calls"
        case toolCallID = "tool_call_id"
    }

    init(
        role: String, content: String, toolCalls: [ToolCall]? = nil, toolCallID: String? = nil, name: String? = nil
    ) {
        self.role = role
        self.content = content
        self.toolCalls = toolCalls
        self.toolCallID = toolCallID
        self.name = name
    }

    /// Decodes a message; a `null` content reads as "".
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        role = try container.decodeIfPresent(String.self, forKey: .role) ?? "assistant"
        content = try container.decodeIfPresent(String.self, forKey: .content) ?? ""
        toolCalls = try container.decodeIfPresent([ToolCall].self, forKey: .toolCalls)
        toolCallID = try container.decodeIfPresent(String.self, forKey: .toolCallID)
        name = try container.decodeIfPresent(String.self, forKey: .name)
    }

    static func system(_ text: String) -> ChatMessage { ChatMessage(role: "system", content: text) }
    static func user(_ text: String) -> ChatMessage { ChatMessage(role: "user", content: text) }
}

/// An OpenAI tool call as the model returns it.
struct ToolCall: Sendable, Codable, Equatable {
    /// The call id (echoed in the `tool` message).
    var id: String
    /// Always `function`.
    var type: String
    /// The function and its JSON-encoded arguments.
    var function: FunctionCall

    /// A function name and arguments (a JSON object as a string).
    struct FunctionCall: Sendable, Codable, Equatable {
        var name: String
        /// The arguments as JSON text.
        var arguments: String
    }

    init(id: String, name: String, arguments: String) {
        self.id = id
        self.type = "function"
        self.function = FunctionCall(name: name, arguments: arguments)
    }

    /// Decodes a call, tolerating a missing id or type.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(String.self, forKey: .id) ?? "call_0"
        type = try container.decodeIfPresent(String.self, forKey: .type) ?? "function"
        function = try container.decode(FunctionCall.self, forKey: .function)
    }
}

/// The OpenAI `tools` entries for `tools`, built from each tool's argument schema (the same one
/// the CLI parses with).
public enum OpenAITools {
    /// `[{"type":"function","function":{"name","description","parameters"}}]`, each with the
    /// parameters `policy`'s caller may pass (a model is an untrusted caller: docs/security.md).
    static func definitions(
        _ tools: [any Tool], policy: EgressPolicy = EgressPolicy(trust: .untrusted)
    )
        -> [JSONValue]
    {
        tools.map { tool in
            .object([
                "type": "function",
                "function": .object([
                    "name": .string(functionName(tool.name)),
                    "description": .string(tool.summary),
                    "parameters": tool.schema.visible(to: policy).jsonSchema,
                ]),
            ])
        }
    }

    /// The function name OpenAI accepts for `tool` (`^[a-zA-Z0-9_-]{1,64}$`): a plugin tool's dot
    /// becomes `__` (`time.get_current_time` → `time__get_current_time`), any other character `_`.
    static func functionName(_ tool: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
        let mapped = tool.replacingOccurrences(of: ".", with: "__").map { allowed.contains($0) ? $0 : "_" }
        return mapped.isEmpty ? "tool" : String(mapped.prefix(64))
    }

    /// The tool of `tools` a model's function call names: its ``functionName(_:)``, or the tool's
    /// own name (llama.cpp passes dots through); else the name as given (the caller's error names it).
    static func toolName(_ function: String, in tools: [any Tool]) -> String {
        if tools.contains(where: { $0.name == function }) { return function }
        return tools.first { functionName($0.name) == function }?.name ?? function
    }

    /// The definitions as pretty JSON with sorted keys (`tools schema`).
    public static func json(
        _ tools: [any Tool], policy: EgressPolicy = EgressPolicy(trust: .untrusted)
    ) throws -> String {
        try JSONOutput.prettyText(definitions(tools, policy: policy))
    }
}

/// A `/v1/chat/completions` request body.
struct ChatRequest: Sendable, Encodable {
    var messages: [ChatMessage]
    /// Stream tokens as server-sent events.
    var stream: Bool
    /// Tool definitions (native tool calling).
    var tools: [JSONValue]?
    /// `auto`, `none`, `required` or `{"type":"function","function":{"name":...}}`.
    var toolChoice: JSONValue?
    /// An upper bound on generated tokens; nil leaves it to the server.
    var maxTokens: Int?
    /// Sampling temperature; nil leaves it to the server.
    var temperature: Double?
    /// The model name, when the server wants one.
    var model: String?
    /// Token id → bias (e.g. `["2": -100]` forbids a model's EOS token).
    var logitBias: [String: Double]?

    enum CodingKeys: String, CodingKey {
        case messages, stream, tools, temperature, model
        case toolChoice = "tool_choice"
        case maxTokens = "max_tokens"
        case logitBias = "logit_bias"
    }

    init(
        messages: [ChatMessage], stream: Bool, tools: [JSONValue]? = nil, toolChoice: JSONValue? = nil,
        maxTokens: Int? = nil, temperature: Double? = nil, model: String? = nil, logitBias: [String: Double]? = nil
    ) {
        self.messages = messages
        self.stream = stream
        self.tools = tools
        self.toolChoice = toolChoice
        self.maxTokens = maxTokens
        self.temperature = temperature
        self.model = model
        self.logitBias = logitBias
    }
}

/// What can go wrong talking to the LLM server, as one line.
///
/// Its ``Kind`` is extensible, as ``AlmanacError/Kind`` is: a new kind of failure is a new static
/// value, not a new enum case that breaks every `switch` of a caller.
public struct LLMError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of failure.
    struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Code: String, Sendable, Hashable {
            case serverDown, contextExceeded, emptyStream, streamCut, http, network, badResponse
        }

        private let code: Code

        private init(_ code: Code) { self.code = code }

        /// Nothing listens at the URL.
        static let serverDown = Kind(.serverDown)
        /// The prompt does not fit the model's context (HTTP 400 `context_length_exceeded` /
        /// `exceed_context_size_error`).
        static let contextExceeded = Kind(.contextExceeded)
        /// A streaming response closed before any event: llama-cpp-python's way of saying the prompt
        /// did not fit (it logs the error and closes the stream).
        static let emptyStream = Kind(.emptyStream)
        /// The stream closed without `[DONE]` after some text.
        static let streamCut = Kind(.streamCut)
        /// A non-success status.
        static let http = Kind(.http)
        /// The connection failed in another way.
        static let network = Kind(.network)
        /// The server answered something that is not an OpenAI response.
        static let badResponse = Kind(.badResponse)

        /// The kind's name, e.g. `serverDown`.
        var description: String { code.rawValue }
    }

    let kind: Kind
    /// The one line for stderr.
    public let description: String
    /// The server's own words (its error message, or the URL nothing listens at), when it gave any.
    let detail: String?
    /// The HTTP status, for ``Kind/http``.
    let status: Int?
    /// How many pieces of text arrived before the stream was cut, for ``Kind/streamCut``.
    let tokens: Int?

    private init(_ kind: Kind, _ description: String, detail: String? = nil, status: Int? = nil, tokens: Int? = nil) {
        self.kind = kind
        self.description = description
        self.detail = detail
        self.status = status
        self.tokens = tokens
    }

    /// Nothing listens at `url`.
    static func serverDown(url: String) -> LLMError {
        LLMError(
            .serverDown,
            "no LLM server at \(url); start one, e.g. `llama-server -m model.gguf --port 8080` "
                + "or `python -m llama_cpp.server --model model.gguf --port 8080`, or set ALMANAC_LLM_URL",
            detail: url)
    }

    /// The prompt does not fit the model's context; `message` is the server's.
    static func contextExceeded(_ message: String) -> LLMError {
        LLMError(.contextExceeded, "the prompt does not fit the model's context: \(message)", detail: message)
    }

    /// The stream closed before any event.
    static let emptyStream = LLMError(
        .emptyStream, "the LLM server closed the stream before answering (prompt too long for its context?)")

    /// The stream closed without `[DONE]` after `tokens` pieces of text.
    static func streamCut(tokens: Int) -> LLMError {
        LLMError(
            .streamCut, "the LLM stream ended without [DONE] after \(tokens) tokens (answer incomplete)", tokens: tokens
        )
    }

    /// A non-success `status` with the server's `message`.
    static func http(status: Int, message: String) -> LLMError {
        LLMError(.http, "LLM server answered HTTP \(status): \(message)", detail: message, status: status)
    }

    /// The connection failed in another way.
    static func network(_ message: String) -> LLMError {
        LLMError(.network, "LLM server connection failed: \(message)", detail: message)
    }

    /// The server answered something that is not an OpenAI response.
    static func badResponse(_ message: String) -> LLMError {
        LLMError(.badResponse, "LLM server sent an unexpected response: \(message)", detail: message)
    }

    /// Exit status: server trouble is ``AlmanacError/Kind/unavailable`` (69), as a tool whose
    /// providers all failed.
    public var exitStatus: Int32 { AlmanacError.Kind.unavailable.exitStatus }
}
