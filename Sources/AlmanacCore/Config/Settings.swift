public import Foundation

/// A configuration value from `config.toml`.
public enum ConfigValue: Sendable, Hashable {
    /// Text.
    case string(String)
    /// Whole number.
    case integer(Int)
    /// Number.
    case number(Double)
    /// Switch.
    case bool(Bool)
    /// Array.
    case array([ConfigValue])
    /// Table.
    case table([String: ConfigValue])

    /// The text value (numbers and switches as text).
    public var stringValue: String? {
        switch self {
        case .string(let value): value
        case .integer(let value): String(value)
        case .number(let value): String(value)
        case .bool(let value): String(value)
        default: nil
        }
    }

    /// The table's members, if this is a table.
    public var tableValue: [String: ConfigValue]? {
        if case .table(let value) = self { return value }
        return nil
    }
}

/// Environment variables plus the config file; environment wins.
public struct Settings: Sendable {
    /// Environment variables.
    public var environment: [String: String]
    /// The parsed config file (top-level table).
    public var config: [String: ConfigValue]
    /// Where the config file was read from, if any (for `tools doctor`).
    public var configPath: String?

    /// Creates settings.
    public init(environment: [String: String] = [:], config: [String: ConfigValue] = [:], configPath: String? = nil) {
        self.environment = environment
        self.config = config
        self.configPath = configPath
    }

    /// A non-empty environment variable.
    public func env(_ name: String) -> String? {
        guard let value = environment[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else {
            return nil
        }
        return value
    }

    /// A config value by dotted path: `config("weather", "place")`.
    public func config(_ path: String...) -> ConfigValue? {
        config(path)
    }

    /// A config value by a path given as an array (as a provider descriptor declares it).
    public func config(_ path: [String]) -> ConfigValue? {
        var table = config
        for (index, component) in path.enumerated() {
            guard let value = table[component] else { return nil }
            if index == path.count - 1 { return value }
            guard case .table(let next) = value else { return nil }
            table = next
        }
        return nil
    }

    /// The environment variable, else the config value at `path`.
    public func value(env name: String, config path: String...) -> String? {
        env(name) ?? config(path)?.stringValue
    }

    /// A list setting: the environment variable split at commas and spaces, else the config
    /// value at `path` as an array of strings or one string; nil when neither is set.
    ///
    /// - Parameter example: a config line that would be right, shown when the value is not a
    ///   list of strings.
    /// - Returns: the items and where they came from (the variable, or `[table] key`), for
    ///   messages about one item.
    /// - Throws: ``AlmanacError`` (usage) when the config value is not a string or a list of strings.
    public func list(
        env name: String, config path: String..., example: String
    ) throws -> (
        items: [String], source: String
    )? {
        if let raw = env(name) {
            return (raw.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init), name)
        }
        guard let value = config(path) else { return nil }
        let source =
            path.count > 1 ? "[\(path.dropLast().joined(separator: "."))] \(path[path.count - 1])" : path.joined()
        switch value {
        case .string(let text): return ([text], source)
        case .array(let items):
            // Strings only: stringValue would turn a stray number into a name.
            let strings = items.compactMap { item -> String? in
                if case .string(let text) = item { return text }
                return nil
            }
            if strings.count == items.count { return (strings, source) }
        default: break
        }
        throw AlmanacError.usage("\(source) must be a list of strings", suggestion: "e.g. \(example)")
    }

    /// A base URL from `env` (or the default), validated.
    public func baseURL(env name: String, default fallback: String) throws -> URL {
        try Self.validBaseURL(env(name) ?? fallback, variable: name, example: fallback)
    }

    /// `raw` as a base URL (http or https, with a host, no trailing slash).
    ///
    /// - Throws: ``AlmanacError`` (usage) naming `variable` and showing `example`.
    public static func validBaseURL(_ raw: String, variable: String, example: String) throws -> URL {
        guard let url = URL(string: raw.hasSuffix("/") ? String(raw.dropLast()) : raw), let scheme = url.scheme,
            ["http", "https"].contains(scheme.lowercased()), url.host != nil
        else {
            throw AlmanacError.usage("\(variable) is not an http(s) URL: '\(raw)'", suggestion: "e.g. \(example)")
        }
        return url
    }
}
