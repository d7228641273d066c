import AlmanacCore
import Foundation

/// Puts a league-official feed's team into ESPN's terms, so `--team` (an ESPN id or abbreviation)
/// matches games whichever provider answered.
///
/// The feeds have their own ids (MLB 108–158, NHL 1–68) that overlap ESPN's for other teams; a
/// team found in the recorded ESPN directory takes ESPN's id and abbreviation, any other gets the
/// feed's id behind a prefix ("nhl:59") so it can never match an ESPN id by accident.
enum FeedTeams {
    /// The ESPN entry for a feed's team: by ESPN abbreviation, else by full name (case and accents
    /// ignored: "Montréal Canadiens"), else by a nickname only one team ends with ("Oakland Athletics"
    /// is ESPN's "Athletics").
    static func espnEntry(
        _ league: League, feedId: String? = nil, abbreviation: String?, displayName: String?
    )
        -> TeamEntry?
    {
        guard let teams = KnownTeams.directory(for: league)?.teams else { return nil }
        // The feed's own id first: names change ("Oakland Athletics" became "Athletics"), ids do not.
        if let feedId, let id = KnownTeams.feedIds[league.slug]?[feedId], let hit = teams.first(where: { $0.id == id })
        {
            return hit
        }
        if let abbreviation, !abbreviation.isEmpty,
            let hit = teams.first(where: { $0.abbreviation.caseInsensitiveCompare(abbreviation) == .orderedSame })
        {
            return hit
        }
        guard let displayName, !displayName.isEmpty else { return nil }
        let wanted = fold(displayName)
        if let hit = teams.first(where: { fold($0.displayName) == wanted }) { return hit }
        let byNickname = teams.filter { entry in
            let nickname = fold(entry.shortDisplayName)
            return wanted == nickname || wanted.hasSuffix(" " + nickname)
        }
        return byNickname.count == 1 ? byNickname.first : nil
    }

    /// One side of a feed's game in ESPN's terms.
    static func side(
        _ league: League, prefix: String, feedId: String?, abbreviation: String?, displayName: String?,
        nickname: String?, score: Int?, record: String?, winner: Bool?
    ) -> Game.Side? {
        let entry = espnEntry(league, feedId: feedId, abbreviation: abbreviation, displayName: displayName)
        let feedKey = feedId.flatMap { $0.isEmpty ? nil : $0 } ?? abbreviation.flatMap { $0.isEmpty ? nil : $0 }
        guard let id = entry?.id ?? feedKey.map({ "\(prefix):\($0)" }) else { return nil }
        // The feed's full name, unless it is only the place ("New York" for both New York teams): then
        // the directory's.
        let feedName = displayName.flatMap { $0.isEmpty ? nil : $0 }
        let display =
            if let entry, feedName.map({ !fold($0).contains(fold(entry.shortDisplayName)) }) ?? true {
                entry.displayName
            } else {
                feedName ?? abbreviation ?? id
            }
        let name = entry?.shortDisplayName ?? nickname.flatMap { $0.isEmpty ? nil : $0 } ?? display
        return Game.Side(
            id: id, displayName: display, name: name, abbreviation: entry?.abbreviation ?? abbreviation ?? "",
            score: score, record: record, winner: winner)
    }

    /// The games with every team's short name unique among them: two teams read the same ("New York"
    /// for the Rangers and the Islanders when a feed names only the place) take their full names, or
    /// failing that their abbreviations, so a reader can tell them apart.
    static func uniqueNames(_ games: [Game]) -> [Game] {
        var idsByName: [String: Set<String>] = [:]
        for side in games.flatMap({ [$0.home, $0.away] }) { idsByName[fold(side.name), default: []].insert(side.id) }
        let shared = Set(idsByName.filter { $0.value.count > 1 }.keys)
        guard !shared.isEmpty else { return games }
        func distinct(_ side: Game.Side) -> Game.Side {
            guard shared.contains(fold(side.name)) else { return side }
            var side = side
            if fold(side.displayName) != fold(side.name) {
                side.name = side.displayName
            } else if !side.abbreviation.isEmpty {
                side.name = side.abbreviation
            }
            return side
        }
        return games.map { game in
            var game = game
            game.home = distinct(game.home)
            game.away = distinct(game.away)
            return game
        }
    }

    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: Locale(identifier: "en_US_POSIX"))
    }

    /// "2023-08-29" from ESPN's compact "20230829".
    static func isoDate(_ compact: String) -> String {
        guard compact.count == 8 else { return compact }
        let characters = Array(compact)
        return "\(String(characters[0..<4]))-\(String(characters[4..<6]))-\(String(characters[6..<8]))"
    }

    /// The body without a leading UTF-8 byte-order mark (the MLB Stats API sends one).
    static func withoutBOM(_ data: Data) -> Data {
        data.starts(with: [0xEF, 0xBB, 0xBF]) ? Data(data.dropFirst(3)) : data
    }
}
