import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

/// One recorded day: a clock, a zone and a profile whose runs the recordings in Fixtures/ answer
/// (or, where nothing was recorded, fail as an unreachable upstream would).
struct RecordedDay: Sendable, CustomStringConvertible {
    var name: String
    var now: String
    var zone: String
    var home: String?
    var teams: [String]
    var feeds = ["https://news.ycombinator.com/rss"]
    var calendars = true
    var arguments: [String] = []

    var description: String { name }

    static let all = [
        // NBA: last night's Lakers game (ESPN scoreboard, the team list); the forecast is of 2026.
        RecordedDay(
            name: "nba-2024-12-15", now: "2024-12-16T12:00:00Z", zone: "America/New_York", home: "Frederick",
            teams: ["nba:lakers"]),
        // Weather at home that day (Open-Meteo); the team's games are not recorded: that section fails.
        RecordedDay(
            name: "frederick-2026-08-09", now: "2026-08-09T12:00:00Z", zone: "America/New_York", home: "Frederick",
            teams: ["nba:lakers"]),
        // NFL: the Chiefs' next game from their schedule; MeteoAlarm's warnings for Berlin.
        RecordedDay(
            name: "nfl-2025-05-31", now: "2025-05-31T16:00:00Z", zone: "Europe/Lisbon", home: "Berlin",
            teams: ["nfl:chiefs"]),
        // Premier League: Arsenal's last game of the season, the morning after; home as coordinates.
        RecordedDay(
            name: "epl-2025-05-25", now: "2025-05-26T11:00:00Z", zone: "America/New_York", home: "39.75,-104.99",
            teams: ["epl:arsenal"]),
        // MLB and NHL the morning after (a final, a game in overtime); two teams.
        RecordedDay(
            name: "mlb-nhl-2025-06-04", now: "2025-06-05T11:00:00Z", zone: "America/New_York", home: "Frederick",
            teams: ["mlb:yankees", "nhl:panthers"]),
        // The evening before a recorded day: tomorrow's forecast, no calendar configured.
        RecordedDay(
            name: "evening-2026-08-08", now: "2026-08-09T01:00:00Z", zone: "America/New_York", home: "Frederick",
            teams: ["epl:arsenal"], calendars: false, arguments: ["--for", "evening"]),
    ]

    static func named(_ name: String) -> RecordedDay? { all.first { $0.name == name } }
}

/// A private folder (cache, config) per test, removed afterwards.
final class BriefScratch {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-brief-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The environment for `day`: replayed recordings, its clock and zone, a config with its profile.
    func environment(
        _ day: RecordedDay, config extra: String = "", _ variables: [String: String] = [:]
    ) throws
        -> [String: String]
    {
        var lines = ["[me]"]
        if let home = day.home { lines.append("home = \"\(home)\"") }
        if !day.teams.isEmpty {
            lines.append("teams = [" + day.teams.map { "\"\($0)\"" }.joined(separator: ", ") + "]")
        }
        if !day.feeds.isEmpty {
            lines.append("feeds = [" + day.feeds.map { "\"\($0)\"" }.joined(separator: ", ") + "]")
        }
        if day.calendars {
            let tasks = Fixtures.url("calendar/handwritten/tasks.ics").path
            let work = Fixtures.url("calendar/ics/nextcloud-sabredav-weekly-two-exdates.ics").path
            lines += ["", "[calendars.todo]", "ics = \"\(tasks)\"", "[calendars.work]", "ics = \"\(work)\""]
        }
        let config = url.appendingPathComponent("config.toml")
        try (lines.joined(separator: "\n") + "\n" + extra).write(to: config, atomically: true, encoding: .utf8)
        return ToolsBinary.environment(
            cacheDirectory: url,
            extra: [
                "ALMANAC_REPLAY": Fixtures.directory.path, "ALMANAC_NOW": day.now, "TZ": day.zone,
                "ALMANAC_CONFIG": config.path,
            ].merging(variables) { _, new in new })
    }

    func brief(
        _ day: RecordedDay, _ arguments: [String] = [], config: String = "", _ variables: [String: String] = [:]
    )
        async throws -> CommandOutput
    {
        try await ToolsBinary.run(
            ["brief"] + day.arguments + arguments, environment: environment(day, config: config, variables))
    }
}

@Suite("tools brief, end to end on recorded days")
struct BriefEndToEndTests {
    static func day(_ name: String) throws -> RecordedDay { try #require(RecordedDay.named(name)) }

    @Test("golden briefings of recorded days", arguments: ["nba-2024-12-15", "frederick-2026-08-09"])
    func golden(_ name: String) async throws {
        let scratch = try BriefScratch()
        let output = try await scratch.brief(try Self.day(name))
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.isEmpty, "\(output.stderr)")
        if let failure = Golden.check(output.stdout, against: "brief/\(name).context.txt") {
            Issue.record("\(failure)")
        }
    }

