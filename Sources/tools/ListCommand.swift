import AlmanacCore
import AlmanacRuntime
import ArgumentParser
import Foundation

extension Tools {
    /// `tools list [--providers]`, `tools list sports [SPORT]`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "List the tools (and their providers in fallback order), or a tool's choices: `tools list sports [SPORT]`."
        )

        @Argument(help: "`sports` lists every league ESPN serves.")
        var tool: String?

        @Argument(help: "With `sports`: only this sport's leagues (golf, tennis, soccer, ...).")
        var sport: String?

        @Flag(help: "Show each tool's providers in the order they are tried.")
        var providers = false

        @Flag(help: "Print every provider the program has as JSON (for scripts: the fault matrix, fuzzing).")
        var json = false

        func run() async throws {
            do {
                if let tool {
                    let tools = ToolRegistry(Runtime.defaultTools())
                    guard let choices = try tools.require(tool).choices(filter: sport) else {
                        let listed = tools.tools.filter { (try? $0.choices(filter: nil)) != nil }.map(\.name)
                        throw AlmanacError.usage(
                            "nothing to list for '\(tool)'",
                            suggestion: "tools list, or "
                                + listed.map { "tools list \($0) [FILTER]" }.joined(separator: ", "))
                    }
                    printLine(choices)
                    return
                }
                // Plugins not yet listed are started and listed, so their tools show.
                let runtime = try await Runtime.make().listingPlugins()
                if json {
                    printLine(ProviderListing.json(runtime.providers, settings: runtime.settings))
                    return
                }
                let context = runtime.context()
                var lines: [String] = []
                // One column for every name: plugin tools' (`time.get_current_time`) are longer
                // than the built-ins'.
                let width = max(10, (runtime.registry.tools.map(\.name.count).max() ?? 0) + 2)
                for tool in runtime.registry.tools {
                    var line = tool.name.padding(toLength: width, withPad: " ", startingAt: 0) + tool.summary
                    if let reason = tool.unconfiguredReason(in: context) { line += " [unconfigured: \(reason)]" }
                    lines.append(line)
                    if providers { lines += Self.chain(of: tool, runtime: runtime, context: context) }
                }
                printLine(lines.joined(separator: "\n"))
            } catch {
                throw fail(error)
            }
        }

        /// The tool's providers from the registry, grouped by role in the order tried, each with
        /// the variable that points it elsewhere; unconfigured ones say why.
        static func chain(of tool: any Tool, runtime: Runtime, context: ToolContext) -> [String] {
            let described = runtime.providers.descriptors(forTool: tool.name)
            var roles: [ProviderRole] = []
            for descriptor in described where !roles.contains(descriptor.role) { roles.append(descriptor.role) }
            var lines: [String] = []
            let grouped = roles.count > 1 || roles.first != .main
            let indent = grouped ? "    " : "  "
            for role in roles {
                let members = described.filter { $0.role == role }
                if grouped { lines.append("  \(role == .main ? tool.name : role.rawValue):") }
                for (index, descriptor) in members.enumerated() {
                    var line =
                        "\(indent)\(index + 1). \(descriptor.name) [priority \(descriptor.priority)] \(descriptor.summary)"
                    if let endpoint = descriptor.endpoints.first { line += " (\(endpoint.env))" }
                    if let reason = descriptor.unconfiguredReason(runtime.settings) {
                        line += " [unconfigured: \(reason)]"
                    }
                    lines.append(line)
                }
                // Web search stands in for the tool's main answer, after its own providers.
                guard role == .main, tool.usesWebSearchFallback else { continue }
                if let chain = context.environment.webSearch {
                    for (index, searcher) in chain.searchers.enumerated() {
                        let priority = WebSearchFallbacks.firstPriority + index
                        lines.append(
                            "\(indent)\(members.count + index + 1). web search via \(searcher.providerName) [priority \(priority)]"
                        )
                    }
                } else {
                    lines.append("\(indent)-. web search [unconfigured: no search provider: \(Runtime.webSearchHelp)]")
                }
            }
            return lines
        }
    }

    /// `tools cache clear|info`.

    struct Cache: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Inspect or empty the shared cache.", subcommands: [Clear.self, Info.self])

        struct Clear: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Remove every cached result.")
            func run() async throws {
                do {
                    let runtime = try Runtime.make()
                    let removed = try await runtime.coordinator.clearCache()
                    printLine("removed \(removed) cached result\(removed == 1 ? "" : "s")")
                } catch {
                    throw fail(error)
                }
            }
        }

        struct Info: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Show where the cache lives and its health.")
            func run() async throws {
                do {
                    let runtime = try Runtime.make()
                    guard let disk = runtime.diskCache else {
                        printLine("cache: memory only (\(runtime.warnings.joined(separator: "; ")))")
                        return
                    }
                    let health = try await disk.health()
                    printLine("cache: \(disk.path)\nentries: \(health.entries)\nintegrity: \(health.integrity)")
                } catch {
                    throw fail(error)
                }
            }
        }
    }
}
