import AlmanacCore
import AlmanacRuntime
import Foundation
import Testing

@testable import AlmanacLLM
@testable import AlmanacSports

/// The router's league and team words are the sports module's (`SportsVocabulary`), not a list of its own.
@Suite("Router vocabulary")
struct RouterVocabularyTests {
    let router = Router(now: routerNow, timeZone: newYork)

    @Test(
        "teams the old hand-typed router list did not know are routed from the sports vocabulary",
        arguments: [
            ("did fulham win yesterday", "sports epl --team fulham --date yesterday"),
            ("crystal palace score", "sports epl --team 'crystal palace'"),
            ("georgia football score", "sports ncaaf --team georgia"),
            ("notre dame basketball score", "sports ncaab --team 'notre dame'"),
            ("kentucky basketball score", "sports ncaab --team kentucky"),  // recorded in college football only
            ("new york liberty score", "sports wnba --team liberty"),
            ("did the coyotes win", "sports nhl --team coyotes --date yesterday"),
            ("atlanta united fc next match", "sports mls --team 'atlanta united fc' --next"),
            ("did cf montréal win", "sports mls --team 'cf montreal' --date yesterday"),
        ])
    func vocabularyTeams(question: String, expected: String) {
        #expect(router.route(question).map(\.description) == [expected])
    }

    @Test(
        "places and common words that are also teams need a question about sports",
        arguments: [
            ("will it rain in georgia tomorrow", "weather georgia tomorrow"),
            ("weather in Pittsburgh", "weather Pittsburgh"),
            ("is fulham nice", "search is fulham nice"),
            ("who won the championship", "search who won the championship"),
        ])
    func weakWords(question: String, expected: String) {
        #expect(router.route(question).map(\.description) == [expected])
    }

    @Test(
        "a club ESPN names by its bare town is that club in a question about sports, the place otherwise",
        arguments: [
            ("did bournemouth win yesterday", "sports epl --team 'afc bournemouth' --date yesterday"),
            ("where are leicester in the table", "sports epl standings --team 'leicester city'"),
            ("weather in bournemouth", "weather bournemouth"),
            ("is it cold in leicester tomorrow", "weather leicester tomorrow"),
            // Another team's name holds Chicago (the Bulls, Bears, Cubs…): the bare town names no club.
            ("did chicago win yesterday", "search did chicago win yesterday"),
            ("florida st basketball score", "sports ncaab --team 'florida state'"),
            ("did nycfc beat the red bulls", "sports mls --team 'new york city fc' --date yesterday"),
            ("red bulls score", "sports mls --team 'new york red bulls'"),
        ])
    func townsAndShortNames(question: String, expected: String) {
        #expect(router.route(question).map(\.description) == [expected])
    }

    @Test(
        "a team name one slip off is that team in a question about sports, never another real word",
        arguments: [
            ("lakres score", "sports nba --team lakers"),
            ("did the celitcs win", "sports nba --team celtics --date yesterday"),
            ("warrios score tonight", "sports nba --team warriors --date today"),
            ("lakes near me", "search lakes near me"),
            ("lakres", "search lakres"),
            ("how many lakes are in minnesota", "search how many lakes are in minnesota"),
            // Four letters or fewer, or one letter off a short name: too many real words are that close.
            ("did the bolts win", "search did the bolts win"),
            ("nba scores today", "sports nba --date today"),
        ])
    func typos(question: String, expected: String) {
        #expect(router.route(question).map(\.description) == [expected])
    }

