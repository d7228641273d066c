import AlmanacCore
import Foundation

/// A league ESPN serves under `/sports/{sport}/{slug}`.
public struct League: Sendable, Hashable, Codable {
    /// How team names, scores and records read in this league.
    public enum Style: String, Sendable, Codable {
        /// US pro leagues: "Away @ Home", team nicknames ("Lakers").
        case pro
        /// College: school names ("Georgia") and poll rankings ("#5 Georgia").
        case college
        /// Soccer: "Home v Away", records are wins-draws-losses.
        case soccer
    }

    /// ESPN sport path component: `basketball`, `football`, `baseball`, `hockey`, `soccer`.
    public var sport: String
    /// ESPN league slug: `nba`, `college-football`, `eng.1`.
    public var slug: String
    /// Short name for headers: "NBA", "Premier League".
    public var name: String
    /// Naming, ordering and record conventions.
    public var style: Style

    /// Creates a league.
    public init(sport: String, slug: String, name: String, style: Style) {
        self.sport = sport
        self.slug = slug
        self.name = name
        self.style = style
    }

    /// `basketball/nba`: the canonical spelling, used in cache keys.
    public var path: String { "\(sport)/\(slug)" }

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
    /// Every league the tool knows, in the order `tools run sports` lists them.
    public static let all: [League] = [
        League(sport: "basketball", slug: "nba", name: "NBA", style: .pro),
        League(sport: "basketball", slug: "wnba", name: "WNBA", style: .pro),
        League(sport: "football", slug: "nfl", name: "NFL", style: .pro),
        League(sport: "baseball", slug: "mlb", name: "MLB", style: .pro),
        League(sport: "hockey", slug: "nhl", name: "NHL", style: .pro),
        League(sport: "football", slug: "college-football", name: "College Football", style: .college),
        League(sport: "basketball", slug: "mens-college-basketball", name: "Men's College Basketball", style: .college),
        League(
            sport: "basketball", slug: "womens-college-basketball", name: "Women's College Basketball",
            style: .college),
        League(sport: "soccer", slug: "eng.1", name: "Premier League", style: .soccer),
        League(sport: "soccer", slug: "eng.2", name: "EFL Championship", style: .soccer),
        League(sport: "soccer", slug: "esp.1", name: "LaLiga", style: .soccer),
        League(sport: "soccer", slug: "ger.1", name: "Bundesliga", style: .soccer),
        League(sport: "soccer", slug: "ita.1", name: "Serie A", style: .soccer),
        League(sport: "soccer", slug: "fra.1", name: "Ligue 1", style: .soccer),
        League(sport: "soccer", slug: "ned.1", name: "Eredivisie", style: .soccer),
        League(sport: "soccer", slug: "por.1", name: "Primeira Liga", style: .soccer),
        League(sport: "soccer", slug: "usa.1", name: "MLS", style: .soccer),
        League(sport: "soccer", slug: "usa.nwsl", name: "NWSL", style: .soccer),
        League(sport: "soccer", slug: "mex.1", name: "Liga MX", style: .soccer),
        League(sport: "soccer", slug: "uefa.champions", name: "Champions League", style: .soccer),
        League(sport: "soccer", slug: "uefa.europa", name: "Europa League", style: .soccer),
        League(sport: "soccer", slug: "fifa.world", name: "FIFA World Cup", style: .soccer),
    ]

    /// Each league's friendly names, the word people say most first ("epl" before "premier-league"):
    /// that first word is `word`, the one routes and listings use.
    static let aliasesBySlug: [(slug: String, aliases: [String])] = [
        ("college-football", ["ncaaf", "cfb"]),
        ("mens-college-basketball", ["ncaab", "ncaam", "cbb", "college-basketball", "march-madness"]),
        ("womens-college-basketball", ["ncaaw", "wcbb"]),
        ("eng.1", ["epl", "premier-league", "premierleague", "pl"]),
        ("eng.2", ["efl", "championship"]),
        ("esp.1", ["laliga", "la-liga"]),
        ("ger.1", ["bundesliga"]),
        ("ita.1", ["seriea", "serie-a"]),
        ("fra.1", ["ligue1", "ligue-1"]),
        ("ned.1", ["eredivisie"]),
        ("por.1", ["primeira-liga", "liga-portugal"]),
        ("usa.1", ["mls"]),
        ("usa.nwsl", ["nwsl"]),
        ("mex.1", ["ligamx", "liga-mx"]),
        ("uefa.champions", ["ucl", "champions-league", "championsleague"]),
        ("uefa.europa", ["uel", "europa-league", "europa"]),
        ("fifa.world", ["worldcup", "world-cup"]),
    ]

    /// Friendly names people and models type, mapped to ESPN slugs (slugs with a hyphen map to themselves).
    public static let aliases: [String: String] = {
        var aliases: [String: String] = [:]
        for (slug, words) in aliasesBySlug {
            if slug.contains("-") { aliases[slug] = slug }
            for word in words { aliases[word] = slug }
        }
        return aliases
    }()

    /// The short word people and the CLI use for this league: `nba`, `epl`, `ncaaf`, `laliga`.
    public var word: String {
        Self.aliasesBySlug.first { $0.slug == slug }?.aliases.first ?? slug
    }

    /// Every word that names this league: its short word, the slug when it reads as a word, and
    /// the other aliases.
    public var aliasWords: [String] {
        let aliases = Self.aliasesBySlug.first { $0.slug == slug }?.aliases ?? []
        return aliases.isEmpty ? [slug] : aliases + (slug.contains(".") ? [] : [slug])
    }

    /// Resolves what a user typed (`NBA`, `nba`, `basketball/nba`, `epl`, `soccer/eng.1`, `Premier League`)
    /// to a league, or nil.
    public static func named(_ word: String) -> League? {
        var key = word.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        key = key.replacingOccurrences(of: " ", with: "-").replacingOccurrences(of: "_", with: "-")
        // "basketball/nba" and "/sports/basketball/nba" both name the slug after the last slash.
        var sport: String?
        if let slash = key.lastIndex(of: "/") {
            let prefix = key[..<slash].split(separator: "/").last.map(String.init)
            sport = prefix
            key = String(key[key.index(after: slash)...])
        }
        let slug = aliases[key] ?? key
        guard let league = all.first(where: { $0.slug == slug }) else {
            return all.first { $0.name.lowercased().replacingOccurrences(of: " ", with: "-") == key }
        }
        if let sport, sport != "sports", sport != league.sport { return nil }
        return league
    }

    /// Every accepted spelling (slugs, then aliases), for suggestions.
    static var spellings: [String] { all.map(\.slug) + aliases.keys.sorted() }

    /// The usage error for a word that names no league: a did-you-mean and the list.
    static func unknown(_ word: String) -> AlmanacError {
        let guess = Suggest.closest(to: word.lowercased(), in: spellings)
        let list = all.map(\.slug).joined(separator: ", ")
        return AlmanacError.usage(
            "unknown league '\(word)'",
            suggestion: (guess.map { "did you mean '\($0)'? " } ?? "")
                + "leagues: \(list) (aliases: epl, laliga, bundesliga, seriea, ligue1, mls, ucl, ncaaf, ncaab)")
    }
}
