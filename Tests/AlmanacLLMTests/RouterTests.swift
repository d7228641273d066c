import AlmanacCore
import Foundation
import Testing

@testable import AlmanacLLM

/// Reference time for every routing case: Sunday 15 Dec 2024, 18:30 in New York (23:30Z).
let routerNow = Date(timeIntervalSince1970: 1_734_305_400)
let newYork = TimeZone(identifier: "America/New_York")!

@Suite("Router")
struct RouterTests {
    let router = Router(now: routerNow, timeZone: newYork)

    /// Question → expected routes (one `tool words` string per route).
    static let cases: [(String, [String])] = [
        // Sports: team → league, past tense → last game (yesterday before 20:00)
        ("did the lakers win?", ["sports nba --team lakers --date yesterday"]),
        ("Did the Celtics win last night?", ["sports nba --team celtics --date yesterday"]),
        ("lakers score", ["sports nba --team lakers"]),
        ("are the knicks playing tonight", ["sports nba --team knicks --date today"]),
        ("when do the warriors play next?", ["sports nba --team warriors --next"]),
        ("lakers next game", ["sports nba --team lakers --next"]),
        ("nba scores", ["sports nba"]),
        ("NBA scores yesterday", ["sports nba --date yesterday"]),
        ("nba standings", ["sports nba standings"]),
        ("nfl scores today", ["sports nfl --date today"]),
        ("how did the chiefs do?", ["sports nfl --team chiefs --date yesterday"]),
        ("did the 49ers win on thursday", ["sports nfl --team 49ers --date 2024-12-12"]),
        ("eagles game tomorrow", ["sports nfl --team eagles --date tomorrow"]),
        ("who won the giants game", ["sports nfl --team giants --date yesterday"]),
        ("giants baseball score", ["sports mlb --team giants"]),
        ("yankees schedule", ["sports mlb schedule --team yankees"]),
        ("red sox news", ["sports mlb news --team 'red sox'"]),
        ("did the maple leafs win", ["sports nhl --team 'maple leafs' --date yesterday"]),
        ("NHL standings", ["sports nhl standings"]),
        ("rangers hockey score last night", ["sports nhl --team rangers --date yesterday"]),
        ("premier league table", ["sports epl standings"]),
        ("did arsenal win yesterday", ["sports epl --team arsenal --date yesterday"]),
        ("real madrid next match", ["sports laliga --team 'real madrid' --next"]),
        ("champions league results", ["sports ucl --date yesterday"]),
        ("college football scores saturday", ["sports ncaaf --date 2024-12-21"]),
        ("miami heat score", ["sports nba --team heat"]),
        ("nba games on 2024-12-25", ["sports nba --date 2024-12-25"]),
        ("nfl games december 22", ["sports nfl --date 2024-12-22"]),
        ("lakers injury news", ["sports nba news --team lakers"]),
        ("mls scores this weekend", ["sports mls schedule"]),
        // Golf, tennis, racing, MMA: the sport's league, and the person asked about as --player
        ("how is scheffler doing at the masters", ["sports pga --player scheffler --date 2025-04-13"]),
        ("is verstappen winning the grand prix", ["sports f1 --player verstappen"]),
        ("how did rory mcilroy do at the masters yesterday", ["sports pga --player mcilroy --date yesterday"]),
        ("Did Sinner win at Wimbledon?", ["sports atp --player sinner --date 2024-07-14"]),
        ("is jon jones fighting at ufc tonight", ["sports ufc --player 'jon jones' --date today"]),
        ("Scheffler score at the Masters", ["sports pga --player scheffler --date 2025-04-13"]),
        ("who won the masters", ["sports pga --date 2024-04-14"]),
        ("is norris leading the race", ["sports f1 --player norris"]),
        ("who is leading the masters", ["sports pga --date 2025-04-13"]),
        ("when is the next grand prix", ["sports f1 --next"]),
        // Weather: place and day
        ("weather in Lisbon", ["weather Lisbon"]),
        ("What's the weather in Lisbon tomorrow?", ["weather Lisbon tomorrow"]),
        ("Will it rain in New York tomorrow?", ["weather New York tomorrow"]),
        ("how hot will it be in Phoenix on friday", ["weather Phoenix friday"]),
        ("Paris forecast", ["weather Paris"]),
        ("Berlin weather this weekend", ["weather Berlin --days 1"]),
        ("weather for Paris, TX", ["weather Paris, TX"]),
        ("do I need an umbrella today", ["weather --day today"]),
        ("hourly forecast for Chicago", ["weather Chicago --hourly"]),
        ("weather in Tokyo tonight", ["weather Tokyo today --hourly"]),
        ("temperature in Denver in fahrenheit", ["weather Denver --units imperial"]),
        ("is it going to snow in Denver this week", ["weather Denver --days 7"]),
        ("what's the weather like", ["weather"]),
        ("weather in San Francisco on 2024-12-20", ["weather San Francisco 2024-12-20"]),
        ("will it be windy in Chicago this afternoon", ["weather Chicago --hourly"]),
        // Calendar: day range
        ("what's on my calendar today", ["calendar today"]),
        ("my calendar tomorrow", ["calendar tomorrow"]),
        ("do I have any meetings this week?", ["calendar week"]),
        ("what do I have on friday", ["calendar --from 2024-12-20 --to 2024-12-20"]),
        ("my agenda next week", ["calendar --from 2024-12-16 --to 2024-12-22"]),
        ("what are my next 3 meetings", ["calendar next 3"]),
        ("when is my next meeting", ["calendar next 1"]),
        ("when is my dentist appointment", ["calendar next 5 --search dentist"]),
        ("show my tasks", ["calendar tasks"]),
        ("what's on my to-do list", ["calendar tasks"]),
        ("am I free tomorrow afternoon", ["calendar free --from 2024-12-16 --to 2024-12-16 --hours 12-18"]),
        ("what meetings did I have yesterday", ["calendar --from 2024-12-14 --to 2024-12-14"]),
        ("my schedule this weekend", ["calendar --from 2024-12-15 --to 2024-12-15"]),
        // Several tools at once
        ("weather in Lisbon and my calendar today", ["weather Lisbon today", "calendar today"]),
        (
            "did the lakers win and what's the weather in LA",
            [
                "sports nba --team lakers --date yesterday", "weather LA",
            ]
        ),
        ("my meetings tomorrow and will it rain in Boston", ["calendar tomorrow", "weather Boston tomorrow"]),
        (
            "did the lakers and the celtics win",
            [
                "sports nba --team lakers --date yesterday", "sports nba --team celtics --date yesterday",
            ]
        ),
        (
            "weather in Lisbon tomorrow and did the celtics win?",
            [
                "weather Lisbon tomorrow", "sports nba --team celtics --date yesterday",
            ]
        ),
        ("weather in Lisbon and Porto", ["weather Lisbon", "weather Porto"]),
        (
            "weather in Lisbon and who is the president of France",
            [
                "weather Lisbon", "search who is the president of France",
            ]
        ),
        // Search: the rest
        ("who wrote war and peace", ["search who wrote war and peace"]),
        ("swift 6 release notes", ["search swift 6 release notes"]),
        ("latest news about the Mars rover", ["search Mars rover --news"]),
        ("search for best pizza in Naples", ["search best pizza in Naples"]),
        ("what is the capital of Australia?", ["search what is the capital of Australia"]),
        ("top 3 results for rust async", ["search results for rust async --count 3"]),
        ("headlines today", ["search headlines today --news"]),
        ("how do I use --verbose in curl", ["search -- how do I use --verbose in curl"]),
        ("is the heat wave over", ["search is the heat wave over"]),
        ("the magic flute opera", ["search the magic flute opera"]),
    ]

