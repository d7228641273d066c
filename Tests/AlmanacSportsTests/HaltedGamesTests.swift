import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacSports

/// Suspended, delayed and postponed games. No recording holds a suspended or delayed game, so each test
/// bends one real recorded game into the status shape the upstream documents (Fixtures/sports/README.md
/// says where each shape comes from); everything else in the body stays as recorded.
@Suite("Halted games keep their score and period; postponed ones lose the placeholder score")
struct HaltedGamesTests {
    let newYork = zone("America/New_York")

    /// `body` with the game whose `key` is `id` changed by `change`, re-encoded.
    func bend(_ body: Data, list: String, key: String, id: Int, _ change: (inout [String: Any]) -> Void) throws -> Data
    {
        var root = try #require(try JSONSerialization.jsonObject(with: FeedTeams.withoutBOM(body)) as? [String: Any])
        var days = try #require(root[list] as? [[String: Any]])
        for index in days.indices {
            guard var games = days[index]["games"] as? [[String: Any]] else { continue }
            for gameIndex in games.indices where (games[gameIndex][key] as? Int) == id { change(&games[gameIndex]) }
            days[index]["games"] = games
        }
        root[list] = days
        return try JSONSerialization.data(withJSONObject: root)
    }

    func mlbGame(_ id: Int, _ change: (inout [String: Any]) -> Void) throws -> Game {
        let body = try Fixtures.data("sports/mlb-statsapi/schedule-2023-08-29-live.response.json")
        let games = try MLBStatsAPIDecoder.games(
            try bend(body, list: "dates", key: "gamePk", id: id, change), league: try #require(League.named("mlb")))
        return try #require(games.first { $0.id == String(id) })
    }

    func line(_ game: Game) -> String { GameText.line(game, style: .pro, zone: newYork) }

    // MARK: - MLB Stats API

    @Test("MLB suspended at 5-8 in the top of the 7th: score, inning and resume time kept")
    func mlbSuspended() throws {
        let game = try mlbGame(716806) { game in
            game["status"] = ["abstractGameState": "Live", "codedGameState": "U", "detailedState": "Suspended: Rain"]
            game["linescore"] = [
                "currentInning": 7, "currentInningOrdinal": "7th", "inningState": "Top", "inningHalf": "Top",
            ]
            game["resumeDate"] = "2023-08-30T17:05:00Z"
            game["resumeGameDate"] = "2023-08-30"
        }
        #expect(game.state == .post && !game.completed)
        #expect(game.away.score == 5 && game.home.score == 8)
        #expect(game.away.winner == nil && game.home.winner == nil)
        #expect(game.period == "top 7th")
        #expect(game.resumesAt == instant("2023-08-30T17:05:00Z"))
        // The reason after the colon is kept (issue 22).
        #expect(
            line(game) == "Suspended: Angels (63-69) 5 @ Phillies (73-58) 8, top 7th · resumes Wed 30 Aug 13:05 · Rain")
        let json = String(decoding: try JSONEncoder().encode(GameJSON(game: game)), as: UTF8.self)
        #expect(json.contains("\"score\":5") && json.contains("\"score\":8"))
        #expect(json.contains("\"period\":\"top 7th\"") && json.contains("\"resumesAt\":\"2023-08-30T17:05:00Z\""))
    }

    @Test("MLB suspended without a resume time: no resume clause; a bare resume date is no time")
    func mlbSuspendedNoTime() throws {
        let game = try mlbGame(716806) { game in
            game["status"] = ["abstractGameState": "Final", "detailedState": "Suspended"]
            game["linescore"] = ["currentInning": 7, "currentInningOrdinal": "7th", "inningState": "Bottom"]
            game["resumeDate"] = "2023-08-30"
        }
        #expect(game.resumesAt == nil)
        #expect(line(game) == "Suspended: Angels (63-69) 5 @ Phillies (73-58) 8, bottom 7th")
    }

    @Test("MLB delayed during play: live, with score and inning")
    func mlbDelayed() throws {
        let game = try mlbGame(716795) { game in
            game["status"] = ["abstractGameState": "Live", "detailedState": "Delayed: Rain"]
            game["linescore"] = ["currentInning": 3, "currentInningOrdinal": "3rd", "inningState": "Bottom"]
        }
        #expect(game.state == .in && game.away.score == 3 && game.home.score == 0)
        #expect(line(game) == "Delayed: Rain: Yankees (63-68) 3 @ Tigers (59-72) 0, bottom 3rd")
    }

