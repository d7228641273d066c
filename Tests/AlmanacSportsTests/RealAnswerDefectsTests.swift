import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCore
@testable import AlmanacSports

/// The sports defects of issue 22, each shown on a recorded upstream answer. Where no recording holds the
/// state a defect needs (a postponement, extra time, a final), the test bends one real recorded game into
/// the shape the upstream documents (Fixtures/sports/README.md, "Issue 22") and leaves the rest as recorded.
@Suite("Issue 22 defects on real answers: TBD tennis days, feed team names, reasons, extra time, stages")
struct RealAnswerDefectsTests {
    let newYork = zone("America/New_York")

    // MARK: - Tennis: a match with no set time belongs to its Eastern date

    /// The ATP-side matches of the recorded US Open body that have no set time, by their Eastern date.
    func tbdATPMatches(on date: String) throws -> Int {
        let body = try Fixtures.data("sports/espn/tennis-atp-scoreboard-usopen-middraw-live-2025.response.json")
        let root = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        var count = 0
        for event in root["events"] as? [[String: Any]] ?? [] {
            for grouping in event["groupings"] as? [[String: Any]] ?? [] {
                let slug = (grouping["grouping"] as? [String: Any])?["slug"] as? String ?? ""
                guard !slug.hasPrefix("womens") else { continue }
                for competition in grouping["competitions"] as? [[String: Any]] ?? []
                where competition["timeValid"] as? Bool == false {
                    let start = try #require((competition["date"] as? String).flatMap(ESPNDate.parse))
                    if LocalDay.easternISODate(start) == date { count += 1 }
                }
            }
        }
        return count
    }

    @Test("ATP in Los Angeles: the TBD matches of 2 Sep (ESPN's 04:00Z placeholder) are on 2 Sep, not 1 Sep")
    func tennisTBDWestOfEastern() async throws {
        let body = try Fixtures.data("sports/espn/tennis-atp-scoreboard-usopen-middraw-live-2025.response.json")
        let losAngeles = zone("America/Los_Angeles")
        let expected = try tbdATPMatches(on: "2025-09-02")
        // The recorded bytes: 12 men's matches on 2 Sep with no time, all at the placeholder instant.
        #expect(expected == 12)
        let harness = Harness(
            serving: body, atPathsEndingWith: "/scoreboard", now: instant("2025-09-02T19:00:00Z"), zone: losAngeles)
        let day = try harness.render(try await harness.run(["atp", "--date", "2025-09-02", "--limit", "100"]))
        let tbd = day.split(separator: "\n").filter { $0.hasPrefix("  time TBD ") }
        #expect(tbd.count == expected)
        // The evening before (1 Sep 21:00 in Los Angeles is the placeholder instant) does not get them.
        let before = try harness.render(try await harness.run(["atp", "--date", "2025-09-01", "--limit", "100"]))
        let tbdBefore = before.split(separator: "\n").filter { $0.hasPrefix("  time TBD ") }
        #expect(tbdBefore.count == (try tbdATPMatches(on: "2025-09-01")))
        #expect(tbd.allSatisfy { line in !tbdBefore.contains(line) })
    }

    // MARK: - NHL feed with ESPN down: every team by its name

    /// The NHL's recorded week with ESPN answering 500.
    func nhlWeek(_ body: Data, now: String) -> Harness {
        Harness(
            transport: StubTransport { request in
                if request.url.path.hasPrefix("/v1/schedule/") { return HTTPResponse(status: 200, body: body) }
                return HTTPResponse(status: 500, body: Data("{}".utf8))
            }, now: instant(now), zone: newYork)
    }

    @Test("ESPN down, NHL feed up: --team islanders finds the Islanders' game (it exited 64)")
    func nhlIslanders() async throws {
        let body = try Fixtures.data("sports/nhl-api/schedule-2025-10-07.response.json")
        let harness = nhlWeek(body, now: "2025-10-09T16:00:00Z")
        let result = try await harness.run(["nhl", "--date", "2025-10-09", "--team", "islanders"])
        #expect(result.metadata.provider == "nhl-api")
        let context = try harness.render(result)
        // The recorded week: the Islanders (NHL id 2) open at Pittsburgh on 9 Oct, 19:00 EDT.
        let lines = context.split(separator: "\n").dropFirst()
        #expect(lines.count == 1)
        #expect(lines.first == "19:00: Islanders @ Penguins")
        let data = try Envelope.dataJSON(result.payload)
        #expect(data.contains("\"abbreviation\" : \"NYI\""))
    }

