import AlmanacCore
import Foundation

/// A league ESPN serves under `/sports/{sport}/{slug}`. Public for ``ESPNScoreboard``, whose caller
/// (almanac-bench) names one with ``named(_:)``.
public struct League: Sendable, Hashable, Codable {
    /// How team names, scores and records read in this league.
    enum Style: String, Sendable, Codable {
        /// US pro leagues: "Away @ Home", team nicknames ("Lakers").
        case pro
        /// College: school names ("Georgia") and poll rankings ("#5 Georgia").
        case college
        /// Soccer: "Home v Away", records are wins-draws-losses.
        case soccer
    }

    /// ESPN sport path component: `basketball`, `football`, `baseball`, `hockey`, `soccer`.
    var sport: String
    /// ESPN league slug: `nba`, `college-football`, `eng.1`.
    var slug: String
    /// Short name for headers: "NBA", "Premier League".
    var name: String
    /// Naming, ordering and record conventions.
    var style: Style

    init(sport: String, slug: String, name: String, style: Style) {
        self.sport = sport
        self.slug = slug
        self.name = name
        self.style = style
    }

    /// `basketball/nba`: the canonical spelling, used in cache keys.
    var path: String { "\(sport)/\(slug)" }

    /// This league under upstream's own name (a scoreboard's `leagues[0].name`), which heads the answer where
    /// the catalog's name is only made from the slug ("COL 1", "Rugby 267979", a path outside the catalog).
    /// A named league keeps its short common name ("NBA", "Premier League"): the words people and small models
    /// know, fewer tokens than "National Basketball Association". Unchanged without an upstream name.
    func titled(_ upstream: String?) -> League {
        guard let upstream, !Self.namedPaths.contains(path) else { return self }
        let name = UntrustedText.clean(upstream, limit: 80).trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return self }
        var titled = self
        titled.name = name
        return titled
    }

    /// What a season record means, when it is not plain wins-losses.
    var recordLegend: String? {
        switch (style, sport) {
        case (.soccer, _): "records W-D-L"
        case (_, "hockey"): "records W-L-OTL"
        default: nil
        }
    }
}

extension League {
    /// The named leagues (those with a display name and aliases in the catalog table), in the order
    /// `tools run sports` lists them; the LLM router knows these by name. `catalog` holds every league.
    static let all: [League] = Array(catalog.prefix(namedCount))

    /// The paths of ``all``: leagues whose catalog name was chosen, not made from the slug.
    static let namedPaths: Set<String> = Set(all.map(\.path))

    /// Friendly names people and models type, mapped to ESPN slugs (slugs with a hyphen map to themselves).
    static let aliases: [String: String] = {
        var aliases: [String: String] = [:]
        for (slug, words) in aliasesBySlug {
            if slug.contains("-") { aliases[slug] = slug }
            for word in words { aliases[word] = slug }
        }
        return aliases
    }()

    /// The short word people and the CLI use for this league: `nba`, `epl`, `ncaaf`, `laliga`.
    var word: String {
        Self.aliasesBySlug.first { $0.slug == slug }?.aliases.first ?? slug
    }

    /// The other tour of a sport with men's and women's tours (ATP and WTA, PGA and LPGA), where a
    /// `--player` missing from this one's field may play.
    var otherTour: League? {
        let pairs = ["tennis/atp": "wta", "tennis/wta": "atp", "golf/pga": "lpga", "golf/lpga": "pga"]
        return pairs[path].flatMap { League.named($0) }
    }

    /// Every word that names this league: its short word, the slug when it reads as a word, and
    /// the other aliases.
    var aliasWords: [String] {
        let aliases = Self.aliasesBySlug.first { $0.slug == slug }?.aliases ?? []
        return aliases.isEmpty ? [slug] : aliases + (slug.contains(".") ? [] : [slug])
    }

    /// Resolves what a user typed (`NBA`, `nba`, `basketball/nba`, `epl`, `soccer/eng.1`, `Premier League`,
    /// `golf`, `soccer/bra.1`) to a league, or nil. A `sport/league` path ESPN's list lacks still names a
    /// league, so any league ESPN serves works; a sport alone names its first named league (`golf` is the PGA
    /// Tour) unless the sport has many peers (soccer, rugby).
    public static func named(_ word: String) -> League? {
        var key = word.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        // The slug becomes part of a request path: nothing that could climb out of it or be
        // decoded into something else ("soccer/..", "%2e%2e", "nba?x", "a\\b") names a league.
        guard !key.contains(".."), key.unicodeScalars.allSatisfy({ !"%?#\\".unicodeScalars.contains($0) }) else {
            return nil
        }
        key = key.replacingOccurrences(of: " ", with: "-")
        // "basketball/nba" and "/sports/basketball/nba" both name the slug after the last slash.
        var sport: String?
        if let slash = key.lastIndex(of: "/") {
            let prefix = key[..<slash].split(separator: "/").last.map(String.init)
            sport = prefix == "sports" ? nil : prefix
            key = String(key[key.index(after: slash)...])
        }
        // Slugs keep underscores ("eng.league_cup"); people type hyphens or spaces for them too.
        let slug = aliases[key] ?? aliases[key.replacingOccurrences(of: "_", with: "-")] ?? key
        let found =
            catalog.first { $0.slug == slug }
            ?? catalog.first { $0.slug == slug.replacingOccurrences(of: "-", with: "_") }
            ?? catalog.first { spoken($0.name) == spoken(key) }
        if let found {
            if let sport, sport != found.sport { return nil }
            return found
        }
        if let sport {
            // Any sport/league path ESPN serves, even one its list lacks (a new cup, a rugby id).
            guard catalogSports.contains(sport), sport != "cricket", isSlug(slug) else { return nil }
            return League(sport: sport, slug: slug, name: slug.uppercased(), style: style(sport: sport, slug: slug))
        }
        if catalogSports.contains(key), !["soccer", "rugby", "cricket"].contains(key) {
            return all.first { $0.sport == key } ?? catalog.first { $0.sport == key }
        }
        return nil
    }

