import AlmanacTesting
import Foundation
import Testing

/// `tools serve` against callers who try to hold it, fill it or confuse it (issue 21, points
/// 4 and 5): each test runs the built server on 127.0.0.1 and talks to it as such a caller would.
@Suite("tools serve hardening", .serialized)
struct ServeHardeningTests {
    static let initialize =
        #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}"#
    static let accept = ["Content-Type: application/json", "Accept: application/json, text/event-stream"]

    func server(_ directory: TempDirectory, _ extra: [String: String] = [:]) throws -> ServeProcess {
        try ServeProcess(environment: ServePeers.replayEnvironment(directory.url, extra: extra))
    }

    /// Opens an MCP session from `source` (nil: 127.0.0.1); its id, or the status it was refused with.
    func openSession(_ server: ServeProcess, from source: String? = nil) async throws -> (id: String?, status: Int) {
        let interface = source.map { ["--interface", $0] } ?? []
        let reply = try await HTTP.headers(
            interface + ["-X", "POST", "--data-binary", Self.initialize] + Self.accept.flatMap { ["-H", $0] }
                + ["\(server.baseURL)/mcp"])
        return (reply.headers["mcp-session-id"], reply.status)
    }

    @Test(
        "a request head sent a byte every 2 s is cut after the header deadline (10 s by default), not kept for minutes")
    func slowHeaders() async throws {
        let directory = try TempDirectory()
        let server = try server(directory)
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        let started = Date()
        var cut = false
        // Bounded: 40 bytes at most, 2 s apart (80 s); the server must close well before.
        for byte in "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: aaaaaaaaaaaaaa".map(String.init).prefix(40) {
            if !connection.send(byte) || connection.readUntilClosed(timeout: 2).closed {
                cut = true
                break
            }
        }
        let seconds = Date().timeIntervalSince(started)
        #expect(cut, "the connection was still open after \(Int(seconds)) s")
        #expect(seconds < 20)
        let metrics = try await HTTP.get("\(server.baseURL)/metrics")
        #expect(metrics.body.contains(#"almanac_http_refused_total{reason="header_timeout"}"#))
    }

