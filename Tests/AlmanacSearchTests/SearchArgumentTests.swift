import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacSearch

/// Argument checking and the exact request sent to Brave. Requests are captured by a stub that
/// answers with the real recorded web/news bodies.
@Suite("Search arguments and Brave requests")
struct SearchArgumentTests {
    @Test(
        "bad input is a one-line usage error before any request",
        arguments: [
            (["hello", "--count", "0"], "count must be between 1 and 20, got '0'"),
            (["hello", "--count", "21"], "count must be between 1 and 20, got '21'"),
            (["hello", "--count", "many"], "count must be a whole number, got 'many'"),
            (["hello", "--freshness", "year"], "search: 'year' is not a valid freshness"),
            (["hello", "--country", "usa"], "country must be a 2-letter code, got 'usa'"),
            (["hello", "--country", "1A"], "country must be a 2-letter code, got '1A'"),
            ([], "missing query for search"),
            (["--news"], "missing query for search"),
            ([String(repeating: "a", count: 401)], "search query is too long (401 characters, 1 words)"),
            (Array(repeating: "w", count: 51), "search query is too long (101 characters, 51 words)"),
            (["hello", "--colour", "red"], "unknown option '--colour' for search"),
        ] as [([String], String)])
    func usageErrors(words: [String], message: String) async throws {
        let requests = Recorder<HTTPRequest>()
        let context = SearchTest.context(
            transport: sequenceStub(
                [SearchTest.response(200, try SearchTest.body("web-hello-world"))], requests: requests))
        do {
            _ = try await SearchTest.run(words, context: context)
            Issue.record("expected a usage error")
        } catch let error as AlmanacError {
            #expect(error.kind == .usage)
            #expect(error.exitStatus == 64)
            #expect(error.message == message)
            #expect(error.suggestion?.isEmpty == false)
        }
        #expect(requests.count == 0)
    }

