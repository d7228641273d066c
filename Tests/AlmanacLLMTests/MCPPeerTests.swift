import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

/// `tools mcp` driven by the official Python `mcp` client (scripts/peers/mcp_client.py): tools/list with
/// the CLI's own schemas, tools/call with context text and the JSON envelope, three calls in flight
/// at once (the Swift SDK answers out of order), a failing call as `isError`. Runs when .venv-mcp
/// exists, and always in CI, where a missing venv fails.
@Suite("MCP peer", .enabled(if: Peers.runMCP, Peers.mcpNote))
struct MCPPeerTests {
    /// Replayed ESPN fixtures at the fixed clock: no network.
    func environment(_ directory: TempDirectory) -> [String: String] {
        ToolsBinary.environment(
            cacheDirectory: directory.url,
            extra: [
                "ALMANAC_REPLAY": Peers.root.appendingPathComponent("Fixtures").path, "ALMANAC_NOW": fixedNow,
                "ALMANAC_TZ": "America/New_York",
            ])
    }

    func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    @Test("the Python client lists the tools with the CLI's schemas and calls them")
    func listAndCall() async throws {
        guard Peers.mcpReady else {
            throw PeerMissing(description: ".venv-mcp missing (CI must run scripts/setup-peers)")
        }
        let directory = try TempDirectory()
        let environment = environment(directory)
        let script = Peers.root.appendingPathComponent("scripts/peers/mcp_client.py")
        let client = try await Command.run(
            Peers.mcpPython, [script.path, ToolsBinary.url.path], environment: environment, timeout: 120)
        #expect(client.status == 0, "\(client.stderr)")
        let seen = try #require(try json(client.stdout) as? [String: Any])
        #expect(seen["server"] as? String == "almanac")

        // tools/list: the same names, order and parameter schemas as `tools schema` (OpenAI functions).
        let schema = try await ToolsBinary.run(["schema"], environment: environment)
        let functions = try #require(try json(schema.stdout) as? [[String: Any]])
        let expected = functions.compactMap { $0["function"] as? [String: Any] }
        let listed = try #require(seen["tools"] as? [[String: Any]])
        #expect(listed.map { $0["name"] as? String } == expected.map { $0["name"] as? String })
        #expect(listed.count == expected.count && listed.count >= 3)
        for (tool, function) in zip(listed, expected) {
            let input = try #require(tool["inputSchema"] as? NSDictionary)
            let parameters = try #require(function["parameters"] as? NSDictionary)
            #expect(input == parameters, "schema of \(tool["name"] ?? "?")")
        }

        // tools/call: the context text is exactly what `tools run` prints; the envelope comes as JSON.
        let calls = try #require(seen["calls"] as? [[String: Any]])
        try #require(calls.count == 3)
        let run = try await ToolsBinary.run(["run", "sports", "nba", "--date", "2024-12-15"], environment: environment)
        #expect(calls[0]["isError"] as? Bool == false)
        #expect((calls[0]["text"] as? [String])?.first.map { $0 + "\n" } == run.stdout)
        let envelope = try #require(calls[0]["structured"] as? [String: Any])
        #expect(envelope["tool"] as? String == "sports")
        #expect(((envelope["data"] as? [String: Any])?["games"] as? [Any])?.count == 7)

        let team = try #require((calls[1]["text"] as? [String])?.first)
        #expect(team.hasSuffix("\nFinal: Grizzlies (18-9) 110 @ Lakers (14-12) 116 · Lakers won"))

        // A bad argument is a tool result with isError and the CLI's one-line message.
        #expect(calls[2]["isError"] as? Bool == true)
        #expect(calls[2]["structured"] is NSNull)
        let error = try #require((calls[2]["text"] as? [String])?.first)
        #expect(error.hasPrefix("error: unknown league 'nbaa'; did you mean 'nba'?"))
    }
}

struct PeerMissing: Error, CustomStringConvertible { var description: String }

/// `tools mcp` with every request piped at once and stdin closed right after: the SDK would drop
/// replies still in flight at EOF; Almanac's transport answers all of them (matched by id).
@Suite("MCP stdio")
struct MCPStdioTests {
    @Test("stdin EOF right after four requests: four replies, one per id")
    func eofKeepsReplies() async throws {
        let directory = try TempDirectory()
        let environment = ToolsBinary.environment(
            cacheDirectory: directory.url,
            extra: [
                "ALMANAC_REPLAY": Peers.root.appendingPathComponent("Fixtures").path, "ALMANAC_NOW": fixedNow,
                "ALMANAC_TZ": "America/New_York",
            ])
        let call = { (id: Int, arguments: String) in
            #"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"sports","arguments":\#(arguments)}}"#
        }
        let input =
            [
                #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}"#,
                call(2, #"{"league":"nba","date":"2024-12-15"}"#),
                call(3, #"{"league":"nba","team":"lakers","date":"2024-12-15"}"#),
                call(4, #"{"league":"nbaa"}"#),
            ].joined(separator: "\n") + "\n"
        let output = try await Command.run(
            ToolsBinary.url, ["mcp"], environment: environment, stdin: Data(input.utf8), timeout: 60)
        #expect(output.status == 0)
        var replies: [Int: [String: Any]] = [:]
        for line in output.stdout.split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            if let id = object?["id"] as? Int { replies[id] = object?["result"] as? [String: Any] }
        }
        #expect(replies.keys.sorted() == [1, 2, 3, 4])
        #expect(replies[3]?["isError"] as? Bool == false)
        let text = ((replies[3]?["content"] as? [[String: Any]])?.first?["text"] as? String) ?? ""
        #expect(text.hasSuffix("\nFinal: Grizzlies (18-9) 110 @ Lakers (14-12) 116 · Lakers won"))
        #expect(replies[4]?["isError"] as? Bool == true)
    }
}
