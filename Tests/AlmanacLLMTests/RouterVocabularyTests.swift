import AlmanacCore
import AlmanacRuntime
import AlmanacSports
import Foundation
import Testing

@testable import AlmanacLLM

/// The router's league and team words are the sports module's (`SportsVocabulary`), not a list of its own.
@Suite("Router vocabulary")
struct RouterVocabularyTests {
    let router = Router(now: routerNow, timeZone: newYork)

    @Test("teams the old hand-typed router list did not know are routed from the sports vocabulary", arguments: [
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

    @Test("places and common words that are also teams need a question about sports", arguments: [
        ("will it rain in georgia tomorrow", "weather georgia tomorrow"),
        ("weather in Pittsburgh", "weather Pittsburgh"),
        ("is fulham nice", "search is fulham nice"),
        ("who won the championship", "search who won the championship"),
    ])
    func weakWords(question: String, expected: String) {
        #expect(router.route(question).map(\.description) == [expected])
    }

    @Test("every league name and alias League knows routes to that league")
    func leagueAliases() {
        for name in SportsVocabulary.leagueNames where !Lexicon.commonWords.contains(name.phrase) {
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

    @Test("the router has no team or league list of its own")
    func noOwnList() throws {
        // Every team the router matches is a vocabulary team, spelled as the vocabulary spells it.
        let vocabulary = Dictionary(
            SportsVocabulary.teams.map { ($0.name, Set($0.spellings)) }, uniquingKeysWith: { $0.union($1) })
        for candidate in Router.teamSpellings {
            #expect(vocabulary[candidate.team.name]?.contains(candidate.spelling) == true, "\(candidate.spelling)")
        }
        #expect(Set(Router.teamSpellings.map(\.team.name)) == Set(vocabulary.keys))
        // And its sources spell no team or league, apart from the common English words it must know.
        let words = Set(SportsVocabulary.teams.flatMap(\.spellings) + SportsVocabulary.leagueNames.map(\.phrase))
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/AlmanacLLM/Router").standardized
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count >= 3)
        for file in files {
            // Code only: comments may quote examples ("sports nba --team lakers").
            let code = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                .split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
                .joined(separator: "\n")
            let literals = code.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            for literal in literals where words.contains(literal) {
                #expect(Lexicon.commonWords.contains(literal), "\(file) spells '\(literal)'")
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
