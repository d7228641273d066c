import Foundation

/// The user's profile: the `[me]` table of config.toml (docs/configuration.md). Every key is optional.
///
/// ```toml
/// [me]
/// home = "Lisbon"                        # a place name, or "38.72,-9.14"
/// places = { work = "Porto", mum = "Braga" }
/// teams = ["nba:lakers", "epl:arsenal"]
/// feeds = ["https://example.org/feed.xml", "~/feeds.opml"]
/// calendars = ["work", "family"]         # names of [calendars.NAME]
/// topics = ["swift", "formula 1"]
/// ```
///
/// Values are kept as written: which team or place a name means is the tool's business (a tool
/// that cannot resolve one warns and goes on with the rest).
public struct Profile: Sendable, Hashable {
    /// The place weather uses when none is named: a place name or "LAT,LON".
    public var home: String?
    /// Named places ("work" → "Porto"); keys as written.
    var places: [String: String]
    /// Teams as written, "LEAGUE:TEAM" (e.g. "nba:lakers").
    public var teams: [String]
    /// Feed URLs or paths (the news tool reads these itself, with `[news] feeds`).
    var feeds: [String]
    /// Names of `[calendars.NAME]` tables: the default set for the calendar tool.
    public var calendars: [String]
    /// News topics the user follows.
    public var topics: [String]
    /// One line per key in `[me]` that is not a profile key (a typo reads as nothing otherwise).
    public var warnings: [String]

    /// The profile keys, in the order the docs list them.
    static let keys = ["home", "places", "teams", "feeds", "calendars", "topics"]

    init(
        home: String? = nil, places: [String: String] = [:], teams: [String] = [], feeds: [String] = [],
        calendars: [String] = [], topics: [String] = [], warnings: [String] = []
    ) {
        self.home = home
        self.places = places
        self.teams = teams
        self.feeds = feeds
        self.calendars = calendars
        self.topics = topics
        self.warnings = warnings
    }

    var isEmpty: Bool {
        home == nil && places.isEmpty && teams.isEmpty && feeds.isEmpty && calendars.isEmpty && topics.isEmpty
    }

    /// Reads `[me]`; the environment (`ALMANAC_ME_HOME`, `ALMANAC_ME_TEAMS`, `ALMANAC_ME_FEEDS`,
    /// `ALMANAC_ME_CALENDARS`) wins over the file, as for every setting.
    ///
    /// - Throws: ``AlmanacError`` (usage), one line naming the key and showing a right example,
    ///   when `[me]` or one of its keys has the wrong type.
    public static func read(_ settings: Settings) throws -> Profile {
        var profile = Profile()
        if let table = settings.config("me"), table.tableValue == nil {
            throw AlmanacError.usage(
                "[me] must be a table", suggestion: "e.g. a line [me] followed by home = \"Lisbon\"")
        }
        if let home = settings.env("ALMANAC_ME_HOME") {
            profile.home = home
        } else if let value = settings.config("me", "home") {
            guard case .string(let text) = value,
                !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            else {
                throw AlmanacError.usage(
                    "[me] home must be a place name or \"LAT,LON\"", suggestion: "e.g. home = \"Lisbon\"")
            }
            profile.home = text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if let value = settings.config("me", "places") {
            profile.places = try places(value)
        }
        profile.teams = try list(settings, "teams", env: "ALMANAC_ME_TEAMS", example: #"["nba:lakers", "epl:arsenal"]"#)
        profile.feeds = try list(
            settings, "feeds", env: "ALMANAC_ME_FEEDS", example: #"["https://example.org/feed.xml", "~/feeds.opml"]"#)
        profile.calendars = try list(
            settings, "calendars", env: "ALMANAC_ME_CALENDARS", example: #"["work", "family"]"#)
        profile.topics = try list(settings, "topics", env: nil, example: #"["swift", "formula 1"]"#)
        if let table = settings.config("me")?.tableValue {
            profile.warnings = table.keys.filter { !keys.contains($0) }.sorted().map {
                "[me] \($0) is not a profile key (\(keys.joined(separator: ", "))); ignored"
            }
        }
        return profile
    }

    /// Most topics one call searches (each may be a paid news search): the briefing's headlines
    /// and `tools run news --mine` read the same ones, so "what's new" and the briefing agree.
    static let maximumSearchedTopics = 3

    /// ``topics`` as a call searches them: whitespace runs as one space, a topic written again in
    /// other case or spacing ("Swift", "swift") once, in the order written, at most
    /// ``maximumSearchedTopics``.
    public var searchedTopics: [String] {
        var seen: Set<String> = []
        var kept: [String] = []
        for raw in topics where kept.count < Self.maximumSearchedTopics {
            let topic = Spaces.collapse(raw)
            guard !topic.isEmpty, seen.insert(topic.lowercased()).inserted else { continue }
            kept.append(topic)
        }
        return kept
    }

    /// The place a name means: a key of `places` (compared without case), else nil.
    public func place(named name: String) -> (name: String, place: String)? {
        let wanted = name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard !wanted.isEmpty else { return nil }
        if let exact = places[name] { return (name, exact) }
        // Sorted so two keys differing only in case resolve the same way every run.
        guard let key = places.keys.sorted().first(where: { $0.lowercased() == wanted }), let place = places[key]
        else { return nil }
        return (key, place)
    }

    /// A team entry split at its first colon: "nba:lakers" → ("nba", "lakers"); nil without a
    /// league or a team.
    public static func team(_ entry: String) -> (league: String, team: String)? {
        guard let colon = entry.firstIndex(of: ":") else { return nil }
        let league = entry[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        let team = entry[entry.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        guard !league.isEmpty, !team.isEmpty else { return nil }
        return (league, team)
    }

    private static func places(_ value: ConfigValue) throws -> [String: String] {
        let example = "e.g. places = { work = \"Porto\", mum = \"Braga\" }"
        guard case .table(let table) = value else {
            throw AlmanacError.usage("[me] places must be a table of names to places", suggestion: example)
        }
        var places: [String: String] = [:]
        for (name, place) in table {
            guard case .string(let text) = place,
                !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            else {
                throw AlmanacError.usage(
                    "[me] places: \(name) must be a place name or \"LAT,LON\"", suggestion: example)
            }
            places[name] = text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return places
    }

    private static func list(_ settings: Settings, _ key: String, env: String?, example: String) throws -> [String] {
        // No variable for topics (they hold spaces, which a variable's list would split): "" is never set.
        let found = try settings.list(env: env ?? "", config: "me", key, example: "\(key) = \(example)")
        return (found?.items ?? []).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }
}
