extension SportsVocabulary {
    /// A word or event that names a sport played by individuals ("masters" is golf).
    public struct SportPhrase: Sendable, Hashable {
        /// Lower-case words, e.g. "grand prix".
        public var phrase: String
        /// ESPN's sport, e.g. `racing`.
        public var sport: String
    }

    /// Words and events that name golf, tennis, racing or MMA: a question with one of them goes to
    /// that sport's first league (PGA Tour, ATP, Formula 1, UFC), with `--player` for a named person.
    public static let individualSportPhrases: [SportPhrase] = [
        ("golf", "golf"), ("golfer", "golf"), ("masters", "golf"), ("leaderboard", "golf"), ("ryder cup", "golf"),
        ("tennis", "tennis"), ("wimbledon", "tennis"), ("roland garros", "tennis"), ("french open", "tennis"),
        ("australian open", "tennis"), ("racing", "racing"), ("grand prix", "racing"),
        ("race", "racing"), ("qualifying", "racing"), ("mma", "mma"), ("fight", "mma"), ("bout", "mma"),
    ].map { SportPhrase(phrase: $0.0, sport: $0.1) }

    /// The sports whose events are contests of individuals, not team games.
    public static let individualSports: Set<String> = ["golf", "tennis", "racing", "mma"]
}
