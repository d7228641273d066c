public import AlmanacCore
import Foundation

/// Finds and reads `config.toml`, refusing one that holds secrets while others can read it.
public enum ConfigLoader {
    /// Keys whose values are secrets; a config file holding one must be mode 0600 (like ssh keys).
    static let secretKeys: Set<String> = ["api_key", "password", "token", "secret"]

    /// The config file path: `ALMANAC_CONFIG`, else `$XDG_CONFIG_HOME/almanac/config.toml`, else
    /// `~/.config/almanac/config.toml`.
    static func path(environment: [String: String]) -> String {
        if let explicit = environment["ALMANAC_CONFIG"], !explicit.isEmpty { return explicit }
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty { return xdg + "/almanac/config.toml" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.config/almanac/config.toml"
    }

    /// Environment plus the parsed config file (absent file: empty config).
    public static func load(environment: [String: String]) throws -> Settings {
        let path = path(environment: environment)
        guard FileManager.default.fileExists(atPath: path) else {
            if let explicit = environment["ALMANAC_CONFIG"], !explicit.isEmpty {
                throw AlmanacError.usage(
                    "ALMANAC_CONFIG names a missing file: \(path)", suggestion: "create it or unset ALMANAC_CONFIG")
            }
            return Settings(environment: environment)
        }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw AlmanacError.usage("cannot read config file \(path)", suggestion: "check its permissions")
        }
        let table: [String: ConfigValue]
        do {
            table = try TOML.parse(text)
        } catch let error as TOML.ParseError {
            throw AlmanacError.usage(
                "config file \(path), \(error)", suggestion: "see docs/configuration.md for the format")
        }
        // One mode check; a plugin's secret variable is named when there is one.
        let pluginSecret = pluginSecret(table)
        if pluginSecret != nil || containsSecret(table) {
            let mode = ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int) ?? 0
            if mode & 0o077 != 0 {
                let what =
                    pluginSecret.map { "[plugins.\($0.0)] env holds \($0.1), a secret, but others can read the file" }
                    ?? "holds secrets but others can read it"
                throw AlmanacError.usage(
                    "config file \(path)\(pluginSecret == nil ? " " : ": ")\(what) (mode \(String(mode, radix: 8)))",
                    suggestion: "run: chmod 600 \(path)")
            }
        }
        return Settings(environment: environment, config: table, configPath: path)
    }

    /// The first plugin `env` variable whose name looks like a secret (KEY, TOKEN, SECRET or
    /// PASSWORD in it), as (plugin, variable).
    static func pluginSecret(_ table: [String: ConfigValue]) -> (String, String)? {
        guard case .table(let plugins) = table["plugins"] else { return nil }
        for name in plugins.keys.sorted() {
            guard case .table(let entry) = plugins[name], case .table(let env) = entry["env"] else { continue }
            let words = ["KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD"]
            if let variable = env.keys.sorted().first(where: { key in words.contains { key.uppercased().contains($0) } }
            ) {
                return (name, variable)
            }
        }
        return nil
    }

    static func containsSecret(_ table: [String: ConfigValue]) -> Bool {
        table.contains { key, value in
            if secretKeys.contains(key.lowercased()) { return true }
            if case .table(let child) = value { return containsSecret(child) }
            return false
        }
    }
}
