public import AlmanacCore
public import Foundation

/// Synchronous decoding of ESPN scoreboards. Public for scripts/bench (almanac-bench), which times
/// decode+format in-process:
///
/// ```swift
/// guard let league = League.named("nba") else { ... }
/// let text = try ESPNScoreboard.decodeAndFormat(body, league: league, now: now, timeZone: zone)
/// ```
public enum ESPNScoreboard {
    /// Decodes a scoreboard body into games (in upstream order), skipping events without two sides.
    ///
    /// - Throws: ``ProviderFailure`` of kind `decoding` when the body is not a scoreboard.
    static func decode(_ data: Data, league: League) throws -> [Game] {
        try page(data, league: league).games
    }

    /// The games and ESPN's own name for the league (`leagues[0].name`), when the body has one.
    static func page(_ data: Data, league: League) throws -> (games: [Game], leagueName: String?) {
        let wire = try ESPNDecoder.decode(ScoreboardWire.self, from: data)
        return (wire.events.compactMap { $0.game(style: league.style) }, wire.leagueName)
    }

    /// Decodes a scoreboard body and renders its games as LLM context for the local day containing `now`
    /// in `timeZone` (no filtering: every game in the body is listed), as `tools run sports` prints it.
    ///
    /// - Parameters:
    ///   - data: A scoreboard response body.
    ///   - league: The league it belongs to.
    ///   - now: Reference time for today/tomorrow labels.
    ///   - timeZone: The viewer's zone.
    ///   - budget: Token budget for the context.
    public static func decodeAndFormat(
        _ data: Data, league: League, now: Date, timeZone: TimeZone, budget: ContextBudget = .unlimited
    ) throws -> String {
        let page = try page(data, league: league)
        let day = LocalDay.containing(now, in: timeZone)
        let payload = ScoresPayload(league: league.titled(page.leagueName), day: day, games: page.games, team: nil)
        let metadata = ResultMetadata(
            tool: "sports", provider: "espn", fetchedAt: now, ageSeconds: 0, stale: false, attempts: [])
        return payload.context(Rendering(metadata: metadata, now: now, timeZone: timeZone, budget: budget))
    }
}

/// ESPN's bodies through Core's one decoding path (failures become safe ``ProviderFailure``s).
enum ESPNDecoder {
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try UpstreamJSON.decode(type, from: data, service: ESPNProvider.service)
    }
}

extension TeamScheduleWire {
    func schedule(league: League) -> TeamSchedule? {
        guard let team, let entry = team.entry else { return nil }
        let side = Game.Side(
            id: entry.id, displayName: entry.displayName, name: team.preferredName(style: league.style),
            abbreviation: entry.abbreviation)
        let games = events.compactMap { $0.game(style: league.style) }.sorted { $0.start < $1.start }
        return TeamSchedule(team: side, season: requestedSeason?.year ?? season?.year, games: games)
    }
}

extension StandingsWire {
    func standings(league: League) -> Standings {
        var groups: [Standings.Group] = []
        var season: String?
        // `level=3` nests divisions in conferences: each table keeps the name of the group above it.
        func collect(_ name: String?, parent: String?, _ table: Table?, _ children: [Group]?) {
            if let table, let entries = table.entries, !entries.isEmpty {
                season = season ?? table.seasonDisplayName.flatMap(Self.seasonLabel)
                groups.append(
                    Standings.Group(
                        name: name ?? league.name, entries: Self.rows(entries, league: league), parent: parent))
            }
            for child in children ?? [] { collect(child.name, parent: name, child.standings, child.children) }
        }
        collect(name, parent: nil, standings, children)
        return Standings(season: season, groups: groups)
    }

    /// "2024-25" out of "2024-25" or "2024-25 English Premier League".
    static func seasonLabel(_ text: String) -> String? {
        let words = text.split(separator: " ")
        return words.first { word in
            word.first?.isNumber == true && word.allSatisfy { $0.isNumber || $0 == "-" || $0 == "/" }
        }.map(String.init)
    }

    private static func rows(_ entries: [Entry], league: League) -> [Standings.Entry] {
        var rows: [Standings.Entry] = entries.compactMap { entry in
            guard let team = entry.team, let teamEntry = team.entry else { return nil }
            var byType: [String: Stat] = [:]
            for stat in entry.stats ?? [] {
                if let key = stat.type ?? stat.name, byType[key] == nil { byType[key] = stat }
            }
            func int(_ key: String) -> Int? { byType[key]?.value.flatMap { $0.isFinite ? Int($0.rounded()) : nil } }
            func text(_ key: String) -> String? { byType[key]?.displayValue.flatMap { $0.isEmpty ? nil : $0 } }
            let position = int("playoffseed") ?? int("rank")
            return Standings.Entry(
                teamId: teamEntry.id, displayName: teamEntry.displayName, name: team.preferredName(style: league.style),
                abbreviation: teamEntry.abbreviation, position: position,
                record: byType["total"]?.summary ?? text("total"), wins: int("wins"), losses: int("losses"),
                ties: int("ties"), points: league.style == .soccer || league.sport == "hockey" ? int("points") : nil,
                gamesBehind: text("gamesbehind"), difference: league.style == .soccer ? text("pointdifferential") : nil,
                note: entry.note?.description.flatMap { $0.isEmpty ? nil : UntrustedText.clean($0, limit: 60) },
                clinch: text("clincher"),
                clinchMeaning: byType["clincher"]?.description.flatMap {
                    $0.isEmpty ? nil : UntrustedText.clean($0, limit: 60)
                })
        }
        // Upstream lists some tables out of order (NBA); seed or rank is the order people read.
        if rows.allSatisfy({ $0.position != nil }) {
            rows = rows.enumerated().sorted {
                ($0.element.position ?? 0, $0.offset) < ($1.element.position ?? 0, $1.offset)
            }
            .map(\.element)
        }
        return rows
    }
}

extension NewsWire {
    var items: [NewsItem] {
        articles.compactMap { article in
            guard let headline = article.headline, !headline.isEmpty else { return nil }
            return NewsItem(
                headline: headline, description: article.description,
                published: article.published.flatMap(ESPNDate.parse), url: article.links?.web?.href, kind: article.type)
        }
    }
}

extension TeamsWire {
    var entries: [TeamEntry] {
        sports.flatMap { $0.leagues ?? [] }.flatMap { $0.teams ?? [] }.compactMap { $0.team?.entry }
    }
}
