import AlmanacCore
import Foundation

/// Where a halted game stopped, and when it resumes: the words every provider shares.
///
/// A suspended baseball game keeps its score and inning ("Suspended: Diamondbacks 3 @ Reds 3, top 7th ·
/// resumes Sat 7 Jun 14:10"); a delayed one says where play stands.
enum GamePeriod {
    /// Whether an upstream status name or text says the game is suspended (`STATUS_SUSPENDED`,
    /// "Suspended: Rain", NHL `SUSP`).
    static func isSuspended(_ status: String) -> Bool {
        status.uppercased().contains("SUSP")
    }

    /// Whether play stopped and will go on (suspended or delayed), as opposed to called off.
    static func isHalted(_ game: Game) -> Bool {
        game.interruption == "Suspended" || game.interruption == "Delayed"
    }

    /// ", top 7th · resumes Sat 7 Jun 14:10" for a halted game, "" otherwise.
    static func halted(_ game: Game, zone: TimeZone) -> String {
        guard game.interruption != nil else { return "" }
        var text = ""
        if let period = game.period, !period.isEmpty,
            game.status.range(of: period, options: [.caseInsensitive]) == nil
        {
            text += ", \(period)"
        }
        if let resumes = game.resumesAt {
            text += " · resumes \(dayAndClock(resumes, zone: zone))"
        }
        return text
    }

    /// "Sat 7 Jun 14:10" in `zone`.
    static func dayAndClock(_ date: Date, zone: TimeZone) -> String {
        let day = TimeText.day(date, in: zone).split(separator: " ").dropLast().joined(separator: " ")
        return "\(day) \(TimeText.clock(date, in: zone))"
    }

    /// "1st", "2nd", "3rd", "11th".
    static func ordinal(_ number: Int) -> String {
        let tens = number % 100
        let suffix: String
        if (11...13).contains(tens) {
            suffix = "th"
        } else {
            switch number % 10 {
            case 1: suffix = "st"
            case 2: suffix = "nd"
            case 3: suffix = "rd"
            default: suffix = "th"
            }
        }
        return "\(number)\(suffix)"
    }

    /// ESPN's place in the game for a halted one: the inning words of its detail ("Rain Delay, Top 7th" ->
    /// "top 7th"), else the period number ("7th"), else nil.
    static func fromESPN(_ detail: String?, _ shortDetail: String?, number: Int?) -> String? {
        for text in [detail, shortDetail].compactMap({ $0 }) {
            if let inning = inningWords(text) { return inning }
        }
        guard let number, number > 0 else { return nil }
        return ordinal(number)
    }

    /// "top 7th" out of text naming a half inning ("Top 7th", "Bot 7th", "Mid 7th", "End 7th").
    static func inningWords(_ text: String) -> String? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "-" }).map(String.init)
        let halves = ["top", "bot", "bottom", "mid", "middle", "end"]
        for (index, word) in words.enumerated().dropLast() {
            let next = words[index + 1]
            guard halves.contains(word.lowercased()), next.first?.isNumber == true,
                next.hasSuffix("st") || next.hasSuffix("nd") || next.hasSuffix("rd") || next.hasSuffix("th")
            else { continue }
            return "\(word.lowercased()) \(next)"
        }
        return nil
    }

    // MARK: Soccer beyond 90 minutes

    /// Soccer's status in words a reader takes at once: ESPN's clock alone ("96'") does not say a game
    /// is in extra time, nor its "FT" that a final went to extra time or penalties.
    ///
    /// ESPN's status names for these phases (`STATUS_FIRST_HALF_EXTRA_TIME`, `STATUS_HALFTIME_ET`,
    /// `STATUS_SECOND_HALF_EXTRA_TIME`, `STATUS_END_OF_EXTRATIME`, `STATUS_SHOOTOUT`, `STATUS_FINAL_AET`,
    /// `STATUS_FINAL_PEN`; periods 3 and 4 are the halves of extra time, 5 the shootout) are in no recording
    /// here; they are the ones other ESPN clients match on (Fixtures/sports/README.md).
    static func soccerStatus(_ status: String, name: String, period: Int?, state: Game.State) -> String {
        let name = name.uppercased()
        switch state {
        case .in:
            if name.contains("SHOOTOUT") || name.contains("PENALT") || period == 5 { return "penalty shootout" }
            if name == "STATUS_HALFTIME_ET" { return "extra time, half-time" }
            if name.contains("END_OF_EXTRA") { return "end of extra time, penalties next" }
            if name == "STATUS_END_OF_REGULATION" { return "end of normal time, extra time next" }
            if name.contains("EXTRA_TIME") || name.contains("OVERTIME") || (3...4).contains(period ?? 0) {
                return status.isEmpty ? "extra time" : "extra time \(status)"
            }
            return status
        case .post:
            if name.contains("FINAL_PEN") { return "FT after penalties" }
            if name.contains("FINAL_AET") { return "FT after extra time" }
            return status
        case .pre:
            return status
        }
    }

    /// A bare round word ("Final", "Semifinal") as a note reads like the game's status ("FT: Spain 1 v
    /// England 0 · Final"): it is said with its competition ("FIFA World Cup final"), or as "the final".
    static func stage(_ stage: String, of competition: String?) -> String {
        let bare = [
            "final", "semifinal", "semifinals", "semi-final", "semi-finals", "quarterfinal", "quarterfinals",
            "quarter-final", "quarter-finals", "3rd place", "third place", "3rd-place match", "third-place match",
        ]
        let words = stage.trimmingCharacters(in: .whitespaces)
        guard bare.contains(words.lowercased()) else { return words }
        if let competition, !competition.isEmpty { return "\(competition) \(words.lowercased())" }
        return "the \(words.lowercased())"
    }
}
