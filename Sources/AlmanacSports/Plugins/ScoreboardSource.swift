public import AlmanacCore
import Foundation

/// A provider of the sports tool that lives outside this package: a provider plugin
/// (`provides = "sports"`), answering ``ScoreboardContract``. The runtime makes one per plugin.
public protocol ScoreboardSource: Sendable {
    /// The plugin's name, shown in attempts.
    var name: String { get }
    /// Its place in the chain (ESPN is 0, the MLB and NHL APIs 10): lower is tried first.
    var priority: Int { get }
    /// The league paths it serves (`hockey/pwhl`) as its stored catalog says, without starting
    /// it; nil when there is no valid catalog.
    var knownLeagues: [String]? { get }
    /// The league paths it serves, starting and listing it when needed.
    ///
    /// - Throws: ``ProviderFailure`` saying why it could not be started or listed.
    func leagues() async throws -> [String]
    /// One call of its ``ScoreboardContract/toolName`` tool: the answer's structured content.
    ///
    /// - Throws: ``ProviderFailure`` naming what went wrong.
    func scoreboard(_ arguments: [String: JSONValue], timeout: Duration) async throws -> JSONValue
}

/// A ``ScoreboardSource`` in the sports chain: the scores of a day for the leagues it serves.
struct ScoreboardPluginProvider: Provider {
    let source: any ScoreboardSource

    var name: String { source.name }
    var priority: Int { source.priority }

    /// A day's scores (not a team's next game) in a league the catalog lists, or in any league
    /// while the catalog is unknown (``fetch(_:in:)`` then asks).
    func supports(_ query: SportsQuery) -> Bool {
        guard query.view == .scores, !query.next, query.day != nil else { return false }
        return source.knownLeagues.map { $0.contains(query.league.path) } ?? true
    }

    func fetch(_ query: SportsQuery, in environment: ProviderEnvironment) async throws -> SportsData {
        guard let day = query.day else { throw ProviderFailure(.notFound, "plugin \(name): no day to look up") }
        if source.knownLeagues == nil {
            let served: [String]
            do {
                served = try await source.leagues()
            } catch let failure as ProviderFailure {
                throw ProviderFailure(
                    failure.kind, "plugin \(name): \(failure.message)", retryAfter: failure.retryAfter)
            }
            if !served.contains(query.league.path) {
                throw ProviderFailure(.notFound, "plugin \(name) does not serve \(query.league.path)")
            }
        }
        let arguments: [String: JSONValue] = [
            "league": .string(query.league.path), "date": .string(day.isoDate), "timezone": .string(day.zoneIdentifier),
        ]
        let answer: ScoreboardContract
        do {
            answer = try ScoreboardContract.read(try await source.scoreboard(arguments, timeout: environment.timeout))
        } catch let failure as ProviderFailure {
            throw ProviderFailure(failure.kind, "plugin \(name): \(failure.message)", retryAfter: failure.retryAfter)
        }
        return .games(ESPNProvider.merge([answer.domainGames], day: day), leagueName: answer.leagueName)
    }
}

extension SportsTool {
    /// The league `word` names among the sources' leagues (its path, or the slug alone: `pwhl`),
    /// nil when none serves it.
    ///
    /// - Throws: ``AlmanacError`` (unavailable, one line) when no source names it but one could
    ///   not be started or listed: the league may be that plugin's, so it is not called unknown.
    static func pluginLeague(_ word: String, sources: [any ScoreboardSource]) async throws -> League? {
        let key = word.trimmingCharacters(in: .whitespaces).lowercased()
        // Stored catalogs first: a plugin is started to list its leagues only when none names it.
        for source in sources {
            if let known = source.knownLeagues, let league = league(key, in: known) { return league }
        }
        var failed: [(plugin: String, failure: ProviderFailure)] = []
        for source in sources where source.knownLeagues == nil {
            do {
                if let league = league(key, in: try await source.leagues()) { return league }
            } catch let failure as ProviderFailure {
                failed.append((source.name, failure))
            }
        }
        if let first = failed.first {
            let others = failed.count > 1 ? " (and \(failed.count - 1) other provider plugin(s))" : ""
            throw AlmanacError.unavailable(
                "sports: no working provider names the league '\(UntrustedText.clean(word, limit: 40))'; "
                    + "plugin \(first.plugin), which may serve it, failed: \(first.failure.message)\(others)",
                suggestion: nil)
        }
        return nil
    }

    /// The league of `paths` that `key` names by path or slug.
    private static func league(_ key: String, in paths: [String]) -> League? {
        for path in paths where ScoreboardContract.isLeaguePath(path) {
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            guard key == path || key == parts[1] else { continue }
            let (sport, slug) = (String(parts[0]), String(parts[1]))
            return League.named(path)
                ?? League(
                    sport: sport, slug: slug, name: slug.uppercased(), style: League.style(sport: sport, slug: slug))
        }
        return nil
    }
}

extension ScoreboardContract {
    /// Whether a provider plugin's league path is one Almanac can use: `sport/league`, two
    /// non-empty parts of lower-case letters, digits, `.`, `_` and `-` (paths become cache keys,
    /// headers and the `league` argument the plugin is called with, as listed). The contract kit
    /// and the sports tool both ask this, so a path the kit passes is one the tool serves.
    public static func isLeaguePath(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
            && path.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("0"..."9").contains($0) || "._-/".unicodeScalars.contains($0)
            }
    }
}