    @Test("MLB delayed start: not started, no score")
    func mlbDelayedStart() throws {
        let game = try mlbGame(716795) { game in
            game["status"] = ["abstractGameState": "Preview", "detailedState": "Delayed Start: Rain"]
        }
        #expect(game.state == .pre && game.away.score == nil)
        #expect(line(game) == "Delayed (was 18:40 EDT): Yankees (63-68) @ Tigers (59-72)")
    }

    @Test("MLB 'Final' with a rescheduleDate is postponed: no score, no winner, where it moved to")
    func mlbFinalButRescheduled() throws {
        let game = try mlbGame(716807) { game in
            game["status"] = ["abstractGameState": "Final", "codedGameState": "F", "detailedState": "Final"]
            game["rescheduleDate"] = "2023-08-30T17:10:00Z"
            game["rescheduleGameDate"] = "2023-08-30"
        }
        #expect(game.state == .post && !game.completed && game.statusName == "Postponed")
        #expect(game.home.score == nil && game.away.score == nil && game.home.winner == nil)
        #expect(line(game) == "Postponed: Rays (80-52) @ Marlins (66-65) · Rescheduled to Wed 30 Aug")
    }

    @Test("MLB final after extra innings reads Final/10, with the winner")
    func mlbExtraInnings() throws {
        let game = try mlbGame(716806) { game in
            game["status"] = ["abstractGameState": "Final", "detailedState": "Final"]
            game["linescore"] = ["currentInning": 10, "currentInningOrdinal": "10th", "scheduledInnings": 9]
            var teams = game["teams"] as? [String: Any] ?? [:]
            var home = teams["home"] as? [String: Any] ?? [:]
            home["isWinner"] = true
            teams["home"] = home
            game["teams"] = teams
        }
        #expect(game.completed && game.status == "Final/10" && game.home.winner == true)
        #expect(line(game) == "Final/10: Angels (63-69) 5 @ Phillies (73-58) 8 · Phillies won")
    }

    // MARK: - ESPN

    /// The recorded MLB scoreboard with Tigers @ White Sox (4-3, top 5th) given `type` as its status.
    func espnGame(_ type: [String: Any]) throws -> Game {
        let body = try Fixtures.data("sports/espn/mlb-scoreboard-live-postponed-2025-06-04.response.json")
        var root = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        var events = try #require(root["events"] as? [[String: Any]])
        let index = try #require(events.firstIndex { $0["id"] as? String == "401695826" })
        var status = events[index]["status"] as? [String: Any] ?? [:]
        status["type"] = type
        events[index]["status"] = status
        if var competitions = events[index]["competitions"] as? [[String: Any]], !competitions.isEmpty {
            competitions[0]["status"] = status
            events[index]["competitions"] = competitions
        }
        root["events"] = events
        let games = try ESPNScoreboard.decode(
            try JSONSerialization.data(withJSONObject: root), league: try #require(League.named("mlb")))
        return try #require(games.first { $0.id == "401695826" })
    }

    @Test("ESPN STATUS_SUSPENDED (state post, not completed) keeps the 4-3 score and the inning")
    func espnSuspended() throws {
        let game = try espnGame([
            "name": "STATUS_SUSPENDED", "state": "post", "completed": false, "description": "Suspended",
            "detail": "Suspended", "shortDetail": "Suspended",
        ])
        #expect(game.away.score == 4 && game.home.score == 3)
        #expect(game.period == "5th")
        #expect(line(game) == "Suspended: Tigers (40-22) 4 @ White Sox (19-42) 3, 5th")
        let withHalf = try espnGame([
            "name": "STATUS_SUSPENDED", "state": "post", "completed": false, "detail": "Suspended - Top 5th",
            "shortDetail": "Suspended",
        ])
        #expect(withHalf.period == "top 5th")
        // Listed again as not started on the day it resumes: still the score it stopped at.
        let resuming = try espnGame([
            "name": "STATUS_SUSPENDED", "state": "pre", "completed": false, "detail": "Suspended - Top 5th",
            "shortDetail": "Suspended",
        ])
        #expect(resuming.away.score == 4 && resuming.home.score == 3)
        // A game that has simply not started has no score, whatever upstream's "0".
        let scheduled = try espnGame([
            "name": "STATUS_SCHEDULED", "state": "pre", "completed": false, "detail": "7:10 PM",
            "shortDetail": "7:10 PM",
        ])
        #expect(scheduled.away.score == nil && scheduled.home.score == nil)
    }

    /// The schedule view (`schedule --team`) of `games` for the Tigers, at 23:00 New York time on 4 June 2025.
    func scheduleContext(_ games: [Game]) throws -> [Substring] {
        let now = instant("2025-06-05T03:00:00Z")
        let team = try #require(games.first).away
        let payload = SchedulePayload(
            league: try #require(League.named("mlb")), schedule: TeamSchedule(team: team, season: 2025, games: games),
            nextOnly: false, limit: 5, from: now)
        let metadata = TestMetadata.fresh(tool: "sports", provider: "espn", fetchedAt: now)
        return payload.context(Rendering(metadata: metadata, now: now, timeZone: newYork)).split(separator: "\n")
    }

    @Test("schedule view: a suspended game stays listed with its score, inning and resume time, as in scores")
    func scheduleSuspended() throws {
        var game = try espnGame([
            "name": "STATUS_SUSPENDED", "state": "post", "completed": false, "description": "Suspended",
            "detail": "Suspended", "shortDetail": "Suspended",
        ])
        game.resumesAt = instant("2025-06-05T17:10:00Z")
        let lines = try scheduleContext([game])
        #expect(lines.count == 2)
        #expect(lines.last == "Wed 4 Jun 2025 (today), \(line(game))")
        #expect(lines.last?.hasSuffix("Tigers (40-22) 4 @ White Sox (19-42) 3, 5th · resumes Thu 5 Jun 13:10") == true)
    }

    @Test("schedule view: a rain delay shows the inning like the scores view")
    func scheduleDelayed() throws {
        let game = try espnGame([
            "name": "STATUS_RAIN_DELAY", "state": "in", "completed": false, "description": "Rain Delay",
            "detail": "Rain Delay", "shortDetail": "Rain Delay",
        ])
        #expect(
            try scheduleContext([game]).last
                == "Wed 4 Jun 2025 (today), Delayed: Rain Delay: Tigers (40-22) 4 @ White Sox (19-42) 3, 5th")
    }

