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
}
