import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCore
@testable import AlmanacSearch

@Suite("Brave key configuration")
struct BraveConfigurationTests {
    @Test("no key: configuration error (exit 64) saying how to set one, and no request")
    func missingKey() async throws {
        let requests = Recorder<HTTPRequest>()
        let context = SearchTest.context(
            transport: sequenceStub([SearchTest.response(500)], requests: requests),
            settings: SearchTest.settings(key: nil))
        do {
            _ = try await SearchTest.run(["hello"], context: context)
            Issue.record("expected a configuration error")
        } catch let error as AlmanacError {
            #expect(error.kind == .configuration)
            #expect(error.exitStatus == 64)
            #expect(error.message == "search needs a search provider: set BRAVE_API_KEY or ALMANAC_SEARXNG_URL")
            #expect(
                error.suggestion
                    == "set BRAVE_API_KEY (or api_key under [brave] in $XDG_CONFIG_HOME/almanac/config.toml; keys: https://api-dashboard.search.brave.com) for Brave Search, or ALMANAC_SEARXNG_URL (or url under [searxng]) to your own SearXNG instance"
            )
        }
        #expect(requests.count == 0)
    }

    @Test("blank keys count as missing", arguments: ["", "   ", "\n"])
    func blankKey(_ key: String) {
        let settings = Settings(
            environment: ["BRAVE_API_KEY": key], config: ["brave": .table(["api_key": .string(key)])])
        #expect(!SearchTest.braveConfigured(settings))
    }

    @Test("tools list: unconfiguredReason names both ways to set a key, nil once one is set")
    func unconfiguredReason() throws {
        let tool = SearchTool()
        let transport = try Fixtures.replay()
        let without = SearchTest.context(transport: transport, settings: SearchTest.settings(key: nil))
        #expect(
            tool.unconfiguredReason(in: without)
                == "no search provider (\(SearchChain.unconfiguredHelp))")
        #expect(tool.unconfiguredReason(in: SearchTest.context(transport: transport)) == nil)
        let config = Settings(config: ["brave": .table(["api_key": .string("k")])])
        #expect(tool.unconfiguredReason(in: SearchTest.context(transport: transport, settings: config)) == nil)
        // Without a key the chain is empty (tools list --providers still shows brave, unconfigured).
        #expect(tool.providers(in: without).map(\.name) == [])
        #expect(tool.providers(in: SearchTest.context(transport: transport)).map(\.name) == ["brave"])
    }

    @Test("isConfigured follows the key (the runtime uses it to offer the web-search fallback)")
    func isConfigured() {
        #expect(!SearchTest.braveConfigured(Settings()))
        #expect(SearchTest.braveConfigured(SearchTest.settings()))
        #expect(SearchTest.braveConfigured(Settings(config: ["brave": .table(["api_key": .string("k")])])))
    }

    @Test("replay mode (ALMANAC_REPLAY) needs no key and sends no key header")
    func replayWithoutKey() async throws {
        let settings = Settings(environment: ["ALMANAC_REPLAY": "Fixtures"])
        #expect(SearchTest.braveConfigured(settings))
        let requests = Recorder<HTTPRequest>()
        let replay = try Fixtures.replay()
        let recording = StubTransport { request in
            requests.append(request)
            return try await replay.send(request, timeout: .seconds(1))
        }
        let result = try await SearchTest.run(
            ["hello", "world"], context: SearchTest.context(transport: recording, settings: settings))
        #expect((result.payload as? SearchPayload)?.results.count == 5)
        #expect(requests.values.first?.headers == ["Accept": "application/json"])
    }
}
