import AlmanacTesting
import Foundation
import Testing

/// Provider plugins of the sports tool (`provides = "sports"`) against the built `tools` binary:
/// the example plugins in examples/plugins/ (the official Python `mcp` SDK) serving recorded real
/// answers, in the sports chain at their priority (docs/plugins.md).
@Suite("plugins: example provider plugins of the sports tool, end to end", .serialized)
struct PluginProvidersEndToEndTests {
    static var python: URL { PluginPeers.root.appendingPathComponent(".venv-mcp/bin/python") }
    static var ready: Bool { FileManager.default.isExecutableFile(atPath: python.path) || PluginPeers.isCI }
    static func fixture(_ name: String) -> String {
        PluginPeers.root.appendingPathComponent("Fixtures/plugins/sports/\(name)").path
    }
    static let pwhlFile = "pwhl-modulekit-scorebar-2026-04-28-final-ot-so-scheduled.json"
    static let cflFile = "cflscoreboard-rounds-2026-preseason-live.json"
    static let openLigaFile = "getmatchdata-bl1-2022-matchday1-finished.json"

    /// `[plugins.NAME]` for an example plugin reading its recorded file; each start counted.
    static func entry(
        _ name: String, variable: String, file: String, priority: Int? = nil, script: String? = nil
    ) -> (String) -> String {
        { starts in
            let program = script ?? PluginPeers.root.appendingPathComponent("examples/plugins/\(name)/server.py").path
            return """
                [plugins.\(name)]
                command = ["/bin/sh", "-c", "echo $$ >> \(starts); exec \(python.path) \(program)"]
                env = { \(variable) = "\(fixture(file))" }
                provides = "sports"
                \(priority.map { "priority = \($0)" } ?? "")

                """
        }
    }

    static func setup(_ entries: [(String) -> String]) throws -> PluginPeers.Setup {
        try PluginPeers.Setup { starts in entries.map { $0(starts) }.joined() }
    }

