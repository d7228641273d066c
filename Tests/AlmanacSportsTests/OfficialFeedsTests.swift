import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCore
@testable import AlmanacSports

/// The recorded answers with ESPN answering 500: what the official feeds behind it must carry alone.
func espnDown() throws -> StubTransport {
    let replay = try Fixtures.replay()
    return StubTransport { request in
        if request.url.path.hasPrefix("/apis/") { return HTTPResponse(status: 500, body: Data("{}".utf8)) }
        return try await replay.send(request, timeout: .seconds(5))
    }
}

/// One official-feed case: the words, the fixed clock and zone, and its golden stem under `Fixtures/sports/`.
struct FeedCase: CustomTestStringConvertible, Sendable {
    let golden: String
    let provider: String
    let words: [String]
    let now: String
    let zone: String

    var testDescription: String { "\(golden): sports \(words.joined(separator: " ")) @ \(now) \(zone)" }
}

@Suite("Official feeds behind ESPN: MLB Stats API and the NHL web API on recorded answers")
struct OfficialFeedsTests {
    static let cases: [FeedCase] = [
        // 12 games live and 3 before the first pitch, asked in New York (one Eastern date).
        FeedCase(
            golden: "mlb-statsapi/schedule-2023-08-29-live", provider: "mlb-statsapi",
            words: ["mlb", "--date", "2023-08-29"], now: "2023-08-30T01:00:00Z", zone: "America/New_York"),
        // Opening night: three finals (the Kings are ESPN's "LA").
        FeedCase(
            golden: "nhl-api/schedule-2025-10-07", provider: "nhl-api", words: ["nhl", "--date", "2025-10-07"],
            now: "2025-10-08T12:00:00Z", zone: "America/New_York"),
        // Berlin's 8 October starts at 18:00 New York time on the 7th: the two late games, not the 17:00 one.
        FeedCase(
            golden: "nhl-api/schedule-2025-10-07.europe-berlin", provider: "nhl-api",
            words: ["nhl", "--date", "2025-10-08"], now: "2025-10-08T12:00:00Z", zone: "Europe/Berlin"),
        FeedCase(
            golden: "nhl-api/standings-2025-10-07", provider: "nhl-api", words: ["nhl", "standings"],
            now: "2025-10-07T23:00:00Z", zone: "America/New_York"),
        FeedCase(
            golden: "nhl-api/standings-empty", provider: "nhl-api", words: ["nhl", "standings"],
            now: "2025-09-20T16:00:00Z", zone: "America/New_York"),
    ]

    @Test("ESPN down: context and data from the official feed match the goldens", arguments: cases)
    func replay(_ testCase: FeedCase) async throws {
        let harness = Harness(transport: try espnDown(), now: instant(testCase.now), zone: zone(testCase.zone))
        let result = try await harness.run(testCase.words)
        #expect(result.metadata.provider == testCase.provider)
        #expect(result.metadata.attempts.map(\.provider) == ["espn", testCase.provider])
        #expect(result.metadata.attempts.first?.outcome == .failed)
        let context = try harness.render(result)
        #expect(context.hasPrefix("[sports] ") && context.contains("source: \(testCase.provider)"))
        #expect(Golden.check(context + "\n", against: "sports/\(testCase.golden).context.txt") == nil)
        let data = try Envelope.dataJSON(result.payload)
        #expect(Golden.check(data + "\n", against: "sports/\(testCase.golden).data.json") == nil)
    }

    // MARK: - Facts checked against the recorded bytes

