import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacSports

/// A recorded body with values written at paths (object keys and array indexes): the minimal edit a case no
/// recording shows needs (a golf round in play, a race not yet run). Everything else is the recording's.
func edited(_ data: Data, _ edits: [([Any], Any)]) throws -> Data {
    func setting(_ value: Any, at path: ArraySlice<Any>, in node: Any) -> Any {
        guard let key = path.first else { return value }
        if let name = key as? String, var object = node as? [String: Any] {
            object[name] = setting(value, at: path.dropFirst(), in: object[name] ?? [String: Any]())
            return object
        }
        if let index = key as? Int, var array = node as? [Any], array.indices.contains(index) {
            array[index] = setting(value, at: path.dropFirst(), in: array[index])
            return array
        }
        preconditionFailure("no \(key) in the recording")
    }
    var root = try JSONSerialization.jsonObject(with: data)
    for (path, value) in edits { root = setting(value, at: path[...], in: root) }
    return try JSONSerialization.data(withJSONObject: root)
}

/// ESPN's status object, as the recordings write it (`period`, `type.name/state/detail/shortDetail`).
func statusObject(period: Int, name: String, state: String, detail: String) -> [String: Any] {
    [
        "period": period,
        "type": ["name": name, "state": state, "completed": state == "post", "detail": detail, "shortDetail": detail],
    ]
}

@Suite("Sports event shapes: rounds in play, late finishes, unrun sessions, bouts without a winner, tennis days")
struct EventEdgeCaseTests {
    static func body(_ name: String) throws -> Data { try Fixtures.data("sports/espn/\(name).response.json") }

    /// The Valero Texas Open recording (scoreboard and leaderboard) with the tournament still in play at `round`.
    static func golfInPlay(round: Int, detail: String) throws -> StubTransport {
        let status = statusObject(period: round, name: "STATUS_IN_PROGRESS", state: "in", detail: detail)
        let edits: [([Any], Any)] = [
            (["events", 0, "status"], status), (["events", 0, "competitions", 0, "status"], status),
        ]
        let scoreboard = try edited(body("golf-pga-scoreboard-final-2026-04-07"), edits)
        let board = try edited(body("golf-pga-leaderboard-endpoint-final-2026-04-07"), edits)
        return StubTransport { request in
            let path = request.url.path
            if path.hasSuffix("/golf/leaderboard") { return HTTPResponse(status: 200, body: board) }
            if path.hasSuffix("/golf/pga/scoreboard") { return HTTPResponse(status: 200, body: scoreboard) }
            return HTTPResponse(status: 404, body: Data())
        }
    }

    @Test("golf in play shows ESPN's round and status, not the calendar day's round")
    func golfRoundInPlay() async throws {
        // Saturday is the third calendar day, but round 2 was suspended and is still being played.
        let harness = Harness(
            transport: try Self.golfInPlay(round: 2, detail: "Round 2 - Suspended"),
            now: instant("2026-04-04T22:00:00Z"),
            zone: zone("America/New_York"))
        let context = try harness.render(try await harness.run(["pga"]))
        let line = try #require(context.split(separator: "\n").dropFirst().first)
        #expect(line.hasPrefix("Valero Texas Open · Round 2 - Suspended · Round 2 of 4 · "), "\(line)")
        #expect(!context.contains("Round 3"))
    }

    @Test("golf finishing on a Monday stays listed while in play, past its end date")
    func golfMondayFinish() async throws {
        let harness = Harness(
            transport: try Self.golfInPlay(round: 4, detail: "Round 4 - Play Complete"),
            now: instant("2026-04-06T15:00:00Z"), zone: zone("America/New_York"))
        let context = try harness.render(try await harness.run(["pga"]))
        #expect(context.contains("Valero Texas Open · Round 4 - Play Complete · Round 4 of 4"), "\(context)")
        #expect(context.contains("  1 J.J. Spaun -17"))
        // The same tournament finished is gone the day after its end date.
        let over = SportEvent(
            id: "1", name: "Over", state: .post, start: instant("2026-04-02T04:00:00Z"),
            end: instant("2026-04-05T04:00:00Z"))
        var playing = over
        playing.state = .in
        let monday = LocalDay.containing(instant("2026-04-06T15:00:00Z"), in: zone("America/New_York"))
        #expect(ESPNProvider.pick([over, playing], day: monday, next: false, shape: .golf) == [playing])
        #expect(ESPNProvider.pick([over, playing], day: monday, next: true, shape: .golf) == [playing])
    }

    @Test("the leaderboard endpoint's board is used only for the same event id")
    func leaderboardId() throws {
        let data = try Self.body("golf-pga-leaderboard-endpoint-final-2026-04-07")
        #expect(try ESPNEventsDecoder.leaderboardEvent(data, id: "401811940") != nil)
        // The body holds one event: another tournament's id (an opposite-field week) must not take its board.
        #expect(try ESPNEventsDecoder.leaderboardEvent(data, id: "401811941") == nil)
    }

