public import AlmanacCore
import Foundation

/// Reads "what's new", "anything new", "my news": the user's own feeds (`[news] feeds`, `[me]
/// feeds`) and topics (`[me] topics`), as `--mine`; "my feeds", "what's in my feeds": the feeds.
/// Questions about a subject ("latest news about the Mars rover", "headlines today") stay with web
/// search's news, which answers any subject.
struct NewsQuestionReader: QuestionReader {
    /// Whole clauses (apostrophes dropped, as the clause folds them) that ask for the user's feeds.
    static let phrases: Set<[String]> = [
        ["whats", "new"], ["what", "is", "new"], ["anything", "new"], ["whats", "new", "for", "me"],
        ["whats", "new", "in", "my", "feeds"], ["my", "feeds"], ["my", "news"], ["my", "headlines"],
        ["news", "from", "my", "feeds"], ["whats", "in", "my", "feeds"], ["any", "news", "in", "my", "feeds"],
    ]

    /// Words that may open or close such a clause without changing it.
    static let fillers: Set<String> = ["so", "hey", "ok", "okay", "today", "this", "morning", "please", "then"]

    /// Of those, the ones about the user's news in general, not only the feeds: `--mine` adds
    /// the profile's topics (`[me] topics`) to the feeds.
    static let general: Set<[String]> = [
        ["whats", "new"], ["what", "is", "new"], ["anything", "new"], ["whats", "new", "for", "me"], ["my", "news"],
        ["my", "headlines"],
    ]

    func read(_ clause: QuestionClause) -> ToolReading? {
        let words = clause.words.filter { !Self.fillers.contains($0) }
        guard Self.phrases.contains(words) else { return nil }
        return ToolReading(Self.general.contains(words) ? ["--mine"] : [], weight: .strong)
    }
}

extension NewsTool {
    /// Reads questions for the user's feeds (``NewsQuestionReader``).
    public var questionReader: (any QuestionReader)? { NewsQuestionReader() }
}
