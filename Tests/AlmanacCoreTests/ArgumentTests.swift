import Foundation
import Testing

@testable import AlmanacCore

@Suite("Tool arguments")
struct ArgumentTests {
    let schema = ToolSchema([
        ToolParameter("league", .string, help: "league", placement: .positional, required: true),
        ToolParameter("view", .choice(["scores", "standings", "news"]), help: "what to show", placement: .positional),
        ToolParameter("team", .string, help: "team name"),
        ToolParameter("count", .integer, help: "how many", aliases: ["-n"]),
        ToolParameter("next", .boolean, help: "next game"),
    ])

    @Test("positionals fill in order; options and switches parse anywhere")
    func basic() throws {
        let arguments = try ToolArguments.parse(
            cli: ["nba", "--team", "lakers", "standings", "-n", "3", "--next"], schema: schema, tool: "sports")
        #expect(arguments.string("league") == "nba")
        #expect(arguments.string("view") == "standings")
        #expect(arguments.string("team") == "lakers")
        #expect(arguments.integer("count") == 3)
        #expect(arguments.flag("next"))
    }

    @Test("--name=value works and an optional choice positional is skipped when it does not match")
    func inlineAndSkip() throws {
        let arguments = try ToolArguments.parse(cli: ["nba", "--team=LAL"], schema: schema, tool: "sports")
        #expect(arguments.string("team") == "LAL")
        #expect(arguments.string("view") == nil)
    }

    @Test("remainder joins the rest of the words")
    func remainder() throws {
        let schema = ToolSchema([ToolParameter("query", .string, help: "q", placement: .remainder, required: true)])
        let arguments = try ToolArguments.parse(cli: ["swift", "6", "release"], schema: schema, tool: "search")
        #expect(arguments.string("query") == "swift 6 release")
    }

    @Test("an unknown option names itself and suggests the closest one")
    func unknownOption() {
        let error = #expect(throws: AlmanacError.self) {
            try ToolArguments.parse(cli: ["nba", "--tema", "lakers"], schema: schema, tool: "sports")
        }
        #expect(error?.message == "unknown option '--tema' for sports")
        #expect(error?.suggestion == "did you mean '--team'?")
        #expect(error?.exitStatus == 64)
    }

    @Test("a bad number says what was expected")
    func badNumber() {
        let error = #expect(throws: AlmanacError.self) {
            try ToolArguments.parse(cli: ["nba", "--count", "three"], schema: schema, tool: "sports")
        }
        #expect(error?.message == "count must be a whole number, got 'three'")
    }

    @Test("a missing required argument prints the usage")
    func missing() {
        let error = #expect(throws: AlmanacError.self) {
            try ToolArguments.parse(cli: [], schema: schema, tool: "sports")
        }
        #expect(error?.message == "missing league for sports")
        #expect(
            error?.suggestion
                == "usage: tools run sports <league> [scores|standings|news] [--team <team>] [--count <count>] [--next]"
        )
    }

    @Test("JSON arguments are checked against the same schema")
    func json() throws {
        let arguments = try ToolArguments.parse(
            json: ["league": "nba", "count": .number(5), "next": true], schema: schema, tool: "sports")
        #expect(arguments.integer("count") == 5)
        #expect(arguments.flag("next"))
        #expect(throws: AlmanacError.self) {
            try ToolArguments.parse(json: ["league": "nba", "view": "scorez"], schema: schema, tool: "sports")
        }
    }

    @Test("the JSON schema lists types, enums and required parameters")
    func jsonSchema() throws {
        let object = try #require(schema.jsonSchema.objectValue)
        #expect(object["required"] == .array(["league"]))
        let properties = try #require(object["properties"]?.objectValue)
        #expect(properties["view"]?.objectValue?["enum"] == .array(["scores", "standings", "news"]))
        #expect(properties["count"]?.objectValue?["type"] == "integer")
    }

    @Test("did-you-mean finds close words only")
    func suggest() {
        #expect(Suggest.closest(to: "nbaa", in: ["nba", "nfl", "mlb"]) == "nba")
        #expect(Suggest.closest(to: "cricket", in: ["nba", "nfl", "mlb"]) == nil)
        // A swap of two neighbouring letters, and nothing else.
        #expect(Suggest.isSwap("lakres", "lakers") && Suggest.isSwap("alkers", "lakers"))
        #expect(!Suggest.isSwap("lakers", "lakers") && !Suggest.isSwap("lakes", "lakers"))
        #expect(!Suggest.isSwap("lakrse", "lakers") && !Suggest.isSwap("kalers", "lakers"))
    }

    @Test("the shared reader: blank text, counts out of range and bad days are one line naming the argument")
    func sharedReader() throws {
        let given = ToolArguments([
            "team": .string("  lakers "), "blank": .string(" "), "count": .integer(0), "date": .string(""),
        ])
        #expect(try given.text("team", needs: "a name", example: "--team lakers") == "lakers")
        #expect(try given.text("absent", needs: "a name", example: "--absent x") == nil)
        let blank = #expect(throws: AlmanacError.self) {
            try given.text("blank", needs: "a name", example: "--blank x")
        }
        #expect(blank?.message == "--blank needs a name")
        #expect(blank?.suggestion == "e.g. --blank x")
        let low = #expect(throws: AlmanacError.self) { try given.integer("count", in: 1...20, example: "--count 5") }
        #expect(low?.message == "count must be between 1 and 20, got '0'")
        let open = #expect(throws: AlmanacError.self) {
            try given.integer("count", in: 1...Int.max, example: "--count 5")
        }
        #expect(open?.message == "count must be 1 or more, got '0'")
        #expect(try given.integer("absent", in: 1...20, example: "") == nil)
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        let now = Date(timeIntervalSince1970: 1_734_300_000)  // Sun 15 Dec 2024 22:00 UTC, 17:00 in New York
        let empty = #expect(throws: AlmanacError.self) { try given.day("date", now: now, in: zone) }
        #expect(empty?.message == "bad date ''")
        let tomorrow = try ToolArguments(["date": .string("tomorrow")]).day("date", now: now, in: zone)
        #expect(tomorrow == Date(timeIntervalSince1970: 1_734_325_200))  // Mon 16 Dec 2024 00:00 EST
    }
}
