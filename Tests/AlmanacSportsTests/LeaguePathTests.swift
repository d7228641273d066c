import AlmanacCore
import Foundation
import Testing

@testable import AlmanacSports

/// A provider plugin's league paths: the contract kit (`tools plugin check`) and the sports tool
/// read them with one rule, so a path the kit passes is one the tool serves.
@Suite("sports provider contract: league paths")
struct LeaguePathTests {
    /// A provider plugin whose stored catalog lists `paths`.
    struct Listed: ScoreboardSource {
        var knownLeagues: [String]?
        var name: String { "listed" }
        var priority: Int { 5 }
        func leagues() async throws -> [String] { knownLeagues ?? [] }
        func scoreboard(_ arguments: [String: JSONValue], timeout: Duration) async throws -> JSONValue { .null }
    }

    @Test("sport/league in lower-case slug characters; empty parts, extra slashes and other characters refused")
    func rule() {
        for path in ["hockey/pwhl", "football/cfl", "soccer/ger.1", "cricket/ipl_2026", "a/b-c"] {
            #expect(ScoreboardContract.isLeaguePath(path), "\(path)")
        }
        for path in ["hockey//pwhl", "/hockey/pwhl", "hockey/pwhl/", "hockey", "Hockey/PWHL", "hockey/pw hl", "", "/"] {
            #expect(!ScoreboardContract.isLeaguePath(path), "\(path)")
        }
    }

    @Test("the sports tool finds a listed league exactly when the contract kit accepts its path")
    func agreement() async throws {
        for path in ["hockey/pwhl", "hockey//pwhl", "/hockey/pwhl", "Hockey/PWHL", "hockey/pw hl"] {
            let slug = path.split(separator: "/").last.map(String.init) ?? path
            let found = try await SportsTool.pluginLeague(slug, sources: [Listed(knownLeagues: [path])])
            #expect((found != nil) == ScoreboardContract.isLeaguePath(path), "\(path)")
        }
    }
}
