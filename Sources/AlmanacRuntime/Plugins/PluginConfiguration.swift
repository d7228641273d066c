import AlmanacCore
import Foundation

/// One `[plugins.NAME]` entry of config.toml: a program that speaks MCP over stdio, whose tools
/// become Almanac tools named `NAME.TOOL` (docs/plugins.md).
///
/// ```toml
/// [plugins.time]
/// command = ["mcp-server-time", "--local-timezone", "Europe/Lisbon"]
/// env = { }    # the only environment it gets, besides PATH and HOME
/// ttl = 60     # seconds its answers stay fresh
/// ```
struct PluginConfiguration: Sendable, Hashable {
    /// The entry's name: the first part of its tools' names.
    var name: String
    /// The program and its arguments (no shell); empty for a remote plugin.
    var command: [String]
    /// A remote MCP server's streamable HTTP endpoint (`url = "https://host/mcp"`), instead of a command.
    var url: URL?
    /// The child's environment besides PATH and HOME (Almanac's own variables never pass).
    var environment: [String: String]
    /// How long an answer stays fresh.
    var ttl: Duration
    /// Tools the plugin marks destructive that untrusted callers may still call (none by default).
    var allowDestructive: Set<String>
    /// The router's words for its tools (`words = { TOOL = ["word", ...] }`), by tool name.
    var words: [String: [String]] = [:]
    /// The built-in tool whose contract the plugin answers (`provides = "sports"`), nil for a tool plugin.
    var provides: String?
    /// Its place in that tool's provider chain (`priority = 5`; lower is tried first, ESPN is 0).
    var priority = 5
    /// A remote plugin's bearer token (`token_env`, or `token` in a mode-0600 file), see ``PluginToken``.
    var token: PluginToken?

    /// Every `[plugins.*]` entry, sorted by name.
    ///
    /// - Throws: ``AlmanacError`` (usage) naming the entry and key that is wrong and what would be right.
    static func all(_ settings: Settings) throws -> [PluginConfiguration] {
        guard let section = settings.config("plugins") else { return [] }
        guard case .table(let entries) = section else {
            throw AlmanacError.usage(
                "[plugins] must hold one table per plugin", suggestion: "e.g. [plugins.time] with command = [...]")
        }
        return try entries.keys.sorted().map { name in
            guard case .table(let table) = entries[name] else {
                throw AlmanacError.usage(
                    "plugins.\(name) must be a table", suggestion: "e.g. [plugins.\(name)] with command = [...]")
            }
            return try PluginConfiguration(name: name, table: table)
        }
    }

    init(name: String, command: [String], environment: [String: String] = [:], ttl: Duration = .seconds(60)) {
        self.name = name
        self.command = command
        self.environment = environment
        self.ttl = ttl
        allowDestructive = []
    }

