import AlmanacCore
import Foundation

/// The words a question about sports is read by (``SportsQuestionReader``): data tables, no logic.
/// Leagues and teams come from ``SportsVocabulary``; these are the English around them, named
/// events with the rule for their dates, well-known athletes, divisions and conferences.
enum SportsQuestionWords {
    /// Common English words that are also a team nickname or a league alias ("heat", "magic",
    /// "championship"): such a team is only meant when the question is about sports ("heat score";
    /// not "is the heat wave over"), and such a league word never names a league in a sentence. A
    /// single-word spelling of a team whose nickname is listed ("isles") counts as common too.
    static let commonWords: Set<String> = [
        "heat", "magic", "thunder", "jazz", "kings", "suns", "nets", "wizards", "rockets", "aces", "sparks",
        "liberty", "mercury", "sky", "fever", "storm", "wings", "sun", "dream", "valkyries", "fire", "union",
        "bills", "bears", "lions", "giants", "jets", "eagles", "saints", "cardinals", "dolphins", "titans", "rams",
        "browns", "panthers", "commanders",
        "reds", "tigers", "royals", "angels", "twins", "pirates", "rays", "rangers", "athletics", "guardians",
        "jays", "nationals", "braves", "cubs",
        "ducks", "flames", "hurricanes", "avalanche", "stars", "wild", "devils", "sharks", "blues", "lightning",
        "capitals", "caps", "penguins", "islanders", "senators", "predators", "flyers", "coyotes",
        "championship", "europa", "pl", "indy", "cup-series", "nascar-cup",
    ]

    /// Words that make a question about sports (needed for weak team names and athletes).
    static let sportsContext: Set<String> = [
        "game", "games", "score", "scores", "scored", "won", "win", "wins", "winning", "lose", "lost", "losing",
        "beat", "play", "plays", "playing", "played", "match", "matches", "standings", "playoffs", "playoff",
        "season", "vs", "versus", "record", "fixture", "fixtures", "kickoff", "tipoff", "halftime", "inning",
        "quarter", "overtime", "team", "roster", "trade", "draft", "seed", "basketball", "football", "baseball",
        "hockey", "soccer", "points", "goals", "goal", "homer", "touchdown", "touchdowns", "stats", "final",
        "finals", "tournament", "champion", "champions", "title", "league", "division", "conference", "homers",
        "homered", "runs", "rbi", "rbis", "strikeouts", "assists", "rebounds", "yards", "touchdowns", "result",
        "results", "table",
    ]

    /// Words that make a question about golf, tennis, racing or MMA (beside `sportsContext`).
    static let individualContext: Set<String> = [
        "leading", "leader", "leaders", "leaderboard", "round", "pole", "podium", "next", "results", "going",
        "card", "draw", "set", "sets",
    ]

    /// Words about the weather: with one of them and no person, an event is where the weather is
    /// asked about ("is it going to rain at the masters"), not the contest.
    static let conditions: Set<String> = [
        "weather", "forecast", "temperature", "rain", "raining", "snow", "snowing", "sunny", "hot", "cold", "warm",
        "windy", "wind", "umbrella", "storm", "storms", "degrees", "humid", "cloudy", "chilly",
    ]

    /// Words that can stand before a player's name in a question ("how *is* scheffler doing").
    static let beforePlayer: Set<String> = [
        "is", "isnt", "was", "did", "didnt", "does", "has", "hasnt", "had", "hows", "how", "where", "will", "can",
        "could", "are",
    ]

    /// Words that can follow a player's name ("is verstappen *winning*").
    static let afterPlayer: Set<String> = [
        "doing", "winning", "playing", "leading", "do", "win", "won", "finish", "finished", "fighting", "fight",
        "racing", "race", "score", "scored", "shoot", "shooting", "shot", "play", "played", "going", "placed",
        "lose", "losing", "lost", "beat", "look", "looking", "fare", "faring", "qualify", "qualified", "get",
        "got", "in", "at", "still", "currently", "ahead", "making", "make", "made",
    ]

