import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacServe

/// `tools serve` against the second probe of its boundary (issue 31, points 7 and 9): forged SSE
/// events through a JSON-RPC id, sessions used by another client, a few addresses filling every
/// session, and Host and Origin values that only look like loopback. Each test runs the built
/// server on 127.0.0.1 (other loopback addresses are other clients).
@Suite("tools serve: second probe of the boundary", .serialized)
struct ServeProbeTests {
    static let accept = ServeHardeningTests.accept

    func server(_ directory: TempDirectory, _ extra: [String: String] = [:]) throws -> ServeProcess {
        try ServeProcess(environment: ServePeers.replayEnvironment(directory.url, extra: extra))
    }

    /// One MCP POST inside session `id`, from `source` (nil: 127.0.0.1).
    func post(
        _ server: ServeProcess, _ body: String, session id: String?, from source: String? = nil
    ) async throws -> HTTP.Reply {
        let interface = source.map { ["--interface", $0] } ?? []
        let session = id.map { ["-H", "Mcp-Session-Id: \($0)", "-H", "Mcp-Protocol-Version: 2025-03-26"] } ?? []
        return try await HTTP.curl(
            interface + ["-X", "POST", "--data-binary", body] + Self.accept.flatMap { ["-H", $0] } + session
                + ["\(server.baseURL)/mcp"])
    }