    static func upstream(_ file: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: fixture(file))))
    }

    /// "HH:mm" of an upstream instant in `zone`: the expected clock, from the recording's bytes.
    static func clock(_ instant: String, _ zone: String) throws -> String {
        let parsed = try #require(ISO8601DateFormatter().date(from: instant))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateFormat = "HH:mm"
        return formatter.string(from: parsed)
    }

    @Test(
        "tools run sports pwhl: a league ESPN lacks, answered by the plugin; the day's games from HockeyTech's bytes",
        .enabled(if: ready, "skipped: .venv-mcp missing; run bash scripts/peers/mcp.sh"))
    func pwhl() async throws {
        let setup = try Self.setup([Self.entry("pwhl", variable: "PWHL_SCOREBAR_FILE", file: Self.pwhlFile)])
        let now = ["ALMANAC_NOW": "2026-04-26T12:00:00Z"]
        let output = try await setup.run(
            ["run", "sports", "pwhl", "--date", "2026-04-25", "--tz", "America/Toronto"], now)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stdout == """
                [sports] PWHL · Sat 25 Apr 2026 (yesterday) · records W-L-OTL · source: pwhl · fetched 08:00 EDT (0 s ago)
                Final 1st OT: Frost (16-9-5) 3 @ Goldeneyes (12-14-4) 4 · Goldeneyes won
                Final SO: Victoire (22-6-2) 2 @ Torrent (9-16-5) 1 · Victoire won

                """)
        // The facts, from the recorded scorebar itself.
        let root = try #require(try Self.upstream(Self.pwhlFile) as? [String: Any])
        let games = try #require((root["SiteKit"] as? [String: Any])?["Scorebar"] as? [[String: Any]])
        for id in ["327", "326"] {
            let game = try #require(games.first { $0["ID"] as? String == id })
            let home = try #require(game["HomeNickname"] as? String)
            let away = try #require(game["VisitorNickname"] as? String)
            let line = "\(try #require(game["GameStatusStringLong"] as? String)): \(away) "
            #expect(output.stdout.contains(line), "\(line)")
            #expect(output.stdout.contains("\(home) ("))
            #expect(output.stdout.contains(") \(try #require(game["HomeGoals"] as? String)) ·"))
        }
        // A scheduled game: its start in the viewer's zone, from GameDateISO8601.
        let scheduled = try #require(games.first { $0["GameDateISO8601"] as? String == "2026-04-30T19:00:00-04:00" })
        let vancouver = try await setup.run(
            ["run", "sports", "pwhl", "--date", "2026-04-30", "--tz", "America/Vancouver", "--format", "text"], now)
        #expect(vancouver.status == 0, "\(vancouver.stderr)")
        let expected = try Self.clock(try #require(scheduled["GameDateISO8601"] as? String), "America/Vancouver")
        #expect(expected == "16:00")
        #expect(vancouver.stdout.contains("times PDT"), "\(vancouver.stdout)")
        #expect(vancouver.stdout.contains("\(expected)  Charge"), "\(vancouver.stdout)")
        #expect(vancouver.stdout.contains("Fleet"))

        // The same day again: from the cache, no plugin started.
        let starts = setup.startedPids.count
        let json = try await setup.run(
            ["run", "sports", "pwhl", "--date", "2026-04-25", "--tz", "America/Toronto", "--format", "json"], now)
        #expect(json.status == 0, "\(json.stderr)")
        let envelope = try PluginPeers.json(json.stdout)
        #expect(envelope["provider"] as? String == "pwhl")
        #expect((envelope["attempts"] as? [[String: Any]])?.first?["outcome"] as? String == "cached")
        #expect(setup.startedPids.count == starts)
        for pid in setup.startedPids { #expect(PluginPeers.isGone(pid), "plugin \(pid) outlived tools") }

        // Standings are not in the contract: one usage line.
        let standings = try await setup.run(["run", "sports", "pwhl", "standings"], now)
        #expect(standings.status == 64)
        #expect(standings.stderr.hasPrefix("error: PWHL comes from a provider plugin, which answers a day's scores"))
    }

    @Test(
        "a plugin league is found in the stored catalogs: no other provider plugin is started to list it",
        .enabled(if: ready, "skipped: .venv-mcp missing; run bash scripts/peers/mcp.sh"))
    func catalogsFirst() async throws {
        let pwhl = Self.entry("pwhl", variable: "PWHL_SCOREBAR_FILE", file: Self.pwhlFile)
        let setup = try Self.setup([pwhl])
        let now = ["ALMANAC_NOW": "2026-04-26T12:00:00Z"]
        let first = try await setup.run(["run", "sports", "pwhl", "--date", "2026-04-25"], now)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(setup.startedPids.count == 1)
        // A second provider plugin, never listed (and before pwhl by name): not started for pwhl.
        let cfl = Self.entry("cfl", variable: "CFL_ROUNDS_FILE", file: Self.cflFile)
        try (cfl(setup.starts.path) + pwhl(setup.starts.path)).write(
            to: setup.scratch.url.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        let second = try await setup.run(["run", "sports", "pwhl", "--date", "2026-04-30"], now)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("Charge @ Fleet"), "\(second.stdout)")
        #expect(setup.startedPids.count == 2)
    }

    @Test(
        "tools run sports cfl: ESPN fails, the CFL plugin at priority 5 answers in the viewer's zone",
        .enabled(if: ready, "skipped: .venv-mcp missing; run bash scripts/peers/mcp.sh"))
    func cfl() async throws {
        let setup = try Self.setup([Self.entry("cfl", variable: "CFL_ROUNDS_FILE", file: Self.cflFile, priority: 5)])
        let empty = setup.scratch.url.appendingPathComponent("replay")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        // Replay with nothing recorded: ESPN (priority 0) fails, with no network.
        let environment = ["ALMANAC_NOW": "2026-05-23T21:30:00Z", "ALMANAC_REPLAY": empty.path]
        let output = try await setup.run(
            ["run", "sports", "cfl", "--date", "2026-05-23", "--tz", "America/Edmonton", "--format", "json"],
            environment)
        #expect(output.status == 0, "\(output.stderr)")
        let envelope = try PluginPeers.json(output.stdout)
        let attempts = try #require(envelope["attempts"] as? [[String: Any]])
        #expect(attempts.map { $0["provider"] as? String } == ["espn", "cfl"])
        #expect(attempts.map { $0["outcome"] as? String } == ["failed", "ok"])
        let text = try await setup.run(
            ["run", "sports", "cfl", "--date", "2026-05-23", "--tz", "America/Edmonton"], environment)
        #expect(text.status == 0, "\(text.stderr)")
        let rounds = try #require(try Self.upstream(Self.cflFile) as? [[String: Any]])
        let week = try #require(rounds.first { $0["name"] as? String == "Preseason Week 2" })
        let games = try #require(week["tournaments"] as? [[String: Any]])
        let scheduled = try #require(games.first { $0["status"] as? String == "scheduled" })
        let start = try Self.clock(try #require(scheduled["date"] as? String), "America/Edmonton")
        #expect(start == "17:00")
        #expect(
            text.stdout.hasPrefix("[sports] CFL · Sat 23 May 2026 (today) · times MDT · source: cfl · fetched"),
            "\(text.stdout)")
        #expect(
            text.stdout.contains(
                "\nLIVE 3rd Quarter 11:00: Toronto Argonauts 0 @ Hamilton Tiger-Cats 7 · Preseason Week 2\n"))
        #expect(text.stdout.contains("\nLIVE 1st Quarter 00:34: Edmonton Elks 10 @ BC Lions 7 · Preseason Week 2\n"))
        #expect(
            text.stdout.contains("\n\(start): Winnipeg Blue Bombers @ Saskatchewan Roughriders · Preseason Week 2"))
        // 2026-05-22T23:00Z is the 22nd in Edmonton: not this day.
        #expect(!text.stdout.contains("Montreal Alouettes"))
    }

    @Test(
        "tools run sports bundesliga: the OpenLigaDB plugin at priority -1 answers before ESPN",
        .enabled(if: ready, "skipped: .venv-mcp missing; run bash scripts/peers/mcp.sh"))
    func bundesliga() async throws {
        let setup = try Self.setup([
            Self.entry("openligadb", variable: "OPENLIGADB_FILE", file: Self.openLigaFile, priority: -1)
        ])
        let output = try await setup.run(
            ["run", "sports", "bundesliga", "--date", "2022-08-06", "--tz", "Europe/Berlin", "--format", "text"],
            ["ALMANAC_NOW": "2022-08-07T10:00:00Z"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stdout == """
                [sports] Bundesliga · Sat 6 Aug 2022 (yesterday) · source: openligadb · fetched 12:00 UTC+02:00 (0 s ago)
                Final  Augsburg      0  v  Freiburg    4  Freiburg won · 1. Spieltag
                Final  Bochum        1  v  Mainz       2  Mainz won · 1. Spieltag
                Final  Gladbach      3  v  Hoffenheim  1  Gladbach won · 1. Spieltag
                Final  Union Berlin  3  v  Hertha      1  Union Berlin won · 1. Spieltag
                Final  Wolfsburg     2  v  Bremen      2  draw · 1. Spieltag
                Final  BVB           1  v  Leverkusen  0  BVB won · 1. Spieltag

                """, "\(output.stdout)")
        // The results, from OpenLigaDB's bytes: Endergebnis of each match that day (in Berlin).
        let matches = try #require(try Self.upstream(Self.openLigaFile) as? [[String: Any]])
        let day = matches.filter { ($0["matchDateTime"] as? String)?.hasPrefix("2022-08-06") == true }
        #expect(day.count == 6)
        for match in day {
            let home = try #require((match["team1"] as? [String: Any])?["shortName"] as? String)
            let results = try #require(match["matchResults"] as? [[String: Any]])
            let final = try #require(results.first { $0["resultName"] as? String == "Endergebnis" })
            let line = try #require(output.stdout.split(separator: "\n").first { $0.contains("  \(home) ") })
            let numbers = line.split(separator: " ").compactMap { Int($0) }
            #expect(numbers == [final["pointsTeam1"] as? Int, final["pointsTeam2"] as? Int].compactMap { $0 })
        }
    }

    @Test(
        "an answer outside the contract: one line naming the plugin, the chain goes on, nothing cached",
        .enabled(if: ready, "skipped: .venv-mcp missing; run bash scripts/peers/mcp.sh"))
    func outsideTheContract() async throws {
        let bad = PluginPeers.root.appendingPathComponent("Fixtures/plugins/bad_provider.py").path
        let now = ["ALMANAC_NOW": "2026-04-26T12:00:00Z"]
        let both = try Self.setup([
            Self.entry("bad", variable: "UNUSED", file: Self.pwhlFile, priority: 1, script: bad),
            Self.entry("pwhl", variable: "PWHL_SCOREBAR_FILE", file: Self.pwhlFile, priority: 5),
        ])
        let json = try await both.run(
            ["run", "sports", "pwhl", "--date", "2026-04-25", "--tz", "America/Toronto", "--format", "json"], now)
        #expect(json.status == 0, "\(json.stderr)")
        let attempts = try #require(try PluginPeers.json(json.stdout)["attempts"] as? [[String: Any]])
        #expect(attempts.map { $0["provider"] as? String } == ["bad", "pwhl"])
        #expect(
            attempts.first?["detail"] as? String
                == "plugin bad: its answer is outside almanac.sports.scoreboard/1: games[0].start must be an "
                + "ISO 8601 instant with an offset, e.g. 2026-04-25T19:00:00-04:00", "\(attempts)")

        let alone = try Self.setup([Self.entry("bad", variable: "UNUSED", file: Self.pwhlFile, script: bad)])
        for round in 1...2 {
            let output = try await alone.run(["run", "sports", "pwhl", "--date", "2026-04-25"], now)
            #expect(output.status == 69, "\(output.stderr)")
            #expect(output.stderr.contains("bad: plugin bad: its answer is outside almanac.sports.scoreboard/1"))
            #expect(!output.stderr.contains("Fatal error"))
            // Never cached: each run asks the plugin again.
            #expect(alone.startedPids.count == round)
        }
        let check = try await alone.run(["plugin", "check", "bad"], now)
        #expect(check.status == 69)
        #expect(check.stdout.contains("fail  contract call hockey/pwhl: its answer is outside"), "\(check.stdout)")
    }

    @Test(
        "tools plugin check passes each example provider plugin through the contract kit",
        .enabled(if: ready, "skipped: .venv-mcp missing; run bash scripts/peers/mcp.sh"))
    func checkExamples() async throws {
        let setup = try Self.setup([
            Self.entry("pwhl", variable: "PWHL_SCOREBAR_FILE", file: Self.pwhlFile),
            Self.entry("cfl", variable: "CFL_ROUNDS_FILE", file: Self.cflFile),
            Self.entry("openligadb", variable: "OPENLIGADB_FILE", file: Self.openLigaFile),
        ])
        let cases = [
            ("pwhl", "2026-04-25T12:00:00Z", ["hockey/pwhl 2026-04-25 America/Toronto: 6 game(s)"]),
            ("cfl", "2026-05-23T12:00:00Z", ["football/cfl 2026-05-23 America/Toronto: 4 game(s)"]),
            ("openligadb", "2022-08-06T12:00:00Z", ["soccer/ger.1 2022-08-06 America/Toronto: 9 game(s)"]),
        ]
        for (name, now, calls) in cases {
            let output = try await setup.run(
                ["plugin", "check", name], ["ALMANAC_NOW": now, "ALMANAC_TZ": "America/Toronto"])
            #expect(output.status == 0, "\(name): \(output.stdout)\(output.stderr)")
            #expect(!output.stdout.contains("fail  "), "\(output.stdout)")
            #expect(output.stdout.contains("ok    contract almanac.sports.scoreboard/1: tool 'scoreboard' serves"))
            for call in calls { #expect(output.stdout.contains("ok    contract call \(call)"), "\(output.stdout)") }
            #expect(output.stdout.contains("ok    contract call of a league it does not serve: an error answer"))
        }
        let list = try await setup.run(["plugin", "list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("pwhl (/bin/sh): listed, 1 tool(s), provides sports at priority 5\n"))
        #expect(list.stdout.contains("openligadb (/bin/sh): listed, 1 tool(s), provides sports at priority 5\n"))
    }

    @Test("tools plugin contract sports prints the versioned JSON Schema; other tools and bad entries are usage errors")
    func contractAndConfiguration() async throws {
        let scratch = try Scratch()
        let output = try await ToolsBinary.run(["plugin", "contract", "sports"], environment: scratch.environment())
        #expect(output.status == 0, "\(output.stderr)")
        let schema = try PluginPeers.json(output.stdout)
        #expect(schema["title"] as? String == "almanac.sports.scoreboard/1")
        #expect(schema["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        #expect((schema["required"] as? [String]) == ["contract", "games"])
        let other = try await ToolsBinary.run(["plugin", "contract", "weather"], environment: scratch.environment())
        #expect(other.status == 64)
        #expect(other.stderr == "error: no provider contract for 'weather'\n  contracts: sports\n")

        for (entry, message) in [
            ("provides = \"weather\"", "error: [plugins.p] provides must name a built-in tool a plugin can provide"),
            ("priority = 3", "error: [plugins.p] priority places a provider plugin in a chain: it needs provides"),
            ("provides = \"sports\"\npriority = \"high\"", "error: [plugins.p] priority must be a whole number"),
        ] {
            let setup = try PluginPeers.Setup { _ in "[plugins.p]\ncommand = [\"true\"]\n\(entry)\n" }
            let run = try await setup.run(["run", "sports", "nba"])
            #expect(run.status == 64, "\(run.stderr)")
            #expect(run.stderr.hasPrefix(message), "\(run.stderr)")
        }
    }
}