    @Test("MLB: the recorded day decodes, byte-order mark and all, into ESPN's teams")
    func mlbDay() throws {
        let body = try Fixtures.data("sports/mlb-statsapi/schedule-2023-08-29-live.response.json")
        #expect(body.starts(with: [0xEF, 0xBB, 0xBF]))
        let games = try MLBStatsAPIDecoder.games(body, league: try #require(League.named("mlb")))
        #expect(games.count == 15)
        let first = try #require(games.first { $0.id == "716806" })
        // Angels 5 @ Phillies 8, live, first pitch 22:40 UTC; ESPN ids 3 (LAA) and 22 (PHI).
        #expect(first.state == .in)
        #expect(first.away.abbreviation == "LAA" && first.away.id == "3" && first.away.score == 5)
        #expect(first.home.abbreviation == "PHI" && first.home.id == "22" && first.home.score == 8)
        #expect(first.home.record == "73-58" && first.away.record == "63-69")
        #expect(first.start == instant("2023-08-29T22:40:00Z"))
        // Before the first pitch the feed's 0-0 is no score.
        let pre = try #require(games.first { $0.id == "716792" })
        #expect(pre.state == .pre && pre.home.score == nil && pre.away.score == nil)
        #expect(pre.away.abbreviation == "ARI" && pre.home.abbreviation == "LAD")
        // 2023's "Oakland Athletics" is ESPN's "Athletics" (ATH), matched by nickname.
        let oakland = try #require(games.first { $0.id == "716790" })
        #expect(oakland.away.abbreviation == "ATH" && oakland.away.displayName == "Oakland Athletics")
        // Every team of the day is one ESPN knows: no feed-only ids.
        #expect(games.allSatisfy { !$0.home.id.hasPrefix("mlb:") && !$0.away.id.hasPrefix("mlb:") })
        // Without the mark, the same.
        #expect(
            try MLBStatsAPIDecoder.games(Data(body.dropFirst(3)), league: try #require(League.named("mlb"))).count == 15
        )
    }

    @Test("NHL: finals, shootouts and future games of the recorded week")
    func nhlWeek() throws {
        let body = try Fixtures.data("sports/nhl-api/schedule-2025-10-07.response.json")
        let games = try NHLDecoder.games(body, league: try #require(League.named("nhl")))
        #expect(games.count == 48)
        let opener = try #require(games.first { $0.id == "2025020001" })
        #expect(opener.state == .post && opener.completed && opener.status == "Final")
        #expect(opener.away.abbreviation == "CHI" && opener.away.score == 2 && opener.away.winner == false)
        #expect(opener.home.abbreviation == "FLA" && opener.home.score == 3 && opener.home.winner == true)
        // FLA is in the recorded ESPN directory (id 26); CHI is not, so it keeps the feed's id behind a prefix.
        #expect(opener.home.id == "26" && opener.away.id == "nhl:16")
        let shootout = try #require(games.first { $0.id == "2025020006" })
        #expect(shootout.status == "Final/SO" && shootout.away.score == 4 && shootout.home.score == 3)
        let kings = try #require(games.first { $0.id == "2025020003" })
        #expect(kings.home.abbreviation == "LA" && kings.home.id == "8" && kings.home.name == "Kings")
        let future = try #require(games.first { $0.id == "2025020011" })
        #expect(future.state == .pre && future.home.score == nil && future.home.abbreviation == "TB")
    }

    @Test("NHL standings: two conferences in conference order; an empty pre-season table is no groups")
    func nhlStandings() throws {
        let nhl = try #require(League.named("nhl"))
        let body = try Fixtures.data("sports/nhl-api/standings-2025-10-07.response.json")
        let standings = try NHLDecoder.decode(NHLStandingsWire.self, from: body).standings(league: nhl)
        #expect(standings.season == "2025-26")
        #expect(standings.groups.map(\.name) == ["Eastern Conference", "Western Conference"])
        #expect(standings.groups.map(\.entries.count) == [16, 16])
        let west = try #require(standings.groups.last?.entries.first)
        #expect(west.abbreviation == "COL" && west.record == "1-0-0" && west.points == 2 && west.position == 1)
        let empty = try Fixtures.data("sports/nhl-api/standings-empty.response.json")
        #expect(try NHLDecoder.decode(NHLStandingsWire.self, from: empty).standings(league: nhl).groups.isEmpty)
    }

    @Test(
        "MLB standings: the fields of a real 2019 answer (quoted, see Fixtures/sports/README.md) make a division table")
    func mlbStandings() throws {
        let mlb = try #require(League.named("mlb"))
        let body = Data(
            #"{"records":[{"standingsType":"regularSeason","division":{"id":200,"link":"/api/v1/divisions/200"},"teamRecords":[{"team":{"id":117,"name":"Houston Astros"},"divisionRank":"1","gamesBack":"-","wins":0,"losses":0},{"team":{"id":108,"name":"Los Angeles Angels"},"divisionRank":"2","gamesBack":"-","wins":0,"losses":0}]}]}"#
                .utf8)
        let standings = try MLBStatsAPIDecoder.decode(MLBStandingsWire.self, from: body).standings(
            league: mlb, season: 2019)
        #expect(standings.season == "2019")
        #expect(standings.groups.map(\.name) == ["American League West"])
        let rows = try #require(standings.groups.first?.entries)
        #expect(rows.map(\.abbreviation) == ["HOU", "LAA"] && rows.map(\.teamId) == ["18", "3"])
        #expect(rows.first?.gamesBehind == "-" && rows.first?.record == "0-0" && rows.first?.position == 1)
        #expect(throws: ProviderFailure.self) {
            _ = try MLBStatsAPIDecoder.decode(MLBStandingsWire.self, from: Data("{}".utf8))
        }
    }

    @Test("--team matches the feed's games by ESPN's abbreviations while ESPN is down")
    func teamFilter() async throws {
        let mlb = Harness(
            transport: try espnDown(), now: instant("2023-08-30T01:00:00Z"), zone: zone("America/New_York"))
        let phillies = try await mlb.run(["mlb", "--date", "2023-08-29", "--team", "phillies"])
        let context = try mlb.render(phillies)
        #expect(context.contains("Angels (63-69) 5 @ Phillies (73-58) 8"), "\(context)")
        #expect(context.split(separator: "\n").count == 2)
        let nhl = Harness(
            transport: try espnDown(), now: instant("2025-10-08T12:00:00Z"), zone: zone("America/New_York"))
        let kings = try nhl.render(try await nhl.run(["nhl", "--date", "2025-10-07", "--team", "LA"]))
        #expect(kings.contains("Avalanche 4 @ Kings 1"), "\(kings)")
    }

    @Test("the feeds answer only their league, and only scores and standings")
    func supports() throws {
        let day = LocalDay.containing(instant("2023-08-29T20:00:00Z"), in: zone("America/New_York"))
        let mlb = try #require(League.named("mlb"))
        let nhl = try #require(League.named("nhl"))
        let nba = try #require(League.named("nba"))
        #expect(MLBStatsAPIProvider().supports(SportsQuery(league: mlb, view: .scores, day: day)))
        #expect(MLBStatsAPIProvider().supports(SportsQuery(league: mlb, view: .standings)))
        #expect(!MLBStatsAPIProvider().supports(SportsQuery(league: mlb, view: .news)))
        #expect(!MLBStatsAPIProvider().supports(SportsQuery(league: nhl, view: .scores, day: day)))
        #expect(NHLProvider().supports(SportsQuery(league: nhl, view: .scores, day: day)))
        #expect(!NHLProvider().supports(SportsQuery(league: nba, view: .scores, day: day)))
        #expect(!NHLProvider().supports(SportsQuery(league: nhl, view: .schedule)))
    }

    @Test("missing fields are no values, not crashes; a body without its list is a decoding failure")
    func robust() throws {
        let mlb = try #require(League.named("mlb"))
        let sparse = Data(
            #"{"dates":[{"games":[{"gamePk":1,"gameDate":"2023-08-29T22:40:00Z","teams":{"away":{"team":{"id":999,"abbreviation":"XYZ"}},"home":{"team":{"name":"Philadelphia Phillies"}}}},{"gamePk":2},{}]},{}]}"#
                .utf8)
        let games = try MLBStatsAPIDecoder.games(sparse, league: mlb)
        #expect(games.count == 1)
        #expect(games.first?.state == .pre && games.first?.away.id == "mlb:999" && games.first?.home.score == nil)
        #expect(games.first?.away.abbreviation == "XYZ" && games.first?.home.abbreviation == "PHI")
        #expect(try MLBStatsAPIDecoder.games(Data(#"{"dates":[]}"#.utf8), league: mlb).isEmpty)
        for body in ["{}", "[]", "{\"dates\":7}", "", "{not json"] {
            #expect(throws: ProviderFailure.self) { _ = try MLBStatsAPIDecoder.games(Data(body.utf8), league: mlb) }
        }
        // The API's own error body (recorded) is not a schedule.
        let error = Data("\u{FEFF}{\"messageNumber\": 1, \"message\": \"Internal error occurred\"}".utf8)
        #expect(throws: ProviderFailure.self) { _ = try MLBStatsAPIDecoder.games(error, league: mlb) }
        let nhl = try #require(League.named("nhl"))
        let thin = Data(
            #"{"gameWeek":[{"games":[{"id":5,"startTimeUTC":"2025-10-07T21:00:00Z","homeTeam":{"id":13},"awayTeam":{"abbrev":"NJD"}}]},{}]}"#
                .utf8)
        let nhlGames = try NHLDecoder.games(thin, league: nhl)
        #expect(nhlGames.count == 1 && nhlGames.first?.away.abbreviation == "NJ" && nhlGames.first?.state == .pre)
        #expect(throws: ProviderFailure.self) { _ = try NHLDecoder.games(Data("{}".utf8), league: nhl) }
    }

    // MARK: - Contract kit

    @Test("the MLB Stats API keeps the provider contract on its recorded day")
    func mlbContract() async throws {
        let league = try #require(League.named("mlb"))
        let day = LocalDay.containing(instant("2023-08-29T20:00:00Z"), in: zone("America/New_York"))
        let violations = await ProviderContract.check(
            MLBStatsAPIProvider(), query: SportsQuery(league: league, view: .scores, day: day),
            recorded: try Fixtures.replay(), now: instant("2023-08-30T01:00:00Z"))
        #expect(violations.isEmpty, "\(violations)")
    }

    @Test("the NHL web API keeps the provider contract on its recorded week and standings")
    func nhlContract() async throws {
        let league = try #require(League.named("nhl"))
        let day = LocalDay.containing(instant("2025-10-07T20:00:00Z"), in: zone("America/New_York"))
        let scores = await ProviderContract.check(
            NHLProvider(), query: SportsQuery(league: league, view: .scores, day: day),
            recorded: try Fixtures.replay(), now: instant("2025-10-08T12:00:00Z"))
        #expect(scores.isEmpty, "\(scores)")
        let standings = await ProviderContract.check(
            NHLProvider(), query: SportsQuery(league: league, view: .standings), recorded: try Fixtures.replay(),
            now: instant("2025-10-07T23:00:00Z"))
        #expect(standings.isEmpty, "\(standings)")
    }
}
