import AlmanacTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The built `tools` binary reading every kind of .ics source at once: a folder, an http feed and a
/// `webcal://` feed (both served by the loopback fixture server), named in config.toml.
@Suite("tools run calendar: folders, feeds and named calendars")
struct CalendarSourcesEndToEndTests {
    /// One event on Mon 10 Jun 2024 (synthetic, one per source so each is recognisable).
    static func ics(_ uid: String, _ summary: String, at time: String) -> String {
        [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//almanac//sources test//EN", "BEGIN:VEVENT", "UID:\(uid)",
            "DTSTAMP:20240601T000000Z", "DTSTART:20240610T\(time)00Z", "DTEND:20240610T\(time.prefix(2))3000Z",
            "SUMMARY:\(summary)",
            "END:VEVENT", "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
    }

    /// Writes `name.exchange.json` + body so `scripts/fixture-server.py --root folder` serves `path`.
    static func serve(_ body: String, at path: String, as name: String, in folder: URL) throws {
        try body.write(to: folder.appendingPathComponent("\(name).ics"), atomically: true, encoding: .utf8)
        let exchange = """
            {"request":{"method":"GET","url":"https://feeds.example\(path)"},
             "response":{"status":200,"headers":{"content-type":"text/calendar; charset=utf-8"},"body":"\(name).ics"}}
            """
        try exchange.write(
            to: folder.appendingPathComponent("\(name).exchange.json"), atomically: true, encoding: .utf8)
    }

    /// A scratch folder with the feeds, a folder calendar and config.toml, and the server; removed
    /// and stopped (by pid) when dropped.
    final class Setup {
        let folder: URL
        let server: FixtureServer
        let config: URL
        let home: URL

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-e2e-\(UUID().uuidString)")
            let feeds = folder.appendingPathComponent("feeds")
            home = folder.appendingPathComponent("home")
            let nested = home.appendingPathComponent("nested")
            for path in [feeds, nested] {
                try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
            }
            try CalendarSourcesEndToEndTests.serve(
                CalendarSourcesEndToEndTests.ics("work-1", "Work sync", at: "0900"), at: "/feeds/work.ics", as: "work",
                in: feeds)
            try CalendarSourcesEndToEndTests.serve(
                CalendarSourcesEndToEndTests.ics("bank-1", "Bank holiday", at: "1000"), at: "/cal/holidays.ics",
                as: "holidays",
                in: feeds)
            // A folder: every .ics below it, nested ones too; other files are ignored.
            try CalendarSourcesEndToEndTests.ics("home-1", "Dentist", at: "0700").write(
                to: home.appendingPathComponent("personal.ics"), atomically: true, encoding: .utf8)
            try CalendarSourcesEndToEndTests.ics("home-2", "Piano lesson", at: "1500").write(
                to: nested.appendingPathComponent("kids.ICS"), atomically: true, encoding: .utf8)
            try "SUMMARY:not a calendar".write(
                to: home.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)

            server = try FixtureServer(root: feeds)
            config = folder.appendingPathComponent("config.toml")
            try """
            [calendars.home]
            ics = "\(home.path)"

            [calendars.work]
            ics = "\(server.baseURL)/feeds/work.ics"

            [calendars.holidays]
            ics = "webcal://127.0.0.1:\(server.port)/cal/holidays.ics"
            """.write(to: config, atomically: true, encoding: .utf8)
        }

        deinit {
            server.stop()
            try? FileManager.default.removeItem(at: folder)
        }

        func run(_ words: [String]) async throws -> CommandOutput {
            try await ToolsBinary.run(
                ["run", "calendar"] + words + ["--tz", "Europe/Berlin"],
                environment: ToolsBinary.environment(
                    cacheDirectory: folder.appendingPathComponent("cache"),
                    extra: ["ALMANAC_CONFIG": config.path, "ALMANAC_NOW": "2024-06-10T08:00:00Z"]))
        }
    }

    static func events(_ output: CommandOutput) throws -> [String] {
        let envelope = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let data = try #require(envelope["data"] as? [String: Any])
        let events = try #require(data["events"] as? [[String: Any]])
        return events.map {
            "\($0["start"] as? String ?? "?") \($0["summary"] as? String ?? "?") [\($0["calendar"] as? String ?? "?")]"
        }
    }

    @Test("every configured calendar at once: a folder, an http feed and a webcal feed, each by its name")
    func allConfigured() async throws {
        let setup = try Setup()
        let output = try await setup.run(["today", "--format", "json"])
        #expect(output.status == 0, "stderr: \(output.stderr)")
        #expect(
            try Self.events(output) == [
                "2024-06-10T07:00:00Z Dentist [home]", "2024-06-10T09:00:00Z Work sync [work]",
                "2024-06-10T10:00:00Z Bank holiday [holidays]", "2024-06-10T15:00:00Z Piano lesson [home]",
            ])
        let envelope = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        // Sources in name order: holidays (feed), home (folder), work (feed).
        #expect(envelope["provider"] as? String == "ics-url+ics-file")
        // webcal:// on a loopback host is fetched over plain http, at the same path.
        let stats = try await setup.server.stats()
        #expect(stats == ["GET /cal/holidays.ics": 1, "GET /feeds/work.ics": 1])

        let context = try await setup.run(["today"])
        #expect(context.status == 0)
        #expect(context.stdout.contains("- 12:00–12:30: Bank holiday · [holidays]"))
        #expect(context.stdout.contains("- 17:00–17:30: Piano lesson · [home]"))
    }

    @Test("--calendar NAME reads that one only; a near miss exits 64 with a suggestion")
    func oneByName() async throws {
        let setup = try Setup()
        let output = try await setup.run(["--calendar", "Holidays", "--format", "json"])
        #expect(output.status == 0, "stderr: \(output.stderr)")
        #expect(try Self.events(output) == ["2024-06-10T10:00:00Z Bank holiday [holidays]"])

        let miss = try await setup.run(["--calendar", "holiday"])
        #expect(miss.status == 64)
        #expect(miss.stderr.contains("error: no calendar named 'holiday'"))
        #expect(miss.stderr.contains("did you mean 'holidays'? configured: holidays, home, work"))
    }

    @Test("one-off --ics with a webcal:// URL and with a folder; the calendar is named after the file or folder")
    func oneOff() async throws {
        let setup = try Setup()
        let feed = try await setup.run([
            "--ics", "webcal://127.0.0.1:\(setup.server.port)/cal/holidays.ics", "--format", "json",
        ])
        #expect(feed.status == 0, "stderr: \(feed.stderr)")
        #expect(try Self.events(feed) == ["2024-06-10T10:00:00Z Bank holiday [holidays]"])

        let folder = try await setup.run(["--ics", setup.home.path, "--format", "json"])
        #expect(folder.status == 0, "stderr: \(folder.stderr)")
        #expect(
            try Self.events(folder) == [
                "2024-06-10T07:00:00Z Dentist [home]", "2024-06-10T15:00:00Z Piano lesson [home]",
            ])
    }
}

extension FixtureServer {
    /// Requests answered so far, by "METHOD /path".
    func stats() async throws -> [String: Int] {
        let (data, _) = try await URLSession.shared.data(from: URL(string: "\(baseURL)/__almanac/stats")!)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return object?["paths"] as? [String: Int] ?? [:]
    }
}
