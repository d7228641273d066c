import AlmanacTesting
import Foundation
import Testing

/// The trust boundary (docs/security.md) against the built `tools serve` and `tools mcp`, with a
/// loopback "attacker" server that records every request it gets: untrusted callers get answers,
/// never the machine. Each reproduction of issue #21's points 1-3 is one test.
@Suite("Trust boundary: tools serve and tools mcp", .serialized, .timeLimit(.minutes(5)))
struct TrustBoundaryTests {
    static let password = "hunter2-caldav-password"

    /// Live transport (only loopback servers exist here), the one-off CalDAV credentials set as an
    /// operator would.
    static func environment(_ directory: URL, extra: [String: String] = [:]) -> [String: String] {
        ToolsBinary.environment(
            cacheDirectory: directory,
            extra: [
                "ALMANAC_CALDAV_USER": "alice", "ALMANAC_CALDAV_PASSWORD": password, "ALMANAC_TIMEOUT": "5",
            ].merging(extra) { $1 })
    }

    /// The one-line error of a reply.
    func line(_ reply: HTTP.Reply) -> String? { reply.json?["error"] as? String }

    func post(_ server: ServeProcess, _ body: String) async throws -> HTTP.Reply {
        try await HTTP.post(server.baseURL + "/tools/calendar", body)
    }