    @Test("a race session not yet run has no positions, and its context shows no grid")
    func racingScheduled() throws {
        // The Canadian GP recording with its race (the fifth session) set back to scheduled.
        let data = try edited(
            Self.body("racing-f1-scoreboard-canada-sprint-weekend-final-2026"),
            [
                (
                    ["events", 0, "competitions", 4, "status"],
                    statusObject(
                        period: 0, name: "STATUS_SCHEDULED", state: "pre", detail: "Sun, May 24th at 4:00 PM EDT")
                )
            ])
        let f1 = try #require(League.named("f1"))
        let events = try ESPNEventsDecoder.decode(data, league: f1)
        let event = try #require(events.events.first)
        let race = try #require(event.sessions.last)
        #expect(race.name == "Race" && race.state == .pre)
        #expect(race.results.count == 22 && race.results.allSatisfy { $0.position == nil })
        #expect(event.sessions.first?.results.first?.position == 1)
        let day = LocalDay.containing(instant("2026-05-24T12:00:00Z"), in: zone("America/New_York"))
        let payload = EventsPayload(
            league: f1, day: day, events: events, next: false, player: nil, now: instant("2026-05-24T12:00:00Z"))
        let lines = payload.racingLines(
            event, rendering: EventShapesTests.rendering(now: instant("2026-05-24T12:00:00Z")))
        #expect(lines.contains("  Race Sun 16:00 · scheduled, 22 entered"), "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("    1 ") })
        #expect(lines.last == "  Next: Race Sun 24 May 2026 (today) 16:00")
    }

    @Test(
        "a finished bout without a winner says draw, no contest or cancelled from ESPN's status, else its detail",
        arguments: [
            ("STATUS_FINAL", "post", "Draw", "draw"),
            ("STATUS_NO_CONTEST", "post", "Final", "no contest"),
            ("STATUS_FINAL", "post", "No Contest", "no contest"),
            ("STATUS_CANCELED", "post", "Canceled", "cancelled"),
            ("STATUS_CANCELED", "pre", "Canceled", "cancelled"),
            ("STATUS_POSTPONED", "pre", "Postponed", "postponed"),
            ("STATUS_FINAL", "post", "Overturned", "Overturned"),
            ("STATUS_FINAL", "post", "Final", "no winner"),
        ])
    func boutWithoutWinner(_ name: String, _ state: String, _ detail: String, _ shown: String) throws {
        // The Contender Series recording's main event (listed last) with no winner and the given status.
        let index = 4
        let data = try edited(
            Self.body("mma-ufc-scoreboard-contender-series-final"),
            [
                (
                    ["events", 0, "competitions", index, "status"],
                    statusObject(period: 1, name: name, state: state, detail: detail)
                ),
                (["events", 0, "competitions", index, "competitors", 0, "winner"], false),
                (["events", 0, "competitions", index, "competitors", 1, "winner"], false),
                (["events", 0, "competitions", index, "details"], [Any]()),
            ])
        let ufc = try #require(League.named("ufc"))
        let events = try ESPNEventsDecoder.decode(data, league: ufc)
        let event = try #require(events.events.first)
        let day = LocalDay.containing(instant("2025-09-03T05:00:00Z"), in: zone("America/New_York"))
        let payload = EventsPayload(
            league: ufc, day: day, events: events, next: false, player: nil, now: instant("2025-09-03T05:00:00Z"))
        let main = try #require(payload.mmaLines(event).first)
        #expect(main.hasSuffix("Jack Congdon (7-2-0) · \(shown)"), "\(main)")
        #expect(!main.contains("draw or no contest"))
    }

