import Foundation

/// The words people use for leagues and teams: the one vocabulary behind `--team` matching and
/// anything that reads free text (the LLM router).
///
/// Leagues come from `League.all` and its aliases; teams from the recorded ESPN directory
/// (`KnownTeams`) plus `spoken`, the nicknames ESPN does not carry ("cavs", "niners") and teams
/// of leagues whose responses were not recorded. Spellings are lowercased, accents folded,
/// apostrophes and periods dropped, single spaces ("st louis blues", "paris saint-germain").
enum SportsVocabulary {
    /// A way to say a league in a sentence.
    struct LeagueName: Sendable, Hashable {
        /// "premier league", "epl", "college football".
        var phrase: String
        var league: League
    }

    /// A team (or teams sharing a nickname across leagues, e.g. the Giants) and the ways to say it.
    struct Team: Sendable, Hashable {
        /// The word to pass as `--team`: the nickname for pro teams ("lakers", "red sox"), the school
        /// for college ("georgia"), the club name for soccer ("manchester city").
        var name: String
        /// Every spelling that names the team in a sentence, `name` included, longest first.
        var spellings: [String]
        /// Spellings that are also places ("georgia", "fulham"): the team only when the sentence
        /// is about sports.
        var placeSpellings: Set<String>
        /// Its leagues, in `League.all` order.
        var leagues: [League]
    }

    /// Every league phrase: short words, aliases (hyphens read as spaces) and names.
    static let leagueNames: [LeagueName] = League.all.flatMap { league in
        let phrases = league.aliasWords.map { $0.replacingOccurrences(of: "-", with: " ") } + [spoken(league.name)]
        var seen = Set<String>()
        return phrases.filter { seen.insert($0).inserted }.map { LeagueName(phrase: $0, league: league) }
    }

    /// The sport words leagues are filed under: basketball, football, baseball, hockey, soccer.
    static let sports: Set<String> = Set(League.all.map(\.sport))

    /// The league a sport word means on its own: the sport's first US pro league ("football" → NFL),
    /// nil when it has none (soccer: which league is anyone's guess).
    static func league(forSport sport: String) -> League? {
        League.all.first { $0.sport == sport && $0.style == .pro }
    }

    /// Whether `league` plays in `month` (1–12); false when the season is not known here.
    /// Picks the league of a shared nickname ("giants" in December is the NFL team).
    static func isInSeason(_ league: League, month: Int) -> Bool {
        let seasons: [String: Set<Int>] = [
            "nfl": [9, 10, 11, 12, 1, 2], "mlb": [3, 4, 5, 6, 7, 8, 9, 10], "nhl": [10, 11, 12, 1, 2, 3, 4, 5, 6],
            "nba": [10, 11, 12, 1, 2, 3, 4, 5, 6], "wnba": [5, 6, 7, 8, 9, 10],
            "college-football": [8, 9, 10, 11, 12, 1], "mens-college-basketball": [11, 12, 1, 2, 3, 4],
            "womens-college-basketball": [11, 12, 1, 2, 3, 4],
        ]
        return seasons[league.slug]?.contains(month) ?? false
    }

    /// Every team, pro leagues first (`League.all` order).
    static let teams: [Team] = buildTeams()

    /// The `--team` words a spelling names in `league` ("cavs" → "cavaliers"), for matching a word
    /// that no ESPN name fits.
    static func names(for word: String, in league: League) -> [String] {
        let needle = TeamMatcher.normalize(word)
        return teams.filter { team in
            team.leagues.contains(league) && team.spellings.contains { TeamMatcher.normalize($0) == needle }
        }.map(\.name)
    }

    /// How people say teams that ESPN's names miss, by league slug. A line adds its spellings to
    /// the recorded team that shares one ("cavaliers|cavs"); otherwise it adds the team, named by
    /// its first spelling (teams the recordings do not name, leagues that were not recorded).
    /// Spellings listed here are never place-only: the line vouches that they name the team.
    static let spoken: [String: [String]] = [
        "nba": [
            "cavaliers|cavs", "mavericks|mavs", "warriors|dubs", "timberwolves|wolves", "pelicans|pels",
            "76ers|sixers", "trail blazers|blazers",
        ],
        "wnba": ["aces|las vegas aces", "lynx|minnesota lynx", "sparks|los angeles sparks|la sparks"],
        "nfl": ["jaguars|jags", "patriots|pats", "49ers|niners", "buccaneers|bucs"],
        "mlb": ["diamondbacks|dbacks|d-backs", "blue jays|jays", "nationals|nats"],
        "nhl": [
            "bruins|boston bruins", "hurricanes|carolina hurricanes|canes", "blackhawks|chicago blackhawks",
            "avalanche|avs", "stars|dallas stars", "red wings|detroit red wings",
            "canadiens|montreal canadiens|habs", "predators|nashville predators|preds", "devils|new jersey devils",
            "islanders|new york islanders|isles", "rangers|new york rangers|ny rangers",
            "senators|ottawa senators|sens", "flyers|philadelphia flyers", "penguins|pens", "kraken|seattle kraken",
            "blues|st louis blues", "lightning|tampa bay lightning", "maple leafs|toronto maple leafs|leafs",
            "capitals|caps",
        ],
        "eng.1": [
            "arsenal", "chelsea", "liverpool", "everton", "manchester united|man utd",
            "tottenham hotspur|tottenham", "newcastle united|newcastle", "west ham united|west ham",
        ],
        "esp.1": ["real madrid", "barcelona|barca", "atletico madrid|atletico"],
        "ger.1": ["bayern munich|bayern", "dortmund|borussia dortmund"],
        "ita.1": ["juventus|juve", "ac milan", "inter milan", "napoli"],
        "fra.1": ["psg|paris saint-germain"],
        // "red bulls" before Chicago's "bulls"; "nyc fc" as people type NYCFC.
        "usa.1": ["inter miami", "new york red bulls|red bulls", "new york city fc|nyc fc"],
    ]

