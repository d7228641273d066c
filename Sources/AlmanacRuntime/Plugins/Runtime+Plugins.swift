import AlmanacCore
import Foundation
import Logging

extension Runtime {
    /// The configured plugins (`[plugins.NAME]`), nil when there are none.
    ///
    /// - Throws: ``AlmanacError`` (usage) for an entry that is wrong.
    static func pluginHost(
        _ settings: Settings, environment: [String: String], timeout: Duration, now: Date, logger: Logger
    ) throws -> PluginHost? {
        guard settings.config("plugins") != nil else { return nil }
        let folder = cacheDirectory(environment: environment, settings: settings).appendingPathComponent("plugins")
        return try PluginHost(
            settings: settings, parentEnvironment: environment, folder: folder, deadline: timeout, now: now,
            logger: logger)
    }

    /// The tool called `name`: a registered one, else a tool of a configured plugin that had no
    /// valid catalog (listed now), else a usage error naming the known tools.
    func tool(resolving name: String) async throws -> any Tool {
        if let tool = registry.tool(named: name) { return tool }
        if let plugins, let tool = try await plugins.discoverTool(named: name) { return tool }
        return try registry.require(name)
    }

    /// The same runtime with every configured plugin's tools registered: plugins with no valid
    /// catalog are started and listed (those that fail are left out; `tools plugin list` says
    /// why). For commands that show every tool (`tools list`, `tools schema`, servers).
    public func listingPlugins() async -> Runtime {
        guard let plugins else { return self }
        let known = Set(registry.tools.map(\.name))
        let added = await plugins.allTools().filter { !known.contains($0.name) }
        guard !added.isEmpty else { return self }
        var copy = self
        copy.registry = ToolRegistry(registry.tools + added)
        // Offered to untrusted callers as any tool is ([serve] tools, deny_tools), destructive
        // ones only where the operator allows them; the names were checked when the runtime was made.
        if let offered = try? Runtime.offeredTools(settings, registry: copy.registry) { copy.offered = offered }
        return copy
    }

    /// A JSON caller's arguments for `tool`: for a plugin tool, array and object values become
    /// their JSON text, which the tool parses and checks against the plugin's input schema as it
    /// does the command line's (`--ids '[1, 2]'`); other tools' arguments are unchanged.
    static func pluginArguments(_ json: [String: JSONValue], for tool: any Tool) -> [String: JSONValue] {
        guard tool is PluginTool else { return json }
        return json.mapValues { value in
            switch value {
            case .array, .object:
                (try? PluginJSONLine.encoded(value, sortedKeys: true)).map {
                    .string(String(decoding: $0, as: UTF8.self))
                } ?? value
            default: value
            }
        }
    }

    /// Calls `handler` with a plugin's name each time its program is started again after a failure.
    public func onPluginRestart(_ handler: @escaping @Sendable (String) -> Void) {
        plugins?.observer.onRestart(handler)
    }

    /// Stops the plugins' idle programs (a server's shutdown; one-shot commands kill theirs at exit).
    public func stopPlugins() async {
        await plugins?.shutdown()
    }
}
