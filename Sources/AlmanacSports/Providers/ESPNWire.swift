import AlmanacCore
import Foundation

// ESPN's JSON, decoded with only the fields the tool uses. Every field here appears in the recorded
// responses under Fixtures/sports/espn/; everything else in those (large) bodies is skipped unread.
// Optional wherever upstream omits the field in some recorded body (or might: the API is undocumented).

/// `/apis/site/v2/sports/{sport}/{league}/scoreboard`.
struct ScoreboardWire: Decodable {
    // Required: a body without the list is a changed API, not an empty day.
    var events: [EventWire]
    /// `leagues[0].name`: ESPN's own name for the league ("National Basketball Association").
    var leagueName: String?

    private struct LeagueWire: Decodable { var name: String? }
    private enum CodingKeys: String, CodingKey { case events, leagues }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        events = try container.decode([EventWire].self, forKey: .events)
        // Only a header: a `leagues` of another shape must not cost the games.
        leagueName = (try? container.decodeIfPresent([LeagueWire].self, forKey: .leagues))?.first?.name
    }
}

/// One event on a scoreboard or team schedule.
struct EventWire: Decodable {
    /// The competition of an event on a soccer team's all-competitions schedule (`soccer/all/teams/{id}/
    /// schedule`), as other ESPN clients read it (`league.name`, `league.slug`); in no recording here.
    struct LeagueRef: Decodable {
        var name: String?
        var abbreviation: String?
    }

    var id: String
    var date: String
    var league: LeagueRef?
    var status: StatusWire?
    var competitions: [CompetitionWire]?
}

struct CompetitionWire: Decodable {
    var date: String?
    var timeValid: Bool?
    var neutralSite: Bool?
    var status: StatusWire?
    var competitors: [CompetitorWire]?
    var notes: [NoteWire]?
    /// Game leaders by category (football scoreboards name them here, not per team).
    var leaders: LeadersWire?
    /// "FIFA World Cup, Group H": the stage of a tournament game (soccer scoreboards).
    var altGameNote: String?

    /// The game's note: upstream's first headline ("NBA Cup - Quarterfinal"), else the stage from
    /// `altGameNote` without the league name it starts with ("Group H").
    var note: String? {
        let headline = notes?.lazy.compactMap(\.headline).first { !$0.isEmpty }.map { GamePeriod.stage($0, of: nil) }
        let stage = altGameNote.map { text in
            guard let comma = text.range(of: ", ") else { return GamePeriod.stage(text, of: nil) }
            return GamePeriod.stage(String(text[comma.upperBound...]), of: String(text[..<comma.lowerBound]))
        }
        return (headline ?? stage).flatMap { $0.isEmpty ? nil : UntrustedText.clean($0, limit: 80) }
    }
}

struct StatusWire: Decodable {
    var type: StatusTypeWire?
    var period: Int?
}

struct StatusTypeWire: Decodable {
    var name: String?
    var state: String?
    var completed: Bool?
    var detail: String?
    var shortDetail: String?
}

struct NoteWire: Decodable {
    var headline: String?
}

struct CompetitorWire: Decodable {
    var id: String?
    var homeAway: String?
    var winner: Bool?
    var score: ScoreWire?
    var records: [RecordWire]?
    var curatedRank: RankWire?
    var team: TeamWire?
    var leaders: LeadersWire?
}

/// A `leaders` list read leniently: some scoreboards (NHL preseason 2022) send another shape there, and
/// leaders are an extra, never a reason to lose the games.
struct LeadersWire: Decodable {
    var categories: [LeaderCategoryWire]

    init(from decoder: any Decoder) throws {
        categories = (try? decoder.singleValueContainer().decode([LeaderCategoryWire].self)) ?? []
    }
}

/// A scoreboard's leaders of one category: `{"displayName": "Points", "leaders": [{"displayValue": "22",
/// "athlete": {"displayName": "Pascal Siakam"}, "team": {"id": "11"}}]}`.
struct LeaderCategoryWire: Decodable {
    struct Leader: Decodable {
        struct Athlete: Decodable {
            var displayName: String?
            var fullName: String?
        }

        struct Team: Decodable {
            var id: String?
        }

        var displayValue: String?
        var athlete: Athlete?
        var team: Team?
    }

    var name: String?
    var displayName: String?
    var leaders: [Leader]?

