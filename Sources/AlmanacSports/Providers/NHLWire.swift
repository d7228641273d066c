import AlmanacCore
import Foundation

// The NHL web API's JSON (api-web.nhle.com), decoded with only the fields the tool uses. Every field
// appears in the recorded answers under Fixtures/sports/nhl-api/ except `clock` and the
// `gameScheduleState` values other than OK (PPD, SUSP, CNCL), which are from the API's documentation
// (see Fixtures/sports/README.md). Only the lists are required.

/// `/v1/schedule/{YYYY-MM-DD}`: the week starting that date.
struct NHLScheduleWire: Decodable {
    struct Day: Decodable {
        var date: String?
        var games: [NHLGameWire]?
    }

    var gameWeek: [Day]
}

/// A localized name: `{"default": "Panthers", "fr": ...}`.
struct NHLName: Decodable {
    var text: String?

    enum CodingKeys: String, CodingKey { case text = "default" }
}

struct NHLGameWire: Decodable {
    struct Team: Decodable {
        var id: Int?
        var abbrev: String?
        var placeName: NHLName?
        var commonName: NHLName?
        var name: NHLName?
        var score: Int?
    }

    struct Period: Decodable {
        var number: Int?
        var periodType: String?
    }

    struct Outcome: Decodable {
        var lastPeriodType: String?
    }

    struct Clock: Decodable {
        var timeRemaining: String?
        var inIntermission: Bool?
    }

    var id: Int?
    var startTimeUTC: String?
    var gameState: String?
    var gameScheduleState: String?
    var awayTeam: Team?
    var homeTeam: Team?
    var periodDescriptor: Period?
    var gameOutcome: Outcome?
    var clock: Clock?
}

/// `/v1/standings/{YYYY-MM-DD}`: one row per team (empty before a season's first game).
struct NHLStandingsWire: Decodable {
    struct Row: Decodable {
        var conferenceName: String?
        var conferenceSequence: Int?
        var divisionName: String?
        var divisionSequence: Int?
        var teamName: NHLName?
        var teamCommonName: NHLName?
        var teamAbbrev: NHLName?
        var wins: Int?
        var losses: Int?
        var otLosses: Int?
        var points: Int?
        var seasonId: Int?
        var clinchIndicator: String?
    }

    var standings: [Row]
}

/// NHL bodies through Core's one decoding path.
enum NHLDecoder {
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try UpstreamJSON.decode(type, from: FeedTeams.withoutBOM(data), service: NHLProvider.service)
    }

    /// Every game of a schedule week, in upstream order (entries without two teams and a start skipped).
    static func games(_ data: Data, league: League) throws -> [Game] {
        FeedTeams.uniqueNames(
            try decode(NHLScheduleWire.self, from: data).gameWeek.flatMap { $0.games ?? [] }.compactMap {
                $0.game(league: league)
            })
    }

    /// The NHL's abbreviations where ESPN writes them differently.
    static let espnAbbreviations = ["LAK": "LA", "NJD": "NJ", "SJS": "SJ", "TBL": "TB"]

    static func espnAbbreviation(_ abbrev: String?) -> String? {
        abbrev.map { espnAbbreviations[$0.uppercased()] ?? $0 }
    }
}

// MARK: - Wire → domain

extension NHLGameWire {
    func game(league: League) -> Game? {
        guard let id, let start = startTimeUTC.flatMap(ESPNDate.parse), let homeTeam, let awayTeam else { return nil }
        let schedule = (gameScheduleState ?? "OK").uppercased()
        let gameState = (self.gameState ?? "").uppercased()
        let postponed = schedule == "PPD"
        let canceled = schedule.hasPrefix("CNCL") || schedule.hasPrefix("CANC")
        let suspended = GamePeriod.isSuspended(schedule)
        let state: Game.State
        if postponed || canceled || suspended {
            state = .post
        } else {
            switch gameState {
            case "LIVE", "CRIT": state = .in
            case "FINAL", "OFF": state = .post
            default: state = .pre
            }
        }
        let completed = state == .post && !(postponed || canceled || suspended)
        let keepsScore = state == .in || completed || suspended
        func side(_ team: Team, other: Team) -> Game.Side? {
            let place = team.placeName?.text
            let common = team.commonName?.text
            let full = team.name?.text ?? [place, common].compactMap { $0 }.joined(separator: " ")
            var winner: Bool?
            if completed, let mine = team.score, let theirs = other.score, mine != theirs { winner = mine > theirs }
            return FeedTeams.side(
                league, prefix: "nhl", feedId: team.id.map(String.init),
                abbreviation: NHLDecoder.espnAbbreviation(team.abbrev), displayName: full.isEmpty ? nil : full,
                nickname: common, score: keepsScore ? team.score : nil, record: nil, winner: winner)
        }
        guard let home = side(homeTeam, other: awayTeam), let away = side(awayTeam, other: homeTeam) else { return nil }
        let statusName =
            postponed ? "Postponed" : canceled ? "Canceled" : suspended ? "Suspended" : (self.gameState ?? "")
        var game = Game(
            id: String(id), start: start, state: state, statusName: statusName,
            status: statusText(state: state, completed: completed, statusName: statusName), completed: completed,
            home: home, away: away)
        if state != .pre, GamePeriod.isHalted(game) { game.period = periodWords }
        return game
    }

