import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacSports

/// Golf, tennis, racing, MMA and the long tail of team leagues, through the real tool on recorded ESPN bodies.
@Suite("Sports shapes: golf, tennis, racing, MMA, rugby on recorded ESPN responses")
struct EventShapesTests {
    static let cases: [ReplayCase] = [
        // Final round day of the Valero Texas Open: scoreboard (dates) + leaderboard endpoint (positions).
        ReplayCase(
            golden: "golf-pga-leaderboard-endpoint-final-2026-04-07", words: ["pga"], now: "2026-04-05T23:30:00Z",
            zone: "America/New_York"),
        // The asked player outside the top 10 is added after it (Nick Hardy missed the cut).
        ReplayCase(
            golden: "golf-pga-leaderboard-endpoint-final-2026-04-07.player", words: ["golf", "--player", "hardy"],
            now: "2026-04-05T23:30:00Z", zone: "America/New_York"),
        // US Open, Sunday 31 Aug 2025 in New York: the men's draws of that day (the live match is women's).
        ReplayCase(
            golden: "tennis-atp-scoreboard-usopen-middraw-live-2025", words: ["atp"], now: "2025-09-01T02:00:00Z",
            zone: "America/New_York"),
        // Canadian GP sprint Saturday seen from London: two Eastern dates in one range request.
        ReplayCase(
            golden: "racing-f1-scoreboard-canada-sprint-weekend-final-2026", words: ["f1", "--date", "2026-05-23"],
            now: "2026-05-23T22:00:00Z", zone: "Europe/London"),
        ReplayCase(
            golden: "mma-ufc-scoreboard-contender-series-final", words: ["ufc", "--date", "2025-09-02"],
            now: "2025-09-03T05:00:00Z", zone: "America/New_York"),
        // --next from a week before: the card in Perth, in Perth's time.
        ReplayCase(
            golden: "mma-ufc-scoreboard-fight-night-pre", words: ["ufc", "--next"], now: "2025-09-20T12:00:00Z",
            zone: "Australia/Perth"),
        ReplayCase(
            golden: "mma-bellator-scoreboard-empty", words: ["bellator", "--date", "2024-06-01"],
            now: "2024-06-01T12:00:00Z", zone: "America/New_York"),
        // Rugby leagues are numeric ids; team games as any team sport.
        ReplayCase(
            golden: "rugby-289234-scoreboard-test-matches-2024", words: ["rugby/289234"], now: "2024-07-13T10:30:00Z",
            zone: "America/New_York"),
    ]

    @Test("context and data match the goldens", arguments: cases)
    func replay(_ testCase: ReplayCase) async throws {
        try await testCase.checkGoldens()
    }

    @Test(
        "ESPN keeps the provider contract on the event shapes",
        arguments: [
            ("pga", "2026-04-05T16:00:00Z", "America/New_York"), ("f1", "2026-05-23T12:00:00Z", "Europe/London"),
            ("atp", "2025-08-31T16:00:00Z", "America/New_York"), ("ufc", "2025-09-02T16:00:00Z", "America/New_York"),
        ])
    func contract(_ slug: String, _ at: String, _ zoneName: String) async throws {
        let league = try #require(League.named(slug))
        let query = SportsQuery(
            league: league, view: .scores, day: LocalDay.containing(instant(at), in: zone(zoneName)))
        let violations = await ProviderContract.check(
            ESPNProvider(), query: query, recorded: try Fixtures.replay(), now: instant(at))
        #expect(violations.isEmpty, "\(violations)")
    }

    static func body(_ name: String) throws -> Data { try Fixtures.data("sports/espn/\(name).response.json") }