    /// The category's leaders, credited to `teamId` when the wire does not say their team.
    func domain(teamId: String?) -> [Game.Leader] {
        (leaders ?? []).compactMap { leader in
            guard let athlete = leader.athlete?.displayName ?? leader.athlete?.fullName, !athlete.isEmpty else {
                return nil
            }
            return Game.Leader(
                category: UntrustedText.clean(displayName ?? name ?? "", limit: 40),
                athlete: UntrustedText.clean(athlete, limit: 60),
                value: UntrustedText.clean(leader.displayValue ?? "", limit: 60), teamId: leader.team?.id ?? teamId)
        }
    }
}

/// Scoreboards send the score as a string ("119"); team schedules as `{"value": 2.0, "displayValue": "2"}`
/// once a game is played (the shape other ESPN clients read; no recording here has a played schedule game).
/// Anything else reads as no score.
struct ScoreWire: Decodable {
    var value: Int?

    private struct Object: Decodable {
        var value: Double?
        var displayValue: String?
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            value = Int(text)
        } else if let number = try? container.decode(Double.self), number.isFinite {
            value = Int(number)
        } else if let object = try? container.decode(Object.self) {
            value = object.value.flatMap { $0.isFinite ? Int($0) : nil } ?? object.displayValue.flatMap { Int($0) }
        } else {
            value = nil
        }
    }
}

struct RecordWire: Decodable {
    var name: String?
    var type: String?
    var summary: String?
}

struct RankWire: Decodable {
    var current: Int?
}

struct TeamWire: Decodable {
    var id: String?
    var abbreviation: String?
    var displayName: String?
    var shortDisplayName: String?
    var name: String?
    var location: String?
}

/// `/apis/site/v2/sports/{sport}/{league}/teams/{team}/schedule`.
struct TeamScheduleWire: Decodable {
    struct Season: Decodable {
        var year: Int?
    }

    var team: TeamWire?
    var requestedSeason: Season?
    var season: Season?
    var events: [EventWire]
}

/// `/apis/v2/sports/{sport}/{league}/standings`.
struct StandingsWire: Decodable {
    struct Group: Decodable {
        var name: String?
        var abbreviation: String?
        var standings: Table?
        var children: [Group]?
    }

    struct Table: Decodable {
        var seasonDisplayName: String?
        var entries: [Entry]?
    }

    struct Entry: Decodable {
        var team: TeamWire?
        var stats: [Stat]?
        var note: Note?
    }

    struct Stat: Decodable {
        var name: String?
        var type: String?
        var value: Double?
        var displayValue: String?
        var summary: String?
        var description: String?
    }

    struct Note: Decodable {
        var description: String?
    }

    var name: String?
    var standings: Table?
    var children: [Group]?

    enum CodingKeys: String, CodingKey { case name, standings, children }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        standings = try container.decodeIfPresent(Table.self, forKey: .standings)
        children = try container.decodeIfPresent([Group].self, forKey: .children)
        // One of the two must be there; neither means the API changed shape.
        if standings == nil && children == nil {
            throw DecodingError.keyNotFound(
                CodingKeys.children, .init(codingPath: [], debugDescription: "no standings or children"))
        }
    }
}

/// `/apis/site/v2/sports/{sport}/{league}/news`.
struct NewsWire: Decodable {
    struct Article: Decodable {
        struct Links: Decodable {
            struct Web: Decodable {
                var href: String?
            }

            var web: Web?
        }

        var type: String?
        var headline: String?
        var description: String?
        var published: String?
        var links: Links?
    }

    var articles: [Article]
}

/// `/apis/site/v2/sports/{sport}/{league}/teams`.
struct TeamsWire: Decodable {
    struct Sport: Decodable {
        var leagues: [League]?
    }

    struct League: Decodable {
        var teams: [Item]?
    }

    struct Item: Decodable {
        var team: TeamWire?
    }

    var sports: [Sport]
}

// MARK: - Wire → domain

