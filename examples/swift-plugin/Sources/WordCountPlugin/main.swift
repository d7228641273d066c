// A tool plugin for Almanac in Swift: one tool, `count_words`, over MCP's stdio transport
// (newline-delimited JSON-RPC 2.0). Configure it as
//
//     [plugins.words]
//     command = ["/path/to/examples/swift-plugin/.build/release/WordCountPlugin"]
//
// and call `tools run words.count_words --text "one two three"`.
import Foundation

/// The tool's description as `tools/list` gives it: an input schema Almanac reads as options
/// (`--text`), an output schema its answers are checked against, and read-only annotations.
let tool: [String: Any] = [
    "name": "count_words",
    "description": "Counts the words, characters and lines of a text.",
    "inputSchema": [
        "type": "object",
        "properties": ["text": ["type": "string", "description": "the text to count"]],
        "required": ["text"],
    ],
    "outputSchema": [
        "type": "object",
        "properties": [
            "words": ["type": "integer"], "characters": ["type": "integer"], "lines": ["type": "integer"],
        ],
        "required": ["words", "characters", "lines"],
    ],
    "annotations": ["readOnlyHint": true],
]

/// Writes one JSON-RPC message as one line on stdout (stdout is the protocol; logs go to stderr).
func send(_ message: [String: Any]) {
    guard var data = try? JSONSerialization.data(withJSONObject: message, options: [.sortedKeys]) else { return }
    data.append(UInt8(ascii: "\n"))
    FileHandle.standardOutput.write(data)
}

func reply(_ id: Any, result: [String: Any]) {
    send(["jsonrpc": "2.0", "id": id, "result": result])
}

func reply(_ id: Any, error code: Int, _ message: String) {
    send(["jsonrpc": "2.0", "id": id, "error": ["code": code, "message": message]])
}

/// Answers one `tools/call`: structured content (checked by Almanac against the output schema)
/// and the same as text for hosts that read only text.
func call(_ id: Any, _ params: [String: Any]) {
    guard params["name"] as? String == "count_words" else {
        return reply(id, error: -32602, "Unknown tool: \(params["name"] ?? "none")")
    }
    guard let text = (params["arguments"] as? [String: Any])?["text"] as? String else {
        return reply(
            id, result: ["content": [["type": "text", "text": "text is required"]], "isError": true])
    }
    let counts: [String: Any] = [
        "words": text.split(whereSeparator: { $0.isWhitespace }).count,
        "characters": text.count,
        "lines": text.isEmpty ? 0 : text.split(separator: "\n", omittingEmptySubsequences: false).count,
    ]
    let json = (try? JSONSerialization.data(withJSONObject: counts, options: [.sortedKeys])) ?? Data()
    reply(
        id,
        result: [
            "content": [["type": "text", "text": String(decoding: json, as: UTF8.self)]],
            "structuredContent": counts,
        ])
}

FileHandle.standardError.write(Data("count_words plugin started\n".utf8))
while let line = readLine(strippingNewline: true) {
    guard !line.isEmpty,
        let message = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    else { continue }
    let method = message["method"] as? String
    // Notifications (no id) need no answer.
    guard let id = message["id"] else { continue }
    switch method {
    case "initialize":
        reply(
            id,
            result: [
                "protocolVersion": "2025-06-18", "capabilities": ["tools": [String: Any]()],
                "serverInfo": ["name": "count-words", "version": "1.0.0"],
            ])
    case "tools/list": reply(id, result: ["tools": [tool]])
    case "tools/call": call(id, message["params"] as? [String: Any] ?? [:])
    case "ping": reply(id, result: [:])
    default: reply(id, error: -32601, "Method not found: \(method ?? "none")")
    }
}