    @Test(
        "a tournament the table does not list goes to golf or tennis with the words of its name",
        arguments: [
            ("who won the myrtle beach classic", ["sports pga --event 'myrtle beach classic' --date 2024-12-15"]),
            ("how is scheffler doing at the myrtle beach", ["sports pga --player scheffler --event 'myrtle beach'"]),
            ("did sinner win the qatar open", ["sports atp --player sinner --event 'qatar open' --date 2024-12-15"]),
            (
                "who won the qatar open",
                [
                    "sports pga --event 'qatar open' --date 2024-12-15",
                    "sports atp --event 'qatar open' --date 2024-12-15",
                ]
            ),
            (
                "who is winning the qatar womens open",
                [
                    "sports lpga --event 'qatar womens open'", "sports wta --event 'qatar womens open'",
                ]
            ),
            ("who won the national championship", ["search who won the national championship"]),
            ("who won the big ten championship", ["search who won the big ten championship"]),
            ("is walmart open today", ["search is walmart open today"]),
            ("how is mom doing at the hospital", ["search how is mom doing at the hospital"]),
        ])
    func unlistedEvents(question: String, expected: [String]) {
        #expect(router.route(question).map(\.description) == expected)
    }

    @Test("every league name and alias League knows routes to that league")
    func leagueAliases() {
        // A named event's phrase ("march madness") dates the route by the event; SportsQuestionTests cover those.
        let events = Set(SportsQuestionWords.events.flatMap(\.phrases))
        for name in SportsVocabulary.leagueNames
        where !SportsQuestionWords.commonWords.contains(name.phrase) && !events.contains(name.phrase) {
            let routes = router.route("\(name.phrase) scores")
            #expect(routes.map(\.description) == ["sports \(name.league.word)"], "\(name.phrase)")
        }
        // Aliases the old router list lacked.
        #expect(router.route("efl scores").map(\.description) == ["sports efl"])
        #expect(router.route("primeira liga table").map(\.description) == ["sports primeira-liga standings"])
    }

    @Test("every team in the sports vocabulary is routed by its --team word")
    func everyTeam() {
        for team in SportsVocabulary.teams {
            let routes = router.route("did the \(team.name) win")
            let words = routes.first?.words ?? []
            #expect(routes.count == 1 && routes.first?.tool == SportsTool().name, "\(team.name): \(routes)")
            #expect(Array(words.dropFirst().prefix(2)) == ["--team", team.name], "\(team.name): \(routes)")
            #expect(team.leagues.map(\.word).contains(words.first ?? ""), "\(team.name): \(routes)")
        }
    }

    @Test("the router has no word list of its own and imports no tool module")
    func noOwnList() throws {
        // Every team the sports reader matches is a vocabulary team, spelled as the vocabulary spells it.
        let vocabulary = Dictionary(
            SportsVocabulary.teams.map { ($0.name, Set($0.spellings)) }, uniquingKeysWith: { $0.union($1) })
        for candidate in SportsQuestionReader.teamSpellings {
            #expect(vocabulary[candidate.team.name]?.contains(candidate.spelling) == true, "\(candidate.spelling)")
        }
        #expect(Set(SportsQuestionReader.teamSpellings.map(\.team.name)) == Set(vocabulary.keys))
        // The router's sources spell no team or league and import only Core and the runtime.
        let words = Set(SportsVocabulary.teams.flatMap(\.spellings) + SportsVocabulary.leagueNames.map(\.phrase))
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/AlmanacLLM").standardized
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count >= 5)
        for file in files {
            let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for module in ["AlmanacSports", "AlmanacWeather", "AlmanacCalendar", "AlmanacSearch"] {
                #expect(!source.contains("import \(module)"), "\(file) imports \(module)")
            }
            // Code only: comments may quote examples ("sports nba --team lakers").
            let code = source.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
                .joined(separator: "\n")
            let literals = code.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map {
                String($0.element)
            }
            for literal in literals where words.contains(literal) {
                Issue.record("\(file) spells '\(literal)'")
            }
        }
    }

    @Test("routes name tools the registry has")
    func toolNames() {
        let names = Set(Runtime.defaultTools().map(\.name))
        for (question, _) in RouterTests.cases {
            for route in router.route(question) { #expect(names.contains(route.tool), "\(question)") }
        }
    }
}
