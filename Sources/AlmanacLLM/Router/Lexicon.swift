import Foundation

/// Word lists the router matches against. Kept as data so adding a team or a keyword is one line.
enum Lexicon {
    /// A team the router recognises: the name passed as `--team`, its spellings, and its leagues
    /// (several when the nickname is shared, e.g. Giants: NFL and MLB).
    struct Team {
        let name: String
        let spellings: [String]
        let leagues: [String]
        /// A common English word ("heat", "magic", "wild"): only a team when the question is about sports.
        let weak: Bool
    }

    static let teams: [Team] = {
        var teams: [Team] = []
        func add(_ league: String, _ list: String, weak: Set<String> = []) {
            for entry in list.split(separator: ",") {
                let spellings = entry.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                guard let name = spellings.first else { continue }
                if let index = teams.firstIndex(where: { $0.name == name }) {
                    let old = teams[index]
                    teams[index] = Team(
                        name: name, spellings: Array(Set(old.spellings + spellings)).sorted(),
                        leagues: old.leagues + [league], weak: old.weak || weak.contains(name))
                } else {
                    teams.append(Team(name: name, spellings: spellings, leagues: [league], weak: weak.contains(name)))
                }
            }
        }
        add(
            "nba",
            "hawks, celtics, nets, hornets, bulls, cavaliers|cavs, mavericks|mavs, nuggets, pistons, warriors|dubs,"
                + "rockets, pacers, clippers, lakers, grizzlies, heat, bucks, timberwolves|wolves, pelicans|pels, knicks,"
                + "thunder, magic, 76ers|sixers, suns, trail blazers|blazers, kings, spurs, raptors, jazz, wizards",
            weak: ["heat", "magic", "thunder", "jazz", "kings", "suns", "nets", "wizards", "rockets"])
        add(
            "nfl",
            "cardinals, falcons, ravens, bills, panthers, bears, bengals, browns, cowboys, broncos, lions, packers,"
                + "texans, colts, jaguars|jags, chiefs, raiders, chargers, rams, dolphins, vikings, patriots|pats, saints,"
                + "giants, jets, eagles, steelers, 49ers|niners, seahawks, buccaneers|bucs, titans, commanders",
            weak: ["bills", "bears", "lions", "giants", "jets", "eagles", "saints", "cardinals", "dolphins", "titans",
                "rams", "browns", "panthers", "commanders"])
        add(
            "mlb",
            "diamondbacks|dbacks|d-backs, braves, orioles, red sox, cubs, white sox, reds, guardians, rockies,"
                + "tigers, astros, royals, angels, dodgers, marlins, brewers, twins, mets, yankees, athletics, phillies,"
                + "pirates, padres, giants, mariners, cardinals, rays, rangers, blue jays|jays, nationals|nats",
            weak: ["reds", "tigers", "royals", "angels", "twins", "pirates", "rays", "rangers", "giants", "cardinals",
                "athletics", "guardians", "jays", "nationals", "braves", "cubs"])
        add(
            "nhl",
            "ducks, bruins, sabres, flames, hurricanes|canes, blackhawks, avalanche|avs, blue jackets, stars,"
                + "red wings, oilers, panthers, kings, wild, canadiens|habs, predators|preds, devils, islanders|isles,"
                + "rangers, senators|sens, flyers, penguins|pens, sharks, kraken, blues, lightning, maple leafs|leafs,"
                + "canucks, golden knights, capitals|caps, jets",
            weak: ["ducks", "flames", "hurricanes", "avalanche", "stars", "wild", "devils", "sharks", "blues",
                "lightning", "capitals", "caps", "rangers", "kings", "panthers", "jets", "penguins", "islanders",
                "senators", "predators", "flyers"])
        add("wnba", "aces, lynx, sparks, mystics, valkyries", weak: ["aces", "sparks"])
        add(
            "epl",
            "arsenal, chelsea, liverpool, manchester city|man city, manchester united|man united|man utd,"
                + "tottenham|tottenham hotspur, everton, aston villa, newcastle|newcastle united, west ham")
        add("laliga", "real madrid, barcelona|barca, atletico madrid|atletico")
        add("bundesliga", "bayern munich|bayern, dortmund|borussia dortmund")
        add("seriea", "juventus|juve, ac milan, inter milan, napoli")
        add("ligue1", "psg|paris saint-germain")
        add("mls", "inter miami, la galaxy")
        return teams
    }()

    /// City-plus-nickname phrases that make a weak nickname certain ("miami heat").
    static let strongPhrases: [String: String] = [
        "miami heat": "heat", "orlando magic": "magic", "okc thunder": "thunder",
        "oklahoma city thunder": "thunder", "utah jazz": "jazz", "sacramento kings": "kings",
        "phoenix suns": "suns", "brooklyn nets": "nets", "houston rockets": "rockets",
        "washington wizards": "wizards", "minnesota wild": "wild", "dallas stars": "stars",
        "st louis blues": "blues", "tampa bay lightning": "lightning", "colorado avalanche": "avalanche",
        "la kings": "kings", "buffalo bills": "bills", "chicago bears": "bears", "detroit lions": "lions",
        "new york giants": "giants", "san francisco giants": "giants", "new york jets": "jets",
        "winnipeg jets": "jets", "philadelphia eagles": "eagles", "new orleans saints": "saints",
        "kansas city chiefs": "chiefs", "detroit tigers": "tigers", "new york rangers": "rangers",
        "texas rangers": "rangers", "florida panthers": "panthers", "carolina panthers": "panthers",
        "las vegas aces": "aces", "la sparks": "sparks", "los angeles sparks": "sparks",
    ]

