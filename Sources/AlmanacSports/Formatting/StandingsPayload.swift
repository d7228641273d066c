import AlmanacCore
import Foundation

/// League tables: `tools run sports nba standings`.
struct StandingsPayload: ToolPayload {
    var league: League
    var standings: Standings
    /// When set, only this team's row.
    var team: TeamRef?
    /// Rows per table, when limited.
    var limit: Int?

    init(league: League, standings: Standings, team: TeamRef?, limit: Int?) {
        self.league = league
        self.standings = standings
        self.team = team
        self.limit = limit
    }

    /// The groups and rows to show after the team filter and limit.
    var shown: [Standings.Group] {
        standings.groups.compactMap { group in
            var entries = group.entries
            if let team {
                entries = entries.filter {
                    team.id == $0.teamId || team.abbreviation.caseInsensitiveCompare($0.abbreviation) == .orderedSame
                }
            }
            if let limit { entries = Array(entries.prefix(max(1, limit))) }
            return entries.isEmpty ? nil : Standings.Group(name: group.name, entries: entries)
        }
    }

    func title() -> String {
        var title = "\(league.name) standings"
        if let season = standings.season { title += " \(season)" }
        if let team { title += " · \(team.label)" }
        return title
    }

    /// "4. Pacers 50-32, GB 14" or "1. Liverpool 84 pts (W-D-L 25-9-4, GD +45) · Champions League".
    func row(_ entry: Standings.Entry) -> String {
        let name = Self.marked(entry.name, entry)
        var text = entry.position.map { "\($0). \(name)" } ?? name
        if league.style == .soccer {
            if let points = entry.points { text += " \(points) pts" }
            var detail: [String] = []
            if let record = entry.record { detail.append("W-D-L \(record)") }
            if let difference = entry.difference { detail.append("GD \(difference)") }
            if !detail.isEmpty { text += " (\(detail.joined(separator: ", ")))" }
        } else {
            if let record = entry.record { text += " \(record)" }
            if let points = entry.points { text += ", \(points) pts" }
            if let behind = entry.gamesBehind { text += ", GB \(behind)" }
        }
        if let note = entry.note { text += " · \(note)" }
        return text
    }

    /// "z-Cavaliers": the clinch mark before the name, as standings pages print it.
    static func marked(_ name: String, _ entry: Standings.Entry) -> String {
        entry.clinch.map { "\($0)-\(name)" } ?? name
    }

    /// One line saying what each mark shown means ("Clinch marks: z = Clinched Conference; e = ..."), in
    /// upstream's words; a mark upstream gives no words for (MLB's, the NHL's) is listed as it is. Nil
    /// when no row shown has one.
    func legend(_ groups: [Standings.Group]) -> String? {
        var seen: [String] = []
        var meanings: [String: String] = [:]
        for entry in groups.flatMap(\.entries) {
            guard let mark = entry.clinch else { continue }
            if !seen.contains(mark) { seen.append(mark) }
            if meanings[mark] == nil, let meaning = entry.clinchMeaning { meanings[mark] = meaning }
        }
        guard !seen.isEmpty else { return nil }
        let parts = seen.map { mark in meanings[mark].map { "\(mark) = \($0)" } ?? mark }
        let unexplained = seen.contains { meanings[$0] == nil }
        return "Clinch marks: " + parts.joined(separator: "; ")
            + (unexplained ? " (letters as \(league.name) marks them, before the team)" : "")
    }

    /// Header, then per table a name line and one line per team.
    func context(_ rendering: Rendering) -> String {
        var header = rendering.header(title())
        let groups = shown
        guard !groups.isEmpty else {
            return header + "\n"
                + (team.map { "\($0.label) is not in the \(league.name) standings." }
                    ?? "No \(league.name) standings published.")
        }
        // Kept with the header: a budget that drops rows must not drop what the marks on the rest mean.
        if let legend = legend(groups) { header += "\n" + legend }
        var lines: [String] = []
        for group in groups {
            if team != nil {
                lines += group.entries.map { "\(group.name): \(row($0))" }
            } else {
                lines.append("\(group.name):")
                lines += group.entries.map(row)
            }
        }
        let kept = rendering.budget.fit(lines, reserved: header, minimum: 2) { "… \($0) more lines omitted" }
        return ([header] + kept).joined(separator: "\n")
    }

    /// Aligned columns per table.
    func text(_ rendering: Rendering) -> String {
        var lines = [rendering.header(title())]
        for group in shown {
            lines.append(group.name)
            let rows: [[String]] = group.entries.map { entry in
                let position = entry.position.map(String.init) ?? ""
                let name = Self.marked(entry.displayName, entry)
                if league.style == .soccer {
                    return [
                        position, name, entry.points.map(String.init) ?? "", entry.record ?? "",
                        entry.difference ?? "", entry.note ?? "",
                    ]
                }
                return [position, name, entry.record ?? "", entry.gamesBehind ?? "", entry.note ?? ""]
            }
            let headings =
                league.style == .soccer ? ["#", "Team", "Pts", "W-D-L", "GD", ""] : ["#", "Team", "W-L", "GB", ""]
            lines += GameText.table([headings] + rows, right: [0]).map { "  " + $0 }
        }
        if let legend = legend(shown) { lines.append(legend) }
        return lines.joined(separator: "\n")
    }

    private struct GroupJSON: Encodable {
        var name: String
        var entries: [EntryJSON]
    }

    private struct EntryJSON: Encodable {
        @Nullable var position: Int?
        var team: TeamJSON
        @Nullable var record: String?
        @Nullable var wins: Int?
        @Nullable var losses: Int?
        @Nullable var ties: Int?
        @Nullable var points: Int?
        @Nullable var gamesBehind: String?
        @Nullable var difference: String?
        @Nullable var note: String?
        @Nullable var clinch: ClinchJSON?

        init(entry: Standings.Entry) {
            position = entry.position
            team = TeamJSON(id: entry.teamId, name: entry.displayName, abbreviation: entry.abbreviation)
            record = entry.record
            wins = entry.wins
            losses = entry.losses
            ties = entry.ties
            points = entry.points
            gamesBehind = entry.gamesBehind
            difference = entry.difference
            note = entry.note
            clinch = entry.clinch.map { ClinchJSON(mark: $0, meaning: entry.clinchMeaning) }
        }
    }

    /// `{"mark": "z", "meaning": "Clinched Conference"}`; `meaning` null when upstream gives no words.
    private struct ClinchJSON: Encodable {
        var mark: String
        @Nullable var meaning: String?
    }

    enum CodingKeys: String, CodingKey {
        case view, season, groups
    }

    /// `{"league",...,"view":"standings","season","groups":[{"name","entries":[...]}]}`.
    /// By hand: `data` flattens the league's keys in beside the view's (not this type's fields).
    func encode(to encoder: any Encoder) throws {
        try LeagueJSON(league).encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(SportsView.standings.rawValue, forKey: .view)
        try container.encode(standings.season, forKey: .season)
        try container.encode(
            shown.map { GroupJSON(name: $0.name, entries: $0.entries.map(EntryJSON.init)) }, forKey: .groups)
    }
}
