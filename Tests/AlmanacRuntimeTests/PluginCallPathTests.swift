import AlmanacCore
import Foundation
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
}
