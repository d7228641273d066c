import AlmanacCore
import AlmanacRuntime
import ArgumentParser
import Foundation

extension Tools {
    /// `tools plugin contract sports`: the versioned contract a provider plugin of a built-in
    /// tool answers, as JSON Schema (docs/plugins.md).
    struct PluginContract: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "contract",
            abstract: "Print, as JSON Schema, the contract a provider plugin of a built-in tool answers.",
            discussion: "A plugin with provides = \"sports\" answers almanac.sports.scoreboard/1 (docs/plugins.md).")

        @Argument(help: "The built-in tool: sports.")
        var tool: String

        func run() async throws {
            do {
                let schema = try Runtime.providerContract(tool)
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                printLine(String(decoding: try encoder.encode(schema), as: UTF8.self))
            } catch {
                throw fail(error)
            }
        }
    }
}
