import AlmanacCore
import Foundation

// The MLB Stats API's JSON, decoded with only the fields the tool uses. The schedule fields appear in
// the recorded answer under Fixtures/sports/mlb-statsapi/; `linescore` (asked with hydrate=linescore)
// has the shape of the recorded game feed's `liveData.linescore`; the resume/reschedule fields, `isWinner`
// and the standings body are from the API's documentation (see Fixtures/sports/README.md). Every field is
// optional but the lists: a missing field is no value, a body without `dates` is a changed API.

/// `/api/v1/schedule?sportId=1&date=YYYY-MM-DD&hydrate=linescore`.
struct MLBScheduleWire: Decodable {
    struct Day: Decodable {
        var date: String?
        var games: [MLBGameWire]?
    }

    var dates: [Day]
}

/// One game of a schedule day.
struct MLBGameWire: Decodable {
    struct Status: Decodable {
        var abstractGameState: String?
        var codedGameState: String?
        var detailedState: String?
        var startTimeTBD: Bool?
        /// Why a game was postponed, called off, suspended or delayed ("Rain"); also after the colon of
        /// `detailedState` ("Postponed: Rain").
        var reason: String?
    }

    struct Teams: Decodable {
        var away: Side?
        var home: Side?
    }

    struct Side: Decodable {
        struct Record: Decodable {
            var wins: Int?
            var losses: Int?
        }

        struct Team: Decodable {
            var id: Int?
            var name: String?
            var abbreviation: String?
            var teamName: String?
        }

        var score: Int?
        var isWinner: Bool?
        var leagueRecord: Record?
        var team: Team?
    }

    struct Linescore: Decodable {
        var currentInning: Int?
        var currentInningOrdinal: String?
        var inningState: String?
        var inningHalf: String?
        var scheduledInnings: Int?
    }

    var gamePk: Int?
    var gameDate: String?
    var officialDate: String?
    var status: Status?
    var teams: Teams?
    var linescore: Linescore?
    var scheduledInnings: Int?
    var rescheduleDate: String?
    var rescheduleGameDate: String?
    var resumeDate: String?
    var resumeGameDate: String?
}

/// `/api/v1/standings?leagueId=103,104&season=YYYY`: one record per division.
struct MLBStandingsWire: Decodable {
    struct Record: Decodable {
        struct Division: Decodable {
            var id: Int?
            var name: String?
        }

        var division: Division?
        var teamRecords: [TeamRecord]?
    }

    struct TeamRecord: Decodable {
        var team: MLBGameWire.Side.Team?
        var wins: Int?
        var losses: Int?
        var gamesBack: String?
        var divisionRank: String?
        var clinchIndicator: String?
    }

    var records: [Record]
}

/// MLB Stats API bodies through Core's one decoding path, byte-order mark and all.
enum MLBStatsAPIDecoder {
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try UpstreamJSON.decode(type, from: FeedTeams.withoutBOM(data), service: MLBStatsAPIProvider.service)
    }

    /// The games of a schedule body, in upstream order (entries without two teams and a start skipped).
    static func games(_ data: Data, league: League) throws -> [Game] {
        FeedTeams.uniqueNames(
            try decode(MLBScheduleWire.self, from: data).dates.flatMap { $0.games ?? [] }.compactMap {
                $0.game(league: league)
            })
    }
}

// MARK: - Wire → domain

extension MLBGameWire {
    /// The domain game, or nil without an id, a start and two teams.
    func game(league: League) -> Game? {
        guard let gamePk, let start = gameDate.flatMap(ESPNDate.parse),
            let homeWire = teams?.home, let awayWire = teams?.away
        else { return nil }
        let detailed = status?.detailedState ?? ""
        let lower = detailed.lowercased()
        let suspended = GamePeriod.isSuspended(detailed)
        let canceled = lower.contains("cancel")
        // The feed keeps some postponed games "Final" and only adds where they moved to.
        let postponed =
            lower.contains("postponed")
            || (!suspended && status?.abstractGameState == "Final" && (rescheduleDate ?? rescheduleGameDate) != nil)
        let state: Game.State
        if suspended || canceled || postponed {
            state = .post
        } else {
            switch status?.abstractGameState {
            case "Live": state = lower == "warmup" || lower.hasPrefix("delayed start") ? .pre : .in
            case "Final": state = .post
            default: state = .pre
            }
        }
        let completed = state == .post && !(suspended || canceled || postponed)
        let keepsScore = state == .in || completed || suspended
        func side(_ wire: Side) -> Game.Side? {
            let record = wire.leagueRecord.flatMap { record in
                record.wins.flatMap { wins in record.losses.map { "\(wins)-\($0)" } }
            }
            // Teams match ESPN's by name (the feed's own abbreviations differ: AZ, CWS); a team ESPN does
            // not know keeps the feed's abbreviation when the body is hydrated with one.
            var side = FeedTeams.side(
                league, prefix: "mlb", feedId: wire.team?.id.map(String.init), abbreviation: nil,
                displayName: wire.team?.name, nickname: wire.team?.teamName, score: keepsScore ? wire.score : nil,
                record: record, winner: completed ? wire.isWinner : nil)
            if side?.abbreviation.isEmpty == true, let own = wire.team?.abbreviation { side?.abbreviation = own }
            return side
        }
        guard let home = side(homeWire), let away = side(awayWire) else { return nil }
        var game = Game(
            id: String(gamePk), start: start, timeValid: status?.startTimeTBD != true, state: state,
            statusName: postponed ? "Postponed" : detailed, status: statusText(state: state, completed: completed),
            completed: completed, home: home, away: away)
        // Live games say the inning in `status`; only halted ones need it spelled out.
        if state != .pre, GamePeriod.isHalted(game) { game.period = period }
        if suspended { game.resumesAt = resumeDate.flatMap(Self.instant) }
        var note: [String] = []
        if postponed || canceled || suspended, let reason { note.append(reason) }
        if postponed, let day = (rescheduleGameDate ?? rescheduleDate).flatMap(Self.day) {
            note.append(note.isEmpty ? "Rescheduled to \(day)" : "rescheduled to \(day)")
        }
        if !note.isEmpty { game.note = note.joined(separator: ", ") }
        return game
    }

