import AlmanacTesting
import Foundation
import Testing

/// `tools brief` with only its own options starts without ArgumentParser (as `tools run` does) and
/// loads libcurl on a thread of its own while it starts; neither may change what it answers.
@Suite("tools brief's fast start")
struct BriefFastStartTests {
    static func day() throws -> RecordedDay { try #require(RecordedDay.named("nba-2024-12-15")) }

    /// `--for=evening` is not the fast path's spelling: it goes through ArgumentParser.
    @Test(
        "the fast start answers as ArgumentParser does, byte for byte",
        arguments: [
            (["--for", "evening", "--budget", "250"], ["--for=evening", "--budget=250"]),
            (["--format", "text", "--no-cache", "--tz", "UTC"], ["--format=text", "--no-cache", "--tz=UTC"]),
            (["--budget", "0300", "--for", "2024-12-15"], ["--budget=0300", "--for=2024-12-15"]),
            (["--for", "noon"], ["--for=noon"]),
            (["--budget", "10"], ["--budget=10"]),
        ])
    func sameAnswer(fast: [String], parsed: [String]) async throws {
        let day = try Self.day()
        let one = try await BriefScratch().brief(day, fast)
        let other = try await BriefScratch().brief(day, parsed)
        #expect(one.status == other.status, "\(one.stderr) / \(other.stderr)")
        #expect(one.stdout == other.stdout)
        #expect(one.stderr == other.stderr)
    }

    @Test("an option given twice goes through ArgumentParser, which keeps the last")
    func repeated() async throws {
        let day = try Self.day()
        let twice = try await BriefScratch().brief(day, ["--for", "today", "--for", "evening"])
        let once = try await BriefScratch().brief(day, ["--for", "evening"])
        #expect(twice.status == 0, "\(twice.stderr)")
        #expect(twice.stdout == once.stdout)
    }

    @Test("what the fast start does not take goes to ArgumentParser: help, bad values, strays")
    func fallsBack() async throws {
        let day = try Self.day()
        let scratch = try BriefScratch()
        let help = try await scratch.brief(day, ["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--budget"), "\(help.stdout)")
        for words in [["--format", "yaml"], ["--budget", "many"], ["--for"], ["extra"]] {
            let output = try await scratch.brief(day, words)
            #expect(output.status == 64, "\(words): \(output.stderr)")
            #expect(output.stdout.isEmpty, "\(words)")
            #expect(output.stderr.hasPrefix("Error: "), "\(words): \(output.stderr)")
        }
    }

    @Test("answered from recordings (ALMANAC_REPLAY), the briefing never loads libcurl")
    func replayLoadsNoLibcurl() async throws {
        let output = try await BriefScratch().brief(try Self.day(), [], ["LD_DEBUG": "files"])
        #expect(output.status == 0)
        #expect(output.stdout.contains("Final: Grizzlies (18-9) 110 @ Lakers (14-12) 116 · Lakers won"))
        let loaded = output.stderr.split(separator: "\n").compactMap { line -> Substring? in
            guard let start = line.range(of: "file=") else { return nil }
            return line[start.upperBound...].prefix { $0 != " " }
        }
        #expect(loaded.contains("libsqlite3.so.0"), "the trace should list what was loaded: \(loaded)")
        #expect(!loaded.contains { $0.hasPrefix("libcurl") }, "\(loaded)")
    }

    /// Live (no ALMANAC_REPLAY), so libcurl is loading when the error ends the process: it waits
    /// for the load rather than exit racing libcurl's initialisation. No request is made.
    @Test("a usage error while libcurl is still loading exits 64 with its one line, every time")
    func usageErrorWhileLoading() async throws {
        let scratch = try BriefScratch()
        var environment = try scratch.environment(try Self.day())
        environment["ALMANAC_REPLAY"] = nil
        for _ in 0..<8 {
            let output = try await ToolsBinary.run(["brief", "--for", "noon"], environment: environment)
            #expect(output.status == 64)
            #expect(output.stdout.isEmpty)
            #expect(
                output.stderr.hasPrefix("error: brief: --for must be morning, evening, today, tomorrow or a date"),
                "\(output.stderr)")
        }
    }
}