    @Test("the Lakers' score is ESPN's, byte for byte from the recording")
    func scoreFromUpstream() async throws {
        let data = try Fixtures.data("sports/espn/nba-scoreboard-final-2024-12-15.response.json")
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let events = try #require(root["events"] as? [[String: Any]])
        var scores: [String: String] = [:]
        for event in events {
            let competitors =
                ((event["competitions"] as? [[String: Any]])?.first?["competitors"] as? [[String: Any]]) ?? []
            let names = competitors.compactMap { ($0["team"] as? [String: Any])?["shortDisplayName"] as? String }
            guard names.contains("Lakers") else { continue }
            for competitor in competitors {
                if let name = (competitor["team"] as? [String: Any])?["shortDisplayName"] as? String,
                    let score = competitor["score"] as? String
                {
                    scores[name] = score
                }
            }
        }
        let lakers = try #require(scores["Lakers"])
        let grizzlies = try #require(scores["Grizzlies"])
        let scratch = try BriefScratch()
        let output = try await scratch.brief(try Self.day("nba-2024-12-15"))
        #expect(output.stdout.contains("Grizzlies (18-9) \(grizzlies) @ Lakers (14-12) \(lakers) · Lakers won"))
    }

    @Test("Frederick's temperatures are Open-Meteo's, from the recording")
    func weatherFromUpstream() async throws {
        let data = try Fixtures.data("weather/open-meteo/forecast-frederick-nulls.response.json")
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let now = try #require((root["current"] as? [String: Any])?["temperature_2m"] as? Double)
        let daily = try #require(root["daily"] as? [String: Any])
        let days = try #require(daily["time"] as? [String])
        let index = try #require(days.firstIndex(of: "2026-08-09"))
        let low = try #require((daily["temperature_2m_min"] as? [Any])?[index] as? Double)
        let high = try #require((daily["temperature_2m_max"] as? [Any])?[index] as? Double)
        let scratch = try BriefScratch()
        let output = try await scratch.brief(try Self.day("frederick-2026-08-09"))
        #expect(output.stdout.contains("Weather · Frederick, Maryland, United States · source: open-meteo"))
        #expect(output.stdout.contains("Now (14:45): \(now) °C"), "\(output.stdout)")
        #expect(output.stdout.contains("Sun 9 Aug (today): overcast, \(low) to \(high) °C"), "\(output.stdout)")
    }

    @Test("every recorded day fits its budget, and says what it dropped", arguments: RecordedDay.all)
    func budget(_ day: RecordedDay) async throws {
        let scratch = try BriefScratch()
        let whole = try await scratch.brief(day, ["--budget", "4000"])
        #expect(whole.status == 0, "\(whole.stderr)")
        for budget in [nil, 250, 150] as [Int?] {
            let output = try await scratch.brief(day, budget.map { ["--budget", String($0)] } ?? [])
            #expect(output.status == 0, "\(output.stderr)")
            let text = output.stdout.hasSuffix("\n") ? String(output.stdout.dropLast()) : output.stdout
            let tokens = budget ?? 400
            #expect(ContextBudget.estimate(text) <= tokens, "\(day) at \(tokens): \(ContextBudget.estimate(text))")
            if ContextBudget.estimate(whole.stdout) > tokens {
                #expect(text.contains("omitted to fit the budget"), "\(day) at \(tokens)")
            }
            // Every section keeps its heading with its source and age.
            for heading in whole.stdout.split(separator: "\n") where heading.contains(" · source: ") {
                #expect(text.contains(heading), "\(day) at \(tokens): \(heading)")
            }
        }
    }

    @Test("a section whose providers all fail is one line; the rest still answer, exit 0")
    func failedSection() async throws {
        let scratch = try BriefScratch()
        let output = try await scratch.brief(try Self.day("frederick-2026-08-09"), ["--budget", "4000"])
        #expect(output.status == 0)
        let lines = output.stdout.split(separator: "\n").map(String.init)
        let heading = try #require(lines.firstIndex(of: "Teams · failed"))
        #expect(lines[heading + 1].hasPrefix("lakers: unavailable (espn: "), "\(lines[heading + 1])")
        // Short of room, the line says what failed without why (`tools run sports` says why).
        let tight = try await scratch.brief(try Self.day("frederick-2026-08-09"))
        #expect(tight.stdout.contains("Teams · failed\nlakers: unavailable\nHeadlines · source: feeds"))
        #expect(lines[heading + 2].hasPrefix("Headlines · source: feeds"))
        #expect(lines.contains { $0.hasPrefix("Weather · Frederick, Maryland, United States · source: open-meteo") })
    }

