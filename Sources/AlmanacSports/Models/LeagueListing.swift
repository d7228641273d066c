import AlmanacCore
import Foundation

extension League {
    /// `tools list sports [SPORT]`: every catalog league of `sport` (or of every sport), one a line, with its
    /// `sport/league` path, name and aliases.
    ///
    /// - Throws: a usage error naming the sports when `sport` is not one.
    static func listing(sport: String?) throws -> String {
        let wanted = sport?.lowercased().trimmingCharacters(in: .whitespaces)
        if let wanted, !catalogSports.contains(wanted) {
            let guess = Suggest.closest(to: wanted, in: catalogSports)
            throw AlmanacError.usage(
                "unknown sport '\(sport ?? "")'",
                suggestion: (guess.map { "did you mean '\($0)'? " } ?? "") + "sports: "
                    + catalogSports.joined(separator: ", "))
        }
        var lines: [String] = []
        for name in catalogSports where wanted == nil || wanted == name {
            let leagues = catalog.filter { $0.sport == name }
            if leagues.isEmpty {
                lines.append(
                    "\(name): no leagues (ESPN lists none; cricket series ids change each season, so it is not supported)"
                )
                continue
            }
            lines.append(
                "\(name): \(leagues.count) league\(leagues.count == 1 ? "" : "s") · \(shapeWord(leagues[0].shape))")
            for league in leagues {
                let aliases = league.aliasWords.filter { $0 != league.slug }
                var line = "  \(league.path)  \(league.name)"
                if !aliases.isEmpty { line += "  (" + aliases.joined(separator: ", ") + ")" }
                lines.append(line)
            }
        }
        lines.append("Any sport/league path ESPN serves works too, e.g. tools run sports soccer/bra.1")
        return lines.joined(separator: "\n")
    }

    private static func shapeWord(_ shape: Shape) -> String {
        switch shape {
        case .team: "team games"
        case .golf: "leaderboards"
        case .tennis: "draws of matches"
        case .racing: "race weekends"
        case .mma: "fight cards"
        }
    }
}