    @Test("routes a question to tools and CLI words", arguments: cases)
    func routes(question: String, expected: [String]) {
        #expect(router.route(question).map(\.description) == expected)
    }

    @Test("at least 60 varied questions are covered")
    func coverage() {
        #expect(Self.cases.count >= 60)
        let tools = Set(Self.cases.flatMap(\.1).compactMap { $0.split(separator: " ").first.map(String.init) })
        #expect(tools == ["sports", "weather", "calendar", "search"])
    }

    @Test(
        "a golf word in a weather question, or a capitalised place, is no player",
        arguments: [
            "weather for golf on saturday in Augusta", "is it windy for golf today",
            "is it going to rain at the masters tomorrow",
        ])
    func individualSportWeather(question: String) {
        let routes = router.route(question)
        #expect(routes.contains { $0.tool == "weather" })
        #expect(!routes.contains { $0.words.contains("--player") })
    }

    @Test("routing is deterministic for the same question, time and zone")
    func deterministic() {
        for (question, _) in Self.cases.prefix(20) {
            #expect(router.route(question) == router.route(question))
        }
    }

    @Test("late in the evening a past-tense question means today's game")
    func lateEvening() {
        let late = Router(now: routerNow.addingTimeInterval(3 * 3600), timeZone: newYork)  // 21:30
        #expect(late.route("did the lakers win?").map(\.description) == ["sports nba --team lakers --date today"])
    }

    @Test(
        "a shared nickname picks the league in season",
        arguments: [
            (1_719_000_000.0, "sports mlb --team giants"),  // June: baseball
            (1_734_305_400.0, "sports nfl --team giants"),  // December: football
        ])
    func season(time: Double, expected: String) {
        let router = Router(now: Date(timeIntervalSince1970: time), timeZone: newYork)
        #expect(router.route("giants score").map(\.description) == [expected])
    }

    @Test("a tool that is not installed falls back to search; no search means no route")
    func fallback() {
        let onlySearch = Router(tools: ["search"], now: routerNow, timeZone: newYork)
        #expect(onlySearch.route("did the lakers win?").map(\.description) == ["search did the lakers win"])
        let none = Router(tools: ["weather"], now: routerNow, timeZone: newYork)
        #expect(none.route("did the lakers win?").isEmpty)
        #expect(none.route("weather in Oslo").map(\.description) == ["weather Oslo"])
    }

    @Test("route lines quote words a shell would split")
    func quoting() {
        #expect(Route("weather", ["St.", "John's"]).description == "weather St. 'John'\\''s'")
        #expect(Route("sports", ["mlb", "--team", "red sox"]).description == "sports mlb --team 'red sox'")
    }
}
