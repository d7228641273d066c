import AlmanacCore
import AlmanacRuntime
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacServe

/// The operator's switch that keeps a tool from untrusted callers (`[serve] tools`, `deny_tools`,
/// `ALMANAC_SERVE_TOOLS`, `ALMANAC_SERVE_DENY_TOOLS`; docs/security.md): absent from every
/// published list, refused in one line through serve, still there on the command line.
@Suite("Tools switched off for untrusted callers")
struct ToolSwitchTests {
    /// The ACLU page, recorded in Fixtures/read/site (replayed, no network).
    static let page =
        "https://www.aclu.org/blog/privacy-technology/internet-privacy/facebook-tracking-me-even-though-im-not-facebook"

    func runtime(_ directory: TempDirectory, _ extra: [String: String]) throws -> Runtime {
        // A generous attempt deadline: on a loaded machine the debug extractor ran past the default
        // 8 s and the archive answered instead of the site, which is not what these tests are about.
        try Runtime.make(
            environment: ServePeers.replayEnvironment(
                directory.url, extra: extra.merging(["ALMANAC_TIMEOUT": "60"]) { a, _ in a }))
    }

    func api(_ runtime: Runtime) -> ToolAPI {
        ToolAPI(runtime: runtime, budget: nil, metrics: ServeMetrics(tools: runtime.publishedTools.map(\.name)))
    }

    func object(_ answer: ToolAPI.Answer) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
    }

    @Test("deny_tools: not published; /tools/read is 403 in one line, counted as a refusal; the CLI still reads")
    func denied() async throws {
        let directory = try TempDirectory()
        let runtime = try runtime(directory, ["ALMANAC_SERVE_DENY_TOOLS": "read"])
        #expect(runtime.publishedTools.map(\.name) == ["sports", "weather", "calendar", "search", "news", "brief"])
        #expect(runtime.registry.tool(named: "read") != nil)
        let api = api(runtime)
        guard case .object(let root) = api.openAPI(version: "1", bearer: false),
            case .object(let paths)? = root["paths"]
        else {
            Issue.record("no paths")
            return
        }
        #expect(
            Set(paths.keys) == [
                "/tools/sports", "/tools/weather", "/tools/calendar", "/tools/search", "/tools/news", "/tools/brief",
            ])

        let answer = await api.call("READ", body: Array(#"{"url": "\#(Self.page)"}"#.utf8))
        #expect(answer.status == 403)
        let line = try #require(try object(answer)["error"] as? String)
        let refusal = "error: tool 'read' is switched off for callers of tools serve, mcp or a model"
        #expect(line.hasPrefix(refusal), "\(line)")
        #expect(line.contains("tools: sports, weather, calendar, search"))
        #expect(!line.contains("\n"))
        let metrics = String(decoding: api.metrics.text(), as: UTF8.self)
        #expect(metrics.contains(#"almanac_http_refused_total{reason="tool_off"} 1"#), "\(metrics)")
        #expect(!metrics.contains(#"tool="read""#) && !metrics.contains(#"tool="unknown""#), "\(metrics)")

        // An unknown tool still reads 404, naming only the published tools.
        let unknown = await api.call("nope", body: Array("{}".utf8))
        #expect(unknown.status == 404)
        #expect(
            try object(unknown)["details"] as? [String] == ["tools: sports, weather, calendar, search, news, brief"])

        // JSON arguments are refused before the tool runs; CLI words still run it.
        await #expect(throws: AlmanacError.self) {
            _ = try await runtime.run(tool: "read", json: ["url": .string(Self.page)])
        }
        let read = try await runtime.run(tool: "read", words: [Self.page])
        #expect(read.metadata.provider == "site")
    }

    @Test("tools: an allow-list publishes those tools only, in the registry's order; deny_tools takes from it")
    func allowed() throws {
        let directory = try TempDirectory()
        let allowed = try runtime(directory, ["ALMANAC_SERVE_TOOLS": "weather,sports"])
        #expect(allowed.publishedTools.map(\.name) == ["sports", "weather"])
        let both = try runtime(
            directory, ["ALMANAC_SERVE_TOOLS": "weather sports", "ALMANAC_SERVE_DENY_TOOLS": "sports"])
        #expect(both.publishedTools.map(\.name) == ["weather"])
        #expect(try runtime(directory, [:]).publishedTools.count == 7)
    }

    @Test("config.toml's [serve] tools and deny_tools, the variables winning over them")
    func config() throws {
        let directory = try TempDirectory()
        let file = directory.url.appendingPathComponent("config.toml")
        try """
        [serve]
        tools = ["sports", "read", "search"]
        deny_tools = ["read"]
        """.write(to: file, atomically: true, encoding: .utf8)
        let fromFile = try runtime(directory, ["ALMANAC_CONFIG": file.path])
        #expect(fromFile.publishedTools.map(\.name) == ["sports", "search"])
        let overridden = try runtime(directory, ["ALMANAC_CONFIG": file.path, "ALMANAC_SERVE_DENY_TOOLS": "search"])
        #expect(overridden.publishedTools.map(\.name) == ["sports", "read"])
        try "[serve]\ntools = []\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(try runtime(directory, ["ALMANAC_CONFIG": file.path]).publishedTools.isEmpty)
    }

    @Test("a misspelt or mistyped tool name is a one-line usage error, not a silently open tool")
    func badNames() throws {
        let directory = try TempDirectory()
        let cases: [([String: String], String)] = [
            (["ALMANAC_SERVE_DENY_TOOLS": "raed"], "ALMANAC_SERVE_DENY_TOOLS: unknown tool 'raed'"),
            (["ALMANAC_SERVE_TOOLS": "sports,wether"], "ALMANAC_SERVE_TOOLS: unknown tool 'wether'"),
        ]
        for (environment, message) in cases {
            #expect {
                _ = try runtime(directory, environment)
            } throws: { error in
                guard let error = error as? AlmanacError else { return false }
                return error.kind == .usage && error.message == message
                    && error.suggestion == "tools: sports, weather, calendar, search, read, news, brief"
            }
        }
        let file = directory.url.appendingPathComponent("config.toml")
        try "[serve]\ndeny_tools = [5]\n".write(to: file, atomically: true, encoding: .utf8)
        #expect {
            _ = try runtime(directory, ["ALMANAC_CONFIG": file.path])
        } throws: { error in
            // Strings only: a number is not read as the name "5".
            (error as? AlmanacError)?.message == "[serve] deny_tools must be a list of strings"
        }
    }
}

