import AlmanacCore
import Foundation

/// The words an operator gives a plugin's tools for the router (`tools route`/`context`/`ask`):
///
/// ```toml
/// [plugins.club]
/// words = { opening_hours = ["opening", "hours", "open"] }
/// ```
///
/// Operator-given, never taken from the plugin's descriptions (a plugin's text must not steer
/// which tool answers a question).
extension PluginConfiguration {
    /// Reads `words`: a table from the plugin's tool names to lists of lower-case words.
    ///
    /// - Throws: ``AlmanacError`` (usage) naming the entry and what would be right.
    static func words(_ raw: ConfigValue?, plugin: String) throws -> [String: [String]] {
        guard let raw else { return [:] }
        let example = "e.g. words = { opening_hours = [\"opening\", \"hours\"] }"
        guard case .table(let tools) = raw else {
            throw AlmanacError.usage(
                "[plugins.\(plugin)] words must be a table from tool names to lists of words", suggestion: example)
        }
        var result: [String: [String]] = [:]
        for (tool, value) in tools {
            guard case .array(let items) = value else {
                throw AlmanacError.usage(
                    "[plugins.\(plugin)] words.\(tool) must be a list of words", suggestion: example)
            }
            var words: [String] = []
            for item in items {
                guard case .string(let word) = item, !word.isEmpty, word.count <= 40,
                    word.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" })
                else {
                    throw AlmanacError.usage(
                        "[plugins.\(plugin)] words.\(tool): each word is letters, digits and '-' (one word, up to 40)",
                        suggestion: example)
                }
                words.append(word.lowercased())
            }
            result[tool.lowercased()] = words
        }
        return result
    }
}

/// Reads a clause for a plugin tool: any of the operator's words makes it this tool's (strong,
/// as a word only this tool answers). The tool is run with no arguments: a tool that needs some is
/// reached by native tool calling instead.
struct PluginQuestionReader: QuestionReader {
    var words: Set<String>

    func read(_ clause: QuestionClause) -> ToolReading? {
        clause.words.contains(where: words.contains) ? ToolReading([], weight: .strong) : nil
    }
}

extension PluginTool {
    /// The operator's words for this tool (`words` in its entry), when it needs no arguments.
    var questionReader: (any QuestionReader)? {
        guard let words = configuration.words[spec.name.lowercased()], !words.isEmpty,
            !schema.parameters.contains(where: \.isRequired)
        else { return nil }
        return PluginQuestionReader(words: Set(words))
    }
}
