import AlmanacTesting
import Foundation
import Testing

/// libcurl, libical and libxml2 are opened when they are needed, not at start: libcurl's ~25
/// libraries cost every process about 4 ms and a call answered from the cache makes no request;
/// libical (with ICU's calendar library) is for the calendar alone, libxml2 for CalDAV.
@Suite("libcurl, libical and libxml2 are loaded only when used")
struct LazyLibrariesEndToEnd {
    /// The shared objects the dynamic loader opened, from its own trace (LD_DEBUG=files).
    static func loadedLibraries(_ output: CommandOutput) -> Set<String> {
        Set(output.stderr.split(separator: "\n").compactMap { line -> String? in
            guard let start = line.range(of: "file=") else { return nil }
            return String(line[start.upperBound...].prefix { $0 != " " })
        })
    }

    @Test("a cold call opens libcurl and answers; the warm call after it never loads libcurl")
    func warmCallSkipsLibcurl() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let scratch = try Scratch()
        let environment = scratch.environment(["ALMANAC_ESPN_URL": server.baseURL, "LD_DEBUG": "files"])
        let words = ["run", "sports", "nba", "--date", "2024-12-15", "--tz", "America/New_York"]

        let cold = try ToolsBinary.run(words, environment: environment)
        #expect(cold.status == 0, "\(cold.stderr.suffix(500))")
        #expect(cold.stdout.contains("Final: Grizzlies (18-9) 110 @ Lakers (14-12) 116 · Lakers won"))
        #expect(Self.loadedLibraries(cold).contains("libcurl.so.4"))

        let warm = try ToolsBinary.run(words, environment: environment)
        #expect(warm.status == 0)
        // The same games (the header's age may differ by a second).
        #expect(warm.stdout.split(separator: "\n").dropFirst() == cold.stdout.split(separator: "\n").dropFirst())
        let loaded = Self.loadedLibraries(warm)
        #expect(loaded.contains("libsqlite3.so.0"), "the trace should list what was loaded: \(loaded)")
        #expect(!loaded.contains("libcurl.so.4"), "\(loaded.sorted())")
        #expect(!loaded.contains("libical.so.3"), "\(loaded.sorted())")
        #expect(!Self.loadedLibraries(cold).contains("libical.so.3"))
        // libxml2 reads CalDAV's bodies only (Foundation's XMLParser linked it into every start).
        #expect(!loaded.contains("libxml2.so.2"))
        #expect(!Self.loadedLibraries(cold).contains("libxml2.so.2"))
    }

    @Test("a calendar file opens libical and never libcurl")
    func calendarOpensLibical() throws {
        let scratch = try Scratch()
        let output = try ToolsBinary.run(
            [
                "run", "calendar", "--ics", Fixtures.url("calendar/ics/davx5-ical4j-exdate-berlin.ics").path,
                "--from", "2019-10-01", "--to", "2019-10-31", "--tz", "UTC", "--format", "json",
            ],
            environment: scratch.environment(["LD_DEBUG": "files"]))
        #expect(output.status == 0, "\(output.stderr.suffix(500))")
        #expect(output.stdout.contains("\"start\":\"2019-10-29T15:15:00Z\""), "\(output.stdout.prefix(400))")
        let loaded = Self.loadedLibraries(output)
        #expect(loaded.contains("libical.so.3"))
        #expect(!loaded.contains("libcurl.so.4"), "\(loaded.sorted())")
    }

    @Test("a libcurl or libical that cannot be opened is one clear line, not a crash")
    func unloadableLibraries() throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let scratch = try Scratch()
        let fakes = try scratch.unloadable(["libcurl.so.4", "libcurl-gnutls.so.4", "libical.so.3"])
        let environment = scratch.environment(["ALMANAC_ESPN_URL": server.baseURL, "LD_LIBRARY_PATH": fakes.path])

        let sports = try ToolsBinary.run(["run", "sports", "nba", "--date", "2024-12-15"], environment: environment)
        #expect(sports.status == 69)
        #expect(sports.stderr.contains("libcurl could not start: "), "\(sports.stderr)")
        #expect(sports.stderr.contains("; install libcurl4"))
        #expect(sports.stderr.contains("libcurl.so.4"))
        #expect(!sports.stderr.contains("Fatal error"))

        let calendar = try ToolsBinary.run(
            ["run", "calendar", "--ics", Fixtures.url("calendar/ics/davx5-ical4j-exdate-berlin.ics").path, "--from", "2019-10-01"],
            environment: environment)
        #expect(calendar.status == 64)
        #expect(calendar.stderr.hasPrefix("error: calendar: libical could not be opened: "), "\(calendar.stderr)")
        #expect(calendar.stderr.contains("libical.so.3"))
        #expect(calendar.stderr.contains("install it: apt install libical3"))
        #expect(!calendar.stderr.contains("Fatal error"))
    }
}