    /// Words that are never part of a player's name.
    static let notNames: Set<String> = Set([
        "who", "what", "whats", "which", "when", "why", "it", "he", "she", "they", "we", "you", "my", "your",
        "his", "her", "their", "our", "there", "that", "this", "these", "those", "of", "from", "about",
        "round", "tour", "open", "cup", "championship", "tournament", "event", "card", "top", "leader", "leaders",
        "first", "place", "so", "far", "well", "too", "very", "ranked", "standing", "tennis", "golf", "lead",
        "today", "tonight", "tomorrow", "yesterday", "next", "last", "week", "weekend", "the", "a", "an", "in",
        "at", "on", "for", "and", "or", "to", "be", "i", "me", "calendar", "schedule", "free", "busy", "meeting",
        "mens", "womens", "men", "women", "final", "finals", "semifinal", "semis", "quarterfinal", "match",
        "grand", "prix", "gp", "slam",
    ])
    .union(beforePlayer).union(afterPlayer).union(sportsContext).union(QuestionWords.pastWords)
    .union(QuestionWords.weekdays).union(QuestionWords.months).union(conditions)

    /// Words that end a tournament's name ("rocket classic", "qatar open"): the words before them
    /// name an event the table may not list.
    static let eventSuffixes: Set<String> = [
        "open", "classic", "championship", "championships", "invitational", "masters", "pro-am", "challenge",
    ]
    /// The suffixes only golf uses (tennis's are "open", "masters", "championships").
    static let golfEventSuffixes: Set<String> = ["classic", "championship", "invitational", "pro-am", "challenge"]
    /// Words that make the words before a suffix no golf or tennis event ("national championship",
    /// "big ten championship", "world championships", "afc championship").
    static let notEventNames: Set<String> = [
        "national", "world", "conference", "division", "league", "state", "club", "college", "big", "regional",
        "afc", "nfc", "sec", "acc", "football", "basketball", "baseball", "hockey", "soccer", "rugby", "cricket",
        "chess", "poker", "darts", "snooker", "spelling", "bee", "dog", "eating", "fa", "super", "european",
        "team", "game", "series", "title", "playoff", "playoffs", "fantasy", "school", "high", "boxing", "ufc",
        "wrestling", "cup", "heavyweight", "belt", "election", "race", "season", "week", "month", "year",
    ]

    /// Words asking for a table.
    /// ("where do the pacers stand": where a team stands is its place in the table.)
    static let standingsWords: Set<String> = [
        "standings", "table", "rankings", "seed", "seeding", "seeds", "stand", "relegated", "relegation",
    ]
    /// Phrases asking who won a league or title over a season: that is the table (or the final).
    static let seasonTitle = [
        "win the league", "won the league", "win the title", "won the title", "league title", "league champions",
        "champions this season", "top of the league", "top of the table", "winning the league", "lead the league",
        "leads the league", "leading the league",
    ]
    static let newsWords: Set<String> = [
        "news", "injury", "injuries", "trade", "trades", "rumors", "rumours", "headlines",
    ]
    static let scheduleWords: Set<String> = ["schedule", "fixtures", "calendar"]
    /// Words that ask for the women's side of a sport.
    static let womenWords: Set<String> = ["women", "womens", "ladies", "woman", "girls"]
    /// The women's league of a league, by slug.
    static let womensLeague: [String: String] = [
        "atp": "wta", "pga": "lpga", "mens-college-basketball": "womens-college-basketball",
        "mens-college-hockey": "womens-college-hockey", "nba": "wnba",
    ]

    /// Words that ask about the first day of an event, not its last.
    static let startWords: Set<String> = ["start", "starts", "begin", "begins", "starting", "beginning", "kickoff"]
    /// Words that mean a stage before an event, which its dates do not describe.
    static let beforeEvent: Set<String> = ["qualifier", "qualifiers", "qualifying", "qualification", "draw"]

    /// A country's top league, for "who won the league in england" (only with a word about a league).
    static let countryLeagues: [(phrase: String, league: String)] = [
        ("in england", "eng.1"), ("english", "eng.1"), ("in spain", "esp.1"), ("spanish", "esp.1"),
        ("in germany", "ger.1"), ("german", "ger.1"), ("in italy", "ita.1"), ("italian", "ita.1"),
        ("in france", "fra.1"), ("in scotland", "sco.1"), ("scottish", "sco.1"), ("dutch", "ned.1"),
        ("in the netherlands", "ned.1"), ("in portugal", "por.1"), ("portuguese", "por.1"), ("in brazil", "bra.1"),
        ("in mexico", "mex.1"), ("in japan", "jpn.1"),
    ]
    /// Words that make a country name its league.
    static let leagueWords: Set<String> = ["league", "title", "table", "standings", "champions", "football", "soccer"]

