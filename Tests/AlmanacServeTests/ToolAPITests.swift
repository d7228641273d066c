import AlmanacCore
import AlmanacRuntime
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacServe

/// The OpenAPI side in process, over the real tools and replayed recordings.
@Suite("tools serve OpenAPI calls")
struct ToolAPITests {
    func api(_ directory: TempDirectory, tools: [any Tool]? = nil) throws -> ToolAPI {
        let runtime = try Runtime.make(
            environment: ServePeers.replayEnvironment(directory.url), options: RuntimeOptions(), tools: tools)
        return ToolAPI(runtime: runtime, budget: nil, metrics: ServeMetrics(tools: runtime.registry.tools.map(\.name)))
    }

    func object(_ answer: ToolAPI.Answer) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
    }

    @Test("200: the envelope of --format json plus context, the text `tools run` prints")
    func answer() async throws {
        let directory = try TempDirectory()
        let api = try api(directory)
        let answer = await api.call("sports", body: Array(#"{"league": "nba", "date": "2024-12-15"}"#.utf8))
        #expect(answer.status == 200)
        let body = try object(answer)
        #expect(body["tool"] as? String == "sports")
        #expect(body["provider"] as? String == "espn")
        #expect(((body["data"] as? [String: Any])?["games"] as? [Any])?.count == 7)
        let context = try #require(body["context"] as? String)
        let golden = try String(
            contentsOf: Fixtures.directory.appendingPathComponent(
                "sports/espn/nba-scoreboard-final-2024-12-15.context.txt"),
            encoding: .utf8)
        // The golden was rendered at the same fixed clock and zone as these recordings.
        #expect(context.split(separator: "\n").dropFirst() == golden.split(separator: "\n").dropFirst())
        // A second identical call is a cache hit, counted in the metrics.
        let again = try object(await api.call("sports", body: Array(#"{"date": "2024-12-15", "league": "nba"}"#.utf8)))
        #expect((again["attempts"] as? [[String: Any]])?.first?["outcome"] as? String == "cached")
        let metrics = String(decoding: api.metrics.text(), as: UTF8.self)
        #expect(metrics.contains(#"almanac_cache_hits_total{tool="sports"} 1"#))
        #expect(metrics.contains(#"almanac_calls_total{tool="sports",via="openapi",status="ok"} 2"#))
    }

    @Test("400 for bad arguments, wrong JSON types and bad zones; 404 for an unknown tool")
    func badArguments() async throws {
        let directory = try TempDirectory()
        let api = try api(directory)
        let cases: [(String, String, Int, String)] = [
            ("sports", #"{"league": "nbaa"}"#, 400, "error: unknown league 'nbaa'; did you mean 'nba'?"),
            ("sports", #"{"leage": "nba"}"#, 400, "error: unknown argument 'leage' for sports; did you mean 'league'?"),
            ("sports", #"{"league": 5}"#, 400, "error: argument 'league' for sports must be a string"),
            ("sports", #"{"league": "nba", "tz": "Mars/Olympus"}"#, 400, "error: tz must be an IANA time zone name"),
            ("sports", #"["nba"]"#, 400, "error: the request body must be a JSON object of arguments"),
            (
                "weather", #"{"place": "Lisbon", "days": 2.5}"#, 400,
                "error: argument 'days' for weather must be an integer"
            ),
            ("nope", "{}", 404, "error: unknown tool 'nope'"),
            // Found by schemathesis: a whole number beyond Int's range once trapped the process.
            ("weather", #"{"place": "", "lat": 1, "lon": -1.3203698821298416e+119}"#, 400, "error: "),
            (
                "sports", #"{"league": "nba", "limit": 1e300}"#, 400,
                "error: argument 'limit' for sports must be an integer"
            ),
        ]
        for (tool, body, status, prefix) in cases {
            let answer = await api.call(tool, body: Array(body.utf8))
            #expect(answer.status == status, "\(body)")
            let line = try object(answer)["error"] as? String
            #expect(line?.hasPrefix(prefix) == true, "\(body): \(line ?? "-")")
            #expect(line?.contains("\n") == false)
        }
    }

    @Test("502 when every provider failed, one detail line per provider")
    func everyProviderFailed() async throws {
        let directory = try TempDirectory()
        let api = try api(directory, tools: [AlwaysFailing()])
        let answer = await api.call("failing", body: Array(#"{"place": "x"}"#.utf8))
        #expect(answer.status == 502)
        let body = try object(answer)
        #expect(body["error"] as? String == "error: failing: every provider failed")
        #expect(body["details"] as? [String] == ["one: HTTP 500 (7 ms)", "two: timed out (8000 ms)"])
        let metrics = String(decoding: api.metrics.text(), as: UTF8.self)
        #expect(
            metrics.contains(#"almanac_provider_attempts_total{tool="failing",provider="two",outcome="timeout"} 1"#))
    }

    @Test("the OpenAPI document: one operation per tool with its schema, tz, and documented answers")
    func document() throws {
        let directory = try TempDirectory()
        let api = try api(directory)
        let document = api.openAPI(version: "1.0", bearer: true)
        guard case .object(let root) = document, case .object(let paths)? = root["paths"] else {
            Issue.record("no paths")
            return
        }
        #expect(Set(paths.keys) == Set(api.runtime.registry.tools.map { "/tools/\($0.name)" }))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(document)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""securitySchemes":{"bearer":{"scheme":"bearer","type":"http"}}"#))
        for status in ["200", "400", "502"] { #expect(text.contains("\"\(status)\":{")) }
    }
}

/// A tool whose two providers always fail (one error, one timeout).
struct AlwaysFailing: Tool {
    var name: String { "failing" }
    var summary: String { "test tool that always fails" }
    var schema: ToolSchema { ToolSchema([ToolParameter("place", .string, help: "anything", placement: .remainder)]) }
    var providerDescriptors: [ProviderDescriptor] { [] }
    func providers(in context: ToolContext) -> [ProviderInfo] {
        [ProviderInfo(name: "one", priority: 0), ProviderInfo(name: "two", priority: 1)]
    }

    func run(_ arguments: ToolArguments, context: ToolContext) async throws -> ToolResult {
        throw AlmanacError.unavailable(
            tool: name,
            attempts: [
                ProviderAttempt(provider: "one", outcome: .failed, milliseconds: 7, detail: "HTTP 500"),
                ProviderAttempt(provider: "two", outcome: .timeout, milliseconds: 8000, detail: "timed out"),
            ])
    }

    @Test("a body reads as JSONDecoder reads it, by the byte parser or, for what it leaves, by JSONDecoder")
    func bodyReadsAsBefore() throws {
        let bodies = [
            #"{"league": "nba", "date": "2024-12-15", "n": [1, -0, 2.5e3], "o": {"k": null, "t": true}}"#,
            #" {"q": "caf\u00e9 \"quoted\" \\ \/ line\nbreak", "big": 12345678901234567890} "#,
            // Left to JSONDecoder: a surrogate pair, a repeated key.
            #"{"q": "\ud83d\ude00"}"#, #"{"a": 1, "a": 2}"#,
        ]
        for body in bodies {
            let decoded = try? JSONDecoder().decode(JSONValue.self, from: Data(body.utf8))
            guard case .object(let expected) = decoded else {
                #expect(throws: AlmanacError.self) { try ToolAPI.object(Array(body.utf8)) }
                continue
            }
            #expect(try ToolAPI.object(Array(body.utf8)) == expected, "\(body)")
        }
        #expect(throws: AlmanacError.self) { try ToolAPI.object(Array("[1]".utf8)) }
        #expect(throws: AlmanacError.self) { try ToolAPI.object([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]) }
    }
}
