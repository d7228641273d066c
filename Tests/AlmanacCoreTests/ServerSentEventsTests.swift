import Foundation
import Testing

@testable import AlmanacCore

/// The one SSE parser (LLM token streams, remote MCP plugins): the last event id, as the SSE
/// standard keeps it for `Last-Event-ID`.
@Suite("SSE parser: last event id")
struct ServerSentEventsTests {
    @Test("an id is the last event id once its event is dispatched, kept by events without one")
    func lastEventID() {
        var parser = SSEParser()
        #expect(parser.feed(Data("id: 7\r\nevent: message\r\ndata: {}\r\n".utf8)) == [])
        // Not dispatched yet: a stream cut here has not delivered event 7.
        #expect(parser.lastEventID == nil)
        #expect(parser.feed(Data("\r\n".utf8)) == [.data("{}")])
        #expect(parser.lastEventID == "7")
        #expect(parser.feed(Data("data: next\n\n".utf8)) == [.data("next")])
        #expect(parser.lastEventID == "7")
        // A priming event (an id and empty data) moves it; a NUL id is ignored.
        #expect(parser.feed(Data("id: 8\ndata:\n\nid: a\0b\n\n".utf8)) == [.data("")])
        #expect(parser.lastEventID == "8")
        // An empty id resets it.
        #expect(parser.feed(Data("id\ndata: x\n\n".utf8)) == [.data("x")])
        #expect(parser.lastEventID == nil)
    }
}
