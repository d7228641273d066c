import Foundation

/// `--event`: finds the tournament, race or card a question names among the day's events by words
/// of its name, the way `--team` finds a team. Golf and tennis events change names every week and
/// carry sponsors ("ONEflight Myrtle Beach Classic", "Qatar ExxonMobil Open"), so people name them
/// by the distinctive words: every such word asked must be in the event's name.
enum EventMatcher {
    /// Words every kind of event has in its name: they do not tell one event from another, so a
    /// question's "open" or "classic" does not have to be in the name ESPN gives.
    static let generic: Set<String> = [
        "the", "a", "of", "at", "in", "open", "classic", "championship", "championships", "invitational",
        "tournament", "masters", "pro", "am", "challenge", "cup", "grand", "prix", "gp", "presented", "by",
        "tour", "event", "mens", "womens",
    ]

    /// The events among `events` whose name holds every distinctive word of `words` (plural or
    /// singular, accents and case folded; four letters or more may be the start of a longer word);
    /// when the words are all generic ("the open"), every one of them must be there.
    static func events(named words: String, in events: [SportEvent]) -> [SportEvent] {
        let asked = TeamMatcher.normalize(words).split(separator: " ").map(String.init)
        let distinctive = asked.filter { !generic.contains($0) }
        let needed = distinctive.isEmpty ? asked.filter { $0 != "the" } : distinctive
        guard !needed.isEmpty else { return [] }
        return events.filter { event in
            let name = TeamMatcher.normalize(event.name).split(separator: " ").map(String.init)
            return needed.allSatisfy { word in name.contains { same($0, word) } }
        }
    }

    /// Whether an event's name word and an asked word are the same word.
    static func same(_ name: String, _ asked: String) -> Bool {
        if name == asked { return true }
        func singular(_ word: String) -> String {
            word.count > 3 && word.hasSuffix("s") ? String(word.dropLast()) : word
        }
        if singular(name) == singular(asked) { return true }
        // A clipped word of four letters or more counts ("memo" for "Memorial").
        return asked.count >= 4 && name.hasPrefix(asked)
    }
}
