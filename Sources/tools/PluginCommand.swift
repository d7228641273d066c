import AlmanacCore
import AlmanacRuntime
import ArgumentParser
import Foundation

extension Tools {
    /// `tools plugin list`, `tools plugin check NAME`: the `[plugins.NAME]` entries of config.toml.
    struct PluginCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "plugin",
            abstract: "List the configured plugins (MCP servers whose tools become NAME.TOOL) or check one.",
            subcommands: [ListPlugins.self, CheckPlugin.self, PluginContract.self])
    }

    struct ListPlugins: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "Each plugin: its state, its tools, what last went wrong.")

        func run() async throws {
            do {
                let runtime = try Runtime.make()
                let reports = await runtime.pluginReports()
                await runtime.stopPlugins()
                guard !reports.isEmpty else {
                    printLine("no plugins configured: add a [plugins.NAME] entry to config.toml (docs/plugins.md)")
                    return
                }
                var lines: [String] = []
                for report in reports {
                    lines.append(
                        "\(report.name) (\(report.program)): \(report.state), \(report.tools.count) tool(s)"
                            + (report.provides.map { ", provides \($0)" } ?? ""))
                    for tool in report.tools {
                        lines.append("  \(tool.name)" + (tool.destructive ? " [destructive: command line only]" : ""))
                    }
                    if let error = report.lastError { lines.append("  last error: \(TerminalText.escaped(error))") }
                }
                printLine(lines.joined(separator: "\n"))
            } catch {
                throw fail(error)
            }
        }
    }

    struct CheckPlugin: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Start a plugin afresh: the MCP handshake, its tools' schemas and a sample call.",
            discussion: "Exit 0 when every step passes, 69 when one fails, 64 for a plugin not configured.")

        @Argument(help: "The plugin's name ([plugins.NAME] in config.toml).")
        var name: String

        @Option(help: "The tool to call as a sample (default: the first that needs no arguments).")
        var call: String?

        @Option(help: "The sample call's arguments as a JSON object, e.g. '{\"timezone\": \"Asia/Tokyo\"}'.")
        var arguments: String?

        func run() async throws {
            do {
                let runtime = try Runtime.make()
                var sample: (tool: String, arguments: [String: JSONValue])?
                if let call {
                    var parsed: [String: JSONValue] = [:]
                    if let arguments {
                        guard
                            case .object(let object) = try? JSONDecoder().decode(
                                JSONValue.self, from: Data(arguments.utf8))
                        else {
                            throw AlmanacError.usage(
                                "--arguments must be a JSON object", suggestion: "e.g. --arguments '{\"text\": \"hi\"}'"
                            )
                        }
                        parsed = object
                    }
                    sample = (call, parsed)
                } else if arguments != nil {
                    throw AlmanacError.usage(
                        "--arguments needs --call TOOL", suggestion: "e.g. --call echo --arguments '{}'")
                }
                let report = try await runtime.checkPlugin(name, sample: sample)
                printLine(report.lines.map(TerminalText.escaped).joined(separator: "\n"))
                if !report.passed { throw ExitCode(69) }
            } catch let exit as ExitCode {
                throw exit
            } catch {
                throw fail(error)
            }
        }
    }
}

extension DoctorChecks {
    /// One line per configured plugin: started afresh, listed, and its tools' schemas read.
    func plugins() async -> [DoctorCheck] {
        var checks: [DoctorCheck] = []
        for name in runtime.pluginNames {
            do {
                let report = try await runtime.checkPlugin(name, sample: nil)
                let failed = report.lines.first { $0.hasPrefix("fail") }
                let tools = report.lines.filter { $0.hasPrefix("ok    \(name).") }.count
                checks.append(
                    DoctorCheck(
                        status: failed == nil ? .ok : .fail, name: "plugin \(name)",
                        detail: failed.map { String($0.dropFirst(6)) } ?? "\(tools) tool(s) listed, schemas read",
                        essential: true))
            } catch {
                checks.append(
                    DoctorCheck(status: .fail, name: "plugin \(name)", detail: firstLine(error), essential: true))
            }
        }
        return checks
    }
}
