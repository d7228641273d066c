import AlmanacCore
import Foundation
import Testing

@testable import AlmanacLLM

/// Questions about the user's own things (issue #34): their teams, their places, their feeds. The
/// router reads words only; the tools resolve them from `[me]` when they run.
@Suite("Router: the profile's questions")
struct ProfileRoutingTests {
    /// Sunday 15 Dec 2024, 18:30 in New York (before 20:00: "did we win" is yesterday's game).
    let router = Router(now: routerNow, timeZone: newYork)

    static let cases: [(String, [String])] = [
        ("did we win?", ["sports --mine --date yesterday"]),
        ("Did we win last night", ["sports --mine --date yesterday"]),
        ("how did my teams do", ["sports --mine --date yesterday"]),
        ("how did my teams do on friday", ["sports --mine --date 2024-12-13"]),
        ("are my teams playing today", ["sports --mine --date today"]),
        ("did we win in the nba", ["sports nba --mine --date yesterday"]),
        // A named team is that team, as before.
        ("did the lakers win?", ["sports nba --team lakers --date yesterday"]),
        ("will it rain at work", ["weather work"]),
        ("will it rain at work tomorrow?", ["weather work tomorrow"]),
        ("what's the weather at home", ["weather home"]),
        ("is it cold at my office today", ["weather office today"]),
        ("what's new", ["news --mine"]),
        ("whats new today?", ["news --mine"]),
        ("anything new in my feeds", []),
        ("my feeds", ["news"]),
        ("my news", ["news --mine"]),
        // A subject stays with web search's news.
        ("latest news about the Mars rover", ["search Mars rover --news"]),
    ]

    @Test("each question routes as expected", arguments: cases)
    func route(_ question: String, _ expected: [String]) {
        let routes = router.route(question).map(\.description)
        if expected.isEmpty {
            #expect(!routes.contains { $0.hasPrefix("news") || $0.hasPrefix("sports") })
        } else {
            #expect(routes == expected, "\(question)")
        }
    }
}
