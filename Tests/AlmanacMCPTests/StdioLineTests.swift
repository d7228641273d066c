import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacMCP

/// `tools mcp` reads one message a line in time linear in the line's length and refuses a line
/// over its limit with a JSON-RPC error (issue 31, point 8): the built binary, driven on stdin.
@Suite("MCP stdio line limit")
struct StdioLineLimitTests {
    static let initialize =
        #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}"#

    /// A `tools/call` line of about `bytes` bytes (a long argument), with `id` first or last.
    static func bigCall(id: Int, bytes: Int, idFirst: Bool = true) -> String {
        let filler = String(repeating: "a", count: bytes)
        let params = #""method":"tools/call","params":{"name":"sports","arguments":{"league":"\#(filler)"}}"#
        return idFirst ? #"{"jsonrpc":"2.0","id":\#(id),\#(params)}"# : #"{"jsonrpc":"2.0",\#(params),"id":\#(id)}"#
    }

    static func temporary() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("almanac-mcp-\(UUID().uuidString)")
    }

    /// Runs `tools mcp` on `lines` and returns its replies by id (`null` ids under -1).
    func replies(
        _ lines: [String], extra: [String: String] = [:]
    ) async throws -> (status: Int32, byID: [Int: [String: Any]]) {
        let directory = Self.temporary()
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ToolsBinary.environment(cacheDirectory: directory, extra: extra)
        let input = lines.joined(separator: "\n") + "\n"
        let output = try await Command.run(
            ToolsBinary.url, ["mcp"], environment: environment, stdin: Data(input.utf8), timeout: 120)
        var byID: [Int: [String: Any]] = [:]
        for line in output.stdout.split(separator: "\n") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                continue
            }
            byID[(object["id"] as? Int) ?? -1] = object
        }
        return (output.status, byID)
    }

    @Test("a 2 MB line is refused with -32600 naming the 1 MiB limit, for its id; the next request is answered")
    func overDefaultLimit() async throws {
        let (status, byID) = try await replies([
            Self.initialize, Self.bigCall(id: 5, bytes: 2_000_000), #"{"jsonrpc":"2.0","id":6,"method":"ping"}"#,
        ])
        #expect(status == 0)
        let error = try #require(byID[5]?["error"] as? [String: Any], "\(byID)")
        #expect(error["code"] as? Int == -32600)
        let message = error["message"] as? String ?? ""
        #expect(message.contains("1048576 bytes") && message.contains("ALMANAC_MCP_MAX_LINE"), "\(message)")
        #expect(byID[6]?["result"] != nil)
        #expect(byID[1]?["result"] != nil)
    }

    @Test("ALMANAC_MCP_MAX_LINE sets the limit; an id after the limit is answered as null; a line under it runs")
    func configuredLimit() async throws {
        let (_, byID) = try await replies(
            [Self.initialize, Self.bigCall(id: 7, bytes: 4000, idFirst: false), Self.bigCall(id: 8, bytes: 1000)],
            extra: ["ALMANAC_MCP_MAX_LINE": "2048"])
        let error = try #require(byID[-1]?["error"] as? [String: Any], "\(byID)")
        #expect((error["message"] as? String ?? "").contains("2048 bytes"))
        #expect(byID[7] == nil)
        // Under the limit: the call runs (a league that does not exist: a tool error, not -32600).
        let result = try #require(byID[8]?["result"] as? [String: Any], "\(byID)")
        #expect(result["isError"] as? Bool == true)
    }

    @Test("a refused line just before the end of input is still answered")
    func refusalAtEnd() async throws {
        let (status, byID) = try await replies(
            [Self.initialize, Self.bigCall(id: 9, bytes: 4000)], extra: ["ALMANAC_MCP_MAX_LINE": "2048"])
        #expect(status == 0)
        #expect((byID[9]?["error"] as? [String: Any])?["code"] as? Int == -32600, "\(byID)")
    }

    @Test("a bad ALMANAC_MCP_MAX_LINE is one line and exit 64")
    func badSetting() async throws {
        let directory = Self.temporary()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try await Command.run(
            ToolsBinary.url, ["mcp"],
            environment: ToolsBinary.environment(cacheDirectory: directory, extra: ["ALMANAC_MCP_MAX_LINE": "1MB"]),
            stdin: Data(), timeout: 60)
        #expect(output.status == 64)
        #expect(output.stderr.hasPrefix("error: ALMANAC_MCP_MAX_LINE ([mcp] max_line) must be a whole number"))
        #expect(output.stderr.split(separator: "\n").count <= 2, "\(output.stderr)")
    }
}

/// The splitter itself: lines across reads, CRLF, a last line without newline, a line over the
/// limit (its id found, its rest dropped) and the id scanner.
@Suite("MCP stdio line splitter")
struct LineSplitterTests {
    func feed(_ splitter: inout LineSplitter, _ text: String) -> [LineSplitter.Piece] {
        Array(text.utf8).withUnsafeBytes { splitter.feed($0) }
    }

    func line(_ text: String) -> LineSplitter.Piece { .line(Data(text.utf8)) }

    @Test("lines split across reads, CRLF and blank lines, a last line without newline")
    func lines() {
        var splitter = LineSplitter(limit: 100)
        #expect(feed(&splitter, #"{"a":"#) == [])
        #expect(feed(&splitter, "1}\n\n\r\n{\"b\":2}\r\n{\"c\"") == [line(#"{"a":1}"#), line("{\"b\":2}\r")])
        #expect(feed(&splitter, ":3}") == [])
        #expect(splitter.finish() == [line(#"{"c":3}"#)])
    }

    @Test("a line over the limit is refused once, its rest dropped across reads, and the next line kept")
    func overLimit() {
        var splitter = LineSplitter(limit: 16)
        #expect(feed(&splitter, #"{"id":"x-1","params":"#) == [.tooLong(id: .string("x-1"))])
        #expect(feed(&splitter, String(repeating: "z", count: 1000)) == [])
        #expect(feed(&splitter, "zz\"}\n{\"id\":2}\n") == [line(#"{"id":2}"#)])
        // Exactly the limit passes.
        #expect(feed(&splitter, String(repeating: "y", count: 16) + "\n") == [line(String(repeating: "y", count: 16))])
    }

    @Test("the id is the top-level one, escapes read, and only when whole")
    func leadingID() {
        func id(_ text: String) -> JSONValue? { LineSplitter.leadingID(ArraySlice(text.utf8)) }
        #expect(id(#"{"jsonrpc":"2.0","id":42,"method":"x","params":{"#) == .number(42))
        #expect(id(#" { "params":{"id":1,"a":[{"id":2}],"s":"}\"id\""}, "\u0069d" : "r\"q" , "x"#) == .string(#"r"q"#))
        #expect(id(#"{"params":{"id":1},"method":"tools/call","arguments":{"league":"aaaa"#) == nil)
        #expect(id(#"{"id":12"#) == nil)  // the number may go on past the cut
        #expect(id(#"{"id":null,"x":1}"#) == nil)
        #expect(id("[1,2]") == nil)
    }
}
