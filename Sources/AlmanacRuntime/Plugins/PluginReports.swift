public import AlmanacCore
import Foundation

/// One plugin as `tools plugin list` and `tools doctor` show it.
public struct PluginReport: Sendable {
    /// The entry's name.
    public var name: String
    /// The program (first word of `command`).
    public var program: String
    /// `listed` (its tools are known), or `failing`.
    public var state: String
    /// Its tools' Almanac names, each with whether the plugin marks it destructive.
    public var tools: [(name: String, destructive: Bool)]
    /// What last went wrong (this run, else the one recorded in the plugin's folder), or nil.
    public var lastError: String?
    /// For a provider plugin: the built-in tool it provides and its place in the chain
    /// ("sports at priority 5"), else nil.
    public var provides: String? = nil
}

/// What `tools plugin check NAME` found.
public struct PluginCheckReport: Sendable {
    /// One line per step (`ok  ...` / `fail ...`).
    public var lines: [String]
    /// Whether every step passed.
    public var passed: Bool
}

extension Runtime {
    /// The names of the configured plugins.
    public var pluginNames: [String] { plugins?.configurations.map(\.name) ?? [] }

    /// Every configured plugin with its state, tools and last error; plugins with no valid
    /// catalog are started and listed.
    public func pluginReports() async -> [PluginReport] {
        guard let plugins else { return [] }
        let tools = await plugins.allTools()
        let errors = await plugins.errors
        return plugins.configurations.map { configuration in
            let own = tools.filter { $0.configuration.name == configuration.name }
            let error = errors[configuration.name] ?? plugins.recordedError(configuration.name)
            return PluginReport(
                name: configuration.name, program: configuration.program,
                state: own.isEmpty && errors[configuration.name] != nil ? "failing" : "listed",
                tools: own.map { ($0.name, $0.spec.destructive) }, lastError: error,
                provides: configuration.provides.map { "\($0) at priority \(configuration.priority)" })
        }
    }

    /// Checks plugin `name` from scratch (a new process, whatever the catalog says): the
    /// handshake, every tool's schemas, and one sample call: `sample` (a tool and its JSON
    /// arguments) or else the first tool that needs no arguments.
    ///
    /// - Throws: ``AlmanacError`` (usage) for a plugin that is not configured or a sample that is
    ///   not one of its tools.
    public func checkPlugin(
        _ name: String, sample: (tool: String, arguments: [String: JSONValue])?
    ) async throws
        -> PluginCheckReport
    {
        guard let plugins, let configuration = plugins.configurations.first(where: { $0.name == name.lowercased() })
        else {
            let names = pluginNames
            throw AlmanacError.usage(
                "no plugin '\(name)' is configured",
                suggestion: names.isEmpty
                    ? "add a [plugins.NAME] entry to config.toml (docs/plugins.md)"
                    : "plugins: \(names.joined(separator: ", "))")
        }
        return await plugins.check(configuration, sample: sample)
    }
}

extension PluginHost {
    /// The error the last run recorded in the plugin's folder, if any.
    nonisolated func recordedError(_ name: String) -> String? {
        guard let folder, let text = try? String(contentsOf: Self.errorFile(name, in: folder), encoding: .utf8)
        else { return nil }
        let line = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return line.isEmpty ? nil : line
    }

    static func errorFile(_ name: String, in folder: URL) -> URL {
        folder.appendingPathComponent("\(name).error")
    }

    /// Records (or clears, with nil) the plugin's last error for later runs.
    nonisolated func record(error: String?, for name: String) {
        guard let folder else { return }
        let file = Self.errorFile(name, in: folder)
        if let error {
            try? FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let stamp = TimeText.isoUTC(Date())
            try? Data("\(stamp) \(error)\n".utf8).write(to: file, options: .atomic)
        } else if FileManager.default.fileExists(atPath: file.path) {
            try? FileManager.default.removeItem(at: file)
        }
    }

