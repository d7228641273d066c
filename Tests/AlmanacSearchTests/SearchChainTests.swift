import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCore
@testable import AlmanacSearch

/// The one search chain: Brave (with a key) then SearXNG (with a URL), for the search tool and
/// for every other tool's web fallback. Bodies are the recorded ones (Brave "hello world",
/// SearXNG "python"); failures are stubbed and labelled.
@Suite("search chain: Brave, then SearXNG")
struct SearchChainTests {
    static let searxng = "https://searxng.example.org"

    static func both() -> Settings {
        SearchTest.settings(environment: ["ALMANAC_SEARXNG_URL": searxng])
    }

    /// Replays the recordings, except that Brave answers `braveStatus` when it is not 200.
    static func transport(braveStatus: Int = 200, requests: Recorder<HTTPRequest> = Recorder()) throws -> StubTransport
    {
        let replay = try Fixtures.replay()
        return StubTransport { request in
            requests.append(request)
            if braveStatus != 200, request.url.host == "api.search.brave.com" {
                return SearchTest.response(braveStatus)
            }
            return try await replay.send(request, timeout: .seconds(1))
        }
    }

    @Test("listing: brave then searxng when both are configured; only what is configured otherwise")
    func listing() throws {
        let tool = SearchTool()
        let replay = try Fixtures.replay()
        #expect(
            tool.providers(in: SearchTest.context(transport: replay, settings: Self.both())).map(\.name) == [
                "brave", "searxng",
            ])
        let searxOnly = Settings(environment: ["ALMANAC_SEARXNG_URL": Self.searxng])
        #expect(
            tool.providers(in: SearchTest.context(transport: replay, settings: searxOnly)).map(\.name) == ["searxng"])
        #expect(tool.unconfiguredReason(in: SearchTest.context(transport: replay, settings: searxOnly)) == nil)
        #expect(SearchChain.configuredWebSearch(Settings()) == nil)
        #expect(SearchChain.configuredWebSearch(Self.both())?.searchers.map(\.providerName) == ["brave", "searxng"])
        #expect(SearchChain.configuredWebSearch(searxOnly)?.searchers.map(\.providerName) == ["searxng"])
    }

    @Test("Brave answering 500: SearXNG answers; attempts name both in order")
    func braveDown() async throws {
        let context = SearchTest.context(transport: try Self.transport(braveStatus: 500), settings: Self.both())
        let result = try await SearchTest.run(["python"], context: context)
        #expect(result.metadata.provider == "searxng")
        #expect(result.metadata.attempts.map(\.provider) == ["brave", "searxng"])
        #expect(result.metadata.attempts.map(\.outcome) == [.failed, .ok])
        #expect(result.metadata.attempts.first?.detail == "Brave: HTTP 500 from the search API")
    }

    @Test("with both configured Brave answers first and SearXNG is not asked")
    func braveFirst() async throws {
        let requests = Recorder<HTTPRequest>()
        let context = SearchTest.context(transport: try Self.transport(requests: requests), settings: Self.both())
        let result = try await SearchTest.run(["hello", "world"], context: context)
        #expect(result.metadata.provider == "brave")
        #expect(requests.values.map { $0.url.host ?? "" } == ["api.search.brave.com"])
    }

    @Test("answers stay fresh as long as their provider's lifetime: SearXNG 15 minutes, Brave an hour")
    func lifetimes() async throws {
        let requests = Recorder<HTTPRequest>()
        let clock = ManualNow(SearchTest.now)
        let context = SearchTest.context(
            transport: try Self.transport(braveStatus: 500, requests: requests), settings: Self.both(),
            cache: MemoryCacheStore(), clock: clock)
        _ = try await SearchTest.run(["python"], context: context)  // brave fails, searxng answers
        #expect(requests.count == 2)
        clock.advance(14 * 60)
        #expect(try await SearchTest.run(["python"], context: context).metadata.attempts.map(\.outcome) == [.cached])
        clock.advance(2 * 60)  // 16 minutes: SearXNG's answer has expired
        _ = try await SearchTest.run(["python"], context: context)
        #expect(requests.count == 4)

        let brave = SearchTest.context(
            transport: try Self.transport(requests: requests), settings: Self.both(), cache: MemoryCacheStore(),
            clock: clock)
        _ = try await SearchTest.run(["hello", "world"], context: brave)
        clock.advance(50 * 60)
        #expect(
            try await SearchTest.run(["hello", "world"], context: brave).metadata.attempts.map(\.outcome) == [.cached])
    }

    @Test("unresponsive engines beside an answer go into the answering attempt's detail")
    func unresponsiveDetail() async throws {
        // Synthetic body in the shape the real searx answers (see SearxServerTests for the real one).
        let body = Data(
            #"{"query":"q","number_of_results":0,"results":[{"url":"https://a.example","title":"A","content":"x","engines":["loopback"]}],"answers":[],"infoboxes":[],"suggestions":[],"unresponsive_engines":[["broken","HTTP error"]]}"#
                .utf8)
        let context = SearchTest.context(
            transport: sequenceStub([SearchTest.response(200, body)], requests: Recorder()),
            settings: Settings(environment: ["ALMANAC_SEARXNG_URL": Self.searxng]))
        let result = try await SearchTest.run(["q"], context: context)
        #expect(
            result.metadata.attempts == [
                ProviderAttempt(
                    provider: "searxng", outcome: .ok, milliseconds: result.metadata.attempts.first?.milliseconds ?? 0,
                    detail: "unresponsive engines: broken (HTTP error)")
            ])
    }

    @Test("a slow instance is cut at the deadline and the chain goes on")
    func slowInstance() async throws {
        let slow = StubTransport { _ in
            try await Task.sleep(for: .seconds(3600))
            return SearchTest.response(200)
        }
        let environment = testEnvironment(
            transport: slow, now: SearchTest.now,
            settings: Settings(environment: ["ALMANAC_SEARXNG_URL": Self.searxng]),
            timeout: .milliseconds(100))
        let coordinator = Coordinator(cache: MemoryCacheStore(), configuration: .init(timeout: .milliseconds(100)))
        let query = SearchQuery(text: "python")
        let started = ContinuousClock.now
        let fetched = try await coordinator.fetch(
            CoordinatedRequest(
                tool: "search", key: "slow",
                providers: [
                    ProviderCall(name: "searxng") { try await SearXNGProvider().fetch(query, in: environment) },
                    ProviderCall(name: "next") { SearchResults(query: "python", kind: .web, results: []) },
                ]))
        // Not the stub's hour (bounded loosely: a loaded CI machine stretches wall time).
        #expect(ContinuousClock.now - started < .seconds(300))
        #expect(fetched.metadata.provider == "next")
        #expect(fetched.metadata.attempts.map(\.outcome) == [.timeout, .ok])
    }

    @Test("--news goes only to providers that have news (both do), with SearXNG's news category")
    func news() async throws {
        let requests = Recorder<HTTPRequest>()
        let body = Data(
            #"{"query":"q","results":[],"answers":[],"infoboxes":[],"suggestions":[],"unresponsive_engines":[]}"#.utf8)
        let context = SearchTest.context(
            transport: sequenceStub([SearchTest.response(200, body)], requests: requests),
            settings: Settings(environment: ["ALMANAC_SEARXNG_URL": Self.searxng]))
        let result = try await SearchTest.run(["q", "--news"], context: context)
        #expect(result.metadata.provider == "searxng")
        #expect(SearchTool().chain.allSatisfy { $0.kinds.contains(.news) })
        #expect(requests.values.first?.url.query?.contains("categories=news") == true)
    }

    @Test("other tools' fallback asks the chain: Brave failing, SearXNG's hits, at most the count asked")
    func webSearchChain() async throws {
        let environment = testEnvironment(
            transport: try Self.transport(braveStatus: 503), now: SearchTest.now, settings: Self.both())
        let chain = try #require(SearchChain.configuredWebSearch(Self.both()))
        let hits = try await chain.search("python", count: 5, in: environment)
        #expect(hits.count == 5)
        #expect(hits.first?.url == "https://www.python.org/")
    }

    @Test("the search tool's chain is SearchChain's: one list, with the tool's own Brave client")
    func oneChain() {
        let tool = SearchTool(client: BraveClient(sleep: { _ in }))
        #expect(tool.chain.map(\.name) == SearchChain.all.map(\.name))
        #expect(tool.providerDescriptors.map(\.name) == tool.chain.map(\.name))
    }

    @Test("the unconfigured help is built from the descriptors: each provider's variable and config value")
    func helpFromDescriptors() {
        // SearXNG alone: its base URL's variable and config value, and the config file's path at
        // its first mention (Brave's, when Brave comes first).
        #expect(
            SearchChain.help([SearXNGProvider()])
                == "set ALMANAC_SEARXNG_URL (or url under [searxng] in $XDG_CONFIG_HOME/almanac/config.toml)"
                + " to your own SearXNG instance")
        #expect(
            SearchChain.help(SearchChain.all)
                == "set BRAVE_API_KEY (or api_key under [brave] in $XDG_CONFIG_HOME/almanac/config.toml; keys:"
                + " https://api-dashboard.search.brave.com) for Brave Search, or ALMANAC_SEARXNG_URL"
                + " (or url under [searxng]) to your own SearXNG instance")
        #expect(SearchChain.enablingVariables == ["BRAVE_API_KEY", "ALMANAC_SEARXNG_URL"])
    }
}