    /// Lowercased, hyphens and periods as spaces: "Men's College Basketball" → "mens college basketball".
    private static func spoken(_ text: String) -> String {
        text.lowercased().folding(options: .diacriticInsensitive, locale: nil)
            .replacingOccurrences(of: "'", with: "").replacingOccurrences(of: "’", with: "")
            .replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: ".", with: " ")
    }

    /// ESPN slugs: lowercase letters, digits, `.`, `_`, `-`.
    private static func isSlug(_ text: String) -> Bool {
        // Starts with a letter or digit: "." alone would be a path segment of its own.
        guard let first = text.unicodeScalars.first, ("a"..."z").contains(first) || ("0"..."9").contains(first) else {
            return false
        }
        return text.count <= 60
            && text.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)
            }
    }

    /// The generator's rule for a league outside the catalog: college by name, soccer style for football codes.
    static func style(sport: String, slug: String) -> Style {
        if slug.contains("college") || slug.contains("ncaa") { return .college }
        return ["soccer", "rugby", "rugby-league"].contains(sport) ? .soccer : .pro
    }

    /// Every accepted spelling (slugs, then aliases), for suggestions.
    static var spellings: [String] { catalog.map(\.slug) + aliases.keys.sorted() }

    /// The usage error for a word that names no league: the closest names and how to list them.
    static func unknown(_ word: String) -> AlmanacError {
        let key = word.lowercased().trimmingCharacters(in: .whitespaces)
        if key == "cricket" || key.hasPrefix("cricket/") {
            return AlmanacError.usage(
                "cricket is not supported: ESPN lists no cricket leagues and its series ids change each season",
                suggestion: "try a web search instead (tools run search \"cricket scores\")")
        }
        let guesses = closestNames(to: key, count: 3)
        // "soccer" alone (many peers, no main league) or "golf/xyz": list that sport's leagues.
        let sport = catalogSports.first { key == $0 || key.hasPrefix($0 + "/") }
        return AlmanacError.usage(
            "unknown league '\(word)'",
            suggestion: didYouMean(guesses) + "list them with: tools list sports \(sport ?? "[SPORT]")")
    }

    /// "did you mean 'nba'? also close: 'wnba', 'nbl'; " (empty without guesses).
    private static func didYouMean(_ guesses: [String]) -> String {
        guard let first = guesses.first else { return "" }
        let others = guesses.dropFirst().map { "'\($0)'" }
        return "did you mean '\(first)'? " + (others.isEmpty ? "" : "also close: \(others.joined(separator: ", ")); ")
    }

    /// The spellings nearest `word` by edit distance (prefix matches first), at most `count`.
    static func closestNames(to word: String, count: Int) -> [String] {
        let needle = word.split(separator: "/").last.map(String.init) ?? word
        var picked: [String] = []
        var candidates = spellings
        while picked.count < count, let best = Suggest.closest(to: needle, in: candidates) {
            picked.append(best)
            candidates.removeAll { $0 == best }
        }
        return picked
    }

    /// The `groups` a college scoreboard needs for the whole day (without it ESPN answers a featured
    /// subset): 80 is FBS football, 50 Division I basketball. Nil elsewhere.
    var scoreboardGroups: String? {
        switch path {
        case "football/college-football": "80"
        case "basketball/mens-college-basketball", "basketball/womens-college-basketball": "50"
        default: nil
        }
    }

    /// How the tool draws this league's scoreboard.
    var shape: Shape {
        switch sport {
        case "golf": .golf
        case "tennis": .tennis
        case "racing": .racing
        case "mma": .mma
        default: .team
        }
    }

    /// A sport's scoreboard shape: team games, or tournaments, draws, race weekends and fight cards.
    enum Shape: String, Sendable, Codable, CaseIterable {
        /// Two sides and a score (every team sport, rugby, soccer).
        case team
        /// A leaderboard of golfers.
        case golf
        /// Draws of matches.
        case tennis
        /// Sessions with finishing orders.
        case racing
        /// A card of bouts.
        case mma
    }
}
