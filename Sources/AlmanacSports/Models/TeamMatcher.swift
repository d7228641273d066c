import AlmanacCore
import Foundation

/// The offline team directory: teams named in recorded ESPN responses (see `KnownTeams.swift`).
///
/// Used only when the live `/teams` list cannot be fetched. For NBA, NFL and MLB the recorded responses
/// name every team, so an unknown name is a usage error even offline; elsewhere the list is partial.
enum KnownTeams {
    static func directory(for league: League) -> (complete: Bool, teams: [TeamEntry])? {
        recorded[league.slug]
    }
}

/// Finds the team a user means: "lakers", "LAL", "los angeles lakers", "Man City", "georgia".
enum TeamMatcher {
    /// The outcome of a lookup.
    enum Match: Equatable {
        /// Exactly one team.
        case team(TeamEntry)
        /// Several teams fit equally well.
        case ambiguous([TeamEntry])
        /// None; `suggestion` is the closest name, if any is close.
        case none(suggestion: String?)
    }

    /// The team `word` names in `teams`. When no ESPN name fits, a spoken nickname from
    /// `SportsVocabulary` ("cavs", "niners") stands in for the name it means in `league`.
    static func match(_ word: String, in teams: [TeamEntry], league: League? = nil) -> Match {
        let needle = normalize(word)
        guard !needle.isEmpty else { return .none(suggestion: nil) }
        if let found = lookup(needle, in: teams) { return found }
        let leagues = league.map { [$0] } ?? League.all
        let spoken = Set(leagues.flatMap { SportsVocabulary.names(for: word, in: $0) }.map(normalize))
        let found = spoken.compactMap { lookup($0, in: teams) }
        if found.count == 1, let only = found.first { return only }
        let names = teams.flatMap { [$0.shortDisplayName, $0.displayName, $0.abbreviation] }
        let guess = Suggest.closest(to: needle, in: names.map(normalize))
        let suggestion = guess.flatMap { guess in names.first { normalize($0) == guess } }
        return .none(suggestion: suggestion)
    }

    /// The ESPN-name passes, or nil when none finds a team.
    private static func lookup(_ needle: String, in teams: [TeamEntry]) -> Match? {
        // Most specific first: abbreviation, full name, nickname, city, then words inside the full name.
        let passes: [(TeamEntry) -> Bool] = [
            { normalize($0.abbreviation) == needle },
            { normalize($0.displayName) == needle },
            { normalize($0.shortDisplayName) == needle },
            { normalize($0.location) == needle },
            { (" " + normalize($0.displayName) + " ").contains(" " + needle + " ") },
            { normalize($0.displayName).hasPrefix(needle) && needle.count >= 3 },
        ]
        for pass in passes {
            let found = teams.filter(pass)
            if found.count == 1 { return .team(found[0]) }
            if found.count > 1 { return .ambiguous(found) }
        }
        return nil
    }

    /// Lowercased, accents folded, punctuation dropped, single spaces: "CF Montréal" → "cf montreal".
    static func normalize(_ text: String) -> String {
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased()
        var result = ""
        var lastSpace = true
        for scalar in folded.unicodeScalars {
            if CharacterSet.alphanumerics.contains(scalar) {
                result.unicodeScalars.append(scalar)
                lastSpace = false
            } else if !lastSpace, CharacterSet.whitespaces.contains(scalar) || scalar == "-" || scalar == "." {
                result.append(" ")
                lastSpace = true
            }
        }
        return result.trimmingCharacters(in: .whitespaces)
    }

    /// Whether `word` could be an ESPN abbreviation ("KC", "LAL", "UTAH").
    static func looksLikeAbbreviation(_ word: String) -> Bool {
        (2...5).contains(word.count) && word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
}
