import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacSports

/// Synthetic bodies, only for faults the real API cannot be made to produce on demand.
@Suite("Sports faults: bad upstream answers become provider failures, never crashes")
struct FaultTests {
    let now = instant("2024-12-16T04:30:00Z")
    let nba = League.named("nba")!

    func failure(_ body: Data, status: Int = 200, view: SportsView = .scores) async -> ProviderFailure? {
        let transport = StubTransport { _ in HTTPResponse(status: status, body: body) }
        let environment = testEnvironment(transport: transport, now: now, timeZone: "America/New_York")
        let day = LocalDay.containing(now, in: zone("America/New_York"))
        let team = TeamRef(id: "12", abbreviation: "KC", displayName: nil, query: "kc")
        do {
            _ = try await ESPNProvider().fetch(
                SportsQuery(league: nba, view: view, day: day, team: team, season: 2025), in: environment)
            return nil
        } catch let failure as ProviderFailure {
            return failure
        } catch {
            return ProviderFailure(.network, "unexpected \(type(of: error))")
        }
    }

    @Test("HTTP 500")
    func serverError() async {
        #expect(
            await failure(Data("oops".utf8), status: 500)
                == ProviderFailure(.http, "ESPN: HTTP 500 from site.api.espn.com"))
    }

    @Test("malformed, truncated, empty and wrong-shaped bodies", arguments: SportsView.allCases)
    func unreadable(_ view: SportsView) async throws {
        let real = try Fixtures.data("sports/espn/nba-scoreboard-final-2024-12-15.response.json")
        for body in [Data("{not json".utf8), real.prefix(1000), Data(), Data("[]".utf8), Data("{\"events\":7}".utf8)] {
            let failure = await failure(Data(body), view: view)
            #expect(failure?.kind == .decoding, "\(view) \(String(decoding: body.prefix(20), as: UTF8.self))")
            #expect(failure?.message.hasPrefix("ESPN: unreadable response (") == true)
        }
    }

    @Test("one of two Eastern dates failing fails the whole day (no partial scoreboard)")
    func allOrNothing() async throws {
        let good = try Fixtures.data("sports/espn/mlb-scoreboard-live-postponed-2025-06-04.response.json")
        let asked = RequestLog()
        let transport = StubTransport { request in
            // ESPN's requests only: the MLB Stats API behind it is asked (and fails) too.
            if request.url.path.hasPrefix("/apis/") { await asked.add(request.url.query ?? "") }
            return request.url.query == "dates=20250604"
                ? HTTPResponse(status: 200, body: good) : HTTPResponse(status: 503, body: Data())
        }
        let harness = Harness(transport: transport, now: instant("2025-06-05T10:00:00Z"), zone: zone("Europe/Berlin"))
        await #expect(throws: AlmanacError.self) { _ = try await harness.run(["mlb"]) }
        #expect(await asked.all.sorted() == ["dates=20250604", "dates=20250605"])
    }

    @Test("through the tool, every failure is listed (exit 69)")
    func unavailable() async throws {
        let harness = Harness(
            transport: StubTransport { _ in HTTPResponse(status: 500, body: Data()) }, now: now,
            zone: zone("America/New_York"))
        do {
            _ = try await harness.run(["nba"])
            Issue.record("expected a failure")
        } catch let error as AlmanacError {
            #expect(error.exitStatus == 69)
            #expect(error.attempts.map(\.provider) == ["espn"])
            #expect(error.attempts.first?.detail == "ESPN: HTTP 500 from site.api.espn.com")
        }
    }
}

actor RequestLog {
    private(set) var all: [String] = []
    func add(_ entry: String) { all.append(entry) }
}
