public import Foundation

/// One server-sent event.
public enum SSEEvent: Sendable, Equatable {
    /// A `data:` payload (several `data:` lines joined with newlines).
    case data(String)
    /// `data: [DONE]`: the OpenAI stream terminator.
    case done
    /// An `error:` field (llama-server writes errors into the stream this way).
    case error(String)
}

/// Incremental `text/event-stream` parser: feed bytes as they arrive, take events out. The one SSE
/// reader of the package: the LLM client's token stream and a remote MCP plugin's answers.
///
/// Lines may end in LF or CRLF and may be split across chunks (even inside a UTF-8 sequence).
/// Comment lines (`: ping`) and unknown fields are skipped; an event ends at a blank line.
/// `id:` fields set ``lastEventID`` as the SSE standard's "last event ID" (set when an event is
/// dispatched, kept across events, an id with NUL ignored), which a client sends back in
/// `Last-Event-ID` to resume a broken stream.
public struct SSEParser: Sendable {
    private var buffer: [UInt8] = []
    private var dataLines: [String] = []
    private var errorLines: [String] = []
    private var idBuffer: String?
    /// The id of the last event dispatched (an event without an `id:` keeps the previous one).
    public private(set) var lastEventID: String?

    /// Creates a parser.
    public init() {}

    /// Consumes `chunk` and returns the events it completed.
    public mutating func feed(_ chunk: Data) -> [SSEEvent] {
        buffer.append(contentsOf: chunk)
        var events: [SSEEvent] = []
        var start = 0
        while let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
            var end = newline
            if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            let line = String(decoding: buffer[start..<end], as: UTF8.self)
            start = newline + 1
            if let event = take(line) { events.append(event) }
        }
        buffer.removeFirst(start)
        return events
    }

    /// Ends the input: a last event without its blank line still counts.
    public mutating func finish() -> [SSEEvent] {
        var events: [SSEEvent] = []
        if !buffer.isEmpty {
            let line = String(decoding: buffer, as: UTF8.self)
            buffer.removeAll()
            if let event = take(line) { events.append(event) }
        }
        if let event = take("") { events.append(event) }
        return events
    }

    private mutating func take(_ line: String) -> SSEEvent? {
        if line.isEmpty {
            defer {
                dataLines.removeAll()
                errorLines.removeAll()
            }
            // Dispatch sets the last event id even for an event without data (a "priming" event).
            if let idBuffer { lastEventID = idBuffer.isEmpty ? nil : idBuffer }
            if !errorLines.isEmpty { return .error(errorLines.joined(separator: "\n")) }
            guard !dataLines.isEmpty else { return nil }
            let payload = dataLines.joined(separator: "\n")
            return payload == "[DONE]" ? .done : .data(payload)
        }
        if line.hasPrefix(":") { return nil }
        let field: Substring
        var value: Substring
        if let colon = line.firstIndex(of: ":") {
            field = line[..<colon]
            value = line[line.index(after: colon)...]
            if value.first == " " { value = value.dropFirst() }
        } else {
            field = line[...]
            value = ""
        }
        switch field {
        case "data": dataLines.append(String(value))
        case "error": errorLines.append(String(value))
        case "id" where !value.contains("\0"): idBuffer = String(value)
        default: break
        }
        return nil
    }
}
