import AlmanacCore
import AlmanacRuntime
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacLLM

@Suite("Prompt context")
struct ContextTests {
    @Test("routed tools run at once; a failing tool becomes one line naming the provider")
    func parallelWithFailure() async throws {
        let directory = try TempDirectory()
        let barrier = Barrier(count: 2)
        let runtime = try makeRuntime(
            [
                FailingTool(name: "weather", barrier: barrier),
                LinesTool(name: "calendar", lineCount: 2, barrier: barrier),
            ],
            in: directory)
        let question = "weather in Lisbon and my calendar today"
        let router = Router(tools: ["weather", "calendar"], now: runtime.now, timeZone: runtime.timeZone)
        #expect(router.route(question).map(\.description) == ["weather Lisbon today", "calendar today"])
        let context = await PromptContext.gather(question: question, routes: router.route(question), runner: runtime)
        #expect(
            context.render(budget: 1200) == """
                Now: Sun 15 Dec 2024 18:30 EST (America/New_York).

                [weather] unavailable: open-meteo: HTTP 500

                [calendar] calendar: today (ran alongside) · source: stub · fetched 18:29 EST (12 s ago)
                line 1 the and of to in is it you that was for on are with as
                line 2 the and of to in is it you that was for on are with as
                """)
    }

    @Test("a usage error from a tool is one line too")
    func usageFailure() async throws {
        let directory = try TempDirectory()
        let runtime = try makeRuntime([LinesTool(name: "search")], in: directory)
        let context = await PromptContext.gather(
            question: "x", routes: [Route("search", ["--lines", "many"])], runner: runtime)
        #expect(
            context.render(budget: nil).components(separatedBy: "\n").last
                == "[search] unavailable: lines must be a whole number, got 'many'")
    }

    @Test(
        "the budget is split across blocks and each degrades by whole lines",
        arguments: [
            (1200, 12, 12), (400, 12, 7), (200, 12, 2),
        ])
    func budgetSplit(budget: Int, lines: Int, keptEach: Int) async throws {
        let directory = try TempDirectory()
        let runtime = try makeRuntime([LinesTool(name: "search"), LinesTool(name: "calendar")], in: directory)
        let context = await PromptContext.gather(
            question: "q", routes: [Route("search", ["a"]), Route("calendar", ["b"])], runner: runtime)
        let text = context.render(budget: budget)
        let full = context.render(budget: nil).components(separatedBy: "\n")
        let rendered = text.components(separatedBy: "\n")
        // Every line is whole: either a line of the unlimited rendering or an "omitted" note.
        for line in rendered {
            #expect(full.contains(line) || line.hasPrefix("… ") && line.hasSuffix("omitted"))
        }
        #expect(rendered.filter { $0.hasPrefix("line ") }.count == 2 * keptEach)
        #expect(ContextBudget.estimate(text) <= max(budget, 180))
        if keptEach < lines {
            #expect(rendered.filter { $0 == "… \(lines - keptEach) more lines omitted" }.count == 2)
        }
    }

    @Test("budget a small block leaves is given to a block that had to drop lines")
    func spareBudget() async throws {
        let directory = try TempDirectory()
        let runtime = try makeRuntime([LinesTool(name: "search"), FailingTool(name: "weather")], in: directory)
        let context = await PromptContext.gather(
            question: "q", routes: [Route("search", ["a"]), Route("weather", ["b"])], runner: runtime)
        let text = context.render(budget: 300)
        let kept = text.components(separatedBy: "\n").filter { $0.hasPrefix("line ") }.count
        // The failure line is short, so search gets most of the 300 tokens: 10 lines instead of the 4
        // an even split gives.
        #expect(kept == 10)
        #expect(ContextBudget.estimate(text) <= 300)
    }

    @Test("a cut never leaves fenced untrusted text open")
    func fenceStaysClosed() {
        let nonce = UntrustedText.nonce(for: ["a"])
        let text =
            (["[search] header"] + (1...5).map { "line \($0) of trusted text" }
            + [UntrustedText.open(nonce)] + (1...20).map { "snippet \($0) which is long enough to matter here" }
            + [UntrustedText.close(nonce)]).joined(separator: "\n")
        let trimmed = PromptContext.trim(text, to: 120)
        let lines = trimmed.components(separatedBy: "\n")
        #expect(!lines.contains(UntrustedText.open(nonce)))
        #expect(lines.first == "[search] header")
        #expect(lines.last == "… 22 more lines omitted")
        #expect(lines.count == 7)
    }

    @Test("no routed tool still gives the date line")
    func empty() {
        let context = PromptContext(
            question: "hi", blocks: [], now: Date(timeIntervalSince1970: 1_734_305_400),
            timeZone: TimeZone(identifier: "Europe/Lisbon")!)
        #expect(
            context.render(budget: 1200)
                == "Now: Sun 15 Dec 2024 23:30 GMT (Europe/Lisbon).\n(no tool had anything for this question)")
    }
}
