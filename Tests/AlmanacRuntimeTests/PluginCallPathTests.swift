import AlmanacCore
import Foundation
import Logging
import Testing

@testable import AlmanacRuntime

/// What one plugin call costs besides the plugin (issue 32, "Speed": through `tools serve` a call
/// adds at most 1 ms). No timings here: each test pins one piece of work the call no longer does.
@Suite("plugins: the call path does no needless work")
struct PluginCallPathTests {
    @Test("blocking plugin work runs on a kept thread, not a new thread per call")
    func keptThreads() async throws {
        let key = "almanac.tests.pluginThread"
        let first = try await PluginHost.blocking { () -> Bool in
            let seen = Thread.current.threadDictionary[key] != nil
            Thread.current.threadDictionary[key] = true
            return seen
        }
        #expect(first == false)
        // The same thread again: it was handed back when the first work ended.
        var reused = false
        for _ in 0..<20 where !reused {
            reused = try await PluginHost.blocking { Thread.current.threadDictionary[key] != nil }
        }
        #expect(reused)
    }

    @Test("a fresh plugin answer is handed back as given (not decoded from its cache bytes), which read back equal")
    func answerKeepsItself() throws {
        // Through Any, as the coordinator sees the type: a static `is` would be a compile-time warning.
        let answerType: Any.Type = PluginAnswer.self
        #expect(answerType is any OwnCacheBytes.Type)
        let spec = try #require(
            PluginToolSpec(["name": "get_current_time", "inputSchema": ["type": "object"]]))
        let answer = try PluginAnswer(
            result: [
                "content": [["type": "text", "text": "{\"timezone\": \"Asia/Tokyo\"}"]],
                "structuredContent": ["timezone": "Asia/Tokyo", "is_dst": false],
            ], spec: spec)
        let again = try PluginAnswer(cacheBytes: try answer.cacheBytes())
        #expect(again.structured == answer.structured)
        #expect(again.text == answer.text)
        // Entries written before (the coordinator's JSON) still read.
        let older = try JSONEncoder().encode(answer)
        #expect(try PluginAnswer(cacheBytes: older).structured == answer.structured)
    }

    @Test("a plugin answer's data is written without JSONEncoder, as JSONEncoder writes it (keys sorted)")
    func compactData() throws {
        let answers = [
            #"{"structured":{"b":1,"a":"x/y","c":{"z":[true,null,"\u0008"],"y":-3}},"text":"t"}"#,
            // Not for the fast path: a fraction and a non-ASCII key (JSONEncoder writes them).
            #"{"structured":{"é":[1.5],"a":1},"text":""}"#,
            #"{"text":"line one\nline \"two\" \\ /"}"#,
        ]
        for json in answers {
            let payload = PluginPayload(answer: try PluginAnswer(cacheBytes: Data(json.utf8)), tool: "get_current_time")
            #expect(try payload.compactDataJSON() == JSONOutput.compactText(payload), "\(json)")
        }
    }

    @Test("the coordinator reads no rate-limit note for a plugin (a plugin is never told to wait)")
    func noRateLimitNote() throws {
        let spec = try #require(PluginToolSpec(["name": "get_current_time", "inputSchema": ["type": "object"]]))
        let host = try PluginHost(
            settings: Settings(environment: [:], config: [:]), parentEnvironment: [:], folder: nil,
            deadline: .seconds(1), now: Date(), logger: Logger(label: "test"))
        let configuration = PluginConfiguration(name: "time", command: ["true"])
        let provider = PluginProvider(
            configuration: configuration, spec: spec, host: host, tool: "time.get_current_time")
        #expect(provider.mayRateLimit == false)
    }

    @Test("one function picks the fast encoder or JSONEncoder, with the same options")
    func oneEncoder() throws {
        let fast: JSONValue = ["b": "x/y", "a": [1, true]]
        #expect(try PluginJSONLine.encoded(fast, sortedKeys: true) == Array(#"{"a":[1,true],"b":"x/y"}"#.utf8))
        let slow: JSONValue = ["é": .number(1.5), "a": "x/y"]
        let sorted = JSONEncoder()
        sorted.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(try PluginJSONLine.encoded(slow, sortedKeys: true) == Array(try sorted.encode(slow)))
    }
}
