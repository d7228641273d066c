import Foundation
import Testing

@testable import AlmanacCore

@Suite("Profile ([me])")
struct ProfileTests {
    @Test("every key read as written, places inline or as a [me.places] table")
    func full() throws {
        let inline = try Profile.read(
            Settings(
                config: TOML.parse(
                    """
                    [me]
                    home = "Lisbon"                        # a place name, or "38.72,-9.14"
                    places = { work = "Porto", mum = "Braga" }
                    teams = ["nba:lakers", "epl:arsenal"]
                    feeds = ["https://example.org/feed.xml", "~/feeds.opml"]
                    calendars = ["work", "family"]
                    topics = ["swift", "formula 1"]
                    """)))
        #expect(inline.home == "Lisbon")
        #expect(inline.places == ["work": "Porto", "mum": "Braga"])
        #expect(inline.teams == ["nba:lakers", "epl:arsenal"])
        #expect(inline.feeds == ["https://example.org/feed.xml", "~/feeds.opml"])
        #expect(inline.calendars == ["work", "family"])
        #expect(inline.topics == ["swift", "formula 1"])
        #expect(inline.warnings.isEmpty)
        let tables = try Profile.read(
            Settings(config: TOML.parse("[me]\nhome = \"38.72,-9.14\"\n[me.places]\nwork = \"Porto\"\n")))
        #expect(tables.home == "38.72,-9.14")
        #expect(tables.place(named: "Work")?.place == "Porto")
        #expect(tables.place(named: "gym") == nil)
    }

    @Test("the topics a call searches: spacing and case aside once each, in order, at most three")
    func searchedTopics() {
        let profile = Profile(topics: ["Swift", "swift", "formula\u{A0} 1", "Formula 1", "SWIFT", "rust", "go", "zig"])
        #expect(profile.searchedTopics == ["Swift", "formula 1", "rust"])
        #expect(Profile.maximumSearchedTopics == 3)
        #expect(Profile(topics: ["a  b", "c"]).searchedTopics == ["a b", "c"])
        // Read as the news tool reads `--topic`: the same function, so the two never disagree.
        let written = ["\r\n swift\tnews\u{A0}", " \n", "café  au lait"]
        #expect(Profile(topics: written).searchedTopics == written.map(Spaces.collapse).filter { !$0.isEmpty })
    }

    @Test("no [me] is an empty profile; the environment wins over the file")
    func emptyAndEnvironment() throws {
        #expect(try Profile.read(Settings()).isEmpty)
        let settings = Settings(
            environment: ["ALMANAC_ME_HOME": "Oslo", "ALMANAC_ME_TEAMS": "nhl:oilers,nba:lakers"],
            config: try TOML.parse("[me]\nhome = \"Lisbon\"\nteams = [\"epl:arsenal\"]\n"))
        let profile = try Profile.read(settings)
        #expect(profile.home == "Oslo")
        #expect(profile.teams == ["nhl:oilers", "nba:lakers"])
    }

    @Test("a wrong type is one usage line naming the key and showing a right example")
    func badTypes() throws {
        let cases: [(String, String, String)] = [
            ("[me]\nhome = 5\n", "[me] home", "home = \"Lisbon\""),
            ("[me]\nplaces = [\"Porto\"]\n", "[me] places", "places = { work = \"Porto\""),
            ("[me]\nplaces = { work = 1 }\n", "[me] places: work", "places = {"),
            ("[me]\nteams = \"nba:lakers\"\nfeeds = [1]\n", "[me] feeds", "feeds = ["),
            ("[me]\ntopics = [\"swift\", true]\n", "[me] topics", "topics = ["),
            ("me = \"x\"\n", "[me] must be a table", "[me]"),
        ]
        for (text, named, example) in cases {
            do {
                _ = try Profile.read(Settings(config: TOML.parse(text)))
                Issue.record("accepted \(text)")
            } catch let error as AlmanacError {
                #expect(error.kind == .usage)
                #expect(error.message.contains(named), "\(error.message)")
                #expect(error.suggestion?.contains(example) == true, "\(error.suggestion ?? "")")
                #expect(!error.message.contains("\n"))
            }
        }
        // One string is a one-item list, as for every list setting.
        #expect(
            try Profile.read(Settings(config: TOML.parse("[me]\nteams = \"nba:lakers\"\n"))).teams == ["nba:lakers"])
    }

    @Test("an unknown key in [me] is a warning, not an error")
    func unknownKey() throws {
        let profile = try Profile.read(
            Settings(config: TOML.parse("[me]\nteam = [\"nba:lakers\"]\nhome = \"Lisbon\"\n")))
        #expect(profile.home == "Lisbon")
        #expect(profile.warnings.count == 1)
        #expect(profile.warnings.first?.hasPrefix("[me] team is not a profile key") == true)
    }

    @Test("team entries split at the first colon")
    func teamEntries() {
        #expect(Profile.team("NBA:lakers")?.league == "nba")
        #expect(Profile.team("epl: Arsenal")?.team == "Arsenal")
        #expect(Profile.team("lakers") == nil)
        #expect(Profile.team("nba:") == nil)
    }
}