    @Test("golf: the leaderboard endpoint gives positions, ties, CUT and WD in board order")
    func golfLeaderboard() throws {
        let data = try Self.body("golf-pga-leaderboard-endpoint-final-2026-04-07")
        let wire = try #require(try ESPNEventsDecoder.leaderboardEvent(data, id: "401811940"))
        let event = try #require(ESPNEventsDecoder.golf(wire, leaderboard: wire))
        // Checked against the recording: sortOrder 1 J.J. Spaun -17; T2 Wallace, Kim, MacIntyre at -16;
        // 60 golfers "CUT", 2 "WD" (Lucas Glover, Webb Simpson); 132 in all; 4 rounds.
        #expect(event.players.count == 132)
        #expect(event.players.prefix(4).map(\.position) == ["1", "T2", "T2", "T2"])
        #expect(event.players[0] == GolfPlayer(position: "1", name: "J.J. Spaun", score: "-17", thru: "F"))
        #expect(event.players.filter { $0.position == "CUT" }.count == 60)
        #expect(event.players.filter { $0.position == "WD" }.map(\.name) == ["Lucas Glover", "Webb Simpson"])
        #expect(event.rounds == 4 && event.round == 4 && event.state == .post)
    }

    @Test("golf: the scoreboard alone keeps its order and scores, without positions")
    func golfScoreboard() throws {
        let events = try ESPNEventsDecoder.decode(
            Self.body("golf-pga-scoreboard-final-2026-04-07"), league: try #require(League.named("pga")))
        let players = try #require(events.events.first).players
        #expect(players.prefix(2).map(\.name) == ["J.J. Spaun", "Matt Wallace"])
        #expect(players[0].score == "-17" && players[0].position == nil)
        #expect(events.leagueName == "PGA TOUR")
    }

    @Test("tennis: each tour keeps its own draws (and mixed doubles); match status, not the tournament's")
    func tennisTours() throws {
        let data = try Self.body("tennis-atp-scoreboard-usopen-middraw-live-2025")
        let atpLeague = try #require(League.named("atp"))
        let wtaLeague = try #require(League.named("wta"))
        let atp = try #require(try ESPNEventsDecoder.decode(data, league: atpLeague).events.first)
        let wta = try #require(try ESPNEventsDecoder.decode(data, league: wtaLeague).events.first)
        #expect(Set(atp.matches.compactMap(\.draw)) == ["Men's Singles", "Men's Doubles", "Mixed Doubles"])
        #expect(Set(wta.matches.compactMap(\.draw)) == ["Women's Singles", "Women's Doubles", "Mixed Doubles"])
        // 239 singles + 63 doubles + 15 mixed per tour in the recording.
        #expect(atp.matches.count == 317 && wta.matches.count == 317)
        // The tournament says STATUS_FINAL; one women's match is live (Vondrousova v Rybakina, 3rd set).
        let live = try #require(wta.matches.first { $0.state == .in })
        #expect(live.players == ["Marketa Vondrousova", "Elena Rybakina"] && live.winner == nil)
        #expect(live.score == "6-4 5-7 5-2")
        #expect(wta.state == .in)
        // Doubles pairs are the roster's display name.
        #expect(atp.matches.contains { $0.players.contains("Elena Rybakina / Taylor Fritz") })
    }

    @Test("racing: sessions in order, results by finishing order")
    func racingSessions() throws {
        let events = try ESPNEventsDecoder.decode(
            Self.body("racing-f1-scoreboard-canada-sprint-weekend-final-2026"), league: try #require(League.named("f1"))
        )
        let event = try #require(events.events.first)
        #expect(event.sessions.map(\.name) == ["Practice 1", "Sprint Qualifying", "Sprint", "Qualifying", "Race"])
        #expect(event.sessions.last?.results.first?.name == "Kimi Antonelli")
        #expect(event.sessions.allSatisfy { $0.results.count == 22 })
    }

    @Test("MMA: weight class, winner and method from the fight log; main event first for UFC")
    func mmaBouts() throws {
        let events = try ESPNEventsDecoder.decode(
            Self.body("mma-ufc-scoreboard-contender-series-final"), league: try #require(League.named("ufc")))
        let bouts = try #require(events.events.first).bouts
        #expect(bouts.count == 5)
        #expect(bouts[0].weightClass == "Featherweight" && bouts[0].winner == "Tommy McMillen")
        #expect(bouts[0].method == "Decision" && bouts[0].round == 3)
        let last = try #require(bouts.last)
        #expect(last.winner == "Jean-Paul Lebosnoyani" && last.method == "KO/TKO" && last.clock == "1:08")
        let ufc = try #require(League.named("ufc"))
        let lfa = try #require(League.named("lfa"))
        #expect(EventText.mainEventFirst(bouts, league: ufc).first == last)
        #expect(EventText.mainEventFirst(bouts, league: lfa).first == bouts.first)
    }

    @Test("racing: the next session's local start; golf: ESPN's round while it is live")
    func upcoming() throws {
        let f1 = try #require(League.named("f1"))
        let day = LocalDay.containing(instant("2026-05-23T12:00:00Z"), in: zone("Europe/Berlin"))
        let sessions = [
            RaceSession(
                name: "Qualifying", state: .in, start: instant("2026-05-23T20:00:00Z"),
                results: [
                    RaceResult(position: 1, name: "George Russell", team: nil)
                ]),
            RaceSession(name: "Race", state: .pre, start: instant("2026-05-24T20:00:00Z"), results: []),
        ]
        let event = SportEvent(id: "1", name: "Canadian Grand Prix", state: .in, sessions: sessions)
        let payload = EventsPayload(
            league: f1, day: day, events: SportEvents(leagueName: nil, events: [event]), next: false, player: nil,
            now: instant("2026-05-23T12:00:00Z"))
        let lines = payload.racingLines(event, rendering: Self.rendering(now: instant("2026-05-23T12:00:00Z")))
        #expect(lines.contains("  Qualifying Sat 22:00 · LIVE:"))
        #expect(lines.last == "  Next: Race Sun 24 May 2026 (tomorrow) 22:00")
        let pga = try #require(League.named("pga"))
        let golfDay = LocalDay.containing(instant("2026-04-04T18:00:00Z"), in: zone("America/New_York"))
        let golf = SportEvent(
            id: "2", name: "Valero Texas Open", state: .in, start: instant("2026-04-02T04:00:00Z"),
            end: instant("2026-04-05T04:00:00Z"), round: 3, rounds: 4)
        let golfPayload = EventsPayload(
            league: pga, day: golfDay, events: SportEvents(leagueName: nil, events: [golf]), next: false, player: nil,
            now: instant("2026-04-04T18:00:00Z"))
        // While play is on the round is ESPN's (no status detail here, so "in progress").
        #expect(
            golfPayload.eventLine(golf, rendering: Self.rendering(now: instant("2026-04-04T18:00:00Z")))
                .hasPrefix("Valero Texas Open · in progress · Round 3 of 4 · Thu 2 Apr 2026 to Sun 5 Apr 2026"))
    }

    static func rendering(now: Date) -> Rendering {
        let metadata = ResultMetadata(
            tool: "sports", provider: "espn", fetchedAt: now, ageSeconds: 0, stale: false, attempts: [])
        return Rendering(metadata: metadata, now: now, timeZone: TimeText.utc, budget: .unlimited)
    }

    @Test(
        "missing fields are null, never a crash",
        arguments: [
            #"{"events":[]}"#, #"{"events":[{"id":"1"}]}"#, #"{"events":[{"id":7,"competitions":[{}]}]}"#,
            #"{"events":[{"id":"1","competitions":[{"competitors":[{"athlete":{}},{"order":"x"}],"status":3}]}]}"#,
            #"{"events":[{"id":"1","groupings":[{"competitions":[{"competitors":[{"linescores":[{"value":"6"}]}]}]}]}]}"#,
            #"{"events":[{"id":"1","date":"2026-04-02T04:00Z","competitions":[{"competitors":[{"team":{"displayName":"A / B"},"score":"-20"}]}]}]}"#,
            #"{"leagues":{},"events":[{"id":"1","status":{"type":{"state":"weird"}},"competitions":[{"competitors":[{"score":{"displayValue":5}}]}]}]}"#,
        ])
    func sparseBodies(_ body: String) throws {
        for slug in ["pga", "atp", "wta", "f1", "ufc"] {
            let league = try #require(League.named(slug))
            _ = try ESPNEventsDecoder.decode(Data(body.utf8), league: league)
        }
        _ = try ESPNEventsDecoder.leaderboardEvent(Data(body.utf8), id: "1")
    }

    @Test("a body without an events list is a decoding failure")
    func notAScoreboard() throws {
        let pga = try #require(League.named("pga"))
        #expect(throws: ProviderFailure.self) {
            _ = try ESPNEventsDecoder.decode(Data(#"{"sports":[]}"#.utf8), league: pga)
        }
    }

    @Test("--player: last names and full names; an ambiguous name lists the candidates")
    func players() {
        let names = ["Michael Kim", "Si Woo Kim", "Nick Hardy", "Ludvig Åberg", "Elena Rybakina / Taylor Fritz"]
        #expect(PlayerMatcher.match("hardy", in: names) == .player("Nick Hardy"))
        #expect(PlayerMatcher.match("ludvig aberg", in: names) == .player("Ludvig Åberg"))
        #expect(PlayerMatcher.match("fritz", in: names) == .player("Taylor Fritz"))
        #expect(PlayerMatcher.match("kim", in: names) == .ambiguous(["Michael Kim", "Si Woo Kim"]))
        #expect(PlayerMatcher.match("hardie", in: names) == .none(suggestion: "Nick Hardy"))
    }

    @Test("an unknown player on a recorded day is a usage error naming the event")
    func unknownPlayer() async {
        let harness = Harness(
            transport: (try? Fixtures.replay()) ?? StubTransport { _ in HTTPResponse(status: 500, body: Data()) },
            now: instant("2026-04-05T23:30:00Z"), zone: zone("America/New_York"))
        do {
            _ = try await harness.run(["pga", "--player", "hardie"])
            Issue.record("no error")
        } catch let error as AlmanacError {
            #expect(error.kind == .usage, "\(error.lines)")
        } catch {
            Issue.record("\(error)")
        }
        let error = await usageError { _ = try await harness.run(["pga", "--player", "hardie"]) }
        #expect(error?.message == "no golfer 'hardie' in Valero Texas Open")
        #expect(error?.suggestion == "did you mean 'Nick Hardy'?")
        let team = await usageError { _ = try await harness.run(["pga", "--team", "hardy"]) }
        #expect(team?.suggestion?.contains("--player") == true)
        let standings = await usageError { _ = try await harness.run(["f1", "standings"]) }
        #expect(standings?.message == "Formula 1 standings are not supported yet (only team sports have tables here)")
        let schedule = await usageError { _ = try await harness.run(["ufc", "schedule"]) }
        #expect(schedule?.suggestion == "ask for the next event: tools run sports ufc --next")
        // Team sports take --player with scores (the day's game leaders), not with standings.
        let player = await usageError { _ = try await harness.run(["nba", "standings", "--player", "james"]) }
        #expect(player?.suggestion == "tools run sports nba --player NAME")
    }
}

@Suite("League catalog: generated from ESPN's own list")
struct LeagueCatalogTests {
    @Test("the generated Swift file matches scripts/data/espn-leagues.json (drift check)")
    func drift() throws {
        let root = Fixtures.packageRoot()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root.appendingPathComponent("scripts/espn-leagues.py").path, "--check"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(text)")
    }

    @Test("every league of ESPN's list, 17 sports; 218 soccer leagues; rugby by numeric id")
    func counts() {
        #expect(League.catalogSports.count == 17)
        #expect(League.catalog.count == 356)
        #expect(League.catalog.filter { $0.sport == "soccer" }.count == 218)
        #expect(League.catalog.filter { $0.sport == "rugby" }.allSatisfy { $0.slug.allSatisfy(\.isNumber) })
        #expect(Set(League.catalog.map(\.path)).count == League.catalog.count)
    }

    @Test(
        "names people type",
        arguments: [
            ("f1", "racing/f1"), ("formula 1", "racing/f1"), ("pga", "golf/pga"), ("golf", "golf/pga"),
            ("lpga", "golf/lpga"), ("atp", "tennis/atp"), ("wta", "tennis/wta"), ("tennis", "tennis/atp"),
            ("ufc", "mma/ufc"), ("epl", "soccer/eng.1"), ("mls", "soccer/usa.1"), ("bra.1", "soccer/bra.1"),
            ("sco.1", "soccer/sco.1"), ("cfl", "football/cfl"), ("college-baseball", "baseball/college-baseball"),
            ("college-softball", "baseball/college-softball"),
            ("womens-college-volleyball", "volleyball/womens-college-volleyball"),
            ("mens-college-hockey", "hockey/mens-college-hockey"), ("nascar", "racing/nascar-premier"),
            ("indycar", "racing/irl"), ("289234", "rugby/289234"), ("six nations", "rugby/180659"),
            ("carabao cup", "soccer/eng.league_cup"), ("eng.league-cup", "soccer/eng.league_cup"),
            ("Premier League", "soccer/eng.1"), ("/sports/soccer/bra.1", "soccer/bra.1"),
        ])
    func named(_ word: String, _ path: String) {
        #expect(League.named(word)?.path == path)
    }

    @Test("any sport/league path works, even one the list lacks; a slug under the wrong sport does not")
    func paths() throws {
        let adHoc = try #require(League.named("soccer/bra.3"))
        #expect(adHoc.path == "soccer/bra.3" && adHoc.style == .soccer && adHoc.shape == .team)
        #expect(League.named("golf/new-tour")?.shape == .golf)
        #expect(League.named("rugby/999999")?.style == .soccer)
        #expect(League.named("basketball/eng.1") == nil)
        #expect(League.named("curling/x") == nil)
        #expect(League.named("soccer/Bad Slug!") == nil)
        #expect(League.named("soccer") == nil)
    }

    @Test("shapes by sport")
    func shapes() {
        #expect(League.named("pga")?.shape == .golf)
        #expect(League.named("wta")?.shape == .tennis)
        #expect(League.named("nascar")?.shape == .racing)
        #expect(League.named("pfl")?.shape == .mma)
        #expect(League.named("nba")?.shape == .team && League.named("289234")?.shape == .team)
    }

    @Test("unknown leagues: the closest names and how to list them; cricket says why in one line")
    func unknown() {
        let error = League.unknown("bra1")
        #expect(error.message == "unknown league 'bra1'")
        #expect(error.suggestion?.contains("'bra.1'") == true)
        #expect(error.suggestion?.hasSuffix("tools list sports [SPORT]") == true)
        #expect(League.unknown("golf/xyz").suggestion?.hasSuffix("tools list sports golf") == true)
        let cricket = League.unknown("cricket")
        #expect(cricket.message.hasPrefix("cricket is not supported"))
        #expect(!cricket.message.contains("\n"))
    }

    @Test("tools list sports [SPORT]")
    func listing() throws {
        let golf = try League.listing(sport: "golf")
        #expect(golf.hasPrefix("golf: 9 leagues · leaderboards\n  golf/pga  PGA Tour  (pga-tour)"))
        let all = try League.listing(sport: nil)
        #expect(all.contains("  soccer/bra.1  Brasileirão Série A  (brasileirao, brazil-serie-a)"))
        #expect(all.contains("cricket: no leagues"))
        #expect(throws: AlmanacError.self) { _ = try League.listing(sport: "curlin") }
    }

    @Test("the router knows the new league words")
    func vocabulary() {
        let phrases = Set(SportsVocabulary.leagueNames.map(\.phrase))
        for word in ["f1", "formula 1", "pga", "lpga", "atp", "wta", "ufc", "nascar", "indycar", "six nations"] {
            #expect(phrases.contains(word), "\(word)")
        }
        #expect(SportsVocabulary.league(forSport: "golf")?.slug == "pga")
        #expect(SportsVocabulary.league(forSport: "tennis")?.slug == "atp")
        #expect(SportsVocabulary.league(forSport: "mma")?.slug == "ufc")
    }
}
