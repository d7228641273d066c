import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCore
@testable import AlmanacSearch

/// SearXNG over the REAL recorded answer (`Fixtures/search/searxng/web-python.response.json`,
/// Open WebUI's test data, provenance in `Fixtures/search/README.md`), replayed through the tool,
/// plus the faults a real instance cannot be made to produce on demand (stubbed, labelled).
@Suite("SearXNG provider")
struct SearXNGTests {
    static let base = "https://searxng.example.org"
    static let settings = Settings(environment: ["ALMANAC_SEARXNG_URL": base])

    static func query(_ text: String = "python", kind: SearchKind = .web) -> SearchQuery {
        SearchQuery(text: text, kind: kind, count: 20)
    }

    @Test("decodes the recorded answer: results in rank order with engines, the infobox as one fact line")
    func recorded() async throws {
        let environment = testEnvironment(
            transport: try Fixtures.replay(), now: SearchTest.now, settings: Self.settings)
        let results = try await SearXNGProvider().fetch(Self.query(), in: environment)
        // The body holds 30 results and says number_of_results 116000000; 20 are asked for.
        #expect(results.results.count == 20)
        #expect(
            results.results[0]
                == SearchHit(
                    title: "Welcome to Python.org", url: "https://www.python.org/",
                    snippet:
                        "Python is a versatile and powerful language that lets you work quickly and integrate systems more effectively. Learn how to get started, download the latest version, access documentation, find jobs, and join the Python community.",
                    engines: ["bing", "qwant", "duckduckgo"]))
        // \u{2014} and \u{00b7} arrive as JSON escapes and come out as the characters.
        #expect(results.results[2].title == "The Python Tutorial — Python 3.12.3 documentation")
        #expect(results.results[2].snippet.hasPrefix("3 days ago · Python is an easy to learn"))
        #expect(results.results[7].engines == ["wikipedia"])
        #expect(
            results.infobox
                == "Python: general-purpose programming language; Inception: Wednesday, February 20, 1991; Developer: Python Software Foundation, Guido van Rossum; Copyright license: Python Software Foundation License; Programmed in: C, Python; Software version identifier: 3.12.3, 3.13.0a6; website https://www.python.org/"
        )
        #expect(results.answers.isEmpty)
        #expect(results.suggestions.count == 8)
        #expect(results.suggestions.first == "python turtle")
        #expect(results.notes == nil)
    }

    @Test("goldens: context, data and text of `search python` answered by SearXNG alone (no Brave key)")
    func goldens() async throws {
        let context = SearchTest.context(transport: try Fixtures.replay(), settings: Self.settings)
        let result = try await SearchTest.run(["python"], context: context)
        #expect(result.metadata.provider == "searxng")
        #expect(result.metadata.attempts.map(\.provider) == ["searxng"])
        #expect(
            Golden.check(try SearchTest.render(result, .context), against: "search/searxng/web-python.context.txt")
                == nil)
        let data = try Envelope.dataJSON(result.payload) + "\n"
        #expect(Golden.check(data, against: "search/searxng/web-python.data.json") == nil)
        #expect(
            Golden.check(try SearchTest.render(result, .text), against: "search/searxng/web-python.text.txt") == nil)
    }

    @Test("the request: /search with q, format=json, category, pageno, language and time_range")
    func request() throws {
        let settings = Settings(environment: ["ALMANAC_SEARXNG_URL": "https://example.org/searx/"])
        var query = SearchQuery(text: "swift 6", kind: .news, freshness: .week, country: "DE", language: "de")
        let request = try SearXNGProvider.request(for: query, settings: settings)
        let components = try #require(URLComponents(url: request.url, resolvingAgainstBaseURL: false))
        #expect(components.path == "/searx/search")
        #expect(
            components.queryItems == [
                URLQueryItem(name: "q", value: "swift 6"), URLQueryItem(name: "format", value: "json"),
                URLQueryItem(name: "categories", value: "news"), URLQueryItem(name: "pageno", value: "1"),
                URLQueryItem(name: "language", value: "de-DE"), URLQueryItem(name: "time_range", value: "week"),
            ])
        #expect(request.headers["Accept"] == "application/json")
        query.country = nil
        query.language = nil
        let plain = try SearXNGProvider.request(for: query, settings: settings)
        #expect(!(plain.url.query ?? "").contains("language"))
    }

    @Test("a 403 to format=json says to enable json in the instance's settings.yml")
    func forbidden() async throws {
        // Synthetic: searx 1.1 (the test server) serves json whatever its settings; SearXNG answers 403.
        let environment = testEnvironment(
            transport: sequenceStub([SearchTest.response(403, Data("Forbidden".utf8))], requests: Recorder()),
            now: SearchTest.now, settings: Self.settings)
        await #expect(
            throws: ProviderFailure(
                .unauthorized,
                "SearXNG: HTTP 403 to format=json; add json under search.formats in the instance's settings.yml")
        ) {
            _ = try await SearXNGProvider().fetch(Self.query(), in: environment)
        }
    }

    @Test(
        "429 is remembered with Retry-After, else for a minute; 5xx is an HTTP failure",
        arguments: [
            (["Retry-After": "30"], 30.0), ([:], 60.0),
        ] as [([String: String], Double)])
    func rateLimited(_ headers: [String: String], _ seconds: Double) async throws {
        // Synthetic: SearXNG's limiter answers 429.
        let environment = testEnvironment(
            transport: sequenceStub([SearchTest.response(429, headers: headers)], requests: Recorder()),
            now: SearchTest.now, settings: Self.settings)
        do {
            _ = try await SearXNGProvider().fetch(Self.query(), in: environment)
            Issue.record("expected a failure")
        } catch let failure as ProviderFailure {
            #expect(failure.kind == .rateLimited)
            #expect(failure.retryAfter == SearchTest.now.addingTimeInterval(seconds))
            #expect(failure.message == "SearXNG: HTTP 429, rate limited for \(Int(seconds)) s")
        }
    }

    @Test("number_of_results 0 beside results is not 'no results'; answers (both shapes) come first")
    func countAndAnswers() throws {
        // Synthetic shapes: searx 1.1 sends answers as strings, SearXNG as objects (`answer`, `url`).
        let body = Data(
            #"{"query":"1+1","number_of_results":0,"results":[{"url":"https://a.example","title":"A","content":"x","engines":["e"]}],"answers":["2",{"answer":"two","url":"https://b.example"}],"infoboxes":[],"suggestions":["one plus one"],"unresponsive_engines":[["google","timeout"],["bing","HTTP error",""]]}"#
                .utf8)
        let results = try SearXNGProvider.decode(
            SearchTest.response(200, body), for: Self.query("1+1"), now: SearchTest.now)
        #expect(results.results.map(\.url) == ["https://a.example"])
        #expect(results.answers == ["2", "two"])
        #expect(results.notes == "unresponsive engines: bing (HTTP error), google (timeout)")
    }

    @Test("no results and every engine unresponsive is a failure naming them, so the chain goes on")
    func noEngineAnswered() throws {
        let body = Data(
            #"{"query":"q","number_of_results":0,"results":[],"answers":[],"infoboxes":[],"suggestions":[],"unresponsive_engines":[["google","timeout"]]}"#
                .utf8)
        #expect(throws: ProviderFailure(.http, "SearXNG: no engine answered (google (timeout))")) {
            _ = try SearXNGProvider.decode(SearchTest.response(200, body), for: Self.query("q"), now: SearchTest.now)
        }
        let empty = Data(#"{"query":"q","results":[],"suggestions":["q2"],"unresponsive_engines":[]}"#.utf8)
        let results = try SearXNGProvider.decode(
            SearchTest.response(200, empty), for: Self.query("q"), now: SearchTest.now)
        #expect(results.results.isEmpty)
        #expect(results.suggestions == ["q2"])
    }

    @Test("a body without results is a decoding failure (no body text in the message)")
    func notAnAnswer() {
        do {
            _ = try SearXNGProvider.decode(
                SearchTest.response(200, Data(#"{"error":"secret body text"}"#.utf8)), for: Self.query(),
                now: SearchTest.now)
            Issue.record("expected a failure")
        } catch let failure as ProviderFailure {
            #expect(failure.kind == .decoding)
            #expect(!failure.message.contains("secret body text"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("keeps the provider contract on the recorded answer")
    func contract() async throws {
        let violations = await ProviderContract.check(
            SearXNGProvider(), query: Self.query(), recorded: try Fixtures.replay(), settings: Self.settings,
            now: SearchTest.now)
        #expect(violations.isEmpty, "\(violations)")
    }

    @Test("the fuzz target decodes the seed and survives garbage")
    func fuzzTarget() throws {
        let decoder = try #require(SearXNGProvider.descriptor.decoders.first)
        #expect(decoder.name == "searxng")
        decoder.run(try Fixtures.data("search/searxng/web-python.response.json"))
        decoder.run(Data("{\"results\":[{\"url\":1}],\"answers\":[[],{}],\"infoboxes\":[{\"attributes\":[{}]}]}".utf8))
        decoder.run(Data([0xFF, 0x00, 0x7B]))
    }

    @Test("no URL: unconfigured, not in the chain; a bad URL is a usage error before any request")
    func configuration() async throws {
        #expect(
            SearXNGProvider.unconfiguredReason(Settings()) == "ALMANAC_SEARXNG_URL is not set (nor url under [searxng])"
        )
        #expect(
            SearXNGProvider.unconfiguredReason(Settings(config: ["searxng": .table(["url": .string(Self.base)])]))
                == nil)
        let requests = Recorder<HTTPRequest>()
        let context = SearchTest.context(
            transport: sequenceStub([SearchTest.response(500)], requests: requests),
            settings: Settings(environment: ["ALMANAC_SEARXNG_URL": "ftp://nope"]))
        do {
            _ = try await SearchTest.run(["python"], context: context)
            Issue.record("expected a usage error")
        } catch let error as AlmanacError {
            #expect(error.exitStatus == 64)
            #expect(error.message.contains("ALMANAC_SEARXNG_URL"))
        }
        #expect(requests.count == 0)
    }
}
