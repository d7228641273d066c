import Foundation
import Testing

@testable import AlmanacCore

@Suite("Parameter keys")
struct ParameterKeyTests {
    enum Key: String {
        case league, count, next, day
    }

    let schema = ToolSchema([
        ToolParameter(Key.league, .string, help: "league", placement: .positional, required: true),
        ToolParameter(Key.count, .integer, help: "how many", aliases: ["-n"]),
        ToolParameter(Key.next, .boolean, help: "next game"),
        ToolParameter(Key.day, .string, help: "day"),
    ])

    @Test("the schema and the reader meet through one key")
    func roundTrip() throws {
        let arguments = try ToolArguments.parse(
            cli: ["nba", "-n", "3", "--next", "--day", "2026-11-28"], schema: schema, tool: "sports")
        #expect(schema.parameters.map(\.name) == ["league", "count", "next", "day"])
        #expect(arguments.string(Key.league) == "nba")
        #expect(arguments.integer(Key.count) == 3)
        #expect(try arguments.integer(Key.count, in: 1...5, example: "3") == 3)
        #expect(arguments.number(Key.count) == 3)
        #expect(arguments.flag(Key.next))
        #expect(arguments.has(Key.day) && !ToolArguments().has(Key.day))
        let zone = try #require(TimeZone(identifier: "Europe/Lisbon"))
        let start = try #require(try arguments.day(Key.day, now: Date(), in: zone))
        #expect(TimeText.isoDay(start, in: zone) == "2026-11-28")
    }

    @Test("a keyed check names the parameter as the string form does")
    func errors() throws {
        let arguments = try ToolArguments.parse(cli: ["nba", "-n", "9"], schema: schema, tool: "sports")
        #expect(throws: AlmanacError.self) { try arguments.integer(Key.count, in: 1...5, example: "3") }
        let blank = ToolArguments(["league": .string("  ")])
        #expect(throws: AlmanacError.self) { try blank.text(Key.league, needs: "a league", example: "nba") }
    }
}