    @Test("ESPN STATUS_RAIN_DELAY (state in) keeps score and inning")
    func espnRainDelay() throws {
        let game = try espnGame([
            "name": "STATUS_RAIN_DELAY", "state": "in", "completed": false, "description": "Rain Delay",
            "detail": "Rain Delay", "shortDetail": "Rain Delay",
        ])
        #expect(game.state == .in && game.away.score == 4)
        #expect(line(game) == "Delayed: Rain Delay: Tigers (40-22) 4 @ White Sox (19-42) 3, 5th")
    }

    @Test("ESPN STATUS_POSTPONED (recorded) still has no score and no period")
    func espnPostponed() throws {
        let body = try Fixtures.data("sports/espn/mlb-scoreboard-live-postponed-2025-06-04.response.json")
        let games = try ESPNScoreboard.decode(body, league: try #require(League.named("mlb")))
        let game = try #require(games.first { $0.id == "401695827" })
        #expect(game.home.score == nil && game.period == nil)
        // Ordinary live games get no period (their status already says the inning).
        #expect(games.allSatisfy { $0.period == nil && $0.resumesAt == nil })
    }

    // MARK: - NHL

    func nhlGame(_ id: Int, _ change: (inout [String: Any]) -> Void) throws -> Game {
        let body = try Fixtures.data("sports/nhl-api/schedule-2025-10-07.response.json")
        let games = try NHLDecoder.games(
            try bend(body, list: "gameWeek", key: "id", id: id, change), league: try #require(League.named("nhl")))
        return try #require(games.first { $0.id == String(id) })
    }

    @Test("NHL PPD is postponed without a score; SUSP keeps score and period; LIVE reads the clock")
    func nhlStates() throws {
        let postponed = try nhlGame(2_025_020_001) { $0["gameScheduleState"] = "PPD" }
        #expect(postponed.state == .post && !postponed.completed && postponed.home.score == nil)
        #expect(line(postponed).hasPrefix("Postponed: "))
        let suspended = try nhlGame(2_025_020_001) { game in
            game["gameScheduleState"] = "SUSP"
            game["periodDescriptor"] = ["number": 2, "periodType": "REG"]
        }
        #expect(suspended.home.score == 3 && suspended.away.score == 2)
        #expect(line(suspended) == "Suspended: Blackhawks 2 @ Panthers 3, 2nd period")
        let live = try nhlGame(2_025_020_001) { game in
            game["gameState"] = "LIVE"
            game["periodDescriptor"] = ["number": 4, "periodType": "OT"]
            game["clock"] = ["timeRemaining": "03:12", "inIntermission": false]
        }
        #expect(live.state == .in && live.status == "03:12 - OT" && live.home.winner == nil)
        #expect(line(live) == "LIVE 03:12 - OT: Blackhawks 2 @ Panthers 3")
    }
}
