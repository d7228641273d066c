import AlmanacCore
import Foundation

/// A team's upcoming games (`schedule`) or just the next one (`--next`).
struct SchedulePayload: ToolPayload {
    var league: League
    var schedule: TeamSchedule
    /// True for `--next`: only the next game.
    var nextOnly: Bool
    /// How many upcoming games to list (schedule view).
    var limit: Int
    /// Upcoming games start from here (now, or the start of `--date`).
    var from: Date

    init(league: League, schedule: TeamSchedule, nextOnly: Bool, limit: Int, from: Date) {
        self.league = league
        self.schedule = schedule
        self.nextOnly = nextOnly
        self.limit = limit
        self.from = from
    }

    /// Games still to play (or under way), in date order.
    var upcoming: [Game] { schedule.games.filter { ESPNProvider.isUpcoming($0, now: from) } }

    var shown: [Game] { Array(upcoming.prefix(nextOnly ? 1 : max(1, limit))) }

    /// The team's last finished game before `from` (for `--next`: "did they win last time?").
    var last: Game? {
        schedule.games.filter { $0.state == .post && $0.completed && $0.start < from }.max { $0.start < $1.start }
    }

    func title() -> String {
        let season = schedule.season.map { " \($0)" } ?? ""
        return "\(league.name) · \(schedule.team.displayName) " + (nextOnly ? "next game" : "schedule\(season)")
    }

    /// "Sat 7 Jun 2025 (tomorrow), Suspended: Diamondbacks 3 @ Reds 3, top 7th · resumes Sun 8 Jun 13:10": the day,
    /// then the scores view's own line, so halted games show their period and resume time here too.
    func line(_ game: Game, rendering: Rendering) -> String {
        let zone = rendering.timeZone
        let day = GameText.day(game, now: rendering.now, zone: zone)
        return "\(day), \(GameText.line(game, style: league.style, zone: zone))"
    }

    var emptyLine: String {
        let season = schedule.season.map { "the \($0) " } ?? "the "
        return "No upcoming \(schedule.team.displayName) games in \(season)schedule."
    }

    /// Header, then the next game or the next few.
    func context(_ rendering: Rendering) -> String {
        let header = rendering.header(title())
        let games = shown
        let lastLine = nextOnly ? last.map { "Last: " + line($0, rendering: rendering) } : nil
        guard !games.isEmpty else {
            return ([header, emptyLine] + [lastLine].compactMap { $0 }).joined(separator: "\n")
        }
        if nextOnly, let game = games.first {
            let next = (game.state == .in ? "Playing now: " : "Next: ") + line(game, rendering: rendering)
            return ([header, next] + [lastLine].compactMap { $0 }).joined(separator: "\n")
        }
        var lines = games.map { line($0, rendering: rendering) }
        let more = upcoming.count - games.count
        if more > 0 { lines.append("… \(more) more games this season") }
        return ([header] + rendering.budget.fit(lines, reserved: header) { "… \($0) more games omitted" })
            .joined(separator: "\n")
    }

    /// Aligned columns: day, time, matchup, note.
    func text(_ rendering: Rendering) -> String {
        let header = rendering.header(title())
        let games = shown
        guard !games.isEmpty else { return header + "\n" + emptyLine }
        let zone = rendering.timeZone
        let rows = games.map { game in
            [
                GameText.day(game, now: rendering.now, zone: zone),
                game.state == .pre ? GameText.clock(game, zone: zone) : GameText.state(game, zone: zone),
                GameText.matchup(game, style: league.style, scores: game.state != .pre)
                    + GamePeriod.halted(game, zone: zone),
                game.note ?? "",
            ]
        }
        return ([header] + GameText.table(rows)).joined(separator: "\n")
    }

    enum CodingKeys: String, CodingKey {
        case view, next, team, season, games, last
    }

    /// `{"league",...,"view":"schedule","next","team","season","games":[...]}`.
    /// By hand: `data` flattens the league's keys in beside the view's (not this type's fields).
    func encode(to encoder: any Encoder) throws {
        try LeagueJSON(league).encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(SportsView.schedule.rawValue, forKey: .view)
        try container.encode(nextOnly, forKey: .next)
        let team = schedule.team
        try container.encode(
            TeamJSON(id: team.id, name: team.displayName, abbreviation: team.abbreviation), forKey: .team)
        try container.encode(schedule.season, forKey: .season)
        try container.encode(shown.map(GameJSON.init), forKey: .games)
        if nextOnly { try container.encodeIfPresent(last.map(GameJSON.init), forKey: .last) }
    }
}
