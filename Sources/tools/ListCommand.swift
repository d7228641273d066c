import AlmanacCore
import AlmanacRuntime
import ArgumentParser
import Foundation

extension Tools {
    /// `tools list [--providers]`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the tools (and their providers in fallback order).")

        @Flag(help: "Show each tool's providers in the order they are tried.")
        var providers = false

        func run() async throws {
            do {
                let runtime = try Runtime.make()
                let context = runtime.context()
                var lines: [String] = []
                for tool in runtime.registry.tools {
                    var line = tool.name.padding(toLength: 10, withPad: " ", startingAt: 0) + tool.summary
                    if let reason = tool.unconfiguredReason(in: context) { line += " [unconfigured: \(reason)]" }
                    lines.append(line)
                    if providers {
                        for (index, provider) in tool.providers(in: context).enumerated() {
                            let note = provider.note.map { " (\($0))" } ?? ""
                            lines.append("  \(index + 1). \(provider.name) [priority \(provider.priority)]\(note)")
                        }
                    }
                }
                printLine(lines.joined(separator: "\n"))
            } catch {
                throw fail(error)
            }
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
