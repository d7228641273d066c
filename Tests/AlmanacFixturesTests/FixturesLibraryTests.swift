import AlmanacRuntime
import AlmanacTesting
import Foundation
import Synchronization
import Testing

@testable import AlmanacCore
@testable import AlmanacFixtures

/// The library behind `tools fixtures`, in process: redaction, where a recorded host belongs,
/// the recorder's files, and the JSON shape comparison the drift check reports.
@Suite("AlmanacFixtures")
struct FixturesLibraryTests {
    @Test("secret query parameters and user info are redacted from recorded URLs")
    func redactURL() throws {
        let url = try #require(
            URL(string: "https://user:pw@api.example.com/v1/x?q=rain&api_key=abc123&Token=t0k&count=2"))
        let providers = Runtime.defaultProviders()
        #expect(
            Redaction.url(url, providers: providers)
                == "https://api.example.com/v1/x?q=rain&api_key=REDACTED&Token=REDACTED&count=2")
        #expect(
            Redaction.headers(["Content-Type": "a", "Set-Cookie": "s", "X-Request-Id": "r"]) == ["Content-Type": "a"])
        #expect(
            Redaction.body(Data("{\"echo\":\"abc123secret\"}".utf8), secrets: ["abc123secret"])
                == Data("{\"echo\":\"REDACTED\"}".utf8))
    }

    @Test("the secrets scrubbed from recordings are every provider's declared ones, read from the registry")
    func registrySecrets() throws {
        let providers = Runtime.defaultProviders()
        let settings = Settings(
            environment: [
                "BRAVE_API_KEY": "brave-secret-1", "ALMANAC_CALDAV_PASSWORD": "caldav-secret-2", "HOME": "/nowhere",
            ],
            config: ["brave": .table(["api_key": .string("brave-config-3")])])
        #expect(
            Redaction.secrets(in: settings, providers: providers) == [
                "brave-config-3", "brave-secret-1", "caldav-secret-2",
            ])
        #expect(providers.secretHeaders.contains("x-subscription-token"))
        // A provider declaring a secret query parameter gets it redacted without touching the recorder.
        let custom = ProviderRegistry(
            providers.descriptors + [
                ProviderDescriptor(
                    name: "example", tool: "search", priority: 50, summary: "test", secrets: [.queryParameter("sig")])
            ])
        let url = try #require(URL(string: "https://x.example/a?sig=s3cr3t&q=1"))
        #expect(Redaction.url(url, providers: custom) == "https://x.example/a?sig=REDACTED&q=1")
        #expect(Redaction.url(url, providers: providers) == "https://x.example/a?sig=s3cr3t&q=1")
    }

    @Test(
        "a request through a configured base URL is filed under its provider with the upstream's own URL; rebase goes back"
    )
    func identifyAndRebase() throws {
        let providers = Runtime.defaultProviders()
        let settings = Settings(environment: ["ALMANAC_ESPN_URL": "http://127.0.0.1:8123", "HOME": "/nowhere"])
        let local = try #require(
            URL(string: "http://127.0.0.1:8123/apis/site/v2/sports/basketball/nba/scoreboard?dates=20241215"))
        let identified = Upstream.identify(local, settings: settings, providers: providers)
        #expect(identified.folder == "espn")
        #expect(
            identified.url.absoluteString
                == "https://site.api.espn.com/apis/site/v2/sports/basketball/nba/scoreboard?dates=20241215")
        #expect(Upstream.rebase(identified.url, settings: settings, providers: providers) == local)
        // A host no provider declares keeps its URL, in a folder that says so.
        let unknown = try #require(URL(string: "https://example.org/x"))
        #expect(Upstream.identify(unknown, settings: settings, providers: providers) == ("recorded", unknown))
    }

    @Test("the recorder writes one exchange and its redacted body per request, numbered when there are several")
    func recorderWrites() async throws {
        let providers = Runtime.defaultProviders()
        let settings = Settings(environment: ["BRAVE_API_KEY": "recorder-secret-99", "HOME": "/nowhere"])
        let recorder = Recorder()
        let transport = RecordingTransport(
            inner: StubTransport { _ in
                HTTPResponse(
                    status: 200, headers: ["Content-Type": "application/json", "Set-Cookie": "id=1"],
                    body: Data(#"{"echo":"recorder-secret-99"}"#.utf8))
            }, recorder: recorder)
        for query in ["a", "b"] {
            let url = try #require(URL(string: "https://api.search.brave.com/res/v1/web/search?q=\(query)"))
            _ = try await transport.send(
                HTTPRequest(url: url, headers: ["X-Subscription-Token": "recorder-secret-99"]), timeout: .seconds(1))
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "almanac-fixtures-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let written = try recorder.write(into: folder, scenario: "two", settings: settings, providers: providers)
        let brave = folder.appendingPathComponent("brave").path
        #expect(
            written == [
                "\(brave)/two-1.exchange.json", "\(brave)/two-1.response.json", "\(brave)/two-2.exchange.json",
                "\(brave)/two-2.response.json",
            ])
        #expect(
            try String(contentsOfFile: "\(brave)/two-2.exchange.json", encoding: .utf8)
                == #"{"request":{"method":"GET","url":"https://api.search.brave.com/res/v1/web/search?q=b"},"response":{"body":"two-2.response.json","headers":{"content-type":"application/json"},"status":200}}"#
        )
        #expect(try String(contentsOfFile: "\(brave)/two-1.response.json", encoding: .utf8) == #"{"echo":"REDACTED"}"#)
        // Nothing fetched: a usage error, no file.
        #expect(throws: AlmanacError.self) {
            try Recorder().write(into: folder, scenario: "none", settings: settings, providers: providers)
        }
    }

    @Test(
        "shape drift names gone fields once (not their children) and changed types; null and added fields are no drift")
    func shapeDrift() throws {
        let recorded = try #require(
            JSONShape(Data(#"{"a":{"b":1,"c":"x"},"d":[{"e":true}],"f":null,"g":{"h":1}}"#.utf8)))
        let live = try #require(
            JSONShape(Data(#"{"a":{"b":"1","c":null},"d":[{"e":true},{"e":false,"new":2}],"f":3}"#.utf8)))
        #expect(recorded.types["d[].e"] == ["boolean"])
        #expect(recorded.drift(to: live) == ["type changed: a.b (number → string)", "gone: g"])
        #expect(recorded.drift(to: recorded).isEmpty)
        #expect(JSONShape(Data("<html>".utf8)) == nil)
        #expect(JSONShape(Data("42".utf8))?.types == ["": ["number"]])
    }

    @Test("a live check goes through the given transport to the rebased URL and reports status and shape drift")
    func liveCheckThroughTransport() async throws {
        let providers = Runtime.defaultProviders()
        let settings = Settings(environment: ["ALMANAC_ESPN_URL": "http://127.0.0.1:9", "HOME": "/nowhere"])
        let scenarios = try FixtureScenario.all(
            in: Fixtures.directory, tool: "sports", matching: "espn/nba-scoreboard-final-2024-12-15")
        let scenario = try #require(scenarios.first)
        #expect(scenarios.count == 1)
        let recorded = try Fixtures.data("sports/espn/nba-scoreboard-final-2024-12-15.response.json")
        let asked = Mutex<[String]>([])
        func check(_ status: Int, _ body: Data) async -> String {
            await scenario.check(
                live: true, settings: settings, providers: providers, timeout: .seconds(5),
                transport: StubTransport { request in
                    asked.withLock { $0.append(request.url.absoluteString) }
                    return HTTPResponse(status: status, body: body)
                })
        }
        #expect(await check(200, recorded) == "ok    sports/espn/nba-scoreboard-final-2024-12-15")
        #expect(
            asked.withLock { $0.first?.hasPrefix("http://127.0.0.1:9/apis/site/v2/sports/basketball/nba/scoreboard") }
                == true)
        #expect(
            await check(500, recorded) == "drift sports/espn/nba-scoreboard-final-2024-12-15: HTTP 500, recorded 200")
        #expect(
            await check(200, Data(#"{"leagues":[]}"#.utf8))
                == "drift sports/espn/nba-scoreboard-final-2024-12-15: gone: events; gone: leagues[]")
        // Offline, nothing is fetched.
        #expect(
            await scenario.check(
                live: false, settings: settings, providers: providers, timeout: .seconds(5),
                transport: StubTransport { _ in throw CancellationError() })
                == "ok    sports/espn/nba-scoreboard-final-2024-12-15")
    }
}
