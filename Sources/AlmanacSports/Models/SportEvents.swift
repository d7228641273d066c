import Foundation

/// Tournaments, draws, race weekends and fight cards: the scoreboards of sports without two teams
/// (`League.Shape` golf, tennis, racing, MMA), API-agnostic. One event type carries every shape; only
/// the list of its shape is filled (`players` for golf, `matches` for tennis, `sessions` for racing,
/// `bouts` for MMA).
struct SportEvents: Sendable, Hashable, Codable {
    /// The league as upstream names it ("PGA TOUR"), when it says.
    var leagueName: String?
    /// Events overlapping the asked day (or, for `--next`, the next one), in start order.
    var events: [SportEvent]
}

/// One tournament, draw, race weekend or card.
struct SportEvent: Sendable, Hashable, Codable {
    /// Upstream event id.
    var id: String
    /// "Valero Texas Open", "US Open", "Lenovo Canadian Grand Prix", "UFC Fight Night: Ulberg vs. Reyes".
    var name: String
    /// Pre, in, post (the event's own; tennis uses each match's).
    var state: Game.State
    /// Upstream short detail: "Final", "Round 3 - Play Complete".
    var status: String?
    /// First day (UTC), when known.
    var start: Date?
    /// False when upstream knows only the day of `start` (its time is a placeholder).
    var timeValid = true
    /// Last day (UTC), when upstream says.
    var end: Date?
    /// Golf: the round being (or last) played.
    var round: Int?
    /// Golf: rounds in the tournament.
    var rounds: Int?
    /// Golf: the leaderboard, in order.
    var players: [GolfPlayer]
    /// Tennis: matches (already cut to the asked tour's draws).
    var matches: [TennisMatch]
    /// Racing: sessions in running order.
    var sessions: [RaceSession]
    /// MMA: bouts in upstream order.
    var bouts: [Bout]

    init(
        id: String, name: String, state: Game.State, status: String? = nil, start: Date? = nil, end: Date? = nil,
        round: Int? = nil, rounds: Int? = nil, players: [GolfPlayer] = [], matches: [TennisMatch] = [],
        sessions: [RaceSession] = [], bouts: [Bout] = []
    ) {
        self.id = id
        self.name = name
        self.state = state
        self.status = status
        self.start = start
        self.end = end
        self.round = round
        self.rounds = rounds
        self.players = players
        self.matches = matches
        self.sessions = sessions
        self.bouts = bouts
    }

    /// Every name of a person in the event (golfers, tennis players, drivers, fighters), for `--player`.
    var people: [String] {
        players.map(\.name) + matches.flatMap(\.people) + sessions.flatMap { $0.results.map(\.name) }
            + bouts.flatMap(\.fighters)
    }
}

/// One golfer's line on a leaderboard.
struct GolfPlayer: Sendable, Hashable, Codable {
    /// "1", "T5", "CUT", "WD" (nil when upstream gives no position: a scoreboard without a leaderboard).
    var position: String?
    /// "Scottie Scheffler".
    var name: String
    /// To par as upstream writes it: "-10", "E", "+3".
    var score: String?
    /// Holes played in the current round ("F" when finished, "12").
    var thru: String?
    /// When the golfer tees off, while their round has not started (leaderboard endpoint only).
    var teeTime: Date?

    init(position: String?, name: String, score: String?, thru: String?, teeTime: Date? = nil) {
        self.position = position
        self.name = name
        self.score = score
        self.thru = thru
        self.teeTime = teeTime
    }
}

struct TennisMatch: Sendable, Hashable, Codable {
    /// "Men's Singles", "Mixed Doubles".
    var draw: String?
    /// "Quarterfinal", "2nd Round".
    var round: String?
    /// The match's own state (the tournament's says final while matches are live).
    var state: Game.State
    /// Upstream short detail: "Final", "3rd", "Retired".
    var status: String?
    /// Scheduled start (UTC).
    var start: Date?
    /// False when upstream knows only the day of `start` ("TBD").
    var timeValid = true
    /// Display names; a doubles pair as "A / B".
    var players: [String]
    /// The winner's name, nil until there is one.
    var winner: String?
    /// Sets, winner's games first once decided, else in `players` order: "6-4 3-6 7-6".
    var score: String?

    init(
        draw: String?, round: String?, state: Game.State, status: String?, start: Date?, players: [String],
        winner: String?, score: String?
    ) {
        self.draw = draw
        self.round = round
        self.state = state
        self.status = status
        self.start = start
        self.players = players
        self.winner = winner
        self.score = score
    }

    /// The players, and each member of a doubles pair.
    var people: [String] { players + players.flatMap { $0.components(separatedBy: " / ") } }
}

/// One session of a race weekend (practice, qualifying, sprint, race).
struct RaceSession: Sendable, Hashable, Codable {
    /// "Race", "Qualifying", "Sprint", "Practice 1".
    var name: String
    var state: Game.State
    var start: Date?
    /// Finishing (or running) order; before the session, the entry list without positions.
    var results: [RaceResult]
}

/// One driver's place in a session.
struct RaceResult: Sendable, Hashable, Codable {
    /// 1-based place, when upstream gives it; nil before the session runs (upstream's order is then an entry list).
    var position: Int?
    /// "Kimi Antonelli".
    var name: String
    /// The team or car, when upstream gives it (ESPN's F1 scoreboard does not).
    var team: String?
}

/// One bout on a fight card.
struct Bout: Sendable, Hashable, Codable {
    /// "Lightweight", "W Strawweight".
    var weightClass: String?
    var state: Game.State
    /// Scheduled start (UTC).
    var start: Date?
    /// The two fighters, in upstream order.
    var fighters: [String]
    /// Records ("9-0-0"), parallel to `fighters` (nil where upstream gives none).
    var records: [String?]
    /// The winner's name, nil until there is one (and for draws, no contests).
    var winner: String?
    /// "Decision", "KO/TKO", "Submission", as far as upstream says.
    var method: String?
    /// The round it ended in (or is in).
    var round: Int?
    /// Time in that round, "1:08".
    var clock: String?
    /// Upstream short detail: "Final", "9/27 - 7:00 PM EDT" (and whatever it says for a draw or no contest).
    var status: String?
    /// Upstream status name: "STATUS_FINAL", "STATUS_SCHEDULED".
    var statusName: String?

    init(
        weightClass: String?, state: Game.State, start: Date?, fighters: [String], records: [String?] = [],
        winner: String?, method: String?, round: Int?, clock: String?, status: String? = nil, statusName: String? = nil
    ) {
        self.weightClass = weightClass
        self.state = state
        self.start = start
        self.fighters = fighters
        self.records = records
        self.winner = winner
        self.method = method
        self.round = round
        self.clock = clock
        self.status = status
        self.statusName = statusName
    }
}