    /// "1st", "OT", "2OT", "SO" from the period descriptor.
    var periodLabel: String? {
        guard let period = periodDescriptor, let number = period.number, number > 0 else { return nil }
        switch period.periodType?.uppercased() {
        case "OT":
            let regulation = 3
            return number - regulation > 1 ? "\(number - regulation)OT" : "OT"
        case "SO": return "SO"
        default: return GamePeriod.ordinal(number)
        }
    }

    /// "2nd period", "OT".
    var periodWords: String? {
        guard let label = periodLabel else { return nil }
        return label.first?.isNumber == true && label.hasSuffix("OT") == false ? "\(label) period" : label
    }

    /// ESPN-like short detail: "12:34 - 2nd", "End of 2nd", "Final", "Final/OT", "Final/SO".
    func statusText(state: Game.State, completed: Bool, statusName: String) -> String {
        switch state {
        case .pre: return "Scheduled"
        case .in:
            guard let label = periodLabel else { return "In progress" }
            if clock?.inIntermission == true { return "End of \(label)" }
            if let remaining = clock?.timeRemaining, !remaining.isEmpty { return "\(remaining) - \(label)" }
            return label
        case .post:
            guard completed else { return statusName }
            switch gameOutcome?.lastPeriodType?.uppercased() {
            case "OT": return "Final/OT"
            case "SO": return "Final/SO"
            default: return "Final"
            }
        }
    }
}

extension NHLStandingsWire {
    /// One table per conference in conference order (per division with `divisions`, each under its
    /// conference); empty before the season's first game.
    func standings(league: League, divisions: Bool = false) -> Standings {
        var parents: [String: String] = [:]
        var order: [String] = []
        var byConference: [String: [(Int, Standings.Entry)]] = [:]
        var season: String?
        for (index, row) in standings.enumerated() {
            let abbreviation = NHLDecoder.espnAbbreviation(row.teamAbbrev?.text)
            guard
                let side = FeedTeams.side(
                    league, prefix: "nhl", feedId: row.teamAbbrev?.text, abbreviation: abbreviation,
                    displayName: row.teamName?.text, nickname: row.teamCommonName?.text, score: nil, record: nil,
                    winner: nil)
            else { continue }
            if season == nil, let id = row.seasonId, id > 10_000_000 {
                season = "\(id / 10_000)-\(String(format: "%02d", id % 100))"
            }
            let record = row.wins.flatMap { wins in
                row.losses.map { losses in "\(wins)-\(losses)-\(row.otLosses ?? 0)" }
            }
            var conference = row.conferenceName.map { "\($0) Conference" } ?? league.name
            var position = row.conferenceSequence
            if divisions, let division = row.divisionName {
                parents["\(division) Division"] = conference
                conference = "\(division) Division"
                position = row.divisionSequence
            }
            if byConference[conference] == nil { order.append(conference) }
            let entry = Standings.Entry(
                teamId: side.id, displayName: side.displayName, name: side.name, abbreviation: side.abbreviation,
                position: position, record: record, wins: row.wins, losses: row.losses,
                points: row.points, clinch: row.clinchIndicator)
            byConference[conference, default: []].append((index, entry))
        }
        let groups = order.sorted().map { name in
            let rows = (byConference[name] ?? []).sorted {
                ($0.1.position ?? Int.max, $0.0) < ($1.1.position ?? Int.max, $1.0)
            }
            return Standings.Group(name: name, entries: rows.map(\.1), parent: parents[name])
        }
        return Standings(season: season, groups: groups)
    }
}
