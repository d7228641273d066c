import AlmanacCore
import Foundation

/// Wording shared by the sports payloads: one game, one side, a start time.
enum GameText {
    /// "#5 Georgia (2-0)", with the score appended when there is one.
    static func side(_ side: Game.Side, score: Bool = true) -> String {
        var text = side.rank.map { "#\($0) \(side.name)" } ?? side.name
        // "0-0" before a season's first game says nothing.
        if let record = side.record, record.contains(where: { $0.isNumber && $0 != "0" }) { text += " (\(record))" }
        if score, let value = side.score { text += " \(value)" }
        return text
    }

    /// "Pelicans (5-22) 104 @ Pacers (12-15) 119" (US: away first) or "Bournemouth 2 v Leicester 0" (soccer: home first);
    /// at a neutral site "Chiefs 22 v Eagles 40" (US order, no "@": a reader would take the second side for the host).
    static func matchup(_ game: Game, style: League.Style, scores: Bool = true) -> String {
        if style == .soccer { return "\(side(game.home, score: scores)) v \(side(game.away, score: scores))" }
        let joint = game.neutralSite ? "v" : "@"
        return "\(side(game.away, score: scores)) \(joint) \(side(game.home, score: scores))"
    }

    /// "19:30 EST" ("19:30" when the header names the zone), or "time TBD" when upstream has no time yet.
    static func clock(_ game: Game, zone: TimeZone, showZone: Bool = true) -> String {
        guard game.timeValid else { return "time TBD" }
        let clock = TimeText.clock(game.start, in: zone)
        return showZone ? "\(clock) \(TimeText.zoneAbbreviation(zone, at: game.start))" : clock
    }

    /// The zone label shared by every start time in `games`, or nil when they differ (a DST change).
    static func sharedZone(_ games: [Game], zone: TimeZone) -> String? {
        let labels = Set(
            games.filter { $0.state == .pre && $0.timeValid }.map {
                TimeText.zoneAbbreviation(zone, at: $0.start)
            })
        return labels.count == 1 ? labels.first : nil
    }

    /// The state word before the matchup: a local start time, "LIVE Top 9th", "Final", "Postponed".
    static func state(_ game: Game, zone: TimeZone, showZone: Bool = true) -> String {
        switch game.state {
        case .pre:
            let clock = clock(game, zone: zone, showZone: showZone)
            if let interruption = game.interruption { return "\(interruption) (was \(clock))" }
            return clock
        case .in:
            if let interruption = game.interruption {
                // Upstream's detail already says where play stopped ("Rain Delay, Top 1st").
                return game.status.isEmpty || game.status == interruption
                    ? interruption : "\(interruption): \(game.status)"
            }
            return "LIVE \(game.status.isEmpty ? "in progress" : game.status)"
        case .post:
            if let interruption = game.interruption { return interruption }
            return game.status.isEmpty ? "Final" : game.status
        }
    }

    /// " · Pacers won", " · draw", or "" when the game has no result.
    static func result(_ game: Game, style: League.Style) -> String {
        guard game.state == .post, game.completed else { return "" }
        if game.home.winner == true { return " · \(game.home.name) won" }
        if game.away.winner == true { return " · \(game.away.name) won" }
        if let home = game.home.score, let away = game.away.score {
            if home > away { return " · \(game.home.name) won" }
            if away > home { return " · \(game.away.name) won" }
            return style == .soccer ? " · draw" : " · tie"
        }
        return ""
    }

    /// One context line for a game on a day the header already names.
    static func line(_ game: Game, style: League.Style, zone: TimeZone, showZone: Bool = true) -> String {
        let scores = game.state != .pre
        var text = "\(state(game, zone: zone, showZone: showZone)): \(matchup(game, style: style, scores: scores))"
        text += GamePeriod.halted(game, zone: zone)
        text += result(game, style: style)
        if let note = game.note { text += " · \(note)" }
        return text
    }

    /// "Fri 5 Sep 2025 (in 97 days)", "Sat 6 Sep 2025 (tomorrow)": the day a game is on, for lists that span days.
    static func day(_ game: Game, now: Date, zone: TimeZone) -> String {
        // A placeholder time only fixes the Eastern date; show that date rather than a shifted one.
        if !game.timeValid, let date = TimeText.parseDay(LocalDay.easternISODate(game.start), in: zone) {
            return labelled(date, now: now, zone: zone)
        }
        return labelled(game.start, now: now, zone: zone)
    }

    private static func labelled(_ date: Date, now: Date, zone: TimeZone) -> String {
        let base = TimeText.day(date, in: zone)
        if let relative = TimeText.relativeDay(date, now: now, in: zone) { return "\(base) (\(relative))" }
        let calendar = TimeText.calendar(zone)
        let days =
            calendar.dateComponents([.day], from: calendar.startOfDay(for: now), to: calendar.startOfDay(for: date)).day
            ?? 0
        return days > 0 ? "\(base) (in \(days) days)" : "\(base) (\(-days) days ago)"
    }

    /// Pads cells into aligned columns; `right` marks right-aligned column indexes.
    static func table(_ rows: [[String]], right: Set<Int> = []) -> [String] {
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        return rows.map { row in
            row.enumerated().map { index, cell in
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                return right.contains(index) ? pad + cell : cell + pad
            }
            .joined(separator: "  ")
            .trimmingCharacters(in: .whitespaces)
        }
    }
}

/// Keys every sports `data` object starts with.
struct LeagueJSON: Encodable {
    var league: String
    var leagueName: String
    var sport: String

    init(_ league: League) {
        self.league = league.slug
        leagueName = league.name
        sport = league.sport
    }
}

/// A game in JSON: `id`, `state`, `status`, `start` (UTC), `home`/`away` with `score` number or null.
struct GameJSON: Encodable {
    struct Side: Encodable {
        var id: String
        var name: String
        var shortName: String
        /// A team no directory knows has no abbreviation: null, not "" (which reads as a name).
        @Nullable var abbreviation: String?
        @Nullable var score: Int?
        @Nullable var record: String?
        @Nullable var rank: Int?
        @Nullable var winner: Bool?

        init(side: Game.Side) {
            id = side.id
            name = side.displayName
            shortName = side.name
            abbreviation = side.abbreviation.isEmpty ? nil : side.abbreviation
            score = side.score
            record = side.record
            rank = side.rank
            winner = side.winner
        }
    }

    var id: String
    var state: String
    var status: String
    var statusName: String
    var completed: Bool
    var start: String
    var timeValid: Bool
    var home: Side
    var away: Side
    @Nullable var note: String?
    // Only halted (suspended, delayed) games carry these; absent keys keep every other game as before.
    var period: String?
    var resumesAt: String?

    init(game: Game) {
        id = game.id
        state = game.state.rawValue
        status = game.status
        statusName = game.statusName
        completed = game.completed
        start = TimeText.isoUTC(game.start)
        timeValid = game.timeValid
        home = Side(side: game.home)
        away = Side(side: game.away)
        note = game.note
        period = game.period
        resumesAt = game.resumesAt.map(TimeText.isoUTC)
    }
}

/// A team in JSON (`abbreviation` null when no directory knows the team).
struct TeamJSON: Encodable {
    var id: String?
    var name: String
    @Nullable var abbreviation: String?

    init(id: String?, name: String, abbreviation: String) {
        self.id = id
        self.name = name
        self.abbreviation = abbreviation.isEmpty ? nil : abbreviation
    }
}
