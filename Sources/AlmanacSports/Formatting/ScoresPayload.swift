import AlmanacCore
import Foundation

/// The games of one local day: `tools run sports nba`.
struct ScoresPayload: ToolPayload {
    var league: League
    var day: LocalDay
    /// Games starting that day (already filtered to `team` when one was asked for).
    var games: [Game]
    /// The team asked about, if any.
    var team: TeamRef?
    /// At most this many games (most important first), when set.
    var limit: Int?
    /// `--player` in a team sport: who was asked for and where the day's leaders name them.
    var player: PlayerLookup?

    /// A player looked up among the day's game leaders.
    struct PlayerLookup: Sendable, Hashable {
        /// The word asked ("mahomes").
        var query: String
        /// The leader's name as upstream writes it, when one matched.
        var name: String?
        /// Ids of the games whose leaders name them.
        var games: [String]
        /// Close or equally good names when none matched exactly one.
        var candidates: [String]
    }

    init(
        league: League, day: LocalDay, games: [Game], team: TeamRef?, limit: Int? = nil, player: PlayerLookup? = nil
    ) {
        self.league = league
        self.day = day
        self.games = games
        self.team = team
        self.limit = limit
        self.player = player
    }

    /// The lines under a game for the asked player: "  Patrick Mahomes (Chiefs), Passing Leader: 21/32, 257 YDS".
    func playerLines(_ game: Game) -> [String] {
        guard let name = player?.name else { return [] }
        return (game.leaders ?? []).filter { $0.athlete == name }.map { leader in
            let team = [game.home, game.away].first { $0.id == leader.teamId }.map { " (\($0.name))" } ?? ""
            return "  \(leader.athlete)\(team), \(leader.category): \(leader.value)"
        }
    }

    /// Why the player is not on any line: ESPN names only each game's leaders.
    func playerMissing(_ rendering: Rendering) -> String? {
        guard let player, player.name == nil else { return nil }
        let when = TimeText.labelledDay(day.start, now: rendering.now, in: day.zone)
        var text =
            "No game leader named '\(player.query)' in \(league.name) on \(when) "
            + "(the scoreboard names each game's leaders, not whole rosters; the official feeds name none)"
        text += player.candidates.isEmpty ? "." : "; did you mean " + player.candidates.joined(separator: " or ") + "?"
        return text + " The day's games:"
    }

    /// Live games first, then upcoming, then finished: what matters most survives a tight budget.
    var ordered: [Game] {
        func weight(_ game: Game) -> Int {
            switch game.state {
            case .in: 0
            case .pre: 1
            case .post: 2
            }
        }
        return games.enumerated().sorted { (weight($0.element), $0.offset) < (weight($1.element), $1.offset) }
            .map(\.element)
    }

    /// The games shown, and how many `limit` left out.
    var shown: (games: [Game], hidden: Int) {
        let ordered = ordered
        guard let limit, ordered.count > limit else { return (ordered, 0) }
        return (Array(ordered.prefix(limit)), ordered.count - limit)
    }

    /// The zone label every start time in `games` shares, named once in the header instead of on each line.
    func zoneLabel(_ games: [Game]) -> String? { GameText.sharedZone(games, zone: day.zone) }

    func title(_ rendering: Rendering, zoneLabel: String?) -> String {
        var title = "\(league.name) · \(TimeText.labelledDay(day.start, now: rendering.now, in: day.zone))"
        if let team { title += " · \(team.label)" }
        if let name = player?.name { title += " · \(name)" }
        if let zoneLabel { title += " · times \(zoneLabel)" }
        if let legend = league.recordLegend, games.contains(where: { $0.home.record != nil }) {
            title += " · \(legend)"
        }
        return title
    }

