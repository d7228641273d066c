import AlmanacCore
import AlmanacRuntime
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacLLM

/// One question of `Fixtures/questions/questions.json` (see `Fixtures/questions/README.md`).
struct SetQuestion: Decodable, Sendable, CustomTestStringConvertible {
    var question: String
    var now: String
    var tz: String
    var routes: [String]
    var facts: [String]?
    var dependsOn: [String]?
    /// Why the router does not route it as expected yet; such a question is reported, not failed.
    var known: String?

    var testDescription: String { "\(question) @ \(now) \(tz)" }

    static let all: [SetQuestion] = {
        let url = Fixtures.packageRoot().appendingPathComponent("Fixtures/questions/questions.json")
        guard let data = try? Data(contentsOf: url),
            let list = try? JSONDecoder().decode([SetQuestion].self, from: data)
        else { return [] }
        return list
    }()

    var clock: (Date, TimeZone)? {
        guard let date = TimeText.parseInstant(now), let zone = TimeZone(identifier: tz) else { return nil }
        return (date, zone)
    }
}

/// The words of a route line as `Route.description` writes them (POSIX shell quoting: single
/// quotes group words, a backslash outside them escapes the next character).
func routeWords(_ line: String) -> [String] {
    var words: [String] = []
    var current = ""
    var quoted = false
    var escaped = false
    var started = false
    for character in line {
        if escaped {
            current.append(character)
            escaped = false
        } else if character == "\\" && !quoted {
            escaped = true
            started = true
        } else if character == "'" {
            quoted.toggle()
            started = true
        } else if character == " " && !quoted {
            if started { words.append(current) }
            current = ""
            started = false
        } else {
            current.append(character)
            started = true
        }
    }
    if started { words.append(current) }
    return words
}

/// The expected routes of `question` as this build can give them: options of a later capability
/// (a branch not merged yet) dropped as the router drops them; nil when a route needs a tool this
/// build lacks.
func expectedRoutes(_ question: SetQuestion, tools: [any Tool]) -> [String]? {
    var lines: [String] = []
    for line in question.routes {
        let words = routeWords(line)
        guard let name = words.first, let tool = tools.first(where: { $0.name == name }) else { return nil }
        lines.append(Route(name, Router.declared(Array(words.dropFirst()), by: tool.schema)).description)
    }
    return lines
}

@Suite("Question set")
struct QuestionSetTests {
    static let tools = Runtime.defaultTools()

    @Test("the set holds at least 250 questions, each with a clock, a zone and routes")
    func size() {
        #expect(SetQuestion.all.count >= 250)
        for question in SetQuestion.all {
            #expect(question.clock != nil, "\(question.question): bad clock or zone")
            #expect(!question.routes.isEmpty, "\(question.question): no routes")
        }
    }

    @Test(
        "every question that routed as a fan expects still does", arguments: SetQuestion.all.filter { $0.known == nil })
    func routes(question: SetQuestion) throws {
        let (now, zone) = try #require(question.clock)
        // A question whose route needs a tool this build lacks (the page reader) is checked where it exists.
        guard let expected = expectedRoutes(question, tools: Self.tools) else { return }
        let router = Router(registry: ToolRegistry(Self.tools), now: now, timeZone: zone)
        #expect(router.route(question.question).map(\.description) == expected)
    }

    @Test("at least 98 % of the set routes as expected")
    func accuracy() {
        var right = 0
        var counted = 0
        for question in SetQuestion.all {
            guard let (now, zone) = question.clock, let expected = expectedRoutes(question, tools: Self.tools) else {
                continue
            }
            counted += 1
            let router = Router(registry: ToolRegistry(Self.tools), now: now, timeZone: zone)
            if router.route(question.question).map(\.description) == expected { right += 1 }
        }
        #expect(counted >= 250)
        #expect(Double(right) >= 0.98 * Double(counted), "\(right) of \(counted)")
    }

    @Test(
        "replayed on the recordings, the context within the default budget holds the facts the answer needs",
        arguments: SetQuestion.all.filter { $0.facts != nil && $0.known == nil })
    func facts(question: SetQuestion) async throws {
        let directory = try TempDirectory()
        let runtime = try Runtime.make(environment: [
            "HOME": directory.url.path, "ALMANAC_CACHE_DIR": directory.url.path, "ALMANAC_NOW": question.now,
            "ALMANAC_TZ": question.tz, "ALMANAC_REPLAY": Fixtures.packageRoot().appendingPathComponent("Fixtures").path,
            "BRAVE_API_KEY": "replay",
        ])
        let router = Router(registry: runtime.registry, now: runtime.now, timeZone: runtime.timeZone)
        let context = await PromptContext.gather(
            question: question.question, routes: router.route(question.question), runner: runtime)
        let text = context.render(budget: PromptContext.defaultBudget).lowercased()
        for fact in question.facts ?? [] {
            #expect(text.contains(fact.lowercased()), "'\(fact)' missing from:\n\(text)")
        }
    }
}