    @Test("every section failing: exit 69, nothing on stdout, one line per section on stderr")
    func everySectionFails() async throws {
        let scratch = try BriefScratch()
        var day = try Self.day("nba-2024-12-15")
        day.now = "2023-01-10T12:00:00Z"
        day.feeds = []
        day.calendars = false
        let output = try await scratch.brief(day)
        #expect(output.status == 69)
        #expect(output.stdout.isEmpty)
        let lines = output.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "error: brief: every provider failed")
        #expect(lines.contains { $0.hasPrefix("  weather: forecast: unavailable") }, "\(output.stderr)")
        #expect(lines.contains { $0.hasPrefix("  teams: lakers: unavailable") }, "\(output.stderr)")
    }

    @Test("nothing configured: exit 64 in one line naming what to set; bad input: 64")
    func badInput() async throws {
        let scratch = try BriefScratch()
        let empty = RecordedDay(
            name: "empty", now: "2025-06-05T11:00:00Z", zone: "UTC", teams: [], feeds: [], calendars: false)
        let nothing = try await scratch.brief(empty)
        #expect(nothing.status == 64)
        #expect(nothing.stdout.isEmpty)
        #expect(nothing.stderr.hasPrefix("error: brief: nothing to brief on: "), "\(nothing.stderr)")
        let day = try Self.day("nba-2024-12-15")
        let noon = try await scratch.brief(day, ["--for", "noon"])
        #expect(noon.status == 64)
        #expect(
            noon.stderr.hasPrefix("error: brief: --for must be morning, evening, today, tomorrow or a date, got 'noon'")
        )
        let tiny = try await scratch.brief(day, ["--budget", "10"])
        #expect(tiny.status == 64)
        #expect(tiny.stderr.contains("budget"), "\(tiny.stderr)")
    }

    @Test("--format json: data.sections[] of name, source, ageSeconds, lines, omitted in the standard envelope")
    func json() async throws {
        let scratch = try BriefScratch()
        let output = try await scratch.brief(try Self.day("nba-2024-12-15"), ["--format", "json"])
        #expect(output.status == 0, "\(output.stderr)")
        let envelope = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(envelope["tool"] as? String == "brief")
        for key in ["provider", "fetchedAt", "ageSeconds", "stale", "attempts", "data"] {
            #expect(envelope[key] != nil, "\(key)")
        }
        let data = try #require(envelope["data"] as? [String: Any])
        #expect(data["budget"] as? Int == 400)
        #expect(data["for"] as? String == "morning")
        #expect(data["day"] as? String == "2024-12-16")
        let sections = try #require(data["sections"] as? [[String: Any]])
        #expect(sections.map { $0["name"] as? String } == ["calendar", "weather", "teams", "headlines"])
        for section in sections {
            for key in ["name", "source", "ageSeconds", "lines", "omitted"] {
                #expect(section.keys.contains(key), "\(key)")
            }
        }
        let teams = try #require(sections.first { $0["name"] as? String == "teams" })
        #expect(teams["source"] as? String == "espn")
        #expect(teams["ageSeconds"] as? Int == 0)
        #expect((teams["lines"] as? [String])?.first == "Final: Grizzlies (18-9) 110 @ Lakers (14-12) 116 · Lakers won")
        let weather = try #require(sections.first { $0["name"] as? String == "weather" })
        #expect(weather["status"] as? String == "failed")
        #expect(weather["source"] is NSNull)
        let omitted = sections.compactMap { $0["omitted"] as? Int }.reduce(0, +)
        #expect(omitted > 0)
    }

    @Test("from a timer: stdout holds the briefing only, stderr nothing, even with no usable cache")
    func scheduled() async throws {
        let scratch = try BriefScratch()
        let blocked = scratch.url.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: blocked)
        let output = try await scratch.brief(
            try Self.day("frederick-2026-08-09"), ["--format", "text"], ["ALMANAC_CACHE_DIR": blocked.path])
        #expect(output.status == 0)
        #expect(output.stderr.isEmpty, "\(output.stderr)")
        #expect(output.stdout.hasPrefix("[brief] morning · Sun 9 Aug 2026 (today) · now 08:00 EDT\n"))
        #expect(!output.stdout.contains("<<<data"))
    }

    @Test("a second briefing is answered from the cache through each tool's own path")
    func warm() async throws {
        let scratch = try BriefScratch()
        let day = try Self.day("nba-2024-12-15")
        _ = try await scratch.brief(day)
        let output = try await scratch.brief(day, ["--format", "json"])
        let envelope = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let attempts = try #require(envelope["attempts"] as? [[String: Any]])
        let remote = attempts.filter { ["espn", "feeds"].contains($0["provider"] as? String) }
        #expect(!remote.isEmpty)
        #expect(remote.allSatisfy { $0["outcome"] as? String == "cached" }, "\(remote)")
    }
}
