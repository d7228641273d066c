import AlmanacCore
import Foundation

/// One tool run a question needs: the tool's name and its CLI words (as `tools run <tool> <words>`).
public struct Route: Sendable, Hashable, CustomStringConvertible {
    /// The tool name, e.g. `sports`.
    var tool: String
    /// The tool's CLI words, e.g. `["nba", "--team", "lakers", "--date", "yesterday"]`.
    var words: [String]

    init(_ tool: String, _ words: [String]) {
        self.tool = tool
        self.words = words
    }

    /// `sports nba --team lakers --date yesterday`, with shell quoting where a word needs it.
    public var description: String {
        ([tool] + words.map(Self.shellQuoted)).joined(separator: " ")
    }

    /// Quotes a word for a POSIX shell when it holds spaces or special characters.
    static func shellQuoted(_ word: String) -> String {
        let safe = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_./:=,@+%"))
        if !word.isEmpty, word.unicodeScalars.allSatisfy({ safe.contains($0) }) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