    @Test("NHL feed naming only the place: the Rangers and the Islanders are not both 'New York'")
    func nhlPlaceOnly() throws {
        // The shape the issue saw: team objects with `placeName` and no `commonName`.
        let recorded = try Fixtures.data("sports/nhl-api/schedule-2025-10-07.response.json")
        var root = try #require(try JSONSerialization.jsonObject(with: recorded) as? [String: Any])
        var week = try #require(root["gameWeek"] as? [[String: Any]])
        for day in week.indices {
            var games = week[day]["games"] as? [[String: Any]] ?? []
            for game in games.indices {
                for side in ["awayTeam", "homeTeam"] {
                    var team = games[game][side] as? [String: Any] ?? [:]
                    team["commonName"] = nil
                    games[game][side] = team
                }
            }
            week[day]["games"] = games
        }
        root["gameWeek"] = week
        let body = try JSONSerialization.data(withJSONObject: root)
        let games = try NHLDecoder.games(body, league: try #require(League.named("nhl")))
        #expect(games.count == 48)
        let places = Set(["New York", "Los Angeles", "Florida", "Chicago", "Colorado", "Pittsburgh", "Boston"])
        for game in games {
            #expect(!places.contains(game.home.name) && !places.contains(game.away.name))
        }
        let names = Set(games.flatMap { [$0.home.name, $0.away.name] })
        #expect(names.contains("Rangers") && names.contains("Islanders"))
        // Every team of the week once: 32 teams, 32 names.
        #expect(Set(games.flatMap { [$0.home.id, $0.away.id] }).count == names.count)
    }

    @Test("Names stay unique within a day even for teams no directory knows")
    func uniqueNames() {
        func side(_ id: String, _ name: String, _ full: String) -> Game.Side {
            Game.Side(id: id, displayName: full, name: name, abbreviation: "")
        }
        let games = [
            Game(
                id: "1", start: instant("2025-03-01T18:00:00Z"), state: .pre, statusName: "", status: "",
                completed: false, home: side("mlb:1", "New York", "New York Mets"),
                away: side("mlb:2", "Boston", "Boston Red Sox")),
            Game(
                id: "2", start: instant("2025-03-01T18:00:00Z"), state: .pre, statusName: "", status: "",
                completed: false, home: side("mlb:3", "Miami", "Miami Marlins"),
                away: side("mlb:4", "New York", "New York Yankees")),
        ]
        let unique = FeedTeams.uniqueNames(games)
        #expect(unique[0].home.name == "New York Mets" && unique[1].away.name == "New York Yankees")
        #expect(unique[0].away.name == "Boston" && unique[1].home.name == "Miami")
    }

    // MARK: - MLB Stats API: the postponement's reason, and no "" abbreviation

    /// `body` (the recorded MLB day) with game `id` changed by `change`.
    func mlbBent(_ id: Int, _ change: (inout [String: Any]) -> Void) throws -> Data {
        let body = try Fixtures.data("sports/mlb-statsapi/schedule-2023-08-29-live.response.json")
        var root = try #require(try JSONSerialization.jsonObject(with: FeedTeams.withoutBOM(body)) as? [String: Any])
        var dates = try #require(root["dates"] as? [[String: Any]])
        for index in dates.indices {
            var games = dates[index]["games"] as? [[String: Any]] ?? []
            for game in games.indices where (games[game]["gamePk"] as? Int) == id { change(&games[game]) }
            dates[index]["games"] = games
        }
        root["dates"] = dates
        return try JSONSerialization.data(withJSONObject: root)
    }

    @Test("MLB Stats API: a game postponed for rain says 'Rain' (the reason was dropped)")
    func mlbPostponedRain() async throws {
        // Status code DR as the API's gameStatus list writes it.
        let body = try mlbBent(716790) { game in
            game["status"] = [
                "abstractGameState": "Final", "codedGameState": "D", "detailedState": "Postponed: Rain",
                "statusCode": "DR", "reason": "Rain", "abstractGameCode": "F", "startTimeTBD": false,
            ]
        }
        let games = try MLBStatsAPIDecoder.games(body, league: try #require(League.named("mlb")))
        let game = try #require(games.first { $0.id == "716790" })
        #expect(game.state == .post && !game.completed)
        #expect(game.note == "Rain")
        #expect(
            GameText.line(game, style: .pro, zone: newYork) == "Postponed: Athletics (38-94) @ Mariners (75-56) · Rain")
        // Without `reason`, the words after the colon of `detailedState` say it.
        let bare = try mlbBent(716790) { game in
            game["status"] = ["abstractGameState": "Final", "codedGameState": "D", "detailedState": "Postponed: Rain"]
        }
        let mlb = try #require(League.named("mlb"))
        let fromState = try #require(try MLBStatsAPIDecoder.games(bare, league: mlb).first { $0.id == "716790" })
        #expect(fromState.note == "Rain")
    }

    @Test("MLB Stats API: a team no directory knows has abbreviation null, not \"\"")
    func mlbUnknownTeamAbbreviation() throws {
        // 159 is the API's American League All-Stars: no ESPN entry, no feed abbreviation in this body.
        let body = try mlbBent(716790) { game in
            var teams = game["teams"] as? [String: Any] ?? [:]
            var away = teams["away"] as? [String: Any] ?? [:]
            away["team"] = ["id": 159, "name": "American League All-Stars", "link": "/api/v1/teams/159"]
            teams["away"] = away
            game["teams"] = teams
        }
        let games = try MLBStatsAPIDecoder.games(body, league: try #require(League.named("mlb")))
        let game = try #require(games.first { $0.id == "716790" })
        #expect(game.away.id == "mlb:159" && game.away.abbreviation.isEmpty)
        let json = String(decoding: try JSONEncoder().encode(GameJSON(game: game)), as: UTF8.self)
        #expect(json.contains("\"abbreviation\":null"))
        #expect(!json.contains("\"abbreviation\":\"\""))
    }

    // MARK: - Soccer: extra time, and a final's stage

    /// The recorded MLS scoreboard with event `id` changed by `change`, decoded.
    func soccerGame(_ file: String, _ id: String, _ change: (inout [String: Any]) -> Void) throws -> Game {
        let body = try Fixtures.data("sports/espn/\(file).response.json")
        var root = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        var events = try #require(root["events"] as? [[String: Any]])
        for index in events.indices where events[index]["id"] as? String == id { change(&events[index]) }
        root["events"] = events
        let wire = try ESPNDecoder.decode(ScoreboardWire.self, from: try JSONSerialization.data(withJSONObject: root))
        return try #require(wire.events.first { $0.id == id }?.game(style: .soccer))
    }

    @Test("Soccer in extra time reads 'extra time 96'', not a bare 96'")
    func soccerExtraTime() throws {
        // New England v Montréal, recorded live at 58' in the second half; ESPN's extra-time status.
        let status: [String: Any] = [
            "clock": 5760.0, "displayClock": "96'", "period": 3,
            "type": [
                "id": "41", "name": "STATUS_FIRST_HALF_EXTRA_TIME", "state": "in", "completed": false,
                "description": "First Half Extra Time", "detail": "96'", "shortDetail": "96'",
            ],
        ]
        let game = try soccerGame("soccer-usa1-scoreboard-live-2022-09-17", "623601") { event in
            event["status"] = status
            var competitions = event["competitions"] as? [[String: Any]] ?? []
            competitions[0]["status"] = status
            event["competitions"] = competitions
        }
        let line = GameText.line(game, style: .soccer, zone: newYork)
        #expect(line.hasPrefix("LIVE extra time 96': "))
        // The recorded game as it was (58', second half) is unchanged.
        let recorded = try soccerGame("soccer-usa1-scoreboard-live-2022-09-17", "623601") { _ in }
        #expect(GameText.line(recorded, style: .soccer, zone: newYork).hasPrefix("LIVE 58': "))
    }

    @Test("Soccer after extra time or penalties says so; the shootout is named")
    func soccerAfterExtraTime() {
        #expect(
            GamePeriod.soccerStatus("FT", name: "STATUS_FINAL_AET", period: 4, state: .post) == "FT after extra time")
        #expect(
            GamePeriod.soccerStatus("FT", name: "STATUS_FINAL_PEN", period: 5, state: .post) == "FT after penalties")
        #expect(GamePeriod.soccerStatus("120'", name: "STATUS_SHOOTOUT", period: 5, state: .in) == "penalty shootout")
        #expect(
            GamePeriod.soccerStatus("105'+2'", name: "STATUS_HALFTIME_ET", period: 3, state: .in)
                == "extra time, half-time")
        #expect(GamePeriod.soccerStatus("FT", name: "STATUS_FULL_TIME", period: 2, state: .post) == "FT")
        #expect(GamePeriod.soccerStatus("90'+5'", name: "STATUS_SECOND_HALF", period: 2, state: .in) == "90'+5'")
    }

    @Test("A final's stage is said with its competition, not as a bare 'Final' that reads like the status")
    func finalStage() throws {
        // Spain v Cape Verde, recorded as "FIFA World Cup, Group H", as the final.
        let game = try soccerGame("soccer-fifa-world-scoreboard-group-2026-06-15", "760428") { event in
            var competitions = event["competitions"] as? [[String: Any]] ?? []
            competitions[0]["altGameNote"] = "FIFA World Cup, Final"
            event["competitions"] = competitions
        }
        #expect(game.note == "FIFA World Cup final")
        let line = GameText.line(game, style: .soccer, zone: newYork)
        #expect(line.hasSuffix(" · FIFA World Cup final"))
        #expect(!line.hasSuffix("· Final"))
        // Group games keep their stage as recorded.
        let group = try soccerGame("soccer-fifa-world-scoreboard-group-2026-06-15", "760428") { _ in }
        #expect(group.note == "Group H")
        #expect(GamePeriod.stage("Final", of: nil) == "the final")
        #expect(GamePeriod.stage("Stanley Cup Final - Game 1", of: nil) == "Stanley Cup Final - Game 1")
    }
}
