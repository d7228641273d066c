import AlmanacSports
import Foundation

/// Word lists the router matches against: English, not sports data. Leagues and teams come from
/// `SportsVocabulary` (AlmanacSports), the same words `tools run sports --team` accepts.
enum Lexicon {
    /// Common English words that are also a team nickname or a league alias ("heat", "magic",
    /// "championship"). Knowing which words are ordinary English is the router's business, not the
    /// sports data's, so the list lives here: such a team is only meant when the question is about
    /// sports ("heat score"; not "is the heat wave over"), and such a league word never names a
    /// league in a sentence ("who won the championship"). A single-word spelling of a team whose
    /// nickname is listed ("isles" for the Islanders) counts as common too.
    static let commonWords: Set<String> = [
        // Basketball
        "heat", "magic", "thunder", "jazz", "kings", "suns", "nets", "wizards", "rockets", "aces", "sparks",
        "liberty", "mercury",
        // Football
        "bills", "bears", "lions", "giants", "jets", "eagles", "saints", "cardinals", "dolphins", "titans", "rams",
        "browns", "panthers", "commanders",
        // Baseball
        "reds", "tigers", "royals", "angels", "twins", "pirates", "rays", "rangers", "athletics", "guardians",
        "jays", "nationals", "braves", "cubs",
        // Hockey
        "ducks", "flames", "hurricanes", "avalanche", "stars", "wild", "devils", "sharks", "blues", "lightning",
        "capitals", "caps", "penguins", "islanders", "senators", "predators", "flyers", "coyotes",
        // League aliases
        "championship", "europa", "pl",
    ]

    /// Words that make a question about sports (needed for weak team names).
    static let sportsContext: Set<String> = [
        "game", "games", "score", "scores", "scored", "won", "win", "wins", "winning", "lose", "lost", "losing",
        "beat", "play", "plays", "playing", "played", "match", "matches", "standings", "playoffs", "playoff",
        "season", "vs", "versus", "record", "fixture", "fixtures", "kickoff", "tipoff", "halftime", "inning",
        "quarter", "overtime", "team", "roster", "trade", "draft", "seed", "basketball", "football", "baseball",
        "hockey", "soccer",
    ]

    /// Words that make a question about golf, tennis, racing or MMA (beside `sportsContext`):
    /// "who is leading the masters", "how is the race going", "when is the next grand prix".
    static let individualContext: Set<String> = [
        "leading", "leader", "leaders", "leaderboard", "round", "pole", "podium", "next", "results", "going",
        "card", "draw",
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
    ])
    .union(questionWords).union(placeStop).union(sportsContext).union(pastWords).union(beforePlayer)
    .union(afterPlayer).union(calendarWords).union(months)
    .union(SportsVocabulary.individualSportPhrases.flatMap { $0.phrase.split(separator: " ").map(String.init) })

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