    @Test("tennis --player on a day they do not play: their next match, or their last result")
    func tennisPlayerOtherDay() async throws {
        let harness = Harness(
            transport: try Fixtures.replay(), now: instant("2025-09-01T02:00:00Z"), zone: zone("America/New_York"))
        let sinner = try harness.render(try await harness.run(["atp", "--player", "sinner"]))
        #expect(
            sinner.contains(
                "  no match for Jannik Sinner on Sun 31 Aug 2025 (today); next: Mon 1 Sep 2025 (tomorrow) 19:00 Men's Singles Round 4: Alexander Bublik v Jannik Sinner"
            ), "\(sinner)")
        let shelton = try harness.render(try await harness.run(["atp", "--player", "shelton"]))
        #expect(
            shelton.contains("  no match for Ben Shelton on Sun 31 Aug 2025 (today); last: Men's Singles Round 3: "),
            "\(shelton)")
        // On a day they play, their match itself.
        let alcaraz = try harness.render(try await harness.run(["atp", "--player", "alcaraz"]))
        #expect(alcaraz.contains("Men's Singles Round 4: Carlos Alcaraz d. Arthur Rinderknech"), "\(alcaraz)")
    }

    @Test("tennis: a live match belongs to today, not to yesterday's results")
    func tennisLiveOnlyToday() throws {
        let wta = try #require(League.named("wta"))
        let events = try ESPNEventsDecoder.decode(
            Self.body("tennis-atp-scoreboard-usopen-middraw-live-2025"), league: wta)
        let event = try #require(events.events.first)
        let now = instant("2025-09-01T02:00:00Z")
        let ny = zone("America/New_York")
        // Vondrousova v Rybakina, live at 22:00 EDT on Sunday 31 Aug.
        let isLive = { (match: TennisMatch) in match.state == .in }
        for (asked, expected) in [("2025-08-31T12:00:00Z", true), ("2025-08-30T12:00:00Z", false)] {
            let payload = EventsPayload(
                league: wta, day: LocalDay.containing(instant(asked), in: ny), events: events, next: false, player: nil,
                now: now)
            #expect(payload.dayMatches(event).contains(where: isLive) == expected, "\(asked)")
        }
        // Yesterday still has its own results.
        let yesterday = EventsPayload(
            league: wta, day: LocalDay.containing(instant("2025-08-30T12:00:00Z"), in: ny), events: events, next: false,
            player: nil, now: now)
        #expect(!yesterday.dayMatches(event).isEmpty)
    }

    @Test("ESPN's own league name heads the answer; the catalog's only when the body has none")
    func upstreamLeagueName() async throws {
        let rugby = try Self.body("rugby-289234-scoreboard-test-matches-2024")
        // A rugby id outside the catalog would be headed by its slug; the body names the competition.
        let harness = Harness(
            serving: rugby, atPathsEndingWith: "/rugby/999999/scoreboard", now: instant("2024-07-13T10:30:00Z"),
            zone: zone("America/New_York"))
        #expect(League.named("rugby/999999")?.name == "999999")
        let result = try await harness.run(["rugby/999999"])
        #expect(try harness.render(result).hasPrefix("[sports] International Test Match · Sat 13 Jul 2024 (today)"))
        let nba = try #require(League.named("nba"))
        #expect(
            try ESPNScoreboard.page(Self.body("nba-scoreboard-final-2024-12-15"), league: nba).leagueName
                == "National Basketball Association")
        #expect(nba.titled(nil).name == "NBA" && nba.titled(" ").name == "NBA")
        // A named league keeps its common short name; a league known only by its slug takes ESPN's.
        #expect(nba.titled("National Basketball Association").name == "NBA")
        let colombia = try #require(League.named("soccer/col.1"))
        #expect(colombia.name == "COL 1" && colombia.titled("ESPN's own name").name == "ESPN's own name")
        // A `leagues` of another shape costs only the name, never the games.
        let odd = try ESPNScoreboard.page(Data(#"{"leagues":{},"events":[]}"#.utf8), league: nba)
        #expect(odd.leagueName == nil && odd.games.isEmpty)
    }

    @Test("every scoreboard golden is headed by its recorded body's own league name, or a named league's common name")
    func goldenHeaders() throws {
        let directory = Fixtures.packageRoot().appendingPathComponent("Fixtures/sports/espn")
        var checked = 0
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        where file.hasSuffix(".response.json") {
            let stem = String(file.dropLast(".response.json".count))
            guard
                let context = try? String(
                    contentsOf: directory.appendingPathComponent("\(stem).context.txt"), encoding: .utf8),
                let body = try JSONSerialization.jsonObject(
                    with: Data(contentsOf: directory.appendingPathComponent(file)))
                    as? [String: Any],
                let name = (body["leagues"] as? [[String: Any]])?.first?["name"] as? String
            else { continue }
            let header = context.dropFirst("[sports] ".count).prefix { $0 != "·" }.trimmingCharacters(in: .whitespaces)
            #expect(header == name || League.all.contains { $0.name == header }, "\(stem): \(header)")
            checked += 1
        }
        #expect(checked >= 20)
    }

    @Test("a sport with many leagues alone suggests listing that sport")
    func sportAlone() async {
        #expect(League.unknown("soccer").suggestion?.hasSuffix("tools list sports soccer") == true)
        #expect(League.unknown("rugby").suggestion?.hasSuffix("tools list sports rugby") == true)
        let harness = Harness(
            transport: StubTransport { _ in HTTPResponse(status: 500, body: Data()) },
            now: instant("2024-07-13T10:30:00Z"),
            zone: zone("America/New_York"))
        let error = await usageError { _ = try await harness.run(["soccer"]) }
        #expect(
            error?.suggestion?.hasSuffix("list them with: tools list sports soccer") == true,
            "\(String(describing: error))")
    }
}
