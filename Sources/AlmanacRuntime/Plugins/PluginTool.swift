import AlmanacCore
import Foundation

/// A tool a plugin lists, as an Almanac tool named `PLUGIN.TOOL` (lower case): its input schema
/// read as options, its answers through the coordinator (cache, deadline, attempts), its text
/// fenced as third-party data.
struct PluginTool: Tool {
    let configuration: PluginConfiguration
    let spec: PluginToolSpec
    let host: PluginHost
    let schema: ToolSchema

    init(configuration: PluginConfiguration, spec: PluginToolSpec, host: PluginHost) {
        self.configuration = configuration
        self.spec = spec
        self.host = host
        schema = PluginSchema.parameters(spec.inputSchema)
    }

    /// `time.get_current_time`.
    var name: String { "\(configuration.name).\(spec.name)".lowercased() }

    /// The plugin's description of the tool, marked as the plugin's.
    var summary: String { "\(spec.summary) (plugin \(configuration.name))" }

    /// Kept from untrusted callers (serve, mcp, a model): the plugin marks the tool destructive
    /// and the operator did not name it in the entry's `allow_destructive`.
    var withheld: Bool { spec.destructive && !configuration.allowDestructive.contains(spec.name) }

    /// The plugin is its one provider.
    func providers(in context: ToolContext) -> [ProviderInfo] {
        [ProviderInfo(name: configuration.name, priority: 0, note: "plugin: \(configuration.program)")]
    }

    func run(_ arguments: ToolArguments, context: ToolContext) async throws -> ToolResult {
        let json = try PluginSchema.callArguments(arguments, inputSchema: spec.inputSchema, tool: name)
        let key = String(decoding: try PluginJSONLine.encoded(.object(json), sortedKeys: true), as: UTF8.self)
        let provider = PluginProvider(configuration: configuration, spec: spec, host: host, tool: name)
        let fetched = try await context.fetch(
            tool: name, key: key, query: PluginQuery(arguments: json), providers: [provider], ttl: configuration.ttl)
        return ToolResult(metadata: fetched.metadata, payload: PluginPayload(answer: fetched.value, tool: spec.name))
    }
}

/// The arguments of one plugin call.
struct PluginQuery: Sendable {
    var arguments: [String: JSONValue]
}

/// A plugin tool's answer as cached: its structured content, else its text.
struct PluginAnswer: Codable, Sendable {
    /// `structuredContent`, when the plugin gave it.
    var structured: JSONValue?
    /// The text blocks of `content`, joined.
    var text: String

    /// Reads a `tools/call` result, checking it against the tool's output schema.
    ///
    /// - Throws: ``ProviderFailure`` for an error result or an answer outside the declared schema.
    init(result: [String: JSONValue], spec: PluginToolSpec) throws {
        var texts: [String] = []
        if case .array(let blocks) = result["content"] {
            for block in blocks {
                let fields = block.objectValue ?? [:]
                switch fields["type"] {
                case "text":
                    if case .string(let text) = fields["text"] { texts.append(text) }
                case "resource":
                    if case .string(let text) = fields["resource"]?.objectValue?["text"] { texts.append(text) }
                case .string(let kind):
                    texts.append("[\(UntrustedText.clean(kind, limit: 20)) content omitted]")
                default: break
                }
            }
        }
        text = texts.joined(separator: "\n")
        if result["isError"] == .bool(true) {
            let reason = UntrustedText.clean(text.isEmpty ? "no reason given" : text, limit: 240)
            throw ProviderFailure(.notFound, "the tool answered with an error: \(reason)")
        }
        structured = result["structuredContent"].flatMap { $0 == .null ? nil : $0 }
        if let outputSchema = spec.outputSchema {
            guard let structured else {
                throw ProviderFailure(
                    .decoding, "its answer has no structuredContent although the tool declares an output schema")
            }
            if let problem = PluginSchema.check(structured, against: outputSchema, root: outputSchema, path: "") {
                throw ProviderFailure(.decoding, "its answer is outside the tool's output schema: \(problem)")
            }
        } else if structured == nil, case .array = result["content"] {
            // Text alone is an answer.
        } else if structured == nil {
            throw ProviderFailure(.decoding, "its tools/call result has neither content nor structuredContent")
        }
    }
}