    /// When a named event's last day falls.
    enum DateRule: Sendable {
        /// The `n`th `weekday` (0 = Sunday) of `month`; `n` = -1 is the last.
        case nth(month: Int, weekday: Int, n: Int)
        /// `days` after the `n`th `weekday` of `month` ("the Sunday after Labor Day").
        case after(month: Int, weekday: Int, n: Int, days: Int)
        /// A series or a schedule that moves: no day can be computed, only the months it is played in.
        case months(Set<Int>)
        /// Known final days (a World Cup every four years), ISO dates.
        case fixed([String])
    }

    /// An event people name: "super bowl", "the masters".
    struct NamedEvent: Sendable {
        /// The phrases that name it, lower-case.
        var phrases: [String]
        /// The league slug whose scoreboard carries it.
        var league: String
        /// When its last day falls.
        var rule: DateRule
        /// How many days it is played over, the last one included (a tournament's week).
        var days: Int
    }

    /// Named events and their dates. Days follow the recent editions (Super Bowl: second Sunday of
    /// February since 2022; the Masters: second Sunday of April; Wimbledon's final: second Sunday of July).
    static let events: [NamedEvent] = [
        NamedEvent(
            phrases: ["super bowl", "superbowl"], league: "nfl", rule: .nth(month: 2, weekday: 0, n: 2), days: 1),
        NamedEvent(
            phrases: ["stanley cup final", "stanley cup finals", "stanley cup"], league: "nhl", rule: .months([6]),
            days: 20),
        NamedEvent(phrases: ["nba finals", "nba final"], league: "nba", rule: .months([6]), days: 20),
        NamedEvent(phrases: ["wnba finals"], league: "wnba", rule: .months([10]), days: 20),
        NamedEvent(phrases: ["world series"], league: "mlb", rule: .months([10, 11]), days: 12),
        NamedEvent(
            phrases: ["march madness", "final four", "ncaa tournament", "sweet sixteen", "sweet 16", "elite eight"],
            league: "mens-college-basketball", rule: .nth(month: 4, weekday: 1, n: 1), days: 21),
        NamedEvent(phrases: ["college world series", "cws"], league: "college-baseball", rule: .months([6]), days: 12),
        NamedEvent(
            phrases: ["womens college world series", "wcws"], league: "college-softball", rule: .months([5, 6]),
            days: 10),
        NamedEvent(
            phrases: ["frozen four"], league: "mens-college-hockey", rule: .nth(month: 4, weekday: 6, n: 2), days: 3),
        NamedEvent(
            phrases: ["the masters", "masters"], league: "pga", rule: .nth(month: 4, weekday: 0, n: 2), days: 4),
        NamedEvent(phrases: ["pga championship"], league: "pga", rule: .nth(month: 5, weekday: 0, n: 3), days: 4),
        NamedEvent(
            phrases: ["us open golf", "u s open golf", "us open"], league: "pga",
            rule: .nth(month: 6, weekday: 0, n: 3), days: 4),
        NamedEvent(
            phrases: ["the open championship", "british open", "open championship"], league: "pga",
            rule: .nth(month: 7, weekday: 0, n: 3), days: 4),
        NamedEvent(phrases: ["players championship"], league: "pga", rule: .nth(month: 3, weekday: 0, n: 2), days: 4),
        NamedEvent(
            phrases: ["valero texas open", "texas open"], league: "pga", rule: .nth(month: 4, weekday: 0, n: 1), days: 4
        ),
        NamedEvent(phrases: ["the memorial", "memorial tournament"], league: "pga", rule: .months([5, 6]), days: 4),
        NamedEvent(
            phrases: ["tour championship", "fedex cup", "fedexcup"], league: "pga", rule: .months([8]), days: 4),
        NamedEvent(phrases: ["ryder cup"], league: "pga", rule: .months([9]), days: 3),
        NamedEvent(phrases: ["womens pga", "kpmg womens pga"], league: "lpga", rule: .months([6]), days: 4),
        NamedEvent(
            phrases: ["australian open", "aussie open"], league: "atp", rule: .nth(month: 1, weekday: 0, n: -1),
            days: 15),
        NamedEvent(
            phrases: ["french open", "roland garros"], league: "atp", rule: .nth(month: 6, weekday: 0, n: 2), days: 15),
        NamedEvent(phrases: ["wimbledon"], league: "atp", rule: .nth(month: 7, weekday: 0, n: 2), days: 14),
        NamedEvent(
            phrases: ["us open", "u s open", "us open tennis"], league: "atp",
            rule: .after(month: 9, weekday: 1, n: 1, days: 6), days: 15),
        NamedEvent(phrases: ["atp finals"], league: "atp", rule: .months([11]), days: 8),
        // Weekly tour events by the name people use; the months they are usually played in.
        NamedEvent(phrases: ["rbc heritage"], league: "pga", rule: .months([4]), days: 4),
        NamedEvent(phrases: ["genesis invitational"], league: "pga", rule: .months([2]), days: 4),
        NamedEvent(phrases: ["arnold palmer invitational"], league: "pga", rule: .months([3]), days: 4),
        NamedEvent(phrases: ["phoenix open", "waste management open"], league: "pga", rule: .months([2]), days: 4),
        NamedEvent(
            phrases: ["pebble beach pro-am", "pebble beach pro am"], league: "pga", rule: .months([2]), days: 4),
        NamedEvent(phrases: ["travelers championship"], league: "pga", rule: .months([6]), days: 4),
        NamedEvent(
            phrases: ["wells fargo championship", "truist championship"], league: "pga", rule: .months([5]), days: 4),
        NamedEvent(phrases: ["charles schwab challenge"], league: "pga", rule: .months([5]), days: 4),
        NamedEvent(phrases: ["rbc canadian open", "canadian open"], league: "pga", rule: .months([6]), days: 4),
        NamedEvent(phrases: ["scottish open"], league: "pga", rule: .months([7]), days: 4),
        NamedEvent(phrases: ["fedex st jude", "st jude championship"], league: "pga", rule: .months([8]), days: 4),
        NamedEvent(phrases: ["bmw championship"], league: "pga", rule: .months([8]), days: 4),
        NamedEvent(phrases: ["sony open"], league: "pga", rule: .months([1]), days: 4),
        NamedEvent(phrases: ["the sentry", "sentry tournament"], league: "pga", rule: .months([1]), days: 4),
        NamedEvent(phrases: ["chevron championship"], league: "lpga", rule: .months([4]), days: 4),
        NamedEvent(phrases: ["us womens open"], league: "lpga", rule: .months([5, 6]), days: 4),
        NamedEvent(phrases: ["miami open"], league: "atp", rule: .months([3, 4]), days: 14),
        NamedEvent(phrases: ["madrid open"], league: "atp", rule: .months([4, 5]), days: 12),
        NamedEvent(phrases: ["italian open", "rome masters"], league: "atp", rule: .months([5]), days: 12),
        NamedEvent(
            phrases: ["cincinnati open", "western and southern open"], league: "atp", rule: .months([8]), days: 12),
        NamedEvent(phrases: ["monte carlo masters"], league: "atp", rule: .months([4]), days: 8),
        NamedEvent(phrases: ["queens club"], league: "atp", rule: .months([6]), days: 7),
        NamedEvent(phrases: ["shanghai masters"], league: "atp", rule: .months([10]), days: 12),
        NamedEvent(phrases: ["paris masters"], league: "atp", rule: .months([10, 11]), days: 7),
        NamedEvent(phrases: ["davis cup"], league: "atp", rule: .months([9, 11]), days: 7),
        NamedEvent(phrases: ["wta finals"], league: "wta", rule: .months([11]), days: 8),
        NamedEvent(phrases: ["indian wells"], league: "atp", rule: .months([3]), days: 12),
        NamedEvent(phrases: ["champions league final"], league: "uefa.champions", rule: .months([5, 6]), days: 1),
        NamedEvent(phrases: ["europa league final"], league: "uefa.europa", rule: .months([5]), days: 1),
        NamedEvent(phrases: ["fa cup final"], league: "eng.fa", rule: .months([5]), days: 1),
        NamedEvent(
            phrases: ["world cup final", "fifa world cup", "world cup", "worldcup"], league: "fifa.world",
            rule: .fixed(["2018-07-15", "2022-12-18", "2026-07-19", "2030-07-21"]), days: 39),
        NamedEvent(
            phrases: ["indy 500", "indianapolis 500", "indy500"], league: "irl",
            rule: .nth(month: 5, weekday: 0, n: -1), days: 1),
        NamedEvent(phrases: ["daytona 500"], league: "nascar-premier", rule: .nth(month: 2, weekday: 0, n: 3), days: 1),
        NamedEvent(phrases: ["monaco grand prix", "monaco gp"], league: "f1", rule: .months([5, 6]), days: 3),
        NamedEvent(phrases: ["british grand prix", "silverstone"], league: "f1", rule: .months([7]), days: 3),
        NamedEvent(phrases: ["las vegas grand prix", "vegas grand prix"], league: "f1", rule: .months([11]), days: 3),
        NamedEvent(phrases: ["abu dhabi grand prix"], league: "f1", rule: .months([12]), days: 3),
        NamedEvent(phrases: ["italian grand prix", "monza"], league: "f1", rule: .months([9]), days: 3),
        NamedEvent(
            phrases: ["us grand prix", "united states grand prix", "cota"], league: "f1", rule: .months([10]), days: 3),
        NamedEvent(phrases: ["miami grand prix"], league: "f1", rule: .months([5]), days: 3),
        NamedEvent(phrases: ["canadian grand prix"], league: "f1", rule: .months([6]), days: 3),
        NamedEvent(phrases: ["japanese grand prix"], league: "f1", rule: .months([4]), days: 3),
        NamedEvent(phrases: ["australian grand prix"], league: "f1", rule: .months([3]), days: 3),
    ]

