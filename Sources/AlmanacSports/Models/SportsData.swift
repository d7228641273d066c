import AlmanacCore
import Foundation

/// What the sports tool can show.
enum SportsView: String, Sendable, Hashable, Codable, CaseIterable {
    /// The day's games (default).
    case scores
    /// League tables.
    case standings
    /// Headlines.
    case news
    /// A team's upcoming games (needs `--team`).
    case schedule
}

/// A provider's answer for one sports question. Cached as JSON by the coordinator.
enum SportsData: Sendable, Hashable, Codable {
    /// Games on a local day, and the league as upstream names it ("National Basketball Association"), when it says.
    case games([Game], leagueName: String? = nil)
    /// Standings tables.
    case standings(Standings)
    /// Headlines.
    case news([NewsItem])
    /// A team's season schedule.
    case schedule(TeamSchedule)
    /// Web search hits (fallback when ESPN failed).
    case web(WebAnswer)
    /// Golf tournaments, tennis draws, race weekends or fight cards.
    case events(SportEvents)
}

/// League tables: one group per conference, division or single table.
struct Standings: Sendable, Hashable, Codable {
    struct Group: Sendable, Hashable, Codable {
        /// "Eastern Conference", "English Premier League".
        var name: String
        /// Rows in table order.
        var entries: [Entry]
        /// The conference or league a division belongs to ("American League" for "AL East"), when the
        /// answer nests it.
        var parent: String?

        init(name: String, entries: [Entry], parent: String? = nil) {
            self.name = name
            self.entries = entries
            self.parent = parent
        }

        /// Whether `words` name this group: "AL East" for "American League East", "nfc north",
        /// "Eastern Conference", "east" for "Eastern Conference" (case, "conference" and "division" aside).
        func isNamed(_ words: String) -> Bool {
            let wanted = Self.key(words)
            guard !wanted.isEmpty else { return false }
            if Self.key(name) == wanted { return true }
            // A division named only by its direction under its conference ("East" under "American League").
            if let parent, Self.key(parent + " " + name) == wanted { return true }
            return false
        }

        /// Whether every word of `words` is a word of this group's name (with its parent's): "east" for
        /// both "AL East" and "NL East", "al" for every American League division.
        func isLooselyNamed(_ words: String) -> Bool {
            let wanted = Self.key(words).split(separator: " ")
            guard !wanted.isEmpty else { return false }
            let have = Set(Self.key([parent, name].compactMap { $0 }.joined(separator: " ")).split(separator: " "))
            return wanted.allSatisfy(have.contains)
        }

        /// Lowercased words with the long league names shortened and filler words dropped, so the ways
        /// people write a group compare equal: "American League East" and "AL East" are "al east".
        static func key(_ text: String) -> String {
            var words = TeamMatcher.normalize(text)
            for (long, short) in [
                ("american league", "al"), ("national league", "nl"),
                ("american football conference", "afc"), ("national football conference", "nfc"),
            ] {
                words = words.replacingOccurrences(of: long, with: short)
            }
            let directions = ["eastern": "east", "western": "west", "northern": "north", "southern": "south"]
            return words.split(separator: " ").map { directions[String($0)] ?? String($0) }
                .filter { !["conference", "division", "the"].contains($0) }.joined(separator: " ")
        }
    }

    struct Entry: Sendable, Hashable, Codable {
        /// Upstream team id.
        var teamId: String
        /// "Boston Celtics".
        var displayName: String
        /// "Celtics" / "Liverpool".
        var name: String
        /// "BOS".
        var abbreviation: String
        /// Seed or table position.
        var position: Int?
        /// Overall record summary ("61-21", soccer "25-9-4" wins-draws-losses).
        var record: String?
        var wins: Int?
        var losses: Int?
        /// Draws (soccer) or ties.
        var ties: Int?
        /// League points (soccer, hockey).
        var points: Int?
        /// Games behind the leader as upstream writes it ("-", "3", "2.5").
        var gamesBehind: String?
        /// Goal or point difference as upstream writes it ("+45").
        var difference: String?
        /// Upstream qualification note ("Champions League", "Relegation").
        var note: String?
        /// Upstream's clinch mark as it writes it: ESPN's `clincher` ("z", "xp", "e"), MLB's and the NHL's
        /// `clinchIndicator` ("y", "w", "p").
        var clinch: String?
        /// What the mark means, when upstream says (ESPN's stat `description`: "Clinched Conference").
        var clinchMeaning: String?

        init(
            teamId: String, displayName: String, name: String, abbreviation: String, position: Int? = nil,
            record: String? = nil, wins: Int? = nil, losses: Int? = nil, ties: Int? = nil, points: Int? = nil,
            gamesBehind: String? = nil, difference: String? = nil, note: String? = nil, clinch: String? = nil,
            clinchMeaning: String? = nil
        ) {
            self.teamId = teamId
            self.displayName = displayName
            self.name = name
            self.abbreviation = abbreviation
            self.position = position
            self.record = record
            self.wins = wins
            self.losses = losses
            self.ties = ties
            self.points = points
            self.gamesBehind = gamesBehind
            self.difference = difference
            self.note = note
            self.clinch = Self.mark(clinch)
            self.clinchMeaning = clinchMeaning
        }

        /// A clinch mark kept only as the short code upstream writes (letters, `*`), else nil.
        static func mark(_ text: String?) -> String? {
            guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty, text.count <= 3,
                text.unicodeScalars.allSatisfy({ ($0.isASCII && CharacterSet.letters.contains($0)) || $0 == "*" })
            else { return nil }
            return text
        }
    }

    /// "2024-25", when upstream says.
    var season: String?
    var groups: [Group]
}

struct NewsItem: Sendable, Hashable, Codable {
    /// Headline (untrusted text).
    var headline: String
    /// Description (untrusted text).
    var description: String?
    var published: Date?
    var url: String?
    /// "Story", "Media", "Preview".
    var kind: String?
}

/// A team's season schedule.
struct TeamSchedule: Sendable, Hashable, Codable {
    /// The team as upstream names it.
    var team: Game.Side
    /// The season year upstream answered for.
    var season: Int?
    /// Games in date order.
    var games: [Game]
}

/// Hits from a web search standing in for ESPN.
struct WebAnswer: Sendable, Hashable, Codable {
    /// The question sent to the search engine.
    var query: String
    /// The hits (untrusted text).
    var hits: [WebSearchHit]
}

/// A team in a league's directory (ESPN `/teams`).
struct TeamEntry: Sendable, Hashable, Codable {
    /// ESPN id.
    var id: String
    /// "LAL".
    var abbreviation: String
    /// "Los Angeles Lakers".
    var displayName: String
    /// "Lakers".
    var shortDisplayName: String
    /// "Los Angeles".
    var location: String

    init(id: String, abbreviation: String, displayName: String, shortDisplayName: String, location: String) {
        self.id = id
        self.abbreviation = abbreviation
        self.displayName = displayName
        self.shortDisplayName = shortDisplayName
        self.location = location
    }

    var ref: TeamRef { TeamRef(id: id, abbreviation: abbreviation, displayName: displayName, query: displayName) }
}