    /// `tools plugin check`: a fresh start, the handshake, the tools' schemas, a sample call.
    func check(
        _ configuration: PluginConfiguration, sample: (tool: String, arguments: [String: JSONValue])?
    ) async -> PluginCheckReport {
        var lines: [String] = []
        var passed = true
        func step(_ ok: Bool, _ text: String) {
            lines.append((ok ? "ok    " : "fail  ") + text)
            if !ok { passed = false }
        }
        let started = ContinuousClock.now
        let connection: PluginConnection
        do {
            let environment = parentEnvironment
            let log = folder.map { Self.log(configuration.name, in: $0) }
            let deadline = deadline
            connection = try await Self.blocking {
                try PluginConnection(
                    configuration: configuration, parentEnvironment: environment, log: log, deadline: deadline)
            }
        } catch {
            step(false, "start and handshake: \(Self.failure(error).message)")
            return PluginCheckReport(lines: lines, passed: false)
        }
        defer { connection.close() }
        let elapsed = PluginConnection.milliseconds(started.duration(to: .now))
        step(true, "start and handshake (MCP \(PluginConnection.protocolVersion)): \(elapsed) ms")
        let specs: [PluginToolSpec]
        do {
            let deadline = deadline
            let listed = try await Self.blocking(cancel: connection) { try connection.listTools(deadline: deadline) }
            specs = listed.compactMap(PluginToolSpec.init)
            step(
                listed.count == specs.count && !specs.isEmpty,
                "tools/list: \(specs.count) usable tool(s)"
                    + (listed.count > specs.count ? ", \(listed.count - specs.count) refused (bad name)" : ""))
        } catch {
            step(false, "tools/list: \(Self.failure(error).message)")
            return PluginCheckReport(lines: lines, passed: false)
        }
        for spec in specs {
            let name = "\(configuration.name).\(spec.name)".lowercased()
            var problems: [String] = []
            if PluginSchema.type(of: spec.inputSchema) != "object" { problems.append("inputSchema is not an object") }
            if let output = spec.outputSchema, PluginSchema.type(of: output) != "object" {
                problems.append("outputSchema is not an object")
            }
            let options = PluginSchema.parameters(spec.inputSchema).parameters.map { "--\($0.name)" }
            let notes = (spec.destructive ? ["destructive"] : []) + (spec.outputSchema != nil ? ["output schema"] : [])
            step(
                problems.isEmpty,
                "\(name): "
                    + (problems.isEmpty
                        ? "options \(options.isEmpty ? "none" : options.joined(separator: " "))"
                        : problems.joined(separator: "; "))
                    + (notes.isEmpty ? "" : " (\(notes.joined(separator: ", ")))"))
        }
        if configuration.provides != nil {
            // A provider plugin: the contract kit is its sample call.
            let steps = await contractSteps(configuration, specs: specs, connection: connection)
            for (ok, text) in steps { step(ok, text) }
            if sample == nil { return PluginCheckReport(lines: lines, passed: passed) }
        }
        let chosen: (spec: PluginToolSpec, arguments: [String: JSONValue])?
        if let sample {
            let wanted = sample.tool.lowercased()
            guard
                let spec = specs.first(where: {
                    $0.name.lowercased() == wanted || "\(configuration.name).\($0.name)".lowercased() == wanted
                })
            else {
                step(false, "sample call: the plugin has no tool '\(sample.tool)'")
                return PluginCheckReport(lines: lines, passed: false)
            }
            chosen = (spec, sample.arguments)
        } else {
            chosen = specs.first { spec in
                PluginSchema.check(.object([:]), against: spec.inputSchema, root: spec.inputSchema, path: "") == nil
                    && !spec.destructive
            }.map { ($0, [:]) }
        }
        guard let chosen else {
            lines.append("skip  sample call: every tool needs arguments; give some with --call TOOL --arguments JSON")
            return PluginCheckReport(lines: lines, passed: passed)
        }
        let name = "\(configuration.name).\(chosen.spec.name)".lowercased()
        if let problem = PluginSchema.check(
            .object(chosen.arguments), against: chosen.spec.inputSchema, root: chosen.spec.inputSchema, path: "")
        {
            step(false, "sample call \(name): the arguments do not fit its input schema: \(problem)")
            return PluginCheckReport(lines: lines, passed: false)
        }
        let callStarted = ContinuousClock.now
        do {
            let deadline = deadline
            let arguments = chosen.arguments
            let result = try await Self.blocking(cancel: connection) {
                try connection.callTool(chosen.spec.name, arguments: arguments, deadline: deadline)
            }
            let answer = try PluginAnswer(result: result, spec: chosen.spec)
            let elapsed = PluginConnection.milliseconds(callStarted.duration(to: .now))
            let shape = answer.structured != nil ? "structured content" : "text of \(answer.text.utf8.count) bytes"
            step(true, "sample call \(name): \(shape) in \(elapsed) ms")
        } catch {
            step(false, "sample call \(name): \(Self.failure(error).message)")
        }
        return PluginCheckReport(lines: lines, passed: passed)
    }
}