    /// Why play stopped or never started ("Rain"), from `status.reason` or the words after the colon of
    /// `detailedState` ("Postponed: Rain"); nil when the feed gives none.
    var reason: String? {
        let given = status?.reason?.trimmingCharacters(in: .whitespaces)
        let fromState = status?.detailedState?.split(separator: ":", maxSplits: 1).dropFirst().first.map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard let text = [given, fromState].compactMap({ $0 }).first(where: { !$0.isEmpty }) else { return nil }
        return UntrustedText.clean(text, limit: 60)
    }

    /// "top 7th" from the linescore, nil before the first pitch.
    var period: String? {
        guard let linescore, let inning = linescore.currentInning, inning > 0 else { return nil }
        let ordinal = linescore.currentInningOrdinal ?? GamePeriod.ordinal(inning)
        guard let half = (linescore.inningState ?? linescore.inningHalf)?.lowercased(), !half.isEmpty else {
            return "\(ordinal) inning"
        }
        return "\(half) \(ordinal)"
    }

    /// ESPN-like short detail: "Top 7th" live, "Final" or "Final/10" after extra innings, else the feed's words.
    func statusText(state: Game.State, completed: Bool) -> String {
        let detailed = status?.detailedState ?? ""
        switch state {
        case .in:
            // "Delayed: Rain" reads as the delay's reason; the formatter adds the word "Delayed".
            if detailed.lowercased().hasPrefix("delayed") {
                return detailed.split(separator: ":", maxSplits: 1).last.map {
                    $0.trimmingCharacters(in: .whitespaces)
                } ?? detailed
            }
            // ESPN's words for the half inning: "Top 7th", "Bot 7th", "Mid 7th", "End 7th".
            guard let linescore, let inning = linescore.currentInning, inning > 0 else { return detailed }
            let ordinal = linescore.currentInningOrdinal ?? GamePeriod.ordinal(inning)
            let half = (linescore.inningState ?? linescore.inningHalf ?? "").lowercased()
            let word = ["top": "Top", "bottom": "Bot", "middle": "Mid", "end": "End"][half] ?? "Inning"
            return "\(word) \(ordinal)"
        case .post where completed:
            let innings = linescore?.currentInning ?? 0
            let scheduled = linescore?.scheduledInnings ?? scheduledInnings ?? 9
            if detailed == "Final" || detailed == "Game Over" {
                return innings > scheduled ? "Final/\(innings)" : "Final"
            }
            return detailed
        default:
            return detailed
        }
    }

    /// An instant ("2025-06-07T18:10:00Z"); a bare date says no time, so nil.
    static func instant(_ text: String) -> Date? {
        text.count > 10 ? ESPNDate.parse(text) : nil
    }

    /// "Thu 5 Jun" from "2025-06-05" (or the date part of an instant): the feed's own calendar date.
    static func day(_ text: String) -> String? {
        guard let date = TimeText.parseDay(String(text.prefix(10)), in: TimeText.utc) else { return nil }
        return TimeText.day(date, in: TimeText.utc).split(separator: " ").dropLast().joined(separator: " ")
    }
}

extension MLBStandingsWire {
    /// The API's division ids (`/api/v1/divisions`), for records that carry only the id.
    static let divisions = [
        200: "American League West", 201: "American League East", 202: "American League Central",
        203: "National League West", 204: "National League East", 205: "National League Central",
    ]

    func standings(league: League, season: Int) -> Standings {
        let groups: [Standings.Group] = records.compactMap { record in
            let name = record.division?.name ?? record.division?.id.flatMap { Self.divisions[$0] } ?? league.name
            let rows: [Standings.Entry] = (record.teamRecords ?? []).compactMap { row in
                guard
                    let side = FeedTeams.side(
                        league, prefix: "mlb", feedId: row.team?.id.map(String.init), abbreviation: nil,
                        displayName: row.team?.name, nickname: row.team?.teamName, score: nil, record: nil, winner: nil)
                else { return nil }
                let record = row.wins.flatMap { wins in row.losses.map { "\(wins)-\($0)" } }
                return Standings.Entry(
                    teamId: side.id, displayName: side.displayName, name: side.name, abbreviation: side.abbreviation,
                    position: row.divisionRank.flatMap { Int($0) }, record: record, wins: row.wins, losses: row.losses,
                    gamesBehind: row.gamesBack, clinch: row.clinchIndicator)
            }
            let ordered =
                rows.allSatisfy { $0.position != nil }
                ? rows.enumerated().sorted {
                    ($0.element.position ?? 0, $0.offset) < ($1.element.position ?? 0, $1.offset)
                }
                .map(\.element)
                : rows
            return ordered.isEmpty ? nil : Standings.Group(name: name, entries: ordered)
        }
        return Standings(season: String(season), groups: groups)
    }
}
