import AlmanacCore
import Foundation

/// `--player`: finds a golfer, tennis player, driver or fighter in an event the way `--team` finds a
/// team: full name, then last name, then words inside the name, accents and case folded.
enum PlayerMatcher {
    /// The outcome of a lookup.
    enum Match: Equatable {
        case player(String)
        case ambiguous([String])
        case none(suggestion: String?)
    }

    /// The person `word` names among `names` (doubles pairs "A / B" count each member).
    static func match(_ word: String, in names: [String]) -> Match {
        let needle = TeamMatcher.normalize(word)
        guard !needle.isEmpty else { return .none(suggestion: nil) }
        var people: [String] = []
        for name in names.flatMap({ [$0] + ($0.contains(" / ") ? $0.components(separatedBy: " / ") : []) })
        where !people.contains(name) {
            people.append(name)
        }
        let passes: [(String) -> Bool] = [
            { TeamMatcher.normalize($0) == needle },
            { TeamMatcher.normalize($0).split(separator: " ").last.map(String.init) == needle },
            { (" " + TeamMatcher.normalize($0) + " ").contains(" " + needle + " ") },
            { TeamMatcher.normalize($0).hasPrefix(needle) && needle.count >= 3 },
        ]
        for pass in passes {
            let found = people.filter(pass)
            if found.count == 1, let only = found.first { return .player(only) }
            if found.count > 1 {
                // A doubles pair and its member both match: the single person is meant.
                let singles = found.filter { !$0.contains(" / ") }
                if singles.count == 1, let only = singles.first { return .player(only) }
                return .ambiguous(Array(found.prefix(6)))
            }
        }
        // Suggest by full name or by last name ("hardie" → Nick Hardy).
        let spellings = people.flatMap { person -> [(String, String)] in
            let full = TeamMatcher.normalize(person)
            let last = full.split(separator: " ").last.map(String.init) ?? full
            return [(full, person), (last, person)]
        }
        let guess = Suggest.closest(to: needle, in: spellings.map(\.0))
        return .none(suggestion: guess.flatMap { guess in spellings.first { $0.0 == guess }?.1 })
    }

    /// Whether `player` is one of `names` (or a member of a doubles pair among them).
    static func mentions(_ names: [String], _ player: String) -> Bool {
        let needle = TeamMatcher.normalize(player)
        return names.contains { name in
            TeamMatcher.normalize(name) == needle
                || name.components(separatedBy: " / ").contains { TeamMatcher.normalize($0) == needle }
        }
    }
}
