import AlmanacTesting
import Foundation
import Testing

/// Calendar writes through `tools mcp`, driven by the official Python `mcp` client
/// (scripts/peers/mcp_writes_client.py): off by default; with `[serve] allow_writes = ["mcp"]`
/// confirmed by elicitation when the client declares it, else by a preview and a single-use token.
@Suite("tools mcp: calendar writes by callers", .enabled(if: ServePeers.runMCP))
struct MCPWritesEndToEndTests {
    typealias Setup = CallerWritesEndToEndTests.Setup

    func client(_ setup: Setup, mode: String) async throws -> [String: Any] {
        guard ServePeers.mcpReady else {
            throw PeerMissing(description: ".venv-mcp missing (CI must run scripts/setup-peers)")
        }
        let script = ServePeers.root.appendingPathComponent("scripts/peers/mcp_writes_client.py")
        let output = try await Command.run(
            ServePeers.mcpPython, [script.path, ToolsBinary.url.path, mode], environment: setup.environment,
            timeout: 120)
        #expect(output.status == 0, "\(output.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
    }

    func calls(_ seen: [String: Any]) throws -> [[String: Any]] {
        try #require(seen["calls"] as? [[String: Any]])
    }

    func text(_ call: [String: Any]) -> String { (call["text"] as? [String])?.first ?? "" }

    @Test("off: read-only tool, no write options, a write refused in one line, nothing written")
    func off() async throws {
        let setup = try Setup(allowWrites: nil)
        let before = setup.calendar
        let seen = try await client(setup, mode: "token")
        #expect(seen["schemaWrites"] as? Bool == false)
        #expect((seen["annotations"] as? [String: Any])?["readOnly"] as? Bool == true)
        let calls = try calls(seen)
        try #require(calls.count == 1)
        #expect(calls[0]["isError"] as? Bool == true)
        #expect(text(calls[0]).hasPrefix("error: calendar: 'add' writes, and writing is off"), "\(text(calls[0]))")
        #expect(setup.calendar == before)
    }

    @Test("on, no elicitation: preview and token; other write refused; the token writes once; replay refused")
    func token() async throws {
        let setup = try Setup(allowWrites: ["mcp"])
        let before = setup.calendar
        let seen = try await client(setup, mode: "token")
        #expect(seen["schemaWrites"] as? Bool == true)
        let annotations = try #require(seen["annotations"] as? [String: Any])
        #expect(annotations["readOnly"] as? Bool == false && annotations["destructive"] as? Bool == true)
        #expect((seen["asked"] as? [String])?.isEmpty == true)
        let calls = try calls(seen)
        try #require(calls.count == 4)
        #expect(calls[0]["isError"] as? Bool == false)
        #expect(
            text(calls[0]).hasPrefix("not written yet: add event \"call mom\" to home: Fri 27 Mar"), "\(text(calls[0]))"
        )
        #expect(text(calls[0]).contains("\"confirm\": \""))
        #expect(calls[1]["isError"] as? Bool == true)
        #expect(text(calls[1]).contains("issued for a different write"), "\(text(calls[1]))")
        #expect(calls[2]["isError"] as? Bool == false, "\(text(calls[2]))")
        #expect(calls[3]["isError"] as? Bool == true)
        #expect(text(calls[3]).contains("unknown or was used already"))
        let written = setup.calendar
        #expect(written != before)
        #expect(written.components(separatedBy: "SUMMARY:call mom").count == 2)
        #expect(!written.contains("call dad"))
    }

    @Test("on, elicitation accepted: asked once with the preview, written at once")
    func accepted() async throws {
        let setup = try Setup(allowWrites: ["mcp"])
        let seen = try await client(setup, mode: "accept")
        let asked = try #require(seen["asked"] as? [String])
        #expect(asked.count == 1)
        #expect(asked.first?.contains("add event \"call mom\" to home") == true, "\(asked)")
        let calls = try calls(seen)
        try #require(calls.count == 1)
        #expect(calls[0]["isError"] as? Bool == false, "\(text(calls[0]))")
        #expect(setup.calendar.components(separatedBy: "SUMMARY:call mom").count == 2)
    }

    @Test("on, elicitation declined: nothing written, one line")
    func declined() async throws {
        let setup = try Setup(allowWrites: ["mcp"])
        let before = setup.calendar
        let seen = try await client(setup, mode: "decline")
        #expect((seen["asked"] as? [String])?.count == 1)
        let calls = try calls(seen)
        try #require(calls.count == 1)
        #expect(calls[0]["isError"] as? Bool == true)
        #expect(text(calls[0]).hasPrefix("error: calendar: not written (not confirmed)"), "\(text(calls[0]))")
        #expect(setup.calendar == before)
    }
}

/// The same over `tools serve`'s `/mcp` (streamable HTTP).
@Suite("tools serve /mcp: calendar writes by callers", .enabled(if: ServePeers.runMCP))
struct ServeMCPWritesEndToEndTests {
    typealias Setup = CallerWritesEndToEndTests.Setup

    func client(_ setup: Setup, _ server: ServeProcess, mode: String) async throws -> [String: Any] {
        guard ServePeers.mcpReady else {
            throw PeerMissing(description: ".venv-mcp missing (CI must run scripts/setup-peers)")
        }
        let script = ServePeers.root.appendingPathComponent("scripts/peers/mcp_writes_client.py")
        let output = try await Command.run(
            ServePeers.mcpPython, [script.path, server.baseURL, mode], environment: setup.environment, timeout: 120)
        #expect(output.status == 0, "\(output.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
    }

    @Test("elicitation accepted: asked once, written once")
    func accepted() async throws {
        let setup = try Setup(allowWrites: ["serve"])
        let server = try ServeProcess(environment: setup.environment)
        defer { server.stop() }
        let seen = try await client(setup, server, mode: "accept")
        #expect((seen["asked"] as? [String])?.count == 1, "\(seen)")
        let calls = try #require(seen["calls"] as? [[String: Any]])
        #expect(calls.count == 1 && calls.first?["isError"] as? Bool == false, "\(calls)")
        #expect(setup.calendar.components(separatedBy: "SUMMARY:call mom").count == 2)
    }

    @Test("no elicitation: preview and token bound to the session; written once")
    func token() async throws {
        let setup = try Setup(allowWrites: ["serve"])
        let server = try ServeProcess(environment: setup.environment)
        defer { server.stop() }
        let seen = try await client(setup, server, mode: "token")
        let calls = try #require(seen["calls"] as? [[String: Any]])
        try #require(calls.count == 4)
        #expect(calls.map { $0["isError"] as? Bool } == [false, true, false, true], "\(calls)")
        #expect(setup.calendar.components(separatedBy: "SUMMARY:call mom").count == 2)
    }
}
