import AlmanacCore
import Foundation

/// One OpenAI chat message.
public struct ChatMessage: Sendable, Codable, Equatable {
    /// `system`, `user`, `assistant` or `tool`.
    public var role: String
    /// The text. Always sent (as "" when empty): chat templates concatenate it.
    public var content: String
    /// For assistant messages that call tools.
    public var toolCalls: [ToolCall]?
    /// For `tool` messages: the call answered.
    public var toolCallID: String?
    /// For `tool` messages: the tool's name.
    public var name: String?

    enum CodingKeys: String, CodingKey {
        case role, content, name
        case toolCalls = "tool_calls"
        case toolCallID = "tool_call_id"
    }

    /// Creates a message.
    public init(
        role: String, content: String, toolCalls: [ToolCall]? = nil, toolCallID: String? = nil, name: String? = nil
    ) {
        self.role = role
        self.content = content
        self.toolCalls = toolCalls
        self.toolCallID = toolCallID
        self.name = name
    }

    /// Decodes a message; a `null` content reads as "".
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        role = try container.decodeIfPresent(String.self, forKey: .role) ?? "assistant"
        content = try container.decodeIfPresent(String.self, forKey: .content) ?? ""
        toolCalls = try container.decodeIfPresent([ToolCall].self, forKey: .toolCalls)
        toolCallID = try container.decodeIfPresent(String.self, forKey: .toolCallID)
        name = try container.decodeIfPresent(String.self, forKey: .name)
    }

    /// A system message.
    public static func system(_ text: String) -> ChatMessage { ChatMessage(role: "system", content: text) }
    /// A user message.
    public static func user(_ text: String) -> ChatMessage { ChatMessage(role: "user", content: text) }
}

/// An OpenAI tool call as the model returns it.
public struct ToolCall: Sendable, Codable, Equatable {
    /// The call id (echoed in the `tool` message).
    public var id: String
    /// Always `function`.
    public var type: String
    /// The function and its JSON-encoded arguments.
    public var function: FunctionCall

    /// A function name and arguments (a JSON object as a string).
    public struct FunctionCall: Sendable, Codable, Equatable {
        /// The tool name.
        public var name: String
        /// The arguments as JSON text.
        public var arguments: String

        /// Creates a function call.
        public init(name: String, arguments: String) {
            self.name = name
            self.arguments = arguments
        }
    }

    /// Creates a tool call.
    public init(id: String, name: String, arguments: String) {
        self.id = id
        self.type = "function"
        self.function = FunctionCall(name: name, arguments: arguments)
    }

    /// Decodes a call, tolerating a missing id or type.
    public init(from decoder: any Decoder) throws {
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
    public static func definitions(_ tools: [any Tool], policy: EgressPolicy = EgressPolicy(trust: .untrusted))
        -> [JSONValue]
    {
        tools.map { tool in
            .object([
                "type": "function",
                "function": .object([
                    "name": .string(tool.name),
                    "description": .string(tool.summary),
                    "parameters": tool.schema.visible(to: policy).jsonSchema,
                ]),
            ])
        }
    }

    /// The definitions as pretty JSON with sorted keys (`tools schema`).
    public static func json(_ tools: [any Tool], policy: EgressPolicy = EgressPolicy(trust: .untrusted)) throws -> String {
        try JSONOutput.prettyText(definitions(tools, policy: policy))
    }
}

/// A `/v1/chat/completions` request body.
public struct ChatRequest: Sendable, Encodable {
    /// The conversation.
    public var messages: [ChatMessage]
    /// Stream tokens as server-sent events.
    public var stream: Bool
    /// Tool definitions (native tool calling).
    public var tools: [JSONValue]?
    /// `auto`, `none`, `required` or `{"type":"function","function":{"name":...}}`.
    public var toolChoice: JSONValue?
    /// An upper bound on generated tokens; nil leaves it to the server.
    public var maxTokens: Int?
    /// Sampling temperature; nil leaves it to the server.
    public var temperature: Double?
    /// The model name, when the server wants one.
    public var model: String?
    /// Token id → bias (e.g. `["2": -100]` forbids a model's EOS token).
    public var logitBias: [String: Double]?

    enum CodingKeys: String, CodingKey {
        case messages, stream, tools, temperature, model
        case toolChoice = "tool_choice"
        case maxTokens = "max_tokens"
        case logitBias = "logit_bias"
    }

    /// Creates a request.
    public init(
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

/// What can go wrong talking to the LLM server. Every case reads as one line.
public enum LLMError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing listens at the URL.
    case serverDown(url: String)
    /// The prompt does not fit the model's context (HTTP 400 `context_length_exceeded` /
    /// `exceed_context_size_error`).
    case contextExceeded(String)
    /// A streaming response closed before any event: llama-cpp-python's way of saying the prompt
    /// did not fit (it logs the error and closes the stream).
    case emptyStream
    /// The stream closed without `[DONE]` after `tokens` pieces of text.
    case streamCut(tokens: Int)
    /// A non-success status.
    case http(status: Int, message: String)
    /// The connection failed in another way.
    case network(String)
    /// The server answered something that is not an OpenAI response.
    case badResponse(String)

    /// One line for stderr.
    public var description: String {
        switch self {
        case .serverDown(let url):
            "no LLM server at \(url); start one, e.g. `llama-server -m model.gguf --port 8080` "
                + "or `python -m llama_cpp.server --model model.gguf --port 8080`, or set ALMANAC_LLM_URL"
        case .contextExceeded(let message): "the prompt does not fit the model's context: \(message)"
        case .emptyStream: "the LLM server closed the stream before answering (prompt too long for its context?)"
        case .streamCut(let tokens): "the LLM stream ended without [DONE] after \(tokens) tokens (answer incomplete)"
        case .http(let status, let message): "LLM server answered HTTP \(status): \(message)"
        case .network(let message): "LLM server connection failed: \(message)"
        case .badResponse(let message): "LLM server sent an unexpected response: \(message)"
        }
    }

    /// Exit status: 69 (unavailable) for server trouble.
    public var exitStatus: Int32 { 69 }
}