extension EventWire {
    /// The domain game, or nil when the event lacks what every game needs (two sides, a start).
    func game(style: League.Style) -> Game? {
        guard let competition = competitions?.first,
            let start = ESPNDate.parse(competition.date ?? date) ?? ESPNDate.parse(date),
            let competitors = competition.competitors,
            let homeWire = competitors.first(where: { $0.homeAway == "home" }),
            let awayWire = competitors.first(where: { $0.homeAway == "away" }),
            let home = homeWire.side(style: style), let away = awayWire.side(style: style)
        else { return nil }
        let type = (status ?? competition.status)?.type
        let state = Game.State(rawValue: type?.state ?? "") ?? .pre
        let completed = type?.completed ?? false
        // On a team's all-competitions schedule the note says which competition ("UEFA Champions League").
        let competitionName = league.flatMap { $0.name ?? $0.abbreviation }.map { UntrustedText.clean($0, limit: 60) }
        let note = [competitionName, competition.note].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")
        var game = Game(
            id: id, start: start, timeValid: competition.timeValid ?? true, state: state,
            statusName: type?.name ?? "", status: type?.shortDetail ?? type?.detail ?? "",
            completed: completed, home: home, away: away,
            note: note.isEmpty ? nil : note)
        game.neutralSite = competition.neutralSite ?? false
        let leaders =
            competitors.flatMap { competitor in
                (competitor.leaders?.categories ?? []).flatMap {
                    $0.domain(teamId: competitor.team?.id ?? competitor.id)
                }
            } + (competition.leaders?.categories ?? []).flatMap { $0.domain(teamId: nil) }
        // One line per player and category: ESPN repeats a category ("MLB Rating") now and then.
        var seen = Set<String>()
        let distinct = leaders.filter { seen.insert("\($0.athlete)|\($0.category)|\($0.teamId ?? "")").inserted }
        game.leaders = distinct.isEmpty ? nil : distinct
        if style == .soccer {
            game.status = GamePeriod.soccerStatus(
                game.status, name: game.statusName, period: (status ?? competition.status)?.period, state: state)
        }
        // Upstream sends "0" before the start and for games called off: that is no score, not nil-nil.
        // A suspended game is not called off: it stopped at a score and resumes from it, also when
        // upstream lists it as not started again on the day it resumes.
        let suspended = GamePeriod.isSuspended(game.statusName)
        if (state == .pre && !suspended) || (state == .post && !completed && !suspended) {
            game.home.score = nil
            game.away.score = nil
        }
        if !(state == .post && completed) {
            game.home.winner = nil
            game.away.winner = nil
        }
        if state != .pre, GamePeriod.isHalted(game) {
            game.period = GamePeriod.fromESPN(
                type?.detail, type?.shortDetail, number: (status ?? competition.status)?.period)
        }
        return game
    }
}

extension CompetitorWire {
    func side(style: League.Style) -> Game.Side? {
        guard let team, let id = team.id ?? id else { return nil }
        let record = records?.first { $0.type == "total" || $0.name == "overall" }?.summary ?? records?.first?.summary
        let rank = curatedRank?.current.flatMap { (1...25).contains($0) ? $0 : nil }
        return Game.Side(
            id: id, displayName: team.displayName ?? team.name ?? team.abbreviation ?? id,
            name: team.preferredName(style: style), abbreviation: team.abbreviation ?? "",
            score: score?.value, record: record.flatMap { $0.isEmpty ? nil : $0 }, rank: rank, winner: winner)
    }
}

extension TeamWire {
    /// "Lakers" for pro teams, "Georgia" for colleges, "Man City" for soccer clubs.
    func preferredName(style: League.Style) -> String {
        let candidates: [String?] =
            switch style {
            case .college: [location, shortDisplayName, displayName]
            case .pro, .soccer: [shortDisplayName, name, displayName, location]
            }
        return candidates.lazy.compactMap { $0 }.first { !$0.isEmpty } ?? abbreviation ?? id ?? "?"
    }

    var entry: TeamEntry? {
        guard let id, let abbreviation else { return nil }
        let display = displayName ?? abbreviation
        return TeamEntry(
            id: id, abbreviation: abbreviation, displayName: display,
            shortDisplayName: shortDisplayName ?? name ?? display,
            location: location ?? display)
    }
}

/// ESPN's instants: "2024-12-15T22:00Z", "2025-06-06T00:30:00+00:00", "2025-06-05T00:00:00Z".
enum ESPNDate {
    /// Parses without a formatter (the hot path of every scoreboard), falling back to ISO 8601 parsing.
    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard bytes.count >= 17, bytes[4] == 45, bytes[7] == 45, bytes[10] == 84, bytes[13] == 58,
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60
        else { return TimeText.parseInstant(text) }
        var index = 16
        var second = 0
        if index < bytes.count, bytes[index] == 58 {
            guard let value = number(17..<19), value < 61 else { return TimeText.parseInstant(text) }
            second = value
            index = 19
            // Skip a fraction.
            if index < bytes.count, bytes[index] == 46 {
                index += 1
                while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 { index += 1 }
            }
        }
        var offset = 0
        if index == bytes.count - 1, bytes[index] == 90 {  // "Z"
            offset = 0
        } else if index == bytes.count - 6, bytes[index] == 43 || bytes[index] == 45, bytes[index + 3] == 58,
            let hours = number(index + 1..<index + 3), let minutes = number(index + 4..<index + 6)
        {
            offset = (hours * 3600 + minutes * 60) * (bytes[index] == 45 ? -1 : 1)
        } else {
            return TimeText.parseInstant(text)
        }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
