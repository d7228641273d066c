import AlmanacCore
import AlmanacRuntime
import AlmanacTesting
import Foundation
import Synchronization
import Testing

@testable import AlmanacServe

/// MCP sessions in process, on a clock the test moves: abandoned sessions make room sooner once
/// the server or one client is near its cap, and not otherwise.
@Suite("MCP sessions under pressure")
struct MCPSessionsTests {
    /// `ContinuousClock.now` at creation plus what the test added.
    final class MovedClock: Sendable {
        private let start = ContinuousClock.now
        private let offset = Mutex(Duration.zero)
        var now: ContinuousClock.Instant { start + offset.withLock { $0 } }
        func advance(_ duration: Duration) { offset.withLock { $0 += duration } }
    }

    static let headers = ["Content-Type": "application/json", "Accept": "application/json, text/event-stream"]

    func sessions(_ directory: TempDirectory, clock: MovedClock, limit: Int, perClient: Int) throws -> MCPSessions {
        let runtime = try Runtime.make(
            environment: ServePeers.replayEnvironment(directory.url), options: RuntimeOptions())
        let metrics = ServeMetrics(tools: runtime.registry.tools.map(\.name))
        let api = ToolAPI(runtime: runtime, budget: nil, metrics: metrics)
        // The defaults of `tools serve`: an hour idle, a minute under pressure.
        return MCPSessions(
            api: api, version: "test", limit: limit, perClient: perClient, idle: .seconds(3600),
            pressuredIdle: .seconds(60), now: { clock.now })
    }

    /// An `initialize` from `client`: the status and the new session's id.
    func open(_ sessions: MCPSessions, from client: String) async -> (status: Int, id: String?) {
        let reply = await sessions.handle(
            method: "POST", headers: Self.headers, body: Data(ServeHardeningTests.initialize.utf8), path: "/mcp",
            client: client)
        let id = reply.headers.first { $0.key.lowercased() == "mcp-session-id" }?.value
        return (reply.status, id)
    }

    /// A ping inside session `id`: 404 once the session was closed.
    func ping(_ sessions: MCPSessions, _ id: String, from client: String) async -> Int {
        let headers = Self.headers.merging(["Mcp-Session-Id": id, "Mcp-Protocol-Version": "2025-03-26"]) { $1 }
        let reply = await sessions.handle(
            method: "POST", headers: headers, body: Data(#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#.utf8),
            path: "/mcp", client: client)
        return reply.status
    }

    @Test("a client at its cap gets a session after a minute: its idle sessions are closed, another client's are not")
    func clientAtItsCap() async throws {
        let directory = try TempDirectory()
        let clock = MovedClock()
        let sessions = try sessions(directory, clock: clock, limit: 8, perClient: 2)
        let first = await open(sessions, from: "10.0.0.1")
        #expect(await open(sessions, from: "10.0.0.1").status == 200)
        let other = await open(sessions, from: "10.0.0.2")
        let firstID = try #require(first.id)
        let otherID = try #require(other.id)

        clock.advance(.seconds(30))
        #expect(await open(sessions, from: "10.0.0.1").status == 503)  // at its cap, nothing idle long enough

        // Past the pressured limit (60 s), far short of the normal one (an hour).
        clock.advance(.seconds(31))
        #expect(await open(sessions, from: "10.0.0.1").status == 200)
        #expect(await ping(sessions, firstID, from: "10.0.0.1") == 404)
        // The other client was under its cap and the server under three quarters full: kept.
        #expect(await ping(sessions, otherID, from: "10.0.0.2") != 404)
        await sessions.closeAll()
    }

    @Test("a full server makes room after a minute of idleness, not an hour")
    func serverFull() async throws {
        let directory = try TempDirectory()
        let clock = MovedClock()
        let sessions = try sessions(directory, clock: clock, limit: 4, perClient: 16)
        var ids: [String] = []
        for client in 1...4 {
            let opened = await open(sessions, from: "10.0.1.\(client)")
            #expect(opened.status == 200)
            ids.append(try #require(opened.id))
        }
        clock.advance(.seconds(30))
        #expect(await open(sessions, from: "10.0.1.5").status == 503)

        clock.advance(.seconds(31))
        #expect(await open(sessions, from: "10.0.1.5").status == 200)
        for (index, id) in ids.enumerated() {
            #expect(await ping(sessions, id, from: "10.0.1.\(index + 1)") == 404)
        }
        await sessions.closeAll()
    }

    @Test("without pressure an idle session outlives the pressured limit")
    func noPressure() async throws {
        let directory = try TempDirectory()
        let clock = MovedClock()
        let sessions = try sessions(directory, clock: clock, limit: 8, perClient: 4)
        let opened = await open(sessions, from: "10.0.2.1")
        let id = try #require(opened.id)
        clock.advance(.seconds(120))
        #expect(await open(sessions, from: "10.0.2.1").status == 200)  // runs the reaper
        #expect(await ping(sessions, id, from: "10.0.2.1") != 404)
        clock.advance(.seconds(3601))
        #expect(await open(sessions, from: "10.0.2.1").status == 200)
        #expect(await ping(sessions, id, from: "10.0.2.1") == 404)
        await sessions.closeAll()
    }
}