    /// League words and the slug the sports tool accepts.
    static let leagues: [(phrase: String, slug: String)] = [
        ("womens college basketball", "ncaaw"), ("college football", "ncaaf"), ("college basketball", "ncaab"),
        ("march madness", "ncaab"), ("ncaaf", "ncaaf"), ("cfb", "ncaaf"), ("ncaab", "ncaab"),
        ("premier league", "epl"), ("epl", "epl"), ("champions league", "ucl"), ("ucl", "ucl"),
        ("europa league", "uel"), ("la liga", "laliga"), ("laliga", "laliga"), ("bundesliga", "bundesliga"),
        ("serie a", "seriea"), ("ligue 1", "ligue1"), ("eredivisie", "eredivisie"), ("liga mx", "ligamx"),
        ("world cup", "worldcup"), ("wnba", "wnba"), ("nba", "nba"), ("nfl", "nfl"), ("mlb", "mlb"),
        ("nhl", "nhl"), ("mls", "mls"), ("nwsl", "nwsl"),
    ]

    /// Sport words that pick a league when no league or team is named, and break ties between leagues.
    static let sports: [String: String] = [
        "basketball": "nba", "football": "nfl", "baseball": "mlb", "hockey": "nhl",
    ]

    /// Words that make a question about sports (needed for weak team names).
    static let sportsContext: Set<String> = [
        "game", "games", "score", "scores", "scored", "won", "win", "wins", "winning", "lose", "lost", "losing",
        "beat", "play", "plays", "playing", "played", "match", "matches", "standings", "playoffs", "playoff",
        "season", "vs", "versus", "record", "fixture", "fixtures", "kickoff", "tipoff", "halftime", "inning",
        "quarter", "overtime", "team", "roster", "trade", "draft", "seed", "basketball", "football", "baseball",
        "hockey", "soccer",
    ]

    static let weatherWords: Set<String> = [
        "weather", "forecast", "temperature", "temperatures", "temp", "rain", "raining", "rainy", "snow",
        "snowing", "snowy", "sunny", "hot", "cold", "warm", "chilly", "humid", "humidity", "wind", "windy",
        "umbrella", "jacket", "coat", "degrees", "storm", "storms", "stormy", "thunderstorm", "thunderstorms",
        "cloudy", "clouds", "uv", "frost", "freezing", "sunrise", "sunset", "precipitation", "drizzle", "hail",
        "fog", "foggy", "heatwave",
    ]

    static let calendarWords: Set<String> = [
        "calendar", "agenda", "meeting", "meetings", "appointment", "appointments", "schedule", "busy", "free",
        "events", "event", "tasks", "task", "todo", "todos", "reminders", "plans", "planned", "standup", "1:1",
    ]

    static let taskWords: Set<String> = ["tasks", "task", "todo", "todos", "to-do", "to-dos", "reminders"]

    /// Phrases that read as "my calendar" even without a calendar word.
    static let calendarPhrases = [
        "what do i have", "do i have anything", "whats on my", "what is on my", "am i free", "am i busy",
        "my day look", "my week look", "on my plate",
    ]

    static let pastWords: Set<String> = [
        "did", "won", "lost", "beat", "was", "were", "last", "final", "result", "results", "yesterday",
        "happened", "scored",
    ]

    static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
    static let weekdayShort = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
    static let months = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
        "november", "december",
    ]

    /// Words that end a place name.
    static let placeStop: Set<String> = Set([
        "today", "tonight", "tomorrow", "yesterday", "this", "next", "on", "and", "right", "now", "hourly",
        "celsius", "fahrenheit", "during", "over", "with", "like", "be", "is", "will", "morning", "afternoon",
        "evening", "weekend", "week", "later", "currently", "in", "for", "at", "by", "the", "going", "gonna",
        "should", "do", "does", "i", "it", "get", "look", "looking", "forecast", "weather", "tomorrows",
        "todays", "tonights", "hour", "hours", "days", "day", "a", "to", "or", "but", "then", "also",
    ]).union(weekdays).union(weatherWords)

    /// Words skipped when a place stands before the weather word ("Lisbon weather").
    static let questionWords: Set<String> = [
        "what", "whats", "how", "hows", "is", "the", "will", "whatll", "give", "me", "tell", "show", "get", "a",
        "current", "check", "todays", "tomorrows", "tonights", "local", "there", "theres", "it", "be", "any",
        "do", "does", "i", "need", "an", "going", "to", "please", "can", "you", "and", "s",
    ]
}
