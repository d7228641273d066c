import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCore
@testable import AlmanacSports

/// Issue #31, points 14, 16 and 20, on recorded real answers: clinch marks in standings, golf
/// between rounds, and upstream failures that were blamed on the user.
@Suite("Issue 31: clinch marks, golf between rounds, upstream failures are exit 69")
struct Issue31AnswersTests {
    // MARK: - 14: clinch marks

    @Test("ESPN's clincher: 'z-Cavaliers' in context, the meaning in a legend line and in JSON")
    func espnClincher() async throws {
        let harness = try replayed("2025-04-14T16:00:00Z")
        let result = try await harness.run(["nba", "standings"])
        let context = try harness.render(result)
        // The recorded bytes: CLE clincher "z" / "Clinched Conference", BOS "y" / "Clinched Division",
        // MIA "xp" / "Clinched Playoff - Won Play-In", DET "x", CHI "pb", WSH "e".
        #expect(context.contains("\n1. z-Cavaliers 64-18, GB -\n"), "\(context)")
        #expect(context.contains("\n2. y-Celtics 61-21, GB 3\n"))
        let legend = try #require(context.split(separator: "\n").first { $0.hasPrefix("Clinch marks: ") })
        #expect(legend.contains("z = Clinched Conference"))
        #expect(legend.contains("xp = Clinched Playoff - Won Play-In"))
        #expect(legend.contains("pb = Clinched Play-in Berth"))
        #expect(legend.contains("e = Eliminated From Playoff"))
        // The legend sits under the header, so a tight budget that drops rows keeps it.
        let tight = try harness.render(result, budget: ContextBudget(tokens: 60))
        #expect(tight.contains("Clinch marks: "))
        let data = try JSONSerialization.jsonObject(with: Data(try Envelope.dataJSON(result.payload).utf8))
        let groups = try #require((data as? [String: Any])?["groups"] as? [[String: Any]])
        let first = try #require((groups.first?["entries"] as? [[String: Any]])?.first)
        let clinch = try #require(first["clinch"] as? [String: Any])
        #expect(clinch["mark"] as? String == "z")
        #expect(clinch["meaning"] as? String == "Clinched Conference")
        let text = try harness.render(result, .text)
        #expect(text.contains("z-Cleveland Cavaliers"))
    }

    @Test("the NHL's clinchIndicator: the letter before the team, listed as the league marks it")
    func nhlClinchIndicator() throws {
        // The recorded 2025-10-07 table has no marks yet (the season's first day); the NHL adds
        // `clinchIndicator` to a team's row once it has one (the key as NHL web API clients read it).
        let recorded = try Fixtures.data("sports/nhl-api/standings-2025-10-07.response.json")
        let body = try edited(recorded, [(["standings", 0, "clinchIndicator"], "x")])
        let nhl = try #require(League.named("nhl"))
        let standings = try NHLDecoder.decode(NHLStandingsWire.self, from: body).standings(league: nhl)
        let marked = standings.groups.flatMap(\.entries).filter { $0.clinch != nil }
        #expect(marked.map(\.clinch) == ["x"])
        #expect(marked.first?.clinchMeaning == nil)
        let payload = StandingsPayload(league: nhl, standings: standings, team: nil, limit: nil)
        #expect(payload.legend(payload.shown) == "Clinch marks: x (letters as NHL marks them, before the team)")
        #expect(payload.row(try #require(marked.first)).contains(" x-"))
        // Without a mark nothing changes: no legend, no prefix.
        let plain = try NHLDecoder.decode(NHLStandingsWire.self, from: recorded).standings(league: nhl)
        #expect(plain.groups.flatMap(\.entries).allSatisfy { $0.clinch == nil })
        #expect(StandingsPayload(league: nhl, standings: plain, team: nil, limit: nil).legend(plain.groups) == nil)
    }

    @Test("MLB's clinchIndicator is read into the row")
    func mlbClinchIndicator() throws {
        // A team record as MLB's Stats API writes it (python-mlb-statsapi's test data: the 2022
        // Yankees, clinchIndicator "y", divisionRank "1", gamesBack "-").
        let json =
            #"{"records":[{"division":{"id":201},"teamRecords":[{"team":{"id":147,"name":"New York Yankees"},"#
            + #""clinchIndicator":"y","divisionRank":"1","gamesBack":"-","wins":99,"losses":63}]}]}"#
        let body = Data(json.utf8)
        let mlb = try #require(League.named("mlb"))
        let standings = try MLBStatsAPIDecoder.decode(MLBStandingsWire.self, from: body).standings(
            league: mlb, season: 2022)
        #expect(standings.groups.first?.entries.first?.clinch == "y")
        #expect(standings.groups.first?.entries.first?.record == "99-63")
    }

    @Test("a clinch mark is kept only as the short code upstream writes")
    func markShape() {
        #expect(Standings.Entry.mark("xp") == "xp")
        #expect(Standings.Entry.mark(" * ") == "*")
        #expect(Standings.Entry.mark("") == nil)
        #expect(Standings.Entry.mark("Clinched Conference") == nil)
        #expect(Standings.Entry.mark("x\u{1B}[2J") == nil)
    }

    // MARK: - 16: golf between rounds

