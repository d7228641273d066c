import Testing

@testable import AlmanacCalendar

/// One reader of clock words (``ClockWords``) behind `--due`/`--at` words, the write questions and
/// the free/busy questions; each keeps its own rule for a bare hour.
@Suite("clock words: one reader")
struct ClockWordsTests {
    @Test(
        "times as people write them",
        arguments: [
            ("6pm", nil, 18, 0, true), ("6", "pm", 18, 0, true), ("6:30", nil, 6, 30, false),
            ("6.30pm", nil, 18, 30, true), ("6", "a.m.", 6, 0, true), ("12am", nil, 0, 0, true),
            ("12pm", nil, 12, 0, true), ("15:00", nil, 15, 0, false), ("noon", nil, 12, 0, true),
            ("midday", nil, 12, 0, true), ("midnight", nil, 0, 0, true),
        ] as [(String, String?, Int, Int, Bool)])
    func read(_ word: String, _ next: String?, _ hour: Int, _ minute: Int, _ marked: Bool) throws {
        let clock = try #require(ClockWords(word, next: next))
        #expect(clock.hour == hour)
        #expect(clock.minute == minute)
        #expect((clock.said == .marked) == marked)
        #expect(clock.usedNext == (next != nil))
    }

    @Test("not times", arguments: ["24", "13pm", "0am", "6:5", "6:60", "+6", "am", "pm", "six", "6:30:00", ""])
    func notTimes(_ word: String) {
        #expect(ClockWords(word, next: nil) == nil)
    }

    @Test("each reader keeps its own bare-hour rule over the same words")
    func callers() {
        // `--due` words: a bare 1 to 7 is the evening.
        #expect(WhenReader.clock("6", next: nil)?.seconds == 18 * 3600)
        #expect(WhenReader.clock("6:30", next: "pm")?.seconds == 18 * 3600 + 1800)
        #expect(WhenReader.clock("6:30", next: "pm")?.used == 2)
        #expect(WhenReader.clock("8", next: nil)?.seconds == 8 * 3600)
        // Write questions: the hour as read, and whether the words said which half of the day.
        let bare = CalendarWriteQuestion.When.clock("6", next: nil)
        #expect(bare?.hour == 6 && bare?.marked == false)
        #expect(CalendarWriteQuestion.When.clock("15:00", next: nil)?.marked == true)
        #expect(CalendarWriteQuestion.When.clock("6", next: "pm")?.hour == 18)
    }
}
