public import AlmanacCore
import AlmanacSports
import Foundation

/// The built-in tools a plugin may provide (`provides = ...`), each with its contract.
enum ProvidedTool {
    /// `sports`: ``ScoreboardContract`` through the plugin's `scoreboard` tool.
    static let names = ["sports"]

    /// The contract of `tool` as JSON Schema, nil for a tool no plugin can provide.
    static func contract(_ tool: String) -> JSONValue? {
        tool.lowercased() == "sports" ? ScoreboardContract.jsonSchema : nil
    }
}

extension PluginConfiguration {
    /// Reads `provides` and `priority`.
    ///
    /// - Throws: ``AlmanacError`` (usage) naming the key that is wrong and what would be right.
    mutating func readProvides(_ table: [String: ConfigValue]) throws {
        if let raw = table["provides"] {
            guard case .string(let tool) = raw, ProvidedTool.names.contains(tool.lowercased()) else {
                throw AlmanacError.usage(
                    "[plugins.\(name)] provides must name a built-in tool a plugin can provide",
                    suggestion: "provides = \"sports\" (the contract: tools plugin contract sports)")
            }
            provides = tool.lowercased()
        }
        if let raw = table["priority"] {
            guard provides != nil else {
                throw AlmanacError.usage(
                    "[plugins.\(name)] priority places a provider plugin in a chain: it needs provides",
                    suggestion: "provides = \"sports\" with priority = 5")
            }
            guard case .integer(let value) = raw, (-1000...1000).contains(value) else {
                throw AlmanacError.usage(
                    "[plugins.\(name)] priority must be a whole number from -1000 to 1000",
                    suggestion: "e.g. priority = 5 (ESPN is 0: lower is tried first)")
            }
            priority = Int(value)
        }
    }
}

/// A provider plugin of the sports tool, as the sports chain sees it.
struct PluginScoreboard: ScoreboardSource {
    let configuration: PluginConfiguration
    let host: PluginHost
    /// Read once from the catalog the process started with (which does not change while it runs),
    /// not on each of the several reads a sports call makes.
    let knownLeagues: [String]?

    /// - Parameter listed: the host's ``PluginHost/listedTools()``.
    init(configuration: PluginConfiguration, host: PluginHost, listed: [PluginTool]) {
        self.configuration = configuration
        self.host = host
        let toolName = "\(configuration.name).\(ScoreboardContract.toolName)"
        knownLeagues = listed.first { $0.name == toolName }.map { Self.leagues(of: $0.spec) }
    }

    var name: String { configuration.name }
    var priority: Int { configuration.priority }
    var toolName: String { "\(configuration.name).\(ScoreboardContract.toolName)" }

    /// - Throws: ``ProviderFailure`` saying why the plugin could not be started or listed.
    func leagues() async throws -> [String] {
        let tool: PluginTool?
        do {
            tool = try await host.discoverTool(named: toolName)
        } catch let error as AlmanacError {
            // discoverTool names the plugin in its one attempt ("plugin NAME: why"): the why alone.
            let detail = error.attempts.first?.detail ?? error.message
            let prefix = "plugin \(configuration.name): "
            let why = detail.hasPrefix(prefix) ? String(detail.dropFirst(prefix.count)) : detail
            throw ProviderFailure(error.attempts.first?.outcome == .timeout ? .timeout : .network, why)
        }
        guard let tool else { return [] }
        return Self.leagues(of: tool.spec)
    }

    /// The league paths the `league` property of the tool's input schema lists (`enum`, or `const`).
    static func leagues(of spec: PluginToolSpec) -> [String] {
        let league = spec.inputSchema.objectValue?["properties"]?.objectValue?["league"]?.objectValue ?? [:]
        if case .string(let one) = league["const"] { return [one] }
        guard case .array(let values) = league["enum"] else { return [] }
        return values.compactMap { if case .string(let path) = $0 { path } else { nil } }
    }

    func scoreboard(_ arguments: [String: JSONValue], timeout: Duration) async throws -> JSONValue {
        guard let tool = try await host.discoverTool(named: toolName) else {
            throw ProviderFailure(.notFound, "it lists no '\(ScoreboardContract.toolName)' tool")
        }
        let result = try await host.call(
            configuration, tool: tool.spec.name, arguments: arguments, deadline: timeout)
        return try Self.structured(result, spec: tool.spec)
    }

    /// The structured content of a `tools/call` result. The contract itself is checked once, by
    /// ``ScoreboardContract/read(_:)`` (its schema and its reader accept the same answers, see
    /// ScoreboardContractTests), not here as well.
    ///
    /// - Throws: ``ProviderFailure`` (decoding) for an error answer or one without structured content.
    static func structured(_ result: [String: JSONValue], spec: PluginToolSpec) throws -> JSONValue {
        let answer = try PluginAnswer(result: result, spec: spec)
        guard let structured = answer.structured else {
            throw ProviderFailure(.decoding, "its answer has no structuredContent (\(ScoreboardContract.version))")
        }
        return structured
    }
}

extension Runtime {
    /// `tools`, with the sports tool given the configured provider plugins of `sports`.
    static func withProviderPlugins(_ tools: [any Tool], _ plugins: PluginHost?) -> [any Tool] {
        guard let plugins else { return tools }
        let providers = plugins.configurations.filter { $0.provides == "sports" }
        let listed = providers.isEmpty ? [] : plugins.listedTools()
        let sources = providers.map {
            PluginScoreboard(configuration: $0, host: plugins, listed: listed) as any ScoreboardSource
        }
        guard !sources.isEmpty else { return tools }
        return tools.map { tool in
            guard var sports = tool as? SportsTool else { return tool }
            sports.scoreboardSources = sources
            return sports
        }
    }

    /// The contract a provider plugin of `tool` answers, as JSON Schema.
    ///
    /// - Throws: ``AlmanacError`` (usage) for a tool no plugin can provide.
    public static func providerContract(_ tool: String) throws -> JSONValue {
        guard let schema = ProvidedTool.contract(tool) else {
            throw AlmanacError.usage(
                "no provider contract for '\(tool)'",
                suggestion: "contracts: \(ProvidedTool.names.joined(separator: ", "))")
        }
        return schema
    }
}
