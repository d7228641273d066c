public import AlmanacCore
import Foundation

/// What a provider plugin of the sports tool (`provides = "sports"` in `[plugins.NAME]`) answers:
/// the games of a day, each as `tools run sports ... --format json` prints a game. Versioned: a
/// change a plugin could trip on gets a new version; `tools plugin contract sports` prints the
/// JSON Schema (``jsonSchema``), and docs/plugins.md describes the call.
///
/// The plugin lists an MCP tool named ``toolName`` whose input schema's `league` property is an
/// `enum` of the league paths it serves (`hockey/pwhl`, `soccer/ger.1`). Almanac calls it with
/// `league` (one of them), `date` (the viewer's day, `YYYY-MM-DD`) and `timezone` (the viewer's
/// IANA zone); the `structuredContent` of the answer is this value. Games starting outside the
/// viewer's day are dropped, so a plugin may answer a wider window.
public struct ScoreboardContract: Codable, Sendable, Hashable {
    /// `almanac.sports.scoreboard/1`: the value of ``contract`` in every answer.
    public static let version = "almanac.sports.scoreboard/1"
    /// The MCP tool a provider plugin of the sports tool lists.
    public static let toolName = "scoreboard"
    /// Bounds that keep one answer small (the schema states them too).
    static let maxGames = 500
    static let maxText = 200
    static let maxScore = 100_000

    /// One side of a game.
    public struct Team: Codable, Sendable, Hashable {
        /// The upstream's id of the team.
        public var id: String
        /// The full name: "Vancouver Goldeneyes".
        public var name: String
        /// The name a fan uses: "Goldeneyes".
        public var shortName: String
        /// "VAN", when the upstream has one.
        public var abbreviation: String?
        /// The score, null before the start.
        public var score: Int?
        /// The season record as the upstream writes it ("12-14-4").
        public var record: String?
        /// True for the winner of a finished game, false for the loser.
        public var winner: Bool?

        /// Creates a side.
        public init(
            id: String, name: String, shortName: String, abbreviation: String? = nil, score: Int? = nil,
            record: String? = nil, winner: Bool? = nil
        ) {
            self.id = id
            self.name = name
            self.shortName = shortName
            self.abbreviation = abbreviation
            self.score = score
            self.record = record
            self.winner = winner
        }
    }

    /// One game.
    public struct Entry: Codable, Sendable, Hashable {
        /// The upstream's id of the game.
        public var id: String
        /// `pre` (not started), `in` (under way) or `post` (over or called off).
        public var state: String
        /// The upstream's own words for where the game is: "Final 1st OT", "3rd Quarter 11:00".
        public var status: String
        /// True when the game finished with a result (false when postponed or cancelled).
        public var completed: Bool
        /// The start, an ISO 8601 instant with its offset: "2026-04-25T19:00:00-04:00".
        public var start: String
        /// False when the start time is a placeholder (the date still holds); default true.
        public var timeValid: Bool?
        /// The home side.
        public var home: Team
        /// The away side.
        public var away: Team
        /// A note: "Playoffs, Game 3".
        public var note: String?
        /// Where play stands, for a halted game ("3rd period").
        public var period: String?

        /// Creates a game.
        public init(
            id: String, state: String, status: String, completed: Bool, start: String, timeValid: Bool? = nil,
            home: Team, away: Team, note: String? = nil, period: String? = nil
        ) {
            self.id = id
            self.state = state
            self.status = status
            self.completed = completed
            self.start = start
            self.timeValid = timeValid
            self.home = home
            self.away = away
            self.note = note
            self.period = period
        }
    }

    /// Always ``version``.
    public var contract: String
    /// The league as the upstream names it ("PWHL"), heading the answer where Almanac has no name.
    public var leagueName: String?
    /// The games, in any order.
    public var games: [Entry]

    /// Creates an answer.
    public init(leagueName: String?, games: [Entry]) {
        contract = Self.version
        self.leagueName = leagueName
        self.games = games
    }

