import AlmanacCore
import Foundation
import Testing

@testable import AlmanacRuntime

/// Reading a streamable HTTP answer sent as an SSE stream (MCP 2025-06-18, transports).
@Suite("plugins: remote answers as SSE")
struct PluginRemoteTests {
    /// The messages of a whole SSE body, as the remote exchange reads them: parser, then message.
    private func messages(_ body: String, during step: String) throws -> [JSONValue] {
        var parser = SSEParser()
        return try (parser.feed(Data(body.utf8)) + parser.finish()).compactMap {
            try PluginRemote.message(of: $0, during: step)
        }
    }

    @Test("each event's data lines are one JSON-RPC message; comments, ids and blank events are skipped")
    func events() throws {
        let body =
            ": keep-alive\r\nid: 1\r\nevent: message\r\ndata: {\"jsonrpc\":\"2.0\",\r\ndata: \"method\":\"ping\"}\r\n\r\n"
            + "\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n"
        let messages = try messages(body, during: "the call")
        #expect(messages.count == 2)
        #expect(messages.first == ["jsonrpc": "2.0", "method": "ping"])
        #expect(messages.last == ["jsonrpc": "2.0", "id": 1, "result": .object([:])])
    }

    @Test("an event that is not JSON is a decoding failure naming the step")
    func notJSON() {
        #expect(throws: ProviderFailure.self) {
            try messages("data: <html>\n\n", during: "the handshake")
        }
    }

    @Test("a server's event id that is no safe header value is not sent back in Last-Event-ID")
    func unsafeEventID() throws {
        let remote = try PluginRemote(url: #require(URL(string: "http://127.0.0.1:9/mcp")), plugin: "far")
        // SSE splits lines at LF only, so an id can carry a CR (a header injection) or be huge.
        var parser = SSEParser()
        _ = parser.feed(Data("id: 7\rX-Injected: yes\ndata: {}\n\n".utf8))
        let injected = try #require(parser.lastEventID)
        #expect(injected.contains("\r"))
        #expect(remote.resumption(after: injected) == nil)
        #expect(remote.resumption(after: String(repeating: "7", count: 1024)) == nil)
        #expect(remote.resumption(after: "") == nil)
        #expect(remote.resumption(after: "7\u{1}") == nil)
        #expect(remote.resumption(after: "evt-42")?.headers["Last-Event-ID"] == "evt-42")
    }

    /// A remote exchange awaiting request 1, fed `chunks` as a stream that then ends cleanly.
    private func exchange(reading chunks: [String]) async throws -> RemoteExchange {
        let exchange = RemoteExchange(awaiting: 1, during: "the call", reply: { _ in })
        let (body, input) = AsyncThrowingStream<Data, any Error>.makeStream()
        for chunk in chunks { input.yield(Data(chunk.utf8)) }
        input.finish()
        try await exchange.read(body, limit: 1 << 20, host: "far")
        return exchange
    }

    @Test("a stream closed cleanly inside an event is cut there: the unfinished event and its id do not count")
    func unfinishedEvent() async throws {
        let exchange = try await exchange(reading: [
            "id: 7\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\n",
            "id: 8\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n",
        ])
        #expect(!exchange.answered)
        #expect(exchange.cut)
        #expect(exchange.lastEventID == "7")
        #expect(exchange.messages == [["jsonrpc": "2.0", "method": "notifications/progress"]])
    }

    @Test("reconnections share the call's one deadline: with no time left, no reconnection is made")
    func noTimeLeft() async throws {
        let remote = try PluginRemote(url: #require(URL(string: "http://127.0.0.1:9/mcp")), plugin: "far")
        let exchange = try await exchange(reading: [
            "id: 7\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\n"
        ])
        #expect(exchange.cut)
        let failure = #expect(throws: ProviderFailure.self) {
            try remote.resumed(exchange, until: .now - .seconds(1), during: "the call")
        }
        #expect(
            failure?.message
                == "its event stream broke before the answer and 0 reconnections did not bring it during the call")
    }
}
