import AlmanacCore
import Foundation
import Testing

@testable import AlmanacRuntime

/// Reading a streamable HTTP answer sent as an SSE stream (MCP 2025-06-18, transports).
@Suite("plugins: remote answers as SSE")
struct PluginRemoteTests {
    @Test("each event's data lines are one JSON-RPC message; comments, ids and blank events are skipped")
    func events() throws {
        let body =
            ": keep-alive\r\nid: 1\r\nevent: message\r\ndata: {\"jsonrpc\":\"2.0\",\r\ndata: \"method\":\"ping\"}\r\n\r\n"
            + "\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n"
        let messages = try PluginRemote.events(Data(body.utf8), during: "the call")
        #expect(messages.count == 2)
        #expect(messages.first == ["jsonrpc": "2.0", "method": "ping"])
        #expect(messages.last == ["jsonrpc": "2.0", "id": 1, "result": .object([:])])
    }

    @Test("an event that is not JSON is a decoding failure naming the step")
    func notJSON() {
        #expect(throws: ProviderFailure.self) {
            try PluginRemote.events(Data("data: <html>\n\n".utf8), during: "the handshake")
        }
    }
}