/// The coordinator hands a fresh answer back as the plugin gave it instead of decoding the bytes
/// it just cached (perf through `tools serve`: that decode was about 3% of the server's CPU per
/// call). The bytes are the JSON they always were.
extension PluginAnswer: OwnCacheBytes {
    /// As the coordinator's own storage encoder writes them (an answer holds no dates).
    private static let storageEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()
    private static let storageDecoder = JSONDecoder()

    func cacheBytes() throws -> Data {
        if let bytes = PluginJSONLine.encode(structured: structured, text: text) { return Data(bytes) }
        return try Self.storageEncoder.encode(self)
    }

    init(cacheBytes: Data) throws { self = try Self.storageDecoder.decode(PluginAnswer.self, from: cacheBytes) }
}

/// The plugin as the coordinator's one provider for its tool.
struct PluginProvider: Provider {
    let configuration: PluginConfiguration
    let spec: PluginToolSpec
    let host: PluginHost
    let tool: String

    var name: String { configuration.name }
    var priority: Int { 0 }
    /// A plugin answers or fails; it is never told to wait (so no rate-limit note is read per call).
    var mayRateLimit: Bool { false }

    func fetch(_ query: PluginQuery, in environment: ProviderEnvironment) async throws -> PluginAnswer {
        let result = try await host.call(
            configuration, tool: spec.name, arguments: query.arguments, deadline: environment.timeout)
        return try PluginAnswer(result: result, spec: spec)
    }
}

/// A plugin answer printed: `data` is the structured content (else the text); context and text
/// fence the plugin's text as third-party data.
struct PluginPayload: CompactJSONPayload {
    var answer: PluginAnswer
    var tool: String

    /// `data` as `encode(to:)` writes it under the envelope's encoder (keys sorted), without
    /// JSONEncoder on the way (an answer through `tools serve`).
    func compactDataJSON() throws -> String {
        var writer = JSONWriter()
        try writeCompactDataJSON(to: &writer)
        return writer.text
    }

    func writeCompactDataJSON(to writer: inout JSONWriter) throws {
        if let structured = answer.structured {
            writer.bytes += try PluginJSONLine.encoded(structured, sortedKeys: true)
        } else {
            writer.string(answer.text)
        }
    }

    func encode(to encoder: any Encoder) throws {
        if let structured = answer.structured {
            try structured.encode(to: encoder)
        } else {
            var container = encoder.singleValueContainer()
            try container.encode(answer.text)
        }
    }

    func context(_ rendering: Rendering) -> String {
        let header = rendering.header(UntrustedText.clean(tool, limit: 80))
        var body = answer.text
        // Blank when every scalar is what trimmingCharacters(in:) would drop; stops at the first other one.
        if body.unicodeScalars.allSatisfy(CharacterSet.whitespacesAndNewlines.contains),
            let structured = answer.structured,
            let data = try? PluginJSONLine.encoded(structured, sortedKeys: true)
        {
            body = String(decoding: data, as: UTF8.self)
        }
        let lines = body.split(separator: "\n", omittingEmptySubsequences: true)
            .map { UntrustedText.clean(String($0), limit: 2000) }
            .filter { !$0.isEmpty }
        let nonce = UntrustedText.nonce(for: lines)
        let notice = UntrustedText.notice(nonce)
        let kept = rendering.budget.fit(
            lines, reserved: header + "\n" + notice, omitted: { "… \($0) more lines omitted" })
        // fit() appends its footer only when it dropped lines: then `kept` is no longer a prefix of
        // `lines`, and the footer (ours) goes after the fence.
        let dropped = kept != Array(lines.prefix(kept.count))
        let fenced = dropped ? Array(kept.dropLast()) : kept
        let footer = dropped ? Array(kept.suffix(1)) : []
        return ([header, notice, UntrustedText.open(nonce)] + fenced + [UntrustedText.close(nonce)] + footer)
            .joined(separator: "\n")
    }

    func text(_ rendering: Rendering) -> String { context(rendering) }
}
