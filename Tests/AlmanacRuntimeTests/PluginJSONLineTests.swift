import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacRuntime

/// The plugin path's own JSON reading and writing (issue 32, "Speed"): it must read exactly what
/// JSONDecoder reads, or step aside (nil) so JSONDecoder decides; and write what JSONDecoder reads
/// back as the same value.
@Suite("plugins: JSON lines read and written without Codable, same values as Foundation")
struct PluginJSONLineTests {
    static let lines: [String] = [
        #"{"jsonrpc":"2.0","id":17,"result":{"content":[{"type":"text","text":"{\n  \"timezone\": "#
            + #"\"Europe/Warsaw\",\n  \"is_dst\": false\n}"}],"structuredContent":{"timezone":"Europe/Warsaw","#
            + #""is_dst":false},"isError":false}}"#,
        #"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"bad \"zone\" \u00e9\/"}}"#,
        "1", "0", "-0", "true", "false", "null", #""x""#, "[]", "{}", " [1, 2 ,3 ] ", "12345678901234567890",
        "1234567890123456", "1.5e3", "-2.25", "1E-2", "0.05", "[0,-0,0.5]", #"{"":"","a\nb":[]}"#,
        #"{"\u0041":1}"#, #""é😀""#, #""\u0000""#,
        // JSONDecoder's call (accepted or refused): the fast path must not decide these alone.
        "01", "1.", ".5", "-", "1e400", "1e-400", "1e-310", "0e5", "0.0", "1.8e308", "[1,]", #"{"a":1,}"#,
        #"{"a":1,"a":2}"#, #""\ud83d\ude00""#, #""\ud800""#, "\"a\tb\"", #""\x""#, "[1] x", "", "nul", "tru",
        #"{"a" 1}"#, "\u{FEFF}{}", String(repeating: "[", count: 100) + String(repeating: "]", count: 100),
    ]

    @Test("every line reads as JSONDecoder reads it, or is left to JSONDecoder")
    func readsLikeFoundation() {
        for line in Self.lines {
            let foundation = try? JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
            if let fast = JSONValue.quickParse(Array(line.utf8)) {
                #expect(fast == foundation, "\(line)")
                // -0 stays -0 (JSONValue's == does not tell).
                if case .number(let a) = fast, case .number(let b) = foundation {
                    #expect(a.sign == b.sign, "\(line)")
                }
            }
        }
        #expect(JSONValue.quickParse([0x22, 0xFF, 0x22]) == nil)
    }

    @Test("a plugin's usual answers and errors take the fast path")
    func usualLinesAreFast() throws {
        let answer = try #require(JSONValue.quickParse(Array(Self.lines[0].utf8)))
        #expect(answer.objectValue?["id"] == 17)
        #expect(answer.objectValue?["result"]?.objectValue?["isError"] == false)
        let error = try #require(JSONValue.quickParse(Array(Self.lines[1].utf8)))
        #expect(error.objectValue?["error"]?.objectValue?["message"] == "bad \"zone\" é/")
    }

    @Test("a request line reads back as the same value; other numbers are left to JSONEncoder")
    func writes() throws {
        let request: JSONValue = [
            "jsonrpc": "2.0", "id": 5, "method": "tools/call",
            "params": [
                "name": "get_current_time",
                "arguments": ["s": "a\"b\\c/d\n\r\t\u{1}\u{8}\u{C}é😀", "n": -3, "l": [true, false, .null, [:], []]],
            ],
        ]
        let bytes = try #require(PluginJSONLine.encode(request))
        #expect(!bytes.contains(UInt8(ascii: "\n")))
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(bytes)) == request)
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""a\"b\\c/d\n\r\t\u0001\b\fé😀""#))
        #expect(PluginJSONLine.encode(["x": .number(1.5)]) == nil)
        #expect(PluginJSONLine.encode(.number(1e15)) == nil)
    }

    @Test("a call's cache key is JSONEncoder's sorted bytes; a cached answer reads back as itself")
    func keysAndCacheBytes() throws {
        let value: JSONValue = [
            "timezone": "Europe/Warsaw", "B": "x\n", "a10": 1, "a9": [true, .null], "n": ["z": 1, "a": [1, "x"]],
        ]
        let sorted = JSONEncoder()
        sorted.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(PluginJSONLine.encode(value, sortedKeys: true) == Array(try sorted.encode(value)))
        #expect(PluginJSONLine.encode(["é": 1], sortedKeys: true) == nil)
        let spec = try #require(PluginToolSpec(["name": "t", "inputSchema": ["type": "object"]]))
        for structured in [value, .null, ["k": .number(0.25)]] as [JSONValue] {
            let answer = try PluginAnswer(
                result: ["content": [["type": "text", "text": "a \"b\"\né"]], "structuredContent": structured],
                spec: spec)
            let again = try PluginAnswer(cacheBytes: try answer.cacheBytes())
            #expect(again.structured == answer.structured)
            #expect(again.text == answer.text)
        }
        let textOnly = try PluginAnswer(result: ["content": [["type": "text", "text": "x/y"]]], spec: spec)
        #expect(try textOnly.cacheBytes() == Data(#"{"text":"x/y"}"#.utf8))
    }

    @Test("text of only Unicode whitespace counts as blank: the structured content is shown")
    func blankText() throws {
        let spec = try #require(PluginToolSpec(["name": "t", "inputSchema": ["type": "object"]]))
        let rendering = Rendering(
            metadata: TestMetadata.fresh(tool: "p.t", provider: "p", fetchedAt: Date(), age: 0), now: Date(),
            timeZone: TimeZone(identifier: "UTC") ?? .current)
        for text in [" \n", "\u{85}\u{2003}", "\u{A0}"] {
            let answer = try PluginAnswer(
                result: ["content": [["type": "text", "text": .string(text)]], "structuredContent": ["k": "v"]],
                spec: spec)
            #expect(PluginPayload(answer: answer, tool: "p.t").context(rendering).contains(#""k":"v""#), "\(text)")
        }
        let answer = try PluginAnswer(
            result: ["content": [["type": "text", "text": "shown"]], "structuredContent": ["k": "v"]], spec: spec)
        let context = PluginPayload(answer: answer, tool: "p.t").context(rendering)
        #expect(context.contains("shown") && !context.contains(#""k""#))
    }
}