    func ping(_ server: ServeProcess, session id: String, from source: String? = nil) async throws -> Int {
        try await post(server, #"{"jsonrpc":"2.0","id":2,"method":"ping"}"#, session: id, from: source).status
    }

    func open(_ server: ServeProcess, from source: String? = nil) async throws -> (id: String?, status: Int) {
        try await ServeHardeningTests().openSession(server, from: source)
    }

    @Test("a JSON-RPC id holding CR/LF is refused (400, -32600): it never reaches an SSE id: line")
    func sseIDInjection() async throws {
        let directory = try TempDirectory()
        let server = try server(directory)
        defer { server.stop() }
        let session = try await #require(try open(server).id)
        // JSON escapes: the id's value holds a real CR LF, then a forged event.
        let forged = #"{"jsonrpc":"2.0","id":"7\r\nevent: forged\r\ndata: {\"forged\":true}\r\n","method":"ping"}"#
        let reply = try await post(server, forged, session: session)
        #expect(reply.status == 400, "\(reply.body)")
        #expect(!reply.body.contains("event: forged") && !reply.body.contains("\r"), "\(reply.body)")
        #expect(reply.json.flatMap { $0["error"] as? [String: Any] }?["code"] as? Int == -32600)
        // Also when the id opens a session, and with a NUL; a plain id still answers.
        let initialize = ServeHardeningTests.initialize.replacingOccurrences(of: #""id":1"#, with: #""id":"a\nb""#)
        await #expect(try post(server, initialize, session: nil).status == 400)
        await #expect(
            try post(server, #"{"jsonrpc":"2.0","id":"a\u0000b","method":"ping"}"#, session: session).status == 400)
        let plain = try await post(server, #"{"jsonrpc":"2.0","id":"plain-9","method":"ping"}"#, session: session)
        #expect(plain.status == 200 && plain.body.contains(#""id":"plain-9""#), "\(plain.body)")
    }

    @Test("a session is its opener's: another address gets 404 for it, cannot close it, and the opener keeps it")
    func sessionBoundToAddress() async throws {
        let directory = try TempDirectory()
        let server = try server(directory)
        defer { server.stop() }
        let session = try await #require(try open(server, from: "127.0.0.1").id)
        await #expect(try ping(server, session: session, from: "127.0.0.2") == 404)
        let delete = try await HTTP.curl(
            [
                "--interface", "127.0.0.2", "-X", "DELETE", "-H", "Mcp-Session-Id: \(session)", "-H",
                "Mcp-Protocol-Version: 2025-03-26", "\(server.baseURL)/mcp",
            ])
        #expect(delete.status == 404)
        await #expect(try ping(server, session: session, from: "127.0.0.1") == 200)
    }

    @Test("a few addresses at their cap cannot fill the server: a newcomer takes the largest holder's oldest session")
    func fairShareOfSessions() async throws {
        let directory = try TempDirectory()
        let server = try server(
            directory, ["ALMANAC_SERVE_MAX_SESSIONS": "4", "ALMANAC_SERVE_MAX_SESSIONS_PER_CLIENT": "2"])
        defer { server.stop() }
        var held: [String: [String]] = [:]
        for source in ["127.0.0.2", "127.0.0.3"] {
            for _ in 0..<2 { await held[source, default: []].append(try #require(try open(server, from: source).id)) }
        }
        // The server is full (4), every holder at its cap (2): a newcomer is still let in.
        await #expect(try open(server, from: "127.0.0.4").status == 200)
        // It took the least recently used session of a largest holder: 127.0.0.2's first.
        let first = try #require(held["127.0.0.2"]?.first)
        let second = try #require(held["127.0.0.2"]?.last)
        await #expect(try ping(server, session: first, from: "127.0.0.2") == 404)
        await #expect(try ping(server, session: second, from: "127.0.0.2") == 200)
        // 127.0.0.2 now holds 1 against 127.0.0.3's 2: no client is two ahead of it, so it waits.
        await #expect(try open(server, from: "127.0.0.2").status == 503)
    }

    @Test("initializes sent at once from one address never pass its cap")
    func concurrentInitializes() async throws {
        let directory = try TempDirectory()
        let server = try server(directory, ["ALMANAC_SERVE_MAX_SESSIONS_PER_CLIENT": "2"])
        defer { server.stop() }
        let replies = try await HTTP.postAtOnce(
            "\(server.baseURL)/mcp", Array(repeating: ServeHardeningTests.initialize, count: 10),
            headers: ["Accept: application/json, text/event-stream"])
        #expect(replies.filter { $0.status == 200 }.count == 2, "\(replies.map(\.status))")
        #expect(replies.filter { $0.status == 503 }.count == 8)
    }

    @Test("Host must be a loopback name and at most a port: [::1]evil.com and localhost@evil.com are refused")
    func strictHost() throws {
        let directory = try TempDirectory()
        let server = try server(directory)
        defer { server.stop() }
        func status(_ host: String) throws -> Int? {
            let connection = try RawConnection(port: server.port)
            connection.send("GET /healthz HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
            return RawConnection.status(connection.readUntilClosed(timeout: 3).text)
        }
        for host in ["[::1]evil.com", "[::1]evil.com:\(server.port)", "localhost@evil.com", "127.0.0.1:80x", "::1"] {
            #expect(try status(host) == 403, "\(host)")
        }
        for host in ["[::1]:\(server.port)", "[::1]", "127.0.0.1:\(server.port)", "localhost"] {
            #expect(try status(host) == 200, "\(host)")
        }
    }

    @Test("Origin is read as scheme://host[:port] only: http://evil.com\\@127.0.0.1 is not a loopback page")
    func strictOrigin() async throws {
        let directory = try TempDirectory()
        let server = try server(directory)
        defer { server.stop() }
        func status(_ origin: String) async throws -> Int {
            try await HTTP.get("\(server.baseURL)/healthz", headers: ["Origin: \(origin)"]).status
        }
        for origin in [#"http://evil.com\@127.0.0.1"#, "http://evil.com@127.0.0.1", "http://127.0.0.1.evil.com"] {
            await #expect(try status(origin) == 403, "\(origin)")
        }
        for origin in ["http://127.0.0.1:8080", "http://localhost:3000", "http://[::1]:8080", "https://LOCALHOST"] {
            await #expect(try status(origin) == 200, "\(origin)")
        }
    }

    @Test("session caps count an IPv6 client by its /64 and an IPv4-mapped address as IPv4; tokens compared")
    func capKeysAndTokens() {
        #expect(MCPSessions.capKey("10.0.0.7") == "10.0.0.7")
        #expect(MCPSessions.capKey("::ffff:10.0.0.7") == "10.0.0.7")
        #expect(MCPSessions.capKey("2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64")
        #expect(MCPSessions.capKey("2001:db8:1:2:bbbb:cccc:dddd:eeee") == "2001:db8:1:2::/64")
        #expect(MCPSessions.capKey("2001:db8::1") == "2001:db8:0:0::/64")
        #expect(MCPSessions.capKey("::1") == "0:0:0:0::/64")
        #expect(MCPSessions.sameToken(nil, nil))
        #expect(MCPSessions.sameToken("0123456789abcdef", "0123456789abcdef"))
        #expect(!MCPSessions.sameToken("0123456789abcdef", "0123456789abcdeg"))
        #expect(!MCPSessions.sameToken("0123456789abcdef", nil))
    }
}

/// The token half of a session's binding, in process (a server has one token, so the built server
/// cannot be shown two valid ones).
@Suite("MCP sessions bound to their token")
struct MCPSessionTokenTests {
    @Test("a session opened with one token is not found with another or none, from the same address")
    func boundToToken() async throws {
        let directory = try TempDirectory()
        let sessions = try MCPSessionsTests().sessions(
            directory, clock: MCPSessionsTests.MovedClock(), limit: 8, perClient: 4)
        let opened = await sessions.handle(
            method: "POST", headers: MCPSessionsTests.headers, body: Data(ServeHardeningTests.initialize.utf8),
            path: "/mcp", client: "10.0.0.1", token: "token-a-0123456789")
        let id = try #require(opened.headers.first { $0.key.lowercased() == "mcp-session-id" }?.value)
        func ping(_ token: String?) async -> Int {
            let headers = MCPSessionsTests.headers.merging(["Mcp-Session-Id": id, "Mcp-Protocol-Version": "2025-03-26"])
            { $1 }
            return await sessions.handle(
                method: "POST", headers: headers, body: Data(#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#.utf8),
                path: "/mcp", client: "10.0.0.1", token: token
            ).status
        }
        #expect(await ping("token-b-0123456789") == 404)
        #expect(await ping(nil) == 404)
        #expect(await ping("token-a-0123456789") == 200)
        await sessions.closeAll()
    }
}