    @Test(
        "Host: exactly one (two refused, none refused on HTTP/1.0), names compared without case; HTTP/1.0 closed after its answer"
    )
    func hostAndHTTP10() throws {
        let directory = try TempDirectory()
        let server = try server(directory)
        defer { server.stop() }
        func ask(_ request: String) throws -> (status: Int?, text: String, closed: Bool) {
            let connection = try RawConnection(port: server.port)
            connection.send(request)
            let answer = connection.readUntilClosed(timeout: 3)
            return (RawConnection.status(answer.text), answer.text, answer.closed)
        }
        let two = try ask("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n")
        #expect(two.status == 400, "\(two.text)")
        let upper = try ask("GET /healthz HTTP/1.1\r\nHost: LOCALHOST\r\nConnection: close\r\n\r\n")
        #expect(upper.status == 200, "\(upper.text)")
        let noHost = try ask("GET /healthz HTTP/1.0\r\n\r\n")
        #expect(noHost.status == 400, "\(noHost.text)")
        // HTTP/1.0 without keep-alive: the answer, then the server closes (within the 3 s read).
        let old = try ask("GET /healthz HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(old.status == 200)
        #expect(old.closed, "HTTP/1.0 connection left open after the answer")
        #expect(old.text.lowercased().contains("connection: close"))
    }

    @Test("/healthz, /metrics and /openapi.json answer while the client's call cap is full")
    func uncappedEndpoints() async throws {
        let directory = try TempDirectory()
        let server = try server(directory, ["ALMANAC_SERVE_MAX_CONCURRENT": "1"])
        defer { server.stop() }
        // A call whose body is still arriving holds the client's only slot (the body is read
        // within the call's time limit, 30 s).
        let holder = try RawConnection(port: server.port)
        holder.send("POST /tools/sports HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 40\r\n\r\n{")
        var busy = 0
        for _ in 0..<20 where busy != 429 {
            try await Task.sleep(for: .milliseconds(250))
            busy = try await HTTP.post("\(server.baseURL)/tools/sports", #"{"league":"nba","date":"2024-12-15"}"#)
                .status
        }
        #expect(busy == 429)
        for path in ["/healthz", "/metrics", "/openapi.json"] {
            await #expect(try HTTP.get("\(server.baseURL)\(path)").status == 200, "\(path)")
        }
    }

    @Test(
        "metrics: 413 counted; MCP bad arguments counted usage; /tools/SPORTS under sports; a 504 never later counted ok"
    )
    func metrics() async throws {
        let upstream = try FixtureServer()
        defer { upstream.stop() }
        let directory = try TempDirectory()
        let server = try ServeProcess(
            environment: ToolsBinary.environment(
                cacheDirectory: directory.url,
                extra: [
                    "ALMANAC_ESPN_URL": upstream.baseURL, "ALMANAC_NOW": fixedNow, "ALMANAC_TZ": "America/New_York",
                    "ALMANAC_SERVE_TIMEOUT": "2", "ALMANAC_SERVE_MAX_BODY": "1024",
                ]))
        defer { server.stop() }
        let big = try await HTTP.post(
            "\(server.baseURL)/tools/sports", "{\"league\":\"" + String(repeating: "a", count: 4000) + "\"}")
        #expect(big.status == 413)

        // A slow upstream: 504 at 2 s; the call goes on to 4 s and must not then count as ok.
        try await upstream.setFault("delay:4")
        let slow = try await HTTP.post("\(server.baseURL)/tools/sports", #"{"league":"nba","date":"2024-12-15"}"#)
        #expect(slow.status == 504)
        try await Task.sleep(for: .seconds(4))
        try await upstream.setFault("none")

        // The tool's name in any case is the tool: counted under `sports`, once.
        let upper = try await HTTP.post("\(server.baseURL)/tools/SPORTS", #"{"league":"nba","date":"2024-12-15"}"#)
        #expect(upper.status == 200, "\(upper.body)")

        let session = try await #require(try openSession(server).id)
        let inSession = Self.accept + ["Mcp-Session-Id: \(session)", "Mcp-Protocol-Version: 2025-03-26"]
        _ = try await HTTP.post(
            "\(server.baseURL)/mcp", #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, headers: inSession)
        let bad = try await HTTP.post(
            "\(server.baseURL)/mcp",
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"sports","arguments":{"league":"nba","date":"not-a-day"}}}"#,
            headers: inSession)
        #expect(bad.body.contains("isError"), "\(bad.body)")

        let text = try await HTTP.get("\(server.baseURL)/metrics").body
        #expect(text.contains(#"almanac_http_refused_total{reason="too_large"} 1"#), "\(text)")
        #expect(text.contains(#"almanac_calls_total{tool="sports",via="openapi",status="ok"} 1"#), "\(text)")
        #expect(!text.contains(#"tool="unknown""#), "\(text)")
        #expect(text.contains(#"almanac_calls_total{tool="sports",via="mcp",status="usage"} 1"#), "\(text)")
        #expect(text.contains(#"almanac_http_refused_total{reason="timeout"} 1"#), "\(text)")
    }

    @Test("MCP sessions: capped per client as well as in total; another client still gets one")
    func sessionsPerClient() async throws {
        let directory = try TempDirectory()
        let server = try server(
            directory, ["ALMANAC_SERVE_MAX_SESSIONS_PER_CLIENT": "2", "ALMANAC_SERVE_MAX_SESSIONS": "3"])
        defer { server.stop() }
        await #expect(try openSession(server).status == 200)
        await #expect(try openSession(server).status == 200)
        let third = try await openSession(server)
        #expect(third.status == 503)
        // 127.0.0.2 is another client on the same machine (all of 127/8 is loopback).
        let other = try await openSession(server, from: "127.0.0.2")
        #expect(other.status == 200)
        #expect(other.id != nil)
        // Full (3): a newcomer takes the oldest session of 127.0.0.1, which holds two more than
        // it; once every client holds one, the total holds.
        await #expect(try openSession(server, from: "127.0.0.3").status == 200)
        await #expect(try openSession(server, from: "127.0.0.4").status == 503)  // the total
    }

    @Test("a dropped MCP event stream leaves no CLOSE-WAIT socket; SIGTERM with a stream open exits within seconds")
    func droppedStreamAndSigterm() async throws {
        let directory = try TempDirectory()
        let server = try server(directory)
        let session = try await #require(try openSession(server).id)
        _ = try await HTTP.post(
            "\(server.baseURL)/mcp", #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            headers: Self.accept + ["Mcp-Session-Id: \(session)", "Mcp-Protocol-Version: 2025-03-26"])
        func openStream() throws -> RawConnection {
            let stream = try RawConnection(port: server.port)
            stream.send(
                "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nMcp-Session-Id: \(session)\r\n"
                    + "Mcp-Protocol-Version: 2025-03-26\r\n\r\n")
            return stream
        }
        var dropped: RawConnection? = try openStream()
        #expect(RawConnection.status(dropped?.read(for: 5, until: "\r\n\r\n") ?? "") == 200)
        dropped = nil  // closed by the client
        try await Task.sleep(for: .seconds(2))
        await #expect(try closeWaitSockets(port: server.port) == 0)

        // A second stream, still open when SIGTERM comes: the server ends it and exits.
        let open = try openStream()
        _ = open.read(for: 5, until: "\r\n\r\n")
        kill(server.process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(15)
        while server.process.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
        #expect(!server.process.isRunning, "still running 15 s after SIGTERM")
        #expect(open.readUntilClosed(timeout: 2).closed)
        server.stop()
    }

    @Test("a port in use: one line naming the port, exit 64, no NIO error text")
    func portInUse() async throws {
        let directory = try TempDirectory()
        let first = try server(directory)
        defer { first.stop() }
        let second = try await ToolsBinary.run(
            ["serve", "--port", String(first.port)], environment: ServePeers.replayEnvironment(directory.url),
            timeout: 30)
        #expect(second.status == 64)
        let lines = second.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(second.stderr)")
        #expect(second.stderr.contains("port \(first.port) on 127.0.0.1 is already in use"))
        #expect(!second.stderr.contains("bind("))
    }

    @Test("MCP params that are not an object: -32602 (invalid params), over HTTP and stdio")
    func invalidParams() async throws {
        let directory = try TempDirectory()
        let server = try server(directory)
        defer { server.stop() }
        let session = try await #require(try openSession(server).id)
        let inSession = Self.accept + ["Mcp-Session-Id: \(session)", "Mcp-Protocol-Version: 2025-03-26"]
        let reply = try await HTTP.post(
            "\(server.baseURL)/mcp", #"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":"x"}"#, headers: inSession
        )
        #expect(reply.body.contains("-32602"), "\(reply.body)")
        #expect(!reply.body.contains("-32603"))

        let input =
            [
                Self.initialize, #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
                #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":"x"}"#,
                #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"sports","arguments":[1]}}"#,
            ].joined(separator: "\n") + "\n"
        let stdin = directory.url.appendingPathComponent("in.jsonl")
        try Data(input.utf8).write(to: stdin)
        let output = try await Command.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "\"$0\" mcp < \"$1\"", ToolsBinary.url.path, stdin.path],
            environment: ServePeers.replayEnvironment(directory.url), timeout: 60)
        let replies = output.stdout.split(separator: "\n").filter { $0.contains(#""id":2"#) || $0.contains(#""id":3"#) }
        #expect(replies.count == 2, "\(output.stdout)")
        #expect(replies.allSatisfy { $0.contains("-32602") }, "\(replies)")
    }

    @Test("an answer over the server's byte cap is cut, says so, and keeps its envelope")
    func answerCap() async throws {
        let directory = try TempDirectory()
        let server = try server(directory, ["ALMANAC_SERVE_MAX_ANSWER": "2048"])
        defer { server.stop() }
        let reply = try await HTTP.post("\(server.baseURL)/tools/sports", #"{"league":"nba","date":"2024-12-15"}"#)
        #expect(reply.status == 200)
        #expect(reply.body.utf8.count <= 2048, "\(reply.body.utf8.count) bytes")
        let json = try #require(reply.json)
        let data = try #require(json["data"] as? [String: Any])
        #expect(data["truncated"] as? Bool == true)
        #expect((data["bytes"] as? Int ?? 0) > 2048)
        #expect(json["provider"] as? String == "espn")
        let context = try #require(json["context"] as? String)
        #expect(context.hasSuffix("ask for a narrower range or fewer items]"))
        #expect(context.contains("\n"))  // some of the answer is kept before the note
    }
}