    /// A sport's word or a contest word that names golf, tennis, racing or MMA ("golf", "race").
    static let individualSportWords: [(phrase: String, sport: String)] = [
        ("golf", "golf"), ("golfer", "golf"), ("leaderboard", "golf"), ("tennis", "tennis"), ("racing", "racing"),
        ("grand prix", "racing"), ("race", "racing"), ("qualifying", "racing"), ("mma", "mma"), ("fight", "mma"),
        ("bout", "mma"), ("formula 1", "racing"), ("formula one", "racing"),
    ]

    /// A well-known athlete: the `--player` word (the surname ESPN's names contain), the league
    /// slug of their tour or team, and the ways to say them.
    struct Athlete: Sendable {
        var player: String
        var league: String
        var spellings: [String]
    }

    /// `player|league|spelling,spelling|weak`: one line per athlete, the first spelling the full name.
    static let athleteLines: [String] = [
        // Tennis, men
        "alcaraz|atp|carlos alcaraz,alcaraz", "sinner|atp|jannik sinner,sinner",
        "djokovic|atp|novak djokovic,djokovic,novak",
        "medvedev|atp|daniil medvedev,medvedev", "zverev|atp|alexander zverev,sascha zverev,zverev",
        "fritz|atp|taylor fritz,fritz", "tsitsipas|atp|stefanos tsitsipas,tsitsipas", "ruud|atp|casper ruud,ruud",
        "de minaur|atp|alex de minaur,de minaur", "shelton|atp|ben shelton,shelton",
        "tommy paul|atp|tommy paul", "draper|atp|jack draper,draper", "nadal|atp|rafael nadal,rafa nadal,nadal,rafa",
        "rune|atp|holger rune", "rublev|atp|andrey rublev,rublev", "tiafoe|atp|frances tiafoe,tiafoe",
        "musetti|atp|lorenzo musetti,musetti", "dimitrov|atp|grigor dimitrov,dimitrov",
        "lehecka|atp|jiri lehecka,lehecka", "bublik|atp|alexander bublik,bublik",
        "struff|atp|jan-lennard struff,struff",
        "machac|atp|tomas machac,machac", "mensik|atp|jakub mensik,mensik",
        // Tennis, women
        "swiatek|wta|iga swiatek,swiatek,iga", "sabalenka|wta|aryna sabalenka,sabalenka",
        "gauff|wta|coco gauff,gauff,coco", "rybakina|wta|elena rybakina,rybakina", "pegula|wta|jessica pegula,pegula",
        "paolini|wta|jasmine paolini,paolini", "madison keys|wta|madison keys", "osaka|wta|naomi osaka,osaka",
        "raducanu|wta|emma raducanu,raducanu", "jabeur|wta|ons jabeur,jabeur", "andreeva|wta|mirra andreeva,andreeva",
        "zheng|wta|zheng qinwen,qinwen zheng", "navarro|wta|emma navarro",
        "krejcikova|wta|barbora krejcikova,krejcikova",
        "anisimova|wta|amanda anisimova,anisimova", "ostapenko|wta|jelena ostapenko,ostapenko",
        // Golf, PGA Tour
        "scheffler|pga|scottie scheffler,scheffler", "mcilroy|pga|rory mcilroy,mcilroy,rory",
        "schauffele|pga|xander schauffele,schauffele,xander", "morikawa|pga|collin morikawa,morikawa",
        "spieth|pga|jordan spieth,spieth", "cantlay|pga|patrick cantlay,cantlay", "aberg|pga|ludvig aberg,aberg",
        "fleetwood|pga|tommy fleetwood,fleetwood", "hovland|pga|viktor hovland,hovland",
        "matsuyama|pga|hideki matsuyama,matsuyama", "fowler|pga|rickie fowler,fowler",
        "woods|pga|tiger woods|", "thomas|pga|justin thomas", "finau|pga|tony finau,finau",
        "lowry|pga|shane lowry,lowry",
        "homa|pga|max homa,homa", "zalatoris|pga|will zalatoris,zalatoris", "day|pga|jason day",
        "burns|pga|sam burns", "clark|pga|wyndham clark", "english|pga|harris english",
        "spaun|pga|jj spaun,j j spaun,spaun", "macintyre|pga|robert macintyre,bob macintyre,macintyre",
        "rahm|liv|jon rahm,rahm", "dechambeau|liv|bryson dechambeau,dechambeau,bryson",
        "koepka|liv|brooks koepka,koepka", "mickelson|liv|phil mickelson,mickelson",
        // Golf, LPGA
        "korda|lpga|nelly korda,korda", "lydia ko|lpga|lydia ko", "thitikul|lpga|jeeno thitikul,thitikul",
        "rose zhang|lpga|rose zhang", "lilia vu|lpga|lilia vu",
        // Racing
        "verstappen|f1|max verstappen,verstappen", "norris|f1|lando norris,norris,lando",
        "leclerc|f1|charles leclerc,leclerc", "hamilton|f1|lewis hamilton,hamilton",
        "russell|f1|george russell", "piastri|f1|oscar piastri,piastri", "sainz|f1|carlos sainz,sainz",
        "alonso|f1|fernando alonso,alonso", "perez|f1|sergio perez,checo perez,checo",
        "antonelli|f1|kimi antonelli,antonelli", "palou|irl|alex palou,palou",
        "larson|nascar-premier|kyle larson", "hamlin|nascar-premier|denny hamlin,hamlin",
        "elliott|nascar-premier|chase elliott",
        // MMA
        "jon jones|ufc|jon jones", "mcgregor|ufc|conor mcgregor,mcgregor", "adesanya|ufc|israel adesanya,adesanya",
        "pereira|ufc|alex pereira,pereira", "makhachev|ufc|islam makhachev,makhachev",
        "topuria|ufc|ilia topuria,topuria",
        "omalley|ufc|sean omalley,omalley", "volkanovski|ufc|alexander volkanovski,volkanovski",
        "aspinall|ufc|tom aspinall,aspinall",
        // Basketball
        "lebron|nba|lebron james,lebron", "curry|nba|stephen curry,steph curry,curry", "durant|nba|kevin durant,durant",
        "giannis|nba|giannis antetokounmpo,giannis,antetokounmpo", "jokic|nba|nikola jokic,jokic",
        "doncic|nba|luka doncic,doncic", "embiid|nba|joel embiid,embiid", "tatum|nba|jayson tatum,tatum",
        "wembanyama|nba|victor wembanyama,wembanyama,wemby", "gilgeous-alexander|nba|shai gilgeous-alexander,sga",
        "anthony edwards|nba|anthony edwards", "brunson|nba|jalen brunson,brunson",
        "caitlin clark|wnba|caitlin clark", "a'ja wilson|wnba|aja wilson", "stewart|wnba|breanna stewart",
        // Football
        "mahomes|nfl|patrick mahomes,mahomes", "josh allen|nfl|josh allen", "lamar jackson|nfl|lamar jackson,lamar",
        "burrow|nfl|joe burrow,burrow", "hurts|nfl|jalen hurts", "kelce|nfl|travis kelce,kelce",
        "barkley|nfl|saquon barkley,saquon", "justin jefferson|nfl|justin jefferson", "stroud|nfl|cj stroud",
        "rodgers|nfl|aaron rodgers,rodgers",
        // Baseball
        "ohtani|mlb|shohei ohtani,ohtani,shohei", "judge|mlb|aaron judge,judge", "soto|mlb|juan soto",
        "betts|mlb|mookie betts,mookie", "trout|mlb|mike trout", "harper|mlb|bryce harper",
        "skenes|mlb|paul skenes,skenes",
        // Hockey
        "mcdavid|nhl|connor mcdavid,mcdavid", "ovechkin|nhl|alex ovechkin,ovechkin,ovi",
        "crosby|nhl|sidney crosby,crosby",
        "matthews|nhl|auston matthews", "makar|nhl|cale makar,makar", "mackinnon|nhl|nathan mackinnon,mackinnon",
        "draisaitl|nhl|leon draisaitl,draisaitl", "bedard|nhl|connor bedard,bedard",
        // Soccer
        "messi|usa.1|lionel messi,messi", "haaland|eng.1|erling haaland,haaland",
        "salah|eng.1|mohamed salah,mo salah,salah",
        "mbappe|esp.1|kylian mbappe,mbappe", "harry kane|ger.1|harry kane",
        "bellingham|esp.1|jude bellingham,bellingham",
        "saka|eng.1|bukayo saka,saka", "cristiano ronaldo|ksa.1|cristiano ronaldo",
    ]

