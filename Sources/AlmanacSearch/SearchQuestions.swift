public import AlmanacCore
import Foundation

/// How the search tool reads a clause: whatever no other tool reads is a web search, with the
/// lead-in ("search for", "look up") dropped, `--news` for news and `--count` for "top N".
struct SearchQuestionReader: QuestionReader {

    /// Web search answers anything.
    var answersAnything: Bool { true }

    /// The search words for `clause`: always a reading.
    func read(_ clause: QuestionClause) -> ToolReading? {
        var tokens = clause.tokens
        let news = clause.hasAny(["news", "headlines"]) || clause.has("latest on")
        for leadIn in SearchQuestionWords.leadIns {
            let parts = leadIn.split(separator: " ").map(String.init)
            if tokens.count > parts.count, Array(tokens.prefix(parts.count).map(\.lower)) == parts {
                tokens.removeFirst(parts.count)
                break
            }
        }
        var options: [String] = []
        if news {
            options.append("--news")
            let trimmed = Array(tokens.drop { SearchQuestionWords.newsFiller.contains($0.lower) })
            if !trimmed.isEmpty { tokens = trimmed }
        }
        let words = clause.words
        if let top = words.firstIndex(of: "top"), top + 1 < words.count, let count = Int(words[top + 1]),
            (1...20).contains(count)
        {
            options += ["--count", String(count)]
            tokens.removeAll { $0.lower == "top" || $0.lower == String(count) }
        }
        // Content a snippet cannot hold (a summary, a recipe, steps): read the top hit too.
        if SearchQuestionWords.pageWords.contains(where: { clause.has($0) }) {
            options += ["--read", "1"]
            let trimmed = Array(tokens.drop { SearchQuestionWords.summaryLeadIns.contains($0.lower) })
            if !trimmed.isEmpty { tokens = trimmed }
        }
        let query = tokens.map(\.original)
        // A word that looks like an option is part of the query, after "--".
        if query.contains(where: { $0.hasPrefix("-") && Double($0) == nil }) {
            return ToolReading(options + ["--"] + query, weight: .weak)
        }
        return ToolReading(query + options, weight: .weak)
    }
}

/// The search tool's words: data, no logic.
enum SearchQuestionWords {
    static let leadIns = [
        "search the web for", "search for", "search", "look up", "lookup", "google", "web search", "find me",
        "tell me about",
    ]
    /// Questions whose answer is on the page, not in a snippet: the top hit is read (`--read 1`).
    static let pageWords = [
        "summarize", "summarise", "summary of", "sum up", "recipe", "lyrics", "step by step", "instructions for",
        "tutorial", "full text", "the article", "what does the article",
    ]
    /// Words that ask for a summary and are no part of the search itself.
    static let summaryLeadIns: Set<String> = ["summarize", "summarise", "sum", "up", "summary", "of", "me"]
    static let newsFiller: Set<String> = [
        "whats", "what", "is", "the", "latest", "news", "headlines", "about", "on", "for", "any", "in",
        "top", "todays", "today", "recent", "are", "give", "me", "show",
    ]
}

extension SearchTool {
    /// Reads any question as a web search (``SearchQuestionReader``).
    public var questionReader: (any QuestionReader)? { SearchQuestionReader() }
}