    /// Reads and checks a plugin's structured content.
    ///
    /// - Throws: ``ProviderFailure`` (decoding) naming the first thing outside the contract.
    public static func read(_ value: JSONValue) throws -> ScoreboardContract {
        let data: Data
        do {
            data = try JSONEncoder().encode(value)
        } catch {
            throw ProviderFailure(.decoding, "its answer is not JSON")
        }
        let answer: ScoreboardContract
        do {
            answer = try JSONDecoder().decode(ScoreboardContract.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw outside("\(path(context.codingPath + [key])) is missing")
        } catch let DecodingError.typeMismatch(_, context) {
            throw outside("\(path(context.codingPath)) has the wrong type")
        } catch let DecodingError.valueNotFound(_, context) {
            throw outside("\(path(context.codingPath)) is null")
        } catch {
            throw outside("it does not decode")
        }
        if let problem = answer.problem { throw outside(problem) }
        return answer
    }

    private static func outside(_ problem: String) -> ProviderFailure {
        ProviderFailure(.decoding, "its answer is outside \(version): \(problem)")
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        let text = keys.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
        return text.hasPrefix(".") ? String(text.dropFirst()) : (text.isEmpty ? "the answer" : text)
    }

    /// The first rule the decoded answer breaks (the schema's bounds and formats), nil when none.
    var problem: String? {
        if contract != Self.version { return "contract must be \"\(Self.version)\", got \"\(contract.prefix(60))\"" }
        if games.count > Self.maxGames { return "more than \(Self.maxGames) games" }
        if let name = leagueName, name.count > Self.maxText { return "leagueName is longer than \(Self.maxText)" }
        for (index, game) in games.enumerated() {
            let here = "games[\(index)]"
            if !["pre", "in", "post"].contains(game.state) { return "\(here).state must be pre, in or post" }
            if Self.instant(game.start) == nil {
                return "\(here).start must be an ISO 8601 instant with an offset, e.g. 2026-04-25T19:00:00-04:00"
            }
            let texts: [(String, String?)] = [
                ("id", game.id), ("status", game.status), ("note", game.note), ("period", game.period),
            ]
            for (side, team) in [("home", game.home), ("away", game.away)] {
                let sideTexts: [(String, String?)] = [
                    ("\(side).id", team.id), ("\(side).name", team.name), ("\(side).shortName", team.shortName),
                    ("\(side).abbreviation", team.abbreviation), ("\(side).record", team.record),
                ]
                for (key, text) in sideTexts where (text?.count ?? 0) > Self.maxText {
                    return "\(here).\(key) is longer than \(Self.maxText)"
                }
                if team.name.isEmpty || team.id.isEmpty { return "\(here).\(side) needs a non-empty id and name" }
                if let score = team.score, !(0...Self.maxScore).contains(score) {
                    return "\(here).\(side).score must be from 0 to \(Self.maxScore)"
                }
            }
            for (key, text) in texts where (text?.count ?? 0) > Self.maxText {
                return "\(here).\(key) is longer than \(Self.maxText)"
            }
            if game.id.isEmpty { return "\(here).id must not be empty" }
        }
        return nil
    }

    /// An ISO 8601 instant with seconds that states its offset (`Z` or `±hh:mm`): the schema's `pattern`.
    static func instant(_ text: String) -> Date? {
        let pattern = /[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})/
        guard text.count <= 40, text.wholeMatch(of: pattern) != nil else { return nil }
        return TimeText.parseInstant(text)
    }

    /// The pattern of ``instant(_:)`` as the schema writes it.
    static let instantPatternText =
        "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$"

    /// The answer's games as the formatter's games (third-party text cleaned).
    public var domainGames: [Game] {
        games.compactMap { entry in
            guard let start = Self.instant(entry.start), let state = Game.State(rawValue: entry.state) else {
                return nil
            }
            func side(_ team: Team) -> Game.Side {
                Game.Side(
                    id: Self.clean(team.id), displayName: Self.clean(team.name), name: Self.clean(team.shortName),
                    abbreviation: team.abbreviation.map(Self.clean) ?? "", score: team.score,
                    record: team.record.map(Self.clean), winner: team.winner)
            }
            let status = Self.clean(entry.status)
            // The formatter reads halts and cancellations from a status name: "Postponed" says one.
            let statusName =
                switch state {
                case .pre: "STATUS_SCHEDULED"
                case .in: "STATUS_IN_PROGRESS"
                case .post: entry.completed ? "STATUS_FINAL" : "STATUS_" + status.uppercased()
                }
            return Game(
                id: Self.clean(entry.id), start: start, timeValid: entry.timeValid ?? true, state: state,
                statusName: statusName, status: status, completed: entry.completed, home: side(entry.home),
                away: side(entry.away), note: entry.note.map(Self.clean), period: entry.period.map(Self.clean))
        }
    }

    private static func clean(_ text: String) -> String { UntrustedText.clean(text, limit: maxText) }
}
