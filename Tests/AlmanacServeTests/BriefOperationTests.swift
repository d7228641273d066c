import AlmanacCore
import AlmanacRuntime
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacServe

/// `tools serve` publishes the briefing as an OpenAPI operation and answers it like any tool, on
/// the replayed morning after the Lakers' 15 Dec 2024 game.
@Suite("tools serve: the briefing as an OpenAPI operation")
struct BriefOperationTests {
    @Test("POST /tools/brief is in the OpenAPI document and answers the envelope with data.sections")
    func operation() async throws {
        let directory = try TempDirectory()
        let runtime = try Runtime.make(
            environment: ServePeers.replayEnvironment(
                directory.url,
                extra: [
                    "ALMANAC_NOW": "2024-12-16T12:00:00Z", "ALMANAC_TZ": "America/New_York",
                    "ALMANAC_ME_TEAMS": "nba:lakers",
                ]))
        let api = ToolAPI(
            runtime: runtime, budget: nil, metrics: ServeMetrics(tools: runtime.publishedTools.map(\.name)))
        guard case .object(let root) = api.openAPI(version: "1", bearer: false),
            case .object(let paths)? = root["paths"],
            case .object(let brief)? = paths["/tools/brief"], case .object(let post)? = brief["post"]
        else {
            Issue.record("no /tools/brief operation")
            return
        }
        #expect(post["operationId"] == .string("brief"))
        let answer = await api.call("brief", body: Array(#"{"for": "morning", "budget": 300}"#.utf8))
        #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
        let envelope = try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
        #expect(envelope["tool"] as? String == "brief")
        let data = try #require(envelope["data"] as? [String: Any])
        let sections = try #require(data["sections"] as? [[String: Any]])
        let teams = try #require(sections.first { $0["name"] as? String == "teams" })
        // Lakers 116, Grizzlies 110 (nba-scoreboard-final-2024-12-15 upstream bytes).
        #expect((teams["lines"] as? [String])?.first == "Final: Grizzlies (18-9) 110 @ Lakers (14-12) 116 · Lakers won")
    }
}