    @Test("golf after a round's play is complete is in progress, not over (recorded Baycurrent Classic)")
    func golfBetweenRounds() async throws {
        // The recording: competition status STATUS_PLAY_COMPLETE, state "post", "Round 1 - Play
        // Complete"; the event's own status STATUS_IN_PROGRESS, state "in".
        let body = try Fixtures.data("sports/espn-public/golf-pga-scoreboard-round1-play-complete-2026-10-08.json")
        let harness = Harness(
            serving: body, atPathsEndingWith: "/golf/pga/scoreboard", now: instant("2026-10-09T01:00:00Z"),
            zone: zone("America/New_York"))
        let result = try await harness.run(["pga"])
        let data = try JSONSerialization.jsonObject(with: Data(try Envelope.dataJSON(result.payload).utf8))
        let event = try #require(((data as? [String: Any])?["events"] as? [[String: Any]])?.first)
        #expect(event["state"] as? String == "in")
        #expect(event["status"] as? String == "Round 1 - Play Complete")
        #expect(event["round"] as? Int == 1)
        let context = try harness.render(result)
        #expect(context.contains("Baycurrent Classic · Round 1 - Play Complete"), "\(context)")
        #expect(context.contains("Jacob Bridgeman -8"))
        // The final recording stays final.
        let final = try ESPNEventsDecoder.decode(
            Fixtures.data("sports/espn/golf-pga-scoreboard-final-2026-04-07.response.json"),
            league: try #require(League.named("pga")))
        #expect(final.events.map(\.state) == [.post])
    }

    @Test("a round's status alone decides nothing once the event says it is over")
    func golfStateRule() {
        func loose(_ name: String, _ state: String) -> Loose {
            Loose(value: ["type": ["name": name, "state": state]])
        }
        let roundDone = loose("STATUS_PLAY_COMPLETE", "post")
        #expect(ESPNEventsDecoder.tournamentState(round: roundDone, event: loose("STATUS_IN_PROGRESS", "in")) == .in)
        #expect(ESPNEventsDecoder.tournamentState(round: roundDone, event: .null) == .in)
        #expect(ESPNEventsDecoder.tournamentState(round: roundDone, event: loose("STATUS_FINAL", "post")) == .post)
        #expect(ESPNEventsDecoder.tournamentState(round: loose("STATUS_FINAL", "post"), event: .null) == .post)
        #expect(ESPNEventsDecoder.tournamentState(round: loose("STATUS_CANCELED", "post"), event: .null) == .post)
        #expect(
            ESPNEventsDecoder.tournamentState(round: loose("STATUS_IN_PROGRESS", "in"), event: .null) == .in)
    }

    // MARK: - 20: upstream failures are not the user's

    @Test("--group whose division tables cannot be fetched: exit 69 naming the providers, not 'no division'")
    func groupUpstreamFailure() async throws {
        // ESPN is down; the NHL's own feed answers the first (conference) request from its
        // recording, then fails.
        let calls = CallCount()
        let replay = try Fixtures.replay()
        let transport = StubTransport { request in
            if request.url.path.hasPrefix("/apis/") { return HTTPResponse(status: 500, body: Data("{}".utf8)) }
            if await calls.next() > 1 { return HTTPResponse(status: 503, body: Data()) }
            return try await replay.send(request, timeout: .seconds(5))
        }
        let harness = Harness(
            transport: transport, now: instant("2025-10-07T23:00:00Z"), zone: zone("America/New_York"))
        do {
            _ = try await harness.run(["nhl", "standings", "--group", "Metropolitan"])
            Issue.record("expected an upstream failure")
        } catch let error as AlmanacError {
            #expect(error.exitStatus == 69, "\(error)")
            #expect(error.attempts.map(\.provider).contains("espn"))
            #expect(error.attempts.map(\.provider).contains("nhl-api"))
            #expect(!error.message.contains("division or conference"))
        }
        // A name neither table has is still the user's mistake (both answered).
        let answered = Harness(
            transport: try espnDown(), now: instant("2025-10-07T23:00:00Z"), zone: zone("America/New_York"))
        let unknown = await usageError { _ = try await answered.run(["nhl", "standings", "--group", "Pacifc"]) }
        #expect(unknown?.message == "no NHL division or conference 'Pacifc'")
        #expect(unknown?.suggestion?.contains("Pacific Division") == true)
    }

    @Test("--team when the team list cannot be fetched and the offline directory lacks it: exit 69, not 'unknown team'")
    func teamUpstreamFailure() async throws {
        let harness = Harness(
            transport: StubTransport { _ in HTTPResponse(status: 500, body: Data()) },
            now: instant("2025-06-05T16:00:00Z"), zone: zone("America/New_York"))
        do {
            _ = try await harness.run(["wnba", "--team", "sparks"])
            Issue.record("expected an upstream failure")
        } catch let error as AlmanacError {
            #expect(error.exitStatus == 69, "\(error)")
            #expect(error.attempts.first?.provider == "espn")
            #expect(!error.message.contains("unknown"))
        }
        // A league whose offline directory is complete still says the name is wrong.
        let nfl = await usageError { _ = try await harness.run(["nfl", "--team", "chefs", "--next"]) }
        #expect(nfl?.message == "unknown NFL team 'chefs'")
    }
}

/// Counts calls across concurrent requests.
actor CallCount {
    private var count = 0
    func next() -> Int {
        count += 1
        return count
    }
}