    @Test("a caller cannot make the server send the CalDAV password, or anything, to a host it names")
    func caldavCredentials() async throws {
        let attacker = try AttackerServer()
        defer { attacker.stop() }
        let directory = try TempDirectory()
        let server = try ServeProcess(environment: Self.environment(directory.url))
        defer { server.stop() }
        let reply = try await post(server, #"{"caldav": "\#(attacker.baseURL)/x/"}"#)
        #expect(reply.status == 400)
        let line = try #require(reply.json?["error"] as? String)
        #expect(line.contains("argument 'caldav' is not available to callers"))
        #expect(!line.contains("\n"))
        // Allowing some other prefix does not allow this one.
        let allowing = try ServeProcess(
            environment: Self.environment(directory.url, extra: ["ALMANAC_ALLOW_URLS": "https://calendar.example.com/"])
        )
        defer { allowing.stop() }
        let refused = try await post(allowing, #"{"caldav": "\#(attacker.baseURL)/x/"}"#)
        #expect(refused.status == 400)
        #expect((refused.json?["error"] as? String)?.contains("not one the operator allowed") == true)
        #expect(attacker.requests().isEmpty, "the attacker was reached: \(attacker.requests())")
    }

    @Test("an allowed URL is reached, but never with the one-off CalDAV credentials")
    func allowedWithoutCredentials() async throws {
        let attacker = try AttackerServer()
        defer { attacker.stop() }
        let directory = try TempDirectory()
        let server = try ServeProcess(
            environment: Self.environment(directory.url, extra: ["ALMANAC_ALLOW_URLS": attacker.baseURL + "/dav/"]))
        defer { server.stop() }
        let reply = try await post(server, #"{"caldav": "\#(attacker.baseURL)/dav/me/"}"#)
        #expect(reply.status == 502)
        let requests = attacker.requests()
        #expect(!requests.isEmpty)
        #expect(requests.allSatisfy { $0.authorization == nil }, "a credential went out: \(requests)")
    }

    @Test("callers cannot read local files or folders, or tell an existing path from a missing one")
    func localFiles() async throws {
        let directory = try TempDirectory()
        let server = try ServeProcess(environment: Self.environment(directory.url))
        defer { server.stop() }
        let started = Date()
        let root = try await post(server, #"{"ics": "/"}"#)
        #expect(root.status == 400)
        #expect(Date().timeIntervalSince(started) < 10)  // refused, not a walk of the filesystem
        let shadow = try await post(server, #"{"ics": "/etc/shadow"}"#)
        let missing = try await post(server, #"{"ics": "/no/such/file.ics"}"#)
        let fixtures = try await post(server, #"{"ics": "\#(ServePeers.root.path)/Fixtures/calendar"}"#)
        #expect(shadow.status == 400)
        #expect(line(shadow) != nil)
        #expect(line(shadow) == line(missing))
        #expect(line(shadow) == line(fixtures))
        let file = try await post(server, #"{"ics": "file:///etc/passwd"}"#)
        #expect(file.status == 400)
        #expect(!file.body.contains(FileManager.default.currentDirectoryPath))
        #expect(!file.body.contains(ServePeers.root.path))
    }

    @Test("callers cannot make the server request internal addresses, nor scan ports by its errors")
    func internalAddresses() async throws {
        let attacker = try AttackerServer()
        defer { attacker.stop() }
        let gone = try AttackerServer()
        let closed = gone.port
        gone.stop()
        let directory = try TempDirectory()
        let server = try ServeProcess(environment: Self.environment(directory.url))
        defer { server.stop() }
        let open = try await post(server, #"{"ics": "\#(attacker.baseURL)/internal/admin?x=1"}"#)
        let shut = try await post(server, #"{"ics": "http://127.0.0.1:\#(closed)/internal/admin?x=1"}"#)
        let webcal = try await post(server, #"{"ics": "webcal://localhost:\#(attacker.port)/x.ics"}"#)
        let metadata = try await post(server, #"{"ics": "http://169.254.169.254/latest/meta-data/"}"#)
        for reply in [open, shut, webcal, metadata] { #expect(reply.status == 400) }
        #expect(line(open) != nil)
        #expect(line(open) == line(shut))
        #expect(attacker.requests().isEmpty)
    }

    @Test("hosts a configured server names (CalDAV discovery) are vetted: an internal one is never reached")
    func discoveredHosts() async throws {
        let attacker = try AttackerServer()
        defer { attacker.stop() }
        // The configured server (a loopback origin the operator chose) points discovery at the attacker.
        let dav = try AttackerServer(mode: "href", target: attacker.baseURL + "/steal/")
        defer { dav.stop() }
        let directory = try TempDirectory()
        let config = directory.url.appendingPathComponent("config/almanac")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let file = config.appendingPathComponent("config.toml")
        try """
        [calendars.home]
        caldav = "\(dav.baseURL)/dav/"
        username = "alice"
        password = "\(Self.password)"
        """.write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        let environment = Self.environment(
            directory.url, extra: ["XDG_CONFIG_HOME": directory.url.appendingPathComponent("config").path])

        let server = try ServeProcess(environment: environment)
        defer { server.stop() }
        let reply = try await post(server, #"{"calendar": "home"}"#)
        #expect(reply.status == 502)
        #expect(reply.body.contains("could not be reached"))
        #expect(!dav.requests().isEmpty)
        #expect(attacker.requests().isEmpty, "an untrusted call reached a discovered internal host")

        // The operator at the command line reaches it, but the password stays with its own origin.
        _ = try await ToolsBinary.run(["run", "calendar", "--calendar", "home"], environment: environment)
        #expect(!attacker.requests().isEmpty)
        #expect(attacker.requests().allSatisfy { $0.authorization == nil }, "the password followed an href")
        #expect(dav.requests().allSatisfy { $0.authorization == nil }, "the password went out unasked")
    }

    @Test("the published schemas carry no path or URL argument, unless the operator allows URLs")
    func publishedSchemas() async throws {
        let directory = try TempDirectory()
        func calendarProperties(
            _ environment: [String: String]
        ) async throws -> (openapi: Set<String>, schema: Set<String>) {
            let server = try ServeProcess(environment: environment)
            defer { server.stop() }
            let document = try await #require(try HTTP.get(server.baseURL + "/openapi.json").json)
            let post =
                ((document["paths"] as? [String: Any])?["/tools/calendar"] as? [String: Any])?["post"] as? [String: Any]
            let content = (post?["requestBody"] as? [String: Any])?["content"] as? [String: Any]
            let schema = (content?["application/json"] as? [String: Any])?["schema"] as? [String: Any]
            let openapi = Set((schema?["properties"] as? [String: Any] ?? [:]).keys)
            let printed = try await ToolsBinary.run(["schema"], environment: environment)
            let functions = try JSONSerialization.jsonObject(with: Data(printed.stdout.utf8)) as? [[String: Any]] ?? []
            let calendar = functions.compactMap { $0["function"] as? [String: Any] }.first {
                $0["name"] as? String == "calendar"
            }
            let parameters = (calendar?["parameters"] as? [String: Any])?["properties"] as? [String: Any] ?? [:]
            return (openapi, Set(parameters.keys))
        }
        let strict = try await calendarProperties(Self.environment(directory.url))
        #expect(strict.openapi.contains("calendar"))
        #expect(!strict.openapi.contains("ics") && !strict.openapi.contains("caldav"))
        #expect(!strict.schema.contains("ics") && !strict.schema.contains("caldav"))
        let allowing = try await calendarProperties(
            Self.environment(directory.url, extra: ["ALMANAC_ALLOW_URLS": "https://calendar.example.com/"]))
        #expect(allowing.openapi.contains("ics") && allowing.openapi.contains("caldav"))
    }

    @Test("tools mcp: the same boundary on stdio (no ics or caldav in tools/list, a call naming one refused)")
    func mcpStdio() async throws {
        let attacker = try AttackerServer()
        defer { attacker.stop() }
        let directory = try TempDirectory()
        let input =
            [
                #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}"#,
                #"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}"#,
                #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"calendar","arguments":{"caldav":"\#(attacker.baseURL)/x/"}}}"#,
                #"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"calendar","arguments":{"ics":"/etc/passwd"}}}"#,
            ].joined(separator: "\n") + "\n"
        let output = try await Command.run(
            ToolsBinary.url, ["mcp"], environment: Self.environment(directory.url), stdin: Data(input.utf8), timeout: 60
        )
        var replies: [Int: [String: Any]] = [:]
        for line in output.stdout.split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            if let id = object?["id"] as? Int { replies[id] = object?["result"] as? [String: Any] }
        }
        let tools = replies[2]?["tools"] as? [[String: Any]] ?? []
        let calendar = try #require(tools.first { $0["name"] as? String == "calendar" })
        let properties = ((calendar["inputSchema"] as? [String: Any])?["properties"] as? [String: Any]) ?? [:]
        #expect(properties["calendar"] != nil)
        #expect(properties["ics"] == nil && properties["caldav"] == nil)
        for id in [3, 4] {
            #expect(replies[id]?["isError"] as? Bool == true)
            let text = ((replies[id]?["content"] as? [[String: Any]])?.first?["text"] as? String) ?? ""
            #expect(text.contains("is not available to callers"), "\(text)")
        }
        #expect(attacker.requests().isEmpty)
        #expect(!output.stdout.contains(Self.password) && !output.stderr.contains(Self.password))
    }
}