    /// Lowercased, accents folded, apostrophes, periods, brackets and a lone "&" dropped, single
    /// spaces: "St. Louis Blues" → "st louis blues", "Brighton & Hove Albion" → "brighton hove albion".
    static func spoken(_ text: String) -> String {
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased()
        let kept = folded.filter { !"'’.()".contains($0) }
        return kept.split(whereSeparator: { $0.isWhitespace }).filter { $0 != "&" }.joined(separator: " ")
    }

    /// How a recorded team is said in its league's style: its `--team` word, spellings, place-only
    /// spellings, and a bare town ESPN shortens it to, which names it only when no other team's
    /// name holds that town (see ``buildTeams()``).
    static func sayings(
        _ entry: TeamEntry, style: League.Style
    )
        -> (name: String, spellings: [String], places: Set<String>, town: String?)
    {
        let full = spoken(entry.displayName)
        let short = spoken(entry.shortDisplayName)
        switch style {
        case .pro:
            // "okc thunder", "la kings": the abbreviation before the nickname is as good as the city.
            return (short, [short, full, spoken(entry.abbreviation) + " " + short], [], nil)
        case .college:
            // The nickname alone ("wildcats") is shared by many schools; the school is also a place.
            // ESPN's basketball scoreboards shorten some schools ("Florida St", "Pitt"): the same school.
            let school = spoken(entry.location)
            let shortSchool = !short.isEmpty && short != school && !full.hasSuffix(" " + short)
            return (school, [school, full], [school], shortSchool ? short : nil)
        case .soccer:
            // ESPN's short name is a nickname ("man city", "spurs") unless it is the full name with
            // words cut off, which is usually the bare town ("bournemouth", "salt lake").
            let fullWords = full.split(separator: " ")
            let shortWords = short.split(separator: " ")
            let cut = fullWords.starts(with: shortWords) || fullWords.reversed().starts(with: shortWords.reversed())
            let spellings = cut ? [full] : [full, short]
            // A one-word club is usually named after its town ("fulham").
            return (full, spellings, full.contains(" ") ? [] : [full], cut && short != full ? short : nil)
        }
    }

    static func buildTeams() -> [Team] {
        var teams: [Team] = []
        func add(name: String, spellings: [String], places: Set<String>, league: League, vouched: Bool) {
            // A vouched line joins the team of this league that shares a spelling, then a team of
            // another league with the same name (a shared nickname); recorded teams join by name.
            let index =
                (vouched
                    ? teams.firstIndex { $0.leagues.contains(league) && !Set($0.spellings).isDisjoint(with: spellings) }
                    : nil) ?? teams.firstIndex { $0.name == name }
            guard let index else {
                teams.append(Team(name: name, spellings: spellings, placeSpellings: places, leagues: [league]))
                return
            }
            var team = teams[index]
            team.spellings += spellings.filter { !team.spellings.contains($0) }
            team.placeSpellings.formUnion(places)
            if vouched { team.placeSpellings.subtract(spellings) }
            if !team.leagues.contains(league) { team.leagues.append(league) }
            teams[index] = team
        }
        var towns: [(town: String, name: String)] = []
        for league in League.all {
            for entry in KnownTeams.recorded[league.slug]?.teams ?? [] {
                let said = sayings(entry, style: league.style)
                add(name: said.name, spellings: said.spellings, places: said.places, league: league, vouched: false)
                if let town = said.town { towns.append((town, said.name)) }
            }
            for line in spoken[league.slug] ?? [] {
                let spellings = line.split(separator: "|").map { spoken(String($0)) }
                guard let name = spellings.first else { continue }
                add(name: name, spellings: spellings, places: [], league: league, vouched: true)
            }
        }
        // "did bournemouth win": a bare town names the club when no other team's name holds it
        // ("chicago" does not name Chicago Fire FC: the Bulls, Bears, Cubs… hold it). It stays
        // place-only: a team only in a question about sports ("weather in bournemouth" is weather).
        for (town, name) in towns {
            guard let index = teams.firstIndex(where: { $0.name == name }), !teams[index].spellings.contains(town)
            else { continue }
            let held = teams.contains { team in
                team.name != name && team.spellings.contains { " \($0) ".contains(" \(town) ") }
            }
            if held { continue }
            teams[index].spellings.append(town)
            teams[index].placeSpellings.insert(town)
        }
        return teams.map { team in
            var team = team
            // "Athletics" is both ESPN's names; "UTAH" + "Jazz" is the full name again.
            team.spellings = Set(team.spellings).sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
            return team
        }
    }
}
