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
    func listAndCall() throws {
        guard Peers.mcpReady else { throw PeerMissing(description: ".venv-mcp missing (CI must run scripts/setup)") }
        let directory = try TempDirectory()
        let environment = environment(directory)
        let script = Peers.root.appendingPathComponent("scripts/peers/mcp_client.py")
        let client = try Command.run(
            Peers.mcpPython, [script.path, ToolsBinary.url.path], environment: environment, timeout: 120)
        #expect(client.status == 0, "\(client.stderr)")
        let seen = try #require(try json(client.stdout) as? [String: Any])
        #expect(seen["server"] as? String == "almanac")

        // tools/list: the same names, order and parameter schemas as `tools schema` (OpenAI functions).
        let schema = try ToolsBinary.run(["schema"], environment: environment)
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
        let run = try ToolsBinary.run(["run", "sports", "nba", "--date", "2024-12-15"], environment: environment)
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
