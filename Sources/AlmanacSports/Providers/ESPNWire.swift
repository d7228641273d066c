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
    var id: String
    var date: String
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
    /// "FIFA World Cup, Group H": the stage of a tournament game (soccer scoreboards).
    var altGameNote: String?

    /// The game's note: upstream's first headline ("NBA Cup - Quarterfinal"), else the stage from
    /// `altGameNote` without the league name it starts with ("Group H").
    var note: String? {
        let headline = notes?.lazy.compactMap(\.headline).first { !$0.isEmpty }
        let stage = altGameNote.flatMap { text in
            text.range(of: ", ").map { String(text[$0.upperBound...]) } ?? text
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
}

/// Scoreboards send the score as a string ("119"). Anything else (absent on team schedules) reads as no score.
struct ScoreWire: Decodable {
    var value: Int?

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            value = Int(text)
        } else if let number = try? container.decode(Double.self), number.isFinite {
            value = Int(number)
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
        var game = Game(
            id: id, start: start, timeValid: competition.timeValid ?? true, state: state,
            statusName: type?.name ?? "", status: type?.shortDetail ?? type?.detail ?? "",
            completed: completed, home: home, away: away,
            note: competition.note)
        game.neutralSite = competition.neutralSite ?? false
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
            game.period = GamePeriod.fromESPN(type?.detail, type?.shortDetail, number: (status ?? competition.status)?.period)
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
            id: id, abbreviation: abbreviation, displayName: display, shortDisplayName: shortDisplayName ?? name ?? display,
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
