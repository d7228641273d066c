import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCore
@testable import AlmanacSports

@Suite("Sports web-search fallback")
struct WebFallbackTests {
    let now = instant("2024-12-16T04:30:00Z")
    let down = StubTransport { _ in HTTPResponse(status: 503, body: Data()) }
    // Test double hits (the search tool's own fixtures cover real Brave bodies).
    let hits = [
        WebSearchHit(
            title: "NBA Scores <b>today</b>", url: "https://example.org/nba", snippet: "Lakers beat Grizzlies 116-110.",
            age: "2 hours ago"),
        WebSearchHit(title: "Scoreboard", url: "https://example.org/sb", snippet: "Celtics 112, Wizards 98"),
    ]

    @Test("lists espn and the official feeds, then the searcher at priority 100 only when one is configured")
    func providerList() {
        let without = Harness(transport: down, now: now, zone: zone("UTC"))
        #expect(SportsTool().providers(in: without.context).map(\.name) == ["espn", "mlb-statsapi", "nhl-api"])
        let with = Harness(transport: down, now: now, zone: zone("UTC"), webSearch: FakeSearcher(hits: hits))
        let listed = SportsTool().providers(in: with.context)
        #expect(listed.map(\.name) == ["espn", "mlb-statsapi", "nhl-api", "brave"])
        #expect(listed.last == ProviderInfo(name: "brave", priority: 100, note: "web search fallback"))
    }

    @Test("when ESPN fails, web hits answer, fenced, and the envelope names the searcher")
    func fallback() async throws {
        let searcher = FakeSearcher(hits: hits)
        let harness = Harness(transport: down, now: now, zone: zone("America/New_York"), webSearch: searcher)
        let result = try await harness.run(["nba", "--date", "2024-12-15"])
        #expect(result.metadata.provider == "brave")
        #expect(result.metadata.attempts.map(\.provider) == ["espn", "brave"])
        #expect(await searcher.questions == ["NBA scores 2024-12-15"])
        let context = try harness.render(result)
        let lines = context.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0].hasPrefix("[sports] NBA scores from web search for \"NBA scores 2024-12-15\" · source: brave"))
        #expect(lines[1] == "ESPN did not answer; these are web search results, not a scoreboard. Check dates in them.")
        let nonce = UntrustedText.nonce(for: lines[4...5].map(String.init))
        #expect(lines[2] == Substring(UntrustedText.notice(nonce)))
        #expect(lines[3] == Substring(UntrustedText.open(nonce)))
        #expect(
            lines[4]
                == "- NBA Scores ‹b›today‹/b› — Lakers beat Grizzlies 116-110. (2 hours ago) <https://example.org/nba>")
        #expect(lines[6] == Substring(UntrustedText.close(nonce)))
        let envelope = try harness.render(result, .json)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(envelope.utf8)) as? [String: Any])
        #expect(object["provider"] as? String == "brave")
        let data = try #require(object["data"] as? [String: Any])
        #expect(data["source"] as? String == "web search")
        #expect((data["games"] as? [Any])?.isEmpty == true)
        #expect((data["results"] as? [Any])?.count == 2)
    }

    @Test("without a searcher the fallback is skipped: only ESPN's failure is reported")
    func skipped() async {
        let harness = Harness(transport: down, now: now, zone: zone("UTC"))
        do {
            _ = try await harness.run(["nba"])
            Issue.record("expected a failure")
        } catch let error as AlmanacError {
            #expect(error.attempts.map(\.provider) == ["espn"])
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test(
        "questions per view",
        arguments: [
            (SportsView.standings, nil, "Premier League standings"), (.news, nil, "Premier League news"),
            (.schedule, "Arsenal", "Arsenal Premier League next game schedule"),
        ] as [(SportsView, String?, String)])
    func questions(_ view: SportsView, _ team: String?, _ expected: String) {
        let ref = team.map { TeamRef(id: nil, abbreviation: "ARS", displayName: $0, query: $0) }
        #expect(SportsQuery(league: League.named("epl")!, view: view, team: ref).webSearchText == expected)
    }

    @Test("the shared chain: Brave failing, SearXNG answers; attempts name each searcher in order")
    func chain() async throws {
        let brave = FakeSearcher(
            hits: [], name: "brave", failure: ProviderFailure(.rateLimited, "Brave: HTTP 429, rate limited"))
        let searxng = FakeSearcher(hits: hits, name: "searxng", note: "unresponsive engines: broken (HTTP error)")
        let chain = try #require(WebSearchChain([brave, searxng]))
        let harness = Harness(transport: down, now: now, zone: zone("UTC"), webSearch: chain)
        let listed = SportsTool().providers(in: harness.context)
        // After every sports API, in chain order.
        #expect(listed.suffix(2).map(\.name) == ["brave", "searxng"])
        #expect(listed.suffix(2).map(\.priority) == [100, 101])
        let result = try await harness.run(["nba", "--date", "2024-12-15"])
        #expect(result.metadata.provider == "searxng")
        #expect(result.metadata.attempts.suffix(2).map(\.provider) == ["brave", "searxng"])
        #expect(result.metadata.attempts.map(\.outcome).suffix(2) == [.failed, .ok])
        // What SearXNG noted beside its hits (engines that did not answer) is the answering
        // attempt's detail, as in the search tool's own attempts.
        #expect(result.metadata.attempts.last?.detail == "unresponsive engines: broken (HTTP error)")
        #expect(await searxng.questions == ["NBA scores 2024-12-15"])
        #expect(await searxng.counts == [WebSearchFallbacks.hitCount])
    }
}