    init(name: String, table: [String: ConfigValue]) throws {
        let example = "command = [\"mcp-server-time\", \"--local-timezone\", \"Europe/Lisbon\"]"
        // The name becomes part of tool names on the command line, in MCP and in OpenAPI paths.
        guard Self.validName(name) else {
            throw AlmanacError.usage(
                "[plugins.\(name)]: a plugin's name is lower-case letters, digits, '-' and '_' (up to 32)",
                suggestion: "e.g. [plugins.time]")
        }
        let known: Set<String> = [
            "command", "url", "env", "ttl", "allow_destructive", "provides", "priority", "words",
            "token", "token_env", "allow_insecure_auth",
        ]
        if let unknown = table.keys.sorted().first(where: { !known.contains($0) }) {
            throw AlmanacError.usage(
                "[plugins.\(name)]: unknown key '\(unknown)'",
                suggestion: "keys: \(known.sorted().joined(separator: ", "))")
        }
        let remote = try Self.remoteURL(table, plugin: name)
        if remote != nil, table["command"] != nil {
            throw AlmanacError.usage(
                "[plugins.\(name)] has both command and url; a plugin is one or the other",
                suggestion: "keep command for a program, url for a remote MCP server")
        }
        let hasCommand: Bool = if case .array(let items) = table["command"], !items.isEmpty { true } else { false }
        guard remote != nil || hasCommand else {
            throw AlmanacError.usage(
                "[plugins.\(name)] needs command, the program and its arguments as a list (or url, a remote MCP server)",
                suggestion: "e.g. \(example)")
        }
        var command: [String] = []
        let items: [ConfigValue] = if case .array(let items) = table["command"] { items } else { [] }
        for item in items {
            guard case .string(let word) = item, !word.isEmpty, !word.contains("\0") else {
                throw AlmanacError.usage(
                    "[plugins.\(name)] command must be a list of non-empty strings", suggestion: "e.g. \(example)")
            }
            command.append(word)
        }
        var environment: [String: String] = [:]
        if let env = table["env"] {
            guard case .table(let variables) = env else {
                throw AlmanacError.usage(
                    "[plugins.\(name)] env must be a table of strings", suggestion: "e.g. env = { TZ = \"UTC\" }")
            }
            for (key, value) in variables {
                guard case .string(let text) = value, Self.validVariable(key), !text.contains("\0") else {
                    throw AlmanacError.usage(
                        "[plugins.\(name)] env: '\(key)' must be a variable name with a string value",
                        suggestion: "e.g. env = { TZ = \"UTC\" }")
                }
                environment[key] = text
            }
        }
        var ttl = Duration.seconds(60)
        if let raw = table["ttl"] {
            let seconds: Double? =
                switch raw {
                case .integer(let value): Double(value)
                case .number(let value): value
                default: nil
                }
            guard let seconds, seconds.isFinite, seconds >= 0, seconds <= 604_800 else {
                throw AlmanacError.usage(
                    "[plugins.\(name)] ttl must be a number of seconds from 0 to 604800", suggestion: "e.g. ttl = 60")
            }
            ttl = .milliseconds(Int64((seconds * 1000).rounded()))
        }
        self.init(name: name, command: command, environment: environment, ttl: ttl)
        url = remote
        token = try PluginToken(table, plugin: name, remote: remote != nil)
        if let raw = table["allow_destructive"] {
            guard case .array(let names) = raw else {
                throw AlmanacError.usage(
                    "[plugins.\(name)] allow_destructive must be a list of the plugin's tool names",
                    suggestion: "e.g. allow_destructive = [\"delete_note\"]")
            }
            allowDestructive = Set(names.compactMap(\.stringValue))
        }
        try readProvides(table)
        words = try Self.words(table["words"], plugin: name)
    }

    /// What runs the plugin, for messages: the program, or the remote server's host (never the
    /// whole URL, whose path or query may be private).
    var program: String {
        if let url { return "remote MCP server at \(url.host ?? "?")" }
        return command.first ?? ""
    }

    /// The program file a stdio plugin runs (the first word of `command`); nil for a remote
    /// plugin, which runs none (``program`` is only its description).
    var executable: String? { url == nil ? command.first : nil }

    /// `url`, when set: an http(s) address with a host and no user or password in it.
    private static func remoteURL(_ table: [String: ConfigValue], plugin name: String) throws -> URL? {
        guard let raw = table["url"] else { return nil }
        guard case .string(let text) = raw, let url = URL(string: text),
            ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false,
            url.user == nil, url.password == nil
        else {
            throw AlmanacError.usage(
                "[plugins.\(name)] url must be an http or https address of an MCP server, without user or password",
                suggestion: "e.g. url = \"http://127.0.0.1:8080/mcp\"")
        }
        return url
    }

    /// Whether `name` is `PLUGIN.TOOL` for a plugin configured in `settings`.
    static func claims(_ name: String, _ settings: Settings) -> Bool {
        guard let dot = name.firstIndex(of: "."), dot != name.startIndex else { return false }
        return settings.config("plugins", name[..<dot].lowercased()) != nil
    }

    /// Lower-case letters, digits, `-` and `_`, starting with a letter.
    static func validName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first), name.count <= 32 else {
            return false
        }
        return name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
        }
    }

    static func validVariable(_ name: String) -> Bool {
        !name.isEmpty && !name.contains("=")
            && name.unicodeScalars.allSatisfy {
                $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
            }
    }

    /// The child's whole environment: PATH and HOME from this process, then the entry's own.
    func childEnvironment(_ parent: [String: String]) -> [String: String] {
        var result: [String: String] = [:]
        for key in ["PATH", "HOME"] { if let value = parent[key] { result[key] = value } }
        result.merge(environment) { _, own in own }
        return result
    }
}
