public import AlmanacCore
import AlmanacMCP
import AlmanacRuntime
public import Foundation
public import NIOCore

/// The checks `tools serve` runs on a caller's bytes before any tool runs, public for the fuzzer
/// (Sources/almanac-fuzz), which feeds them arbitrary bytes: each is the function the server
/// itself calls, not a copy.
public enum ServeInputChecks {
    /// The handler the server puts between NIO's HTTP/1 decoder and the codec to HTTP types
    /// (header timeout, keep-alive, half-closed connections; see ``ConnectionGuard``).
    public static func connectionGuard(headerTimeout: Duration) -> some ChannelHandler {
        ConnectionGuard(headerTimeout: headerTimeout, metrics: ServeMetrics(tools: []))
    }

    /// Whether a Host header names the loopback (what a server on loopback without a token accepts).
    public static func isLoopbackHost(_ host: String) -> Bool {
        ServeGuard.isLoopbackHost(host)
    }

    /// A request body as a JSON object of arguments (`POST /tools/NAME`, MCP `tools/call`).
    ///
    /// - Throws: ``AlmanacError`` (usage) for a body that is not a JSON object.
    public static func object(_ body: [UInt8]) throws -> [String: JSONValue] {
        try ToolAPI.object(body)
    }

    /// The arguments' JSON types against `schema`: the server checks them against the schema an
    /// untrusted caller sees (``ToolSchema/visible(to:)``).
    ///
    /// - Throws: ``AlmanacError`` (usage) naming the argument of the wrong type.
    public static func checkTypes(_ json: [String: JSONValue], schema: ToolSchema, tool: String) throws {
        try JSONArgumentTypes.check(json, schema: schema, tool: tool)
    }

    /// Whether an MCP message is `initialize` (the one that opens a session).
    public static func isInitialize(_ body: Data) -> Bool {
        MCPSessions.isInitialize(body)
    }

    /// The JSON-RPC "invalid params" answer the MCP front gives `body` before the SDK sees it, or nil.
    public static func mcpRefusal(_ body: Data) -> Data? {
        AlmanacMCPServer.invalidParamsReply(body)
    }
}
