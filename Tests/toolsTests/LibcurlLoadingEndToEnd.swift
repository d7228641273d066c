import AlmanacTesting
import Foundation
import Testing

/// libcurl is opened when a request is made, not at start: its ~25 libraries cost every process
/// about 4 ms, and a call answered from the cache makes no request.
@Suite("libcurl is loaded only to fetch")
struct LibcurlLoadingEndToEnd {
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
    }
}
