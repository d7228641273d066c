import AlmanacCore
import Foundation

// "did we win", "how did my teams do": the user's teams (`tools run sports --mine`), which the
// profile names; a question that names a team or an athlete is read as before.

extension SportsQuestionReader {
    /// Phrases that ask about the user's own teams.
    static let minePhrases = [
        "did we win", "did we lose", "did we draw", "how did we do", "how did we play", "we win", "we lose",
        "my team", "my teams", "our team", "our teams", "our game", "my teams game", "my teams games",
    ]

    /// `[LEAGUE] --mine [--date DAY]` when the clause asks about the user's teams without naming one.
    func mineReading(_ clause: QuestionClause, _ reading: SportsClause) -> ToolReading? {
        guard declared.contains(.mine), clause.hasAnyPhrase(Self.minePhrases), reading.team == nil,
            reading.athlete == nil, reading.event == nil, reading.player == nil
        else { return nil }
        var words = reading.league.map { [$0.word] } ?? []
        words.append(SportsParameter.mine.option)
        // Past tense without a day is the last game: yesterday's, as for a named team.
        words += reading.dateWords(day: clause.day) ?? []
        return ToolReading(words, weight: .dominant)
    }
}
