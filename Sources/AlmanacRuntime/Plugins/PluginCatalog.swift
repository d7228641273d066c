import AlmanacCore
import Foundation

/// One tool as a plugin lists it (`tools/list`), kept in the plugin's catalog.
struct PluginToolSpec: Codable, Sendable, Hashable {
    /// The plugin's own name for it (what `tools/call` names).
    var name: String
    /// Its description, cleaned (third-party text).
    var summary: String
    /// Its MCP `inputSchema`.
    var inputSchema: JSONValue
    /// Its MCP `outputSchema`, when it declares one: answers must then match it.
    var outputSchema: JSONValue?
    /// The plugin says the tool may destroy something (annotations `destructiveHint: true`,
    /// without `readOnlyHint: true`).
    var destructive: Bool

    /// Reads one entry of a `tools/list` answer; nil for an entry that is not a usable tool.
    init?(_ value: JSONValue) {
        guard case .object(let fields) = value, case .string(let name) = fields["name"], Self.validName(name) else {
            return nil
        }
        self.name = name
        let description: String =
            if case .string(let text) = fields["description"] ?? fields["title"] { text } else { name }
        summary = UntrustedText.clean(description, limit: 200)
        inputSchema = fields["inputSchema"] ?? ["type": "object"]
        if case .object = fields["outputSchema"] { outputSchema = fields["outputSchema"] } else { outputSchema = nil }
        let annotations = fields["annotations"]?.objectValue ?? [:]
        destructive = annotations["destructiveHint"] == .bool(true) && annotations["readOnlyHint"] != .bool(true)
    }

    /// MCP's tool-name rule: 1 to 128 of `A-Z a-z 0-9 _ - .`.
    static func validName(_ name: String) -> Bool {
        (1...128).contains(name.count)
            && name.unicodeScalars.allSatisfy {
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0))
            }
    }
}

/// What a plugin listed, kept on disk so that a call the cache answers starts no process: the
/// tools' schemas are known without asking the plugin. Stale when the entry in config.toml or the
/// program file changes, or after a day.
struct PluginCatalog: Codable, Sendable {
    static let maxAge: TimeInterval = 86_400
    var fingerprint: String
    var listedAt: Date
    var tools: [PluginToolSpec]

    /// The catalog file of `plugin` in `folder`.
    static func file(_ plugin: String, in folder: URL) -> URL {
        folder.appendingPathComponent("\(plugin).catalog.json")
    }

    /// The stored catalog when it is still valid for `fingerprint`.
    static func load(_ plugin: String, in folder: URL?, fingerprint: String, now: Date) -> PluginCatalog? {
        guard let folder, let data = try? Data(contentsOf: file(plugin, in: folder)),
            let catalog = try? JSONDecoder().decode(PluginCatalog.self, from: data),
            catalog.fingerprint == fingerprint, now.timeIntervalSince(catalog.listedAt) < maxAge,
            catalog.listedAt <= now.addingTimeInterval(60)
        else { return nil }
        return catalog
    }

    /// Writes the catalog (replaced atomically; failures only cost a listing next time).
    func save(_ plugin: String, in folder: URL?) {
        guard let folder, let data = try? JSONEncoder().encode(self) else { return }
        try? FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try? data.write(to: Self.file(plugin, in: folder), options: .atomic)
    }

    /// Forgets the stored catalog (the plugin no longer knows a tool it listed).
    static func remove(_ plugin: String, in folder: URL?) {
        guard let folder else { return }
        try? FileManager.default.removeItem(at: file(plugin, in: folder))
    }

    /// What the catalog depends on: the entry (command or URL, environment) and, for a stdio
    /// plugin, the program file (path, size, modification time), hashed. A remote plugin has no
    /// program file: nothing is looked up on PATH for it.
    static func fingerprint(_ configuration: PluginConfiguration, parentEnvironment: [String: String]) -> String {
        var parts = ["v1", PluginConnection.protocolVersion] + configuration.command
        if let url = configuration.url { parts.append(url.absoluteString) }
        parts += configuration.environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        if let executable = configuration.executable {
            let program = PluginProcess.resolve(
                executable, path: configuration.childEnvironment(parentEnvironment)["PATH"])
            var info = stat()
            if stat(program, &info) == 0 {
                parts += [program, String(info.st_size), String(info.st_mtim.tv_sec), String(info.st_mtim.tv_nsec)]
            }
        }
        return UntrustedText.nonce(for: parts)
    }
}