/// The same switch against the built `tools serve` and `tools`: what a caller over HTTP and MCP
/// sees, what /metrics counts, and the operator's command line.
@Suite("Tools switched off: end to end", .serialized, .timeLimit(.minutes(3)))
struct ToolSwitchEndToEndTests {
    static let accept = ["Content-Type: application/json", "Accept: application/json, text/event-stream"]

    @Test("serve without read: not in /openapi.json or tools/list, refused over both and counted; tools run read works")
    func serveWithoutRead() async throws {
        let directory = try TempDirectory()
        let environment = ServePeers.replayEnvironment(directory.url, extra: ["ALMANAC_SERVE_DENY_TOOLS": "read"])
        let server = try ServeProcess(environment: environment)
        defer { server.stop() }

        let document = try await HTTP.get("\(server.baseURL)/openapi.json")
        #expect(document.status == 200)
        #expect(document.body.contains(#""/tools/sports""#) && !document.body.contains(#""/tools/read""#))

        let refused = try await HTTP.post("\(server.baseURL)/tools/read", #"{"url": "\#(ToolSwitchTests.page)"}"#)
        #expect(refused.status == 403, "\(refused.body)")
        let line = try #require(refused.json?["error"] as? String)
        #expect(line.hasPrefix("error: tool 'read' is switched off"), "\(line)")
        #expect(!line.contains("\n"))

        let opened = try await HTTP.headers(
            ["-X", "POST", "--data-binary", ServeHardeningTests.initialize] + Self.accept.flatMap { ["-H", $0] }
                + ["\(server.baseURL)/mcp"])
        let session = try #require(opened.headers["mcp-session-id"])
        let inSession = Self.accept + ["Mcp-Session-Id: \(session)", "Mcp-Protocol-Version: 2025-03-26"]
        _ = try await HTTP.post(
            "\(server.baseURL)/mcp", #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, headers: inSession)
        let list = try await HTTP.post(
            "\(server.baseURL)/mcp", #"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#, headers: inSession)
        #expect(list.body.contains(#""name":"sports""#) && !list.body.contains(#""name":"read""#), "\(list.body)")
        let call = try await HTTP.post(
            "\(server.baseURL)/mcp",
            #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read","arguments":{"url":"https://x.y"}}}"#,
            headers: inSession)
        #expect(call.body.contains(#""isError":true"#) && call.body.contains("is switched off"), "\(call.body)")

        let metrics = try await HTTP.get("\(server.baseURL)/metrics").body
        #expect(metrics.contains(#"almanac_http_refused_total{reason="tool_off"} 2"#), "\(metrics)")
        #expect(!metrics.contains(#"tool="read""#), "\(metrics)")

        // The operator, same settings, on the command line: read works, and `tools schema` omits it.
        let read = try await ToolsBinary.run(["run", "read", ToolSwitchTests.page], environment: environment)
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.contains("Facebook Is Tracking Me"))
        let schema = try await ToolsBinary.run(["schema"], environment: environment)
        #expect(schema.stdout.contains(#""name" : "sports""#) && !schema.stdout.contains(#""name" : "read""#))
    }
}