    /// Header, then one line per game ("… N more games omitted" when over budget).
    func context(_ rendering: Rendering) -> String {
        let (shown, hidden) = shown
        let zoneLabel = zoneLabel(shown)
        let header = rendering.header(title(rendering, zoneLabel: zoneLabel), zone: day.zone)
        guard !games.isEmpty else { return header + "\n" + emptyLine(rendering) }
        let showZone = zoneLabel == nil
        var lines = shown.map { game in
            ([GameText.line(game, style: league.style, zone: day.zone, showZone: showZone)] + playerLines(game))
                .joined(separator: "\n")
        }
        if let missing = playerMissing(rendering) { lines.insert(missing, at: 0) }
        var kept = rendering.budget.fit(lines, reserved: header) { "… \($0 + hidden) more games omitted" }
        if hidden > 0, kept.count == lines.count { kept.append("… \(hidden) more games omitted") }
        return ([header] + kept).joined(separator: "\n")
    }

    func emptyLine(_ rendering: Rendering) -> String {
        let when = TimeText.labelledDay(day.start, now: rendering.now, in: day.zone)
        if let team {
            return "No \(team.label) game on \(when). Ask with --next for their next game."
        }
        return "No \(league.name) games on \(when)."
    }

    /// Aligned columns: state, away, score, home, score, result.
    func text(_ rendering: Rendering) -> String {
        let shown = shown.games
        let zoneLabel = zoneLabel(shown)
        let header = rendering.header(title(rendering, zoneLabel: zoneLabel), zone: day.zone)
        guard !games.isEmpty else { return header + "\n" + emptyLine(rendering) }
        let soccer = league.style == .soccer
        let rows: [[String]] = shown.map { game in
            let first = soccer ? game.home : game.away
            let second = soccer ? game.away : game.home
            let score: (Game.Side) -> String = { side in side.score.map(String.init) ?? "" }
            let result = GameText.result(game, style: league.style).replacingOccurrences(of: " · ", with: "")
            return [
                GameText.state(game, zone: day.zone, showZone: zoneLabel == nil), GameText.side(first, score: false),
                score(first),
                soccer ? "v" : "@", GameText.side(second, score: false), score(second),
                [result, game.note ?? ""].filter { !$0.isEmpty }.joined(separator: " · "),
            ]
        }
        return ([header] + GameText.table(rows, right: [2, 5])).joined(separator: "\n")
    }

    enum CodingKeys: String, CodingKey {
        case league, leagueName, sport, view, date, timeZone, team, games, player
    }

    /// `{"league","leagueName","sport","view":"scores","date","timeZone","team","games":[...]}`.
    /// By hand: `data` flattens the league's keys in beside the view's (not this type's fields).
    func encode(to encoder: any Encoder) throws {
        try LeagueJSON(league).encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(SportsView.scores.rawValue, forKey: .view)
        try container.encode(day.isoDate, forKey: .date)
        try container.encode(day.zoneIdentifier, forKey: .timeZone)
        try container.encode(
            team.map { TeamJSON(id: $0.id, name: $0.label, abbreviation: $0.abbreviation) }, forKey: .team)
        // Machines get start order; the context's live-first order is for readers on a budget.
        let chronological = shown.games.enumerated()
            .sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        try container.encode(chronological.map(GameJSON.init), forKey: .games)
        if let player {
            // Only with --player: who matched and the categories they lead, per game.
            let leads = chronological.flatMap { game in
                (game.leaders ?? []).filter { $0.athlete == player.name }.map {
                    PlayerLeadJSON(game: game.id, category: $0.category, value: $0.value, teamId: $0.teamId)
                }
            }
            try container.encode(
                PlayerJSON(query: player.query, name: player.name, leads: leads, candidates: player.candidates),
                forKey: .player)
        }
    }
}

/// `--player` in a team sport's JSON: `{"query","name","leads":[{"game","category","value","teamId"}],"candidates"}`.
struct PlayerJSON: Encodable {
    var query: String
    var name: String?
    var leads: [PlayerLeadJSON]
    var candidates: [String]
}

/// One category a player leads in one game.
struct PlayerLeadJSON: Encodable {
    var game: String
    var category: String
    var value: String
    var teamId: String?
}