    /// Spellings that are also ordinary words or common first names: an athlete only in a
    /// question about sports.
    static let weakAthleteSpellings: Set<String> = [
        "rory", "xander", "novak", "rafa", "iga", "coco", "lando", "checo", "lamar", "shohei", "mookie", "ovi",
        "bryson", "wemby", "giannis", "saquon", "sga", "hamilton", "osaka", "norris", "lowry", "salah", "tatum",
        "burrow", "rodgers", "crosby", "sinner", "fritz", "draper", "fleetwood", "pereira", "alonso", "hamlin",
        "barkley", "fowler", "curry", "keys", "day",
    ]

    static let athletes: [Athlete] = athleteLines.compactMap { line in
        let parts = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 3 else { return nil }
        let spellings = parts[2].split(separator: ",").map { String($0).replacingOccurrences(of: "'", with: "") }
        return Athlete(player: parts[0].replacingOccurrences(of: "'", with: ""), league: parts[1], spellings: spellings)
    }

    /// A division or conference: the phrases that name it, its league slug and the `--group` words.
    struct Group: Sendable {
        var phrases: [String]
        var league: String
        var name: String
    }

    static let groups: [Group] = {
        var groups: [Group] = []
        for (short, long) in [("al", "american league"), ("nl", "national league")] {
            for part in ["east", "central", "west"] {
                groups.append(
                    Group(
                        phrases: ["\(short) \(part)", "\(long) \(part)"], league: "mlb",
                        name: "\(short.uppercased()) \(part.capitalized)"))
            }
        }
        for conference in ["afc", "nfc"] {
            for part in ["east", "north", "south", "west"] {
                groups.append(
                    Group(
                        phrases: ["\(conference) \(part)"], league: "nfl",
                        name: "\(conference.uppercased()) \(part.capitalized)"))
            }
        }
        for division in ["atlantic", "metropolitan", "central", "pacific"] {
            groups.append(
                Group(phrases: ["\(division) division"], league: "nhl", name: "\(division.capitalized) Division"))
        }
        groups.append(Group(phrases: ["metro division"], league: "nhl", name: "Metropolitan Division"))
        for division in ["southeast", "northwest", "southwest"] {
            groups.append(
                Group(phrases: ["\(division) division"], league: "nba", name: "\(division.capitalized) Division"))
        }
        for side in ["eastern", "western"] {
            groups.append(Group(phrases: ["\(side) conference"], league: "", name: "\(side.capitalized) Conference"))
        }
        groups.append(Group(phrases: ["american league"], league: "mlb", name: "American League"))
        groups.append(Group(phrases: ["national league"], league: "mlb", name: "National League"))
        return groups
    }()
}
