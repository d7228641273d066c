import Foundation

/// One game (or match) on a scoreboard or a team schedule, API-agnostic. Public only because
/// ``ScoreboardContract/domainGames`` returns it; its members are the module's own.
public struct Game: Sendable, Hashable, Codable {
    /// Where the game is in its life.
    enum State: String, Sendable, Hashable, Codable {
        /// Not started (scheduled, or delayed before the start).
        case pre
        /// Under way (including halftime and delays during play).
        case `in`
        /// Over, or called off (postponed, canceled, suspended: see ``Game/completed``).
        case post
    }

    /// One side of a game.
    struct Side: Sendable, Hashable, Codable {
        /// Upstream team id.
        var id: String
        /// Full name: "Los Angeles Lakers".
        var displayName: String
        /// The name a fan uses: "Lakers" (pro, soccer) or "Georgia" (college).
        var name: String
        /// "LAL".
        var abbreviation: String
        /// Score, nil before the start and for games called off.
        var score: Int?
        /// Season record as upstream summarizes it ("20-10", soccer "15-11-12").
        var record: String?
        /// Poll ranking (college), nil when unranked.
        var rank: Int?
        /// True for the winner of a completed game, false for the loser, nil otherwise.
        var winner: Bool?

        init(
            id: String, displayName: String, name: String, abbreviation: String, score: Int? = nil,
            record: String? = nil, rank: Int? = nil, winner: Bool? = nil
        ) {
            self.id = id
            self.displayName = displayName
            self.name = name
            self.abbreviation = abbreviation
            self.score = score
            self.record = record
            self.rank = rank
            self.winner = winner
        }
    }

    /// Upstream event id.
    var id: String
    /// Start instant (UTC).
    var start: Date
    /// False when the start time is a placeholder ("TBD"); the Eastern date still holds.
    var timeValid: Bool
    var state: State
    /// Upstream status name, e.g. `STATUS_POSTPONED`.
    var statusName: String
    /// Upstream short detail: "Final", "8:36 - 3rd", "Top 9th", "58'", "Postponed".
    var status: String
    /// True when the game finished with a result (false for postponed or canceled games).
    var completed: Bool
    var home: Side
    var away: Side
    /// Upstream note: "NBA Finals - Game 1", "Inclement Weather - Makeup date June 5".
    var note: String?
    /// Played at a neutral ground (a final, a game abroad): neither side is at home.
    var neutralSite = false
    /// Where play stands or stopped ("top 7th", "2nd period"), when upstream says; shown for halted games.
    var period: String?
    /// When a suspended game resumes, when upstream says.
    var resumesAt: Date?
    /// The game's statistical leaders as the scoreboard names them (ESPN: points, passing, batting), for
    /// `--player` in team sports; nil when upstream names none.
    var leaders: [Leader]?

    /// One player leading one category of a game.
    struct Leader: Sendable, Hashable, Codable {
        /// "Points", "Passing Leader", "Batting Average".
        var category: String
        /// "Patrick Mahomes" (untrusted text).
        var athlete: String
        /// "22", "21/32, 257 YDS, 3 TD, 2 INT".
        var value: String
        /// The upstream id of the player's team, when given.
        var teamId: String?
    }

    init(
        id: String, start: Date, timeValid: Bool = true, state: State, statusName: String, status: String,
        completed: Bool, home: Side, away: Side, note: String? = nil, period: String? = nil, resumesAt: Date? = nil
    ) {
        self.id = id
        self.start = start
        self.timeValid = timeValid
        self.state = state
        self.statusName = statusName
        self.status = status
        self.completed = completed
        self.home = home
        self.away = away
        self.note = note
        self.period = period
        self.resumesAt = resumesAt
    }

    /// Whether either side is the team `key` (an ESPN id or abbreviation, case-insensitive).
    func involves(_ team: TeamRef) -> Bool {
        [home, away].contains { team.matches($0) }
    }

    /// The side called `team`, if it plays.
    func side(of team: TeamRef) -> Side? {
        [home, away].first { team.matches($0) }
    }

    /// A status word for games called off or halted, nil for ordinary states.
    var interruption: String? {
        let name = statusName.uppercased()
        if name.contains("POSTPONED") { return "Postponed" }
        if name.contains("CANCELED") || name.contains("CANCELLED") { return "Canceled" }
        if name.contains("SUSPENDED") { return "Suspended" }
        if name.contains("ABANDONED") { return "Abandoned" }
        if name.contains("DELAY") { return "Delayed" }
        if state == .post && !completed { return status.isEmpty ? "Called off" : status }
        return nil
    }
}

/// A team a user asked about, resolved as far as possible.
struct TeamRef: Sendable, Hashable, Codable {
    /// ESPN team id, when known.
    var id: String?
    /// ESPN abbreviation ("KC"), when known.
    var abbreviation: String
    /// Full name, when known ("Kansas City Chiefs").
    var displayName: String?
    /// The word the user typed.
    var query: String

    init(id: String?, abbreviation: String, displayName: String?, query: String) {
        self.id = id
        self.abbreviation = abbreviation
        self.displayName = displayName
        self.query = query
    }

    /// The URL path component for `/teams/{team}/schedule`: ESPN accepts the lowercase abbreviation.
    var pathComponent: String { abbreviation.lowercased() }

    /// How headers name the team.
    var label: String { displayName ?? abbreviation }

    func matches(_ side: Game.Side) -> Bool {
        if let id, id == side.id { return true }
        return !abbreviation.isEmpty && side.abbreviation.caseInsensitiveCompare(abbreviation) == .orderedSame
    }
}
