import AlmanacTesting
import Foundation
import Testing

/// Many `tools` processes on one cache, some killed with SIGKILL mid-run (mid-write for the ones
/// caught while storing): afterwards the cache opens, passes SQLite's check and serves whole entries.
@Suite("shared cache under concurrency and kill -9, end to end", .serialized)
struct CacheCrashEndToEndTests {
    @Test("processes starting together on a new cache all use it (none loses it to the first-run setup)")
    func firstRunTogether() async throws {
        // Before: a WAL switch answered BUSY without waiting, and two migrators raced ("UNIQUE
        // constraint failed: grdb_migrations"): about one process in twenty ran without a cache.
        let words = ["run", "sports", "nba", "--date", "2024-12-15", "--tz", "America/New_York"]
        for _ in 0..<6 {
            let scratch = try Scratch()
            let environment = scratch.environment([
                "ALMANAC_REPLAY": Fixtures.directory.path, "ALMANAC_NOW": "2024-12-16T04:30:00Z",
            ])
            let outputs = await ToolsBinary.runAtOnce(Array(repeating: words, count: 4), environment: environment)
            for output in outputs {
                #expect(output?.status == 0)
                #expect(output?.stderr.contains("cache unavailable") == false, "\(output?.stderr ?? "")")
            }
        }
    }

    @Test("rounds of 12 concurrent writers, half SIGKILLed at staggered moments; the cache stays whole")
    func killNine() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let scratch = try Scratch()
        // TTL 0: every process fetches and writes, so kills land during fetch, decode and store.
        let environment = scratch.environment(["ALMANAC_ESPN_URL": server.baseURL, "ALMANAC_CACHE_TTL": "0"])
        let words = ["run", "sports", "nba", "--date", "2024-12-15", "--tz", "America/New_York", "--format", "json"]
        var killed = 0
        for round in 0..<4 {
            var children: [Process] = []
            for _ in 0..<12 {
                let process = Process()
                process.executableURL = ToolsBinary.url
                process.arguments = words
                process.environment = environment
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                children.append(process)
            }
            for (index, child) in children.enumerated() where index % 2 == 0 {
                // Staggered: from "still starting" to "probably storing" (bounded, ~0-110 ms).
                usleep(UInt32((index + round) * 10_000))
                if child.isRunning, kill(child.processIdentifier, SIGKILL) == 0 { killed += 1 }
            }
            for child in children { child.waitUntilExit() }
            let survivors = children.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
            #expect(survivors.allSatisfy { $0.terminationReason == .exit && $0.terminationStatus == 0 })
        }
        #expect(killed > 0)

        let info = try await ToolsBinary.run(["cache", "info"], environment: environment)
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("integrity: ok"))
        #expect(info.stdout.contains("entries: 1"))

        // Served from the cache alone (server gone, TTL long): a whole entry with every game.
        server.stop()
        let cached = try await ToolsBinary.run(
            words, environment: environment.merging(["ALMANAC_CACHE_TTL": "86400", "ALMANAC_TIMEOUT": "1"]) { $1 })
        #expect(cached.status == 0, "\(cached.stderr)")
        let envelope = try JSONSerialization.jsonObject(with: Data(cached.stdout.utf8)) as? [String: Any]
        #expect(envelope?["provider"] as? String == "espn")
        #expect(envelope?["stale"] as? Bool == false)
        let games = (envelope?["data"] as? [String: Any])?["games"] as? [[String: Any]]
        #expect(games?.count == 7)
    }

    @Test("a cache file that is not a database is moved aside and the run still answers")
    func corruptFile() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let scratch = try Scratch()
        let file = scratch.url.appendingPathComponent("cache.sqlite")
        try Data(repeating: 0x5A, count: 8192).write(to: file)
        let environment = scratch.environment(["ALMANAC_ESPN_URL": server.baseURL])
        let output = try await ToolsBinary.run(
            ["run", "sports", "nba", "--date", "2024-12-15", "--tz", "America/New_York"], environment: environment)
        #expect(output.status == 0, "\(output.stderr)")
        let info = try await ToolsBinary.run(["cache", "info"], environment: environment)
        #expect(info.stdout.contains("entries: 1"))
        #expect(info.stdout.contains("integrity: ok"))
        let names = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path)
        #expect(names.contains { $0.hasPrefix("cache.sqlite.corrupt-") })
    }
}
