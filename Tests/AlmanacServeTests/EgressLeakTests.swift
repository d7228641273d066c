import AlmanacTesting
import Foundation
import Testing

/// Issue #31's leaks in the egress layer, against the built `tools serve`, `tools mcp` and `tools run`
/// with a loopback "pages" server that records every request (scripts/attacker-server.py): the
/// cache across trust levels (1), dot segments past an allowed prefix (2), a switched-off tool
/// reached through another (3), the archive's base path (4), a configured file's path in errors
/// and robots.txt under a path-scoped prefix (9).
@Suite("Egress leaks of issue #31: tools serve, tools mcp, tools run", .serialized, .timeLimit(.minutes(5)))
struct EgressLeakTests {
    /// Live transport (only loopback servers exist here), the Internet Archive at a closed port.
    static func environment(_ directory: URL, extra: [String: String] = [:]) -> [String: String] {
        let closed = "http://127.0.0.1:9"
        return ToolsBinary.environment(
            cacheDirectory: directory,
            extra: ["ALMANAC_TIMEOUT": "10", "ALMANAC_ARCHIVE_URL": closed, "ALMANAC_WAYBACK_URL": closed].merging(
                extra
            ) { $1 })
    }

    /// The replies of `tools mcp` to `calls` (after initialize), by id.
    static func mcp(_ calls: [String], environment: [String: String]) async throws -> [Int: [String: Any]] {
        let input =
            ([
                #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}"#
            ] + calls).joined(separator: "\n") + "\n"
        let output = try await Command.run(
            ToolsBinary.url, ["mcp"], environment: environment, stdin: Data(input.utf8), timeout: 90)
        var replies: [Int: [String: Any]] = [:]
        for line in output.stdout.split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            if let id = object?["id"] as? Int { replies[id] = object?["result"] as? [String: Any] }
        }
        return replies
    }

    static func text(_ reply: [String: Any]?) -> String {
        ((reply?["content"] as? [[String: Any]])?.first?["text"] as? String) ?? ""
    }

    @Test("1: a page the operator read is never answered to a caller from the cache, fresh or stale")
    func cacheAcrossTrust() async throws {
        let site = try AttackerServer(mode: "pages")
        defer { site.stop() }
        let directory = try TempDirectory()
        let environment = Self.environment(directory.url)
        let url = site.baseURL + "/secret"
        let operatorRun = try await ToolsBinary.run(["run", "read", url], environment: environment)
        #expect(operatorRun.status == 0, "\(operatorRun.stderr)")
        #expect(operatorRun.stdout.contains("page-secret /secret"))

        let server = try ServeProcess(environment: environment)
        defer { server.stop() }
        let fresh = try await HTTP.post(server.baseURL + "/tools/read", #"{"url": "\#(url)"}"#)
        #expect(fresh.status == 502, "\(fresh.body)")
        #expect(!fresh.body.contains("page-secret"), "\(fresh.body)")
        #expect(fresh.body.contains("could not be reached"))
        let before = site.requests().count
        // Upstream down: no stale copy either.
        site.stop()
        let stale = try await HTTP.post(server.baseURL + "/tools/read", #"{"url": "\#(url)", "links": false}"#)
        #expect(stale.status == 502, "\(stale.body)")
        #expect(!stale.body.contains("page-secret") && !stale.body.lowercased().contains("stale"), "\(stale.body)")
        #expect(before == 2, "robots.txt and the page, by the operator only")

        let replies = try await Self.mcp(
            [#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read","arguments":{"url":"\#(url)"}}}"#],
            environment: environment)
        #expect(replies[2]?["isError"] as? Bool == true)
        #expect(!Self.text(replies[2]).contains("page-secret"), "\(Self.text(replies[2]))")
        // The operator still has the page: the cache is theirs.
        let again = try await ToolsBinary.run(["run", "read", url], environment: environment)
        #expect(again.stdout.contains("page-secret /secret"), "\(again.stderr)")
    }

    @Test("2: dot segments, escaped or not, through ics, webcal, caldav or a redirect, never leave the allowed prefix")
    func dotSegments() async throws {
        let site = try AttackerServer(mode: "pages")
        defer { site.stop() }
        let bouncer = try AttackerServer(mode: "redirect", target: site.baseURL + "/feeds/../private/secret.ics")
        defer { bouncer.stop() }
        let directory = try TempDirectory()
        let environment = Self.environment(
            directory.url,
            extra: [
                "ALMANAC_ALLOW_URLS": "\(site.baseURL)/feeds/ \(bouncer.baseURL)/feeds/",
                "ALMANAC_NOW": "2024-12-15T12:00:00Z",
            ])
        let server = try ServeProcess(environment: environment)
        defer { server.stop() }
        let escapes = [
            #"{"ics": "\#(site.baseURL)/feeds/../private/secret.ics"}"#,
            #"{"ics": "\#(site.baseURL)/feeds/%2e%2e/private/secret.ics"}"#,
            #"{"ics": "\#(site.baseURL)/feeds/..%2fprivate/secret.ics"}"#,
            #"{"ics": "\#(site.baseURL)/feeds/..;/private/secret.ics"}"#,
            #"{"ics": "webcal://127.0.0.1:\#(site.port)/feeds/../private/secret.ics"}"#,
            #"{"caldav": "\#(site.baseURL)/feeds/%2E%2E/private/"}"#,
        ]
        var lines = Set<String>()
        for body in escapes {
            let reply = try await HTTP.post(server.baseURL + "/tools/calendar", body)
            #expect(reply.status == 400, "\(body): \(reply.body)")
            let line = (reply.json?["error"] as? String) ?? ""
            lines.insert(
                line.replacingOccurrences(of: "'caldav'", with: "'ics'").replacingOccurrences(
                    of: "caldav:", with: "ics:"))
        }
        #expect(lines.count == 1, "\(lines)")
        // A redirect from an allowed feed to ../private is a hop outside the prefix: vetted, refused.
        let bounced = try await HTTP.post(
            server.baseURL + "/tools/calendar", #"{"ics": "\#(bouncer.baseURL)/feeds/a.ics"}"#)
        #expect(bounced.status == 502, "\(bounced.body)")
        #expect(!bounced.body.contains("page-secret"))
        // Inside the prefix works, and is fetched as checked.
        let inside = try await HTTP.post(
            server.baseURL + "/tools/calendar", #"{"ics": "\#(site.baseURL)/feeds/sub/../%7Eteam.ics"}"#)
        #expect(inside.status == 200, "\(inside.body)")
        let paths = site.requests().map(\.path)
        #expect(paths == ["/feeds/~team.ics"], "\(paths)")
        #expect(bouncer.requests().map(\.path) == ["/feeds/a.ics"])
    }

    @Test("3: with read switched off, search's read is not published and refused, over serve and MCP")
    func searchWithoutRead() async throws {
        let directory = try TempDirectory()
        let environment = ServePeers.replayEnvironment(
            directory.url, extra: ["ALMANAC_SERVE_DENY_TOOLS": "read", "BRAVE_API_KEY": "replayed"])
        let server = try ServeProcess(environment: environment)
        defer { server.stop() }
        let document = try await HTTP.get(server.baseURL + "/openapi.json")
        let json = try #require(document.json)
        let paths = try #require(json["paths"] as? [String: Any])
        let search = ((paths["/tools/search"] as? [String: Any])?["post"] as? [String: Any])?["requestBody"]
        let schema =
            (((search as? [String: Any])?["content"] as? [String: Any])?["application/json"] as? [String: Any])?[
                "schema"] as? [String: Any]
        let properties = try #require(schema?["properties"] as? [String: Any])
        #expect(properties["query"] != nil && properties["read"] == nil, "\(properties.keys)")

        let reply = try await HTTP.post(server.baseURL + "/tools/search", #"{"query": "hello world", "read": 1}"#)
        #expect(reply.status == 400, "\(reply.body)")
        let line = (reply.json?["error"] as? String) ?? ""
        #expect(line.contains("argument 'read' is not available") && line.contains("switched off"), "\(line)")
        // Search itself still answers.
        let plain = try await HTTP.post(server.baseURL + "/tools/search", #"{"query": "hello world"}"#)
        #expect(plain.status == 200, "\(plain.body)")

        let replies = try await Self.mcp(
            [
                #"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}"#,
                #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search","arguments":{"query":"hello world","read":1}}}"#,
            ], environment: environment)
        let tools = replies[2]?["tools"] as? [[String: Any]] ?? []
        let listed = try #require(tools.first { $0["name"] as? String == "search" })
        let inputs = ((listed["inputSchema"] as? [String: Any])?["properties"] as? [String: Any]) ?? [:]
        #expect(inputs["query"] != nil && inputs["read"] == nil)
        #expect(replies[3]?["isError"] as? Bool == true)
        #expect(Self.text(replies[3]).contains("argument 'read' is not available"), "\(Self.text(replies[3]))")
    }

    @Test("4: a page URL cannot move the archive request off the Wayback base path")
    func archiveBasePath() async throws {
        let archive = try AttackerServer(mode: "pages")
        defer { archive.stop() }
        let directory = try TempDirectory()
        let environment = Self.environment(
            directory.url,
            extra: [
                "ALMANAC_ARCHIVE_URL": archive.baseURL, "ALMANAC_WAYBACK_URL": archive.baseURL + "/wayback-base",
                // example.org as a public address, so the caller's policy admits the page URL offline.
                "ALMANAC_RESOLVE": "example.org=93.184.216.34",
            ])
        let server = try ServeProcess(environment: environment)
        defer { server.stop() }
        let reply = try await HTTP.post(
            server.baseURL + "/tools/read",
            #"{"url": "https://example.org/../../../../secret-admin", "archive": true}"#)
        #expect(reply.status == 200, "\(reply.body)")
        // Dot segments enough to climb out of /wayback-base/web/... altogether.
        let deeper = try await HTTP.post(
            server.baseURL + "/tools/read",
            #"{"url": "https://example.org/../../../../../../../../secret-admin", "archive": true, "links": true}"#)
        #expect(deeper.status == 200, "\(deeper.body)")
        let paths = archive.requests().map(\.path)
        #expect(!paths.contains("/secret-admin"), "\(paths)")
        #expect(
            paths.allSatisfy { $0.hasPrefix("/wayback/available?") || $0.hasPrefix("/wayback-base/web/") }, "\(paths)")
        #expect(paths.contains("/wayback-base/web/20130919044612id_/https://example.org/secret-admin"), "\(paths)")
    }

    @Test("9: a configured file's path never reaches a caller; the calendar's name does")
    func configuredPath() async throws {
        let directory = try TempDirectory()
        let hidden = directory.url.appendingPathComponent("private-folder-4711/work.ics").path
        let config = directory.url.appendingPathComponent("config/almanac")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "[calendars.work]\nics = \"\(hidden)\"\n".write(
            to: config.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        let environment = Self.environment(
            directory.url, extra: ["XDG_CONFIG_HOME": directory.url.appendingPathComponent("config").path])
        let server = try ServeProcess(environment: environment)
        defer { server.stop() }
        let reply = try await HTTP.post(server.baseURL + "/tools/calendar", #"{"calendar": "work"}"#)
        #expect(reply.status != 200)
        #expect(!reply.body.contains("private-folder-4711"), "\(reply.body)")
        #expect(reply.body.contains("work"), "\(reply.body)")
        // The operator is told where the file should be.
        let operatorRun = try await ToolsBinary.run(
            ["run", "calendar", "--calendar", "work"], environment: environment)
        #expect(operatorRun.stderr.contains("private-folder-4711"), "\(operatorRun.stderr)")
    }

    @Test("9: a page under a path-scoped prefix is read, obeying its origin's robots.txt, and nothing else outside")
    func robotsUnderPrefix() async throws {
        let site = try AttackerServer(mode: "pages")
        defer { site.stop() }
        let directory = try TempDirectory()
        let environment = Self.environment(directory.url, extra: ["ALMANAC_ALLOW_URLS": site.baseURL + "/docs/"])
        let server = try ServeProcess(environment: environment)
        defer { server.stop() }
        let reply = try await HTTP.post(server.baseURL + "/tools/read", #"{"url": "\#(site.baseURL)/docs/page"}"#)
        #expect(reply.status == 200, "\(reply.body)")
        #expect(reply.body.contains("page-secret /docs/page"))
        let outside = try await HTTP.post(server.baseURL + "/tools/read", #"{"url": "\#(site.baseURL)/private/page"}"#)
        #expect(outside.status == 502, "\(outside.body)")
        #expect(site.requests().map(\.path) == ["/robots.txt", "/docs/page"], "\(site.requests().map(\.path))")
    }
}