    @Test("web request: path, q, count=20, Accept and the key header only")
    func webRequest() async throws {
        let requests = Recorder<HTTPRequest>()
        let context = SearchTest.context(
            transport: sequenceStub(
                [SearchTest.response(200, try SearchTest.body("web-hello-world"))], requests: requests))
        _ = try await SearchTest.run(["swift", "6", "release", "--count", "2"], context: context)
        let request = try #require(requests.values.first)
        #expect(request.method == "GET")
        #expect(
            request.url.absoluteString
                == "https://api.search.brave.com/res/v1/web/search?q=swift%206%20release&count=20")
        #expect(request.headers == ["Accept": "application/json", "X-Subscription-Token": SearchTest.key])
    }

    @Test(
        "news request with freshness and country",
        arguments: [("day", "pd"), ("week", "pw"), ("month", "pm"), ("WEEK", "pw")])
    func newsRequest(freshness: String, brave: String) async throws {
        let requests = Recorder<HTTPRequest>()
        let context = SearchTest.context(
            transport: sequenceStub(
                [SearchTest.response(200, try SearchTest.body("news-hello-world"))], requests: requests))
        let result = try await SearchTest.run(
            ["--news", "eu", "ai", "act", "--freshness", freshness, "--country", "de"], context: context)
        let request = try #require(requests.values.first)
        let components = try #require(URLComponents(url: request.url, resolvingAgainstBaseURL: false))
        #expect(components.path == "/res/v1/news/search")
        #expect(
            components.queryItems == [
                URLQueryItem(name: "q", value: "eu ai act"), URLQueryItem(name: "count", value: "20"),
                URLQueryItem(name: "freshness", value: brave), URLQueryItem(name: "country", value: "DE"),
            ])
        let payload = try #require(result.payload as? SearchPayload)
        #expect(payload.freshness?.braveValue == brave)
        #expect(payload.country == "DE")
    }

    @Test("ALMANAC_BRAVE_URL moves the base URL (loopback servers, proxies)")
    func baseURLOverride() async throws {
        let requests = Recorder<HTTPRequest>()
        let context = SearchTest.context(
            transport: sequenceStub(
                [SearchTest.response(200, try SearchTest.body("web-hello-world"))], requests: requests),
            settings: SearchTest.settings(environment: ["ALMANAC_BRAVE_URL": "http://127.0.0.1:8099/"]))
        _ = try await SearchTest.run(["hello"], context: context)
        #expect(requests.values.first?.url.absoluteString == "http://127.0.0.1:8099/res/v1/web/search?q=hello&count=20")
    }

    @Test("a bad ALMANAC_BRAVE_URL is a usage error naming the variable")
    func badBaseURL() async throws {
        let requests = Recorder<HTTPRequest>()
        let context = SearchTest.context(
            transport: sequenceStub([SearchTest.response(500)], requests: requests),
            settings: SearchTest.settings(environment: ["ALMANAC_BRAVE_URL": "ftp://example.com"]))
        await #expect(throws: AlmanacError.self) { _ = try await SearchTest.run(["hello"], context: context) }
        do {
            _ = try await SearchTest.run(["hello"], context: context)
        } catch let error as AlmanacError {
            #expect(error.kind == .usage)
            #expect(error.message == "ALMANAC_BRAVE_URL is not an http(s) URL: 'ftp://example.com'")
        }
        #expect(requests.count == 0)
    }

    @Test("the key comes from BRAVE_API_KEY, else [brave] api_key in config.toml")
    func keySources() async throws {
        let configKey = "BSA-config-key-0001"
        let fromConfig = Settings(config: ["brave": .table(["api_key": .string(configKey)])])
        let both = Settings(
            environment: ["BRAVE_API_KEY": SearchTest.key], config: ["brave": .table(["api_key": .string(configKey)])])
        for (settings, expected) in [(fromConfig, configKey), (both, SearchTest.key)] {
            let requests = Recorder<HTTPRequest>()
            let context = SearchTest.context(
                transport: sequenceStub(
                    [SearchTest.response(200, try SearchTest.body("web-hello-world"))], requests: requests),
                settings: settings)
            _ = try await SearchTest.run(["hello"], context: context)
            #expect(requests.values.first?.headers["X-Subscription-Token"] == expected)
        }
    }

    @Test("the schema documents every option for MCP/OpenAI")
    func schema() {
        let tool = SearchTool()
        #expect(tool.name == "search")
        #expect(
            tool.schema.parameters.map(\.name) == [
                "query", "news", "count", "freshness", "country", "language", "page", "read",
            ])
        #expect(
            ToolArguments.usage(tool.schema, tool: "search")
                == "tools run search <query...> [--news] [--count <count>] [--freshness day|week|month] [--country <country>] [--language <language>] [--page <page>] [--read <read>]"
        )
        let json = tool.schema.jsonSchema.objectValue
        #expect(json?["required"] == .array(["query"]))
    }

    @Test("cache keys normalize case and spacing and include kind and filters, not count")
    func cacheKeys() {
        let a = SearchTool.cacheKey(SearchQuery(text: "Swift 6", kind: .web))
        let b = SearchTool.cacheKey(SearchQuery(text: "swift 6", kind: .web, count: 3))
        let news = SearchTool.cacheKey(SearchQuery(text: "swift 6", kind: .news))
        let week = SearchTool.cacheKey(SearchQuery(text: "swift 6", kind: .web, freshness: .week, country: "DE"))
        #expect(a == b)
        // Provider-neutral: Brave's and SearXNG's answers to one question share the key.
        #expect(a == "search|web|any|default|any|swift 6")
        #expect(news != a && week == "search|web|week|DE|any|swift 6")
        let german = SearchTool.cacheKey(SearchQuery(text: "swift 6", kind: .web, language: "de"))
        #expect(german == "search|web|any|default|de|swift 6")
        #expect(
            SearchTool.cacheKey(SearchQuery(text: "swift 6", page: 2)) == "search|web|any|default|any|swift 6|page 2")
    }

    @Test("--page N: Brave offset N-1 (none on page 1), SearXNG pageno N; outside 1-10 a usage error")
    func page() async throws {
        let arguments = try ToolArguments.parse(
            cli: ["hello", "--page", "3"], schema: SearchTool.schema, tool: "search")
        let request = try SearchTool.request(from: arguments)
        #expect(request.page == 3)
        let query = SearchQuery(text: "hello", page: request.page)
        let brave = try BraveClient.request(for: query, key: nil, settings: SearchTest.settings())
        #expect(brave.url.query?.contains("offset=2") == true)
        let first = try BraveClient.request(for: SearchQuery(text: "hello"), key: nil, settings: SearchTest.settings())
        #expect(first.url.query?.contains("offset") == false)
        let searxng = try SearXNGProvider.request(
            for: query, settings: Settings(environment: ["ALMANAC_SEARXNG_URL": "https://searxng.example.org"]))
        #expect(searxng.url.query?.contains("pageno=3") == true)
        for bad in ["0", "11", "two"] {
            #expect(throws: AlmanacError.self) {
                _ = try SearchTool.request(
                    from: try ToolArguments.parse(
                        cli: ["hello", "--page", bad], schema: SearchTool.schema, tool: "search"))
            }
        }
    }

    @Test(
        "--language takes a code with an optional region; Brave gets it as search_lang",
        arguments: [
            ("de", "de"), ("EN", "en"), ("pt-BR", "pt-BR"), ("zh-Hans", "zh-Hans"),
        ])
    func language(_ given: String, _ expected: String) async throws {
        let arguments = try ToolArguments.parse(
            cli: ["hello", "--language", given], schema: SearchTool.schema, tool: "search")
        let request = try SearchTool.request(from: arguments)
        #expect(request.language == expected)
        let brave = try BraveClient.request(
            for: SearchQuery(text: "hello", language: request.language), key: nil, settings: SearchTest.settings())
        #expect(brave.url.query?.contains("search_lang=\(expected.lowercased())") == true)
    }

    @Test("a bad --language is a one-line usage error", arguments: ["english", "d", "de-", "de-DE-x", "1e"])
    func badLanguage(_ given: String) throws {
        let arguments = try ToolArguments.parse(
            cli: ["hello", "--language", given], schema: SearchTool.schema, tool: "search")
        do {
            _ = try SearchTool.request(from: arguments)
            Issue.record("expected a usage error")
        } catch let error as AlmanacError {
            #expect(error.exitStatus == 64)
            #expect(error.message == "language must be a language code, got '\(given)'")
        }
    }
}
