import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacSports

@Suite("ESPN decoding: the odd states in recorded responses")
struct DecodeTests {
    func games(_ fixture: String, _ league: String) throws -> [Game] {
        try ESPNScoreboard.decode(Fixtures.data("sports/espn/\(fixture).response.json"), league: League.named(league)!)
    }

    func game(_ id: String, in games: [Game]) throws -> Game {
        try #require(games.first { $0.id == id })
    }

    @Test("postponed: state post but not completed; no score, no winner, the note kept")
    func postponed() throws {
        let game = try game("401695827", in: games("mlb-scoreboard-live-postponed-2025-06-04", "mlb"))
        #expect(game.state == .post)
        #expect(!game.completed)
        #expect(game.statusName == "STATUS_POSTPONED")
        #expect(game.home.score == nil && game.away.score == nil)
        #expect(game.home.winner == nil && game.away.winner == nil)
        #expect(game.note == "Inclement Weather - Makeup date June 5")
        #expect(
            GameText.line(game, style: .pro, zone: zone("America/New_York"))
                == "Postponed: Royals (32-29) @ Cardinals (33-27) · Inclement Weather - Makeup date June 5")
    }

    @Test("halftime and rankings in college football; unranked (99) is no rank")
    func halftime() throws {
        let games = try games("college-football-scoreboard-live-halftime-2022", "ncaaf")
        #expect(games.count == 25)
        let game = try game("401403888", in: games)
        #expect(game.state == .in && game.status == "Halftime")
        #expect(game.away.name == "Georgia" && game.away.rank == 1 && game.away.score == 24)
        #expect(game.home.name == "South Carolina" && game.home.rank == nil && game.home.score == 0)
        #expect(
            GameText.line(game, style: .college, zone: zone("America/New_York"))
                == "LIVE Halftime: #1 Georgia (2-0) 24 @ South Carolina (1-1) 0")
    }

    @Test("soccer: the minute while playing, home first, draws")
    func soccer() throws {
        let live = try game("623601", in: games("soccer-usa1-scoreboard-live-2022-09-17", "mls"))
        #expect(live.state == .in && live.status == "58'")
        let draw = try game("704652", in: games("soccer-eng1-scoreboard-final-2025-05-25", "epl"))
        #expect(draw.completed && draw.home.winner == false && draw.away.winner == false)
        #expect(
            GameText.line(draw, style: .soccer, zone: zone("Europe/London"))
                == "FT: Liverpool (25-9-4) 1 v C Palace (13-14-11) 1 · draw")
    }

    @Test("overtime live and final; the +00:00 date form")
    func overtime() throws {
        let live = try game("401777455", in: games("nhl-scoreboard-live-2025-06-05", "nhl"))
        #expect(live.status == "17:09 - OT")
        #expect(live.start == instant("2025-06-05T00:00:00Z"))
        let final = try game("401461562", in: games("nhl-scoreboard-mixed-2022-09-25", "nhl"))
        #expect(final.status == "Final/OT" && final.home.winner == true)
        let finals = try game("401766122", in: games("nba-scoreboard-pre-finals-2025-06-06", "nba"))
        #expect(finals.start == instant("2025-06-06T00:30:00Z"))
        #expect(finals.home.score == nil, "upstream sends \"0\" before the start")
    }

    @Test("a schedule game without a time is shown on its Eastern date, even where that is another day")
    func timeTBD() throws {
        let wire = try ESPNDecoder.decode(
            TeamScheduleWire.self, from: Fixtures.data("sports/espn/nfl-team-schedule-kc-2025.response.json"))
        let schedule = try #require(wire.schedule(league: League.named("nfl")!))
        #expect(schedule.season == 2025)
        #expect(schedule.games.count == 17)
        let last = try #require(schedule.games.last)
        #expect(!last.timeValid)
        let losAngeles = zone("America/Los_Angeles")  // 2026-01-04T05:00Z is Sat 3 Jan 21:00 there
        #expect(
            GameText.day(last, now: instant("2025-12-30T12:00:00Z"), zone: losAngeles) == "Sun 4 Jan 2026 (in 5 days)")
        #expect(GameText.clock(last, zone: losAngeles) == "time TBD")
    }

    @Test(
        "ESPN instants parse like ISO 8601",
        arguments: [
            ("2024-12-15T22:00Z", "2024-12-15T22:00:00Z"), ("2025-06-06T00:30:00+00:00", "2025-06-06T00:30:00Z"),
            ("2025-06-05T19:10:04-04:00", "2025-06-05T23:10:04Z"), ("2025-06-05T23:10:04.123Z", "2025-06-05T23:10:04Z"),
            ("1999-02-28T23:59Z", "1999-02-28T23:59:00Z"), ("2024-02-29T12:00Z", "2024-02-29T12:00:00Z"),
        ])
    func instants(_ text: String, _ expected: String) throws {
        let parsed = try #require(ESPNDate.parse(text))
        #expect(TimeText.isoUTC(parsed) == expected)
    }

    @Test(
        "garbage instants do not parse",
        arguments: ["", "TBD", "2024-13-15T22:00Z", "2024-12-15 22:00", "2024-12-15T2x:00Z"])
    func badInstants(_ text: String) {
        #expect(ESPNDate.parse(text) == nil)
    }

    @Test("standings come back in seed/rank order with season and notes")
    func standings() throws {
        let nba = try ESPNDecoder.decode(
            StandingsWire.self, from: Fixtures.data("sports/espn/nba-standings-apis-v2.response.json")
        ).standings(league: League.named("nba")!)
        #expect(nba.season == "2024-25")
        #expect(nba.groups.map(\.name) == ["Eastern Conference", "Western Conference"])
        #expect(nba.groups[0].entries.prefix(3).map(\.abbreviation) == ["CLE", "BOS", "NY"])
        let epl = try ESPNDecoder.decode(
            StandingsWire.self, from: Fixtures.data("sports/espn/soccer-eng1-standings-apis-v2.response.json")
        ).standings(league: League.named("epl")!)
        let last = try #require(epl.groups.first?.entries.last)
        #expect(last.name == "Southampton" && last.points == 12 && last.position == 20 && last.note == "Relegation")
    }
}
