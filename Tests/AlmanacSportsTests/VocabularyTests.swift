import Foundation
import Testing

@testable import AlmanacSports

@Suite("Sports vocabulary")
struct VocabularyTests {
    @Test("every league is named by its short word, its aliases and its name")
    func leagues() {
        for league in League.all {
            let phrases = SportsVocabulary.leagueNames.filter { $0.league == league }.map(\.phrase)
            #expect(phrases.contains(league.word.replacingOccurrences(of: "-", with: " ")), "\(league.slug)")
            #expect(phrases.contains(SportsVocabulary.spoken(league.name)), "\(league.slug)")
            // The short word is one the CLI accepts for the same league.
            #expect(League.named(league.word) == league, "\(league.word)")
        }
        #expect(League.named("college basketball")?.slug == "mens-college-basketball")
        #expect(SportsVocabulary.leagueNames.contains { $0.phrase == "premier league" && $0.league.slug == "eng.1" })
        #expect(SportsVocabulary.league(forSport: "football")?.slug == "nfl")
        #expect(SportsVocabulary.league(forSport: "soccer") == nil)
    }

    @Test("recorded teams and spoken nicknames make one team each; shared nicknames span leagues")
    func teams() throws {
        let byName = Dictionary(SportsVocabulary.teams.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byName.count == SportsVocabulary.teams.count, "one team per --team word")
        let cavaliers = try #require(byName["cavaliers"])
        #expect(cavaliers.spellings.contains("cavs") && cavaliers.spellings.contains("cleveland cavaliers"))
        #expect(try #require(byName["giants"]).leagues.map(\.slug) == ["nfl", "mlb"])
        #expect(try #require(byName["rangers"]).leagues.map(\.slug) == ["mlb", "nhl"])
        // College teams go by school, which is also a place; soccer clubs by their full name.
        let georgia = try #require(byName["georgia"])
        #expect(georgia.placeSpellings == ["georgia"] && georgia.spellings.contains("georgia bulldogs"))
        #expect(try #require(byName["manchester city"]).spellings.contains("man city"))
        // A spelling a line vouches for is not place-only; a one-word club ESPN names alone is.
        #expect(try #require(byName["liverpool"]).placeSpellings.isEmpty)
        #expect(try #require(byName["fulham"]).placeSpellings == ["fulham"])
        // The bare town ESPN uses as a short name is a place-only spelling when no other team's name
        // holds it (Brighton, Bournemouth), and no spelling when one does (Atlanta: the Hawks, Falcons…).
        let brighton = try #require(byName["brighton hove albion"])
        #expect(brighton.spellings.contains("brighton") && brighton.placeSpellings.contains("brighton"))
        #expect(try #require(byName["afc bournemouth"]).placeSpellings == ["bournemouth"])
        #expect(!(try #require(byName["atlanta united fc"])).spellings.contains("atlanta"))
        #expect(!(try #require(byName["chicago fire fc"])).spellings.contains("chicago"))
        // ESPN's short school name ("Florida St") is the school.
        #expect(try #require(byName["florida state"]).placeSpellings.contains("florida st"))
        #expect(try #require(byName["pittsburgh"]).spellings.contains("pitt"))
    }

    @Test("within a league no spelling names two teams")
    func unambiguous() {
        for league in League.all {
            let spellings = SportsVocabulary.teams.filter { $0.leagues.contains(league) }.flatMap(\.spellings)
            let repeated = Dictionary(grouping: spellings, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
            #expect(repeated.isEmpty, "\(league.slug): \(repeated)")
        }
    }

    @Test("`--team` matching accepts every spelling of every team in the complete recorded leagues")
    func matcherAcceptsVocabulary() throws {
        for slug in ["nba", "nfl", "mlb"] {
            let league = try #require(League.named(slug))
            let recorded = try #require(KnownTeams.directory(for: league))
            for team in SportsVocabulary.teams where team.leagues.contains(league) {
                for spelling in team.spellings {
                    guard case .team(let entry) = TeamMatcher.match(spelling, in: recorded.teams, league: league) else {
                        Issue.record("\(slug): '\(spelling)' matches no single team")
                        continue
                    }
                    #expect(SportsVocabulary.spoken(entry.shortDisplayName) == team.name, "\(slug): '\(spelling)'")
                }
            }
        }
    }
}
