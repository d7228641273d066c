import AlmanacTesting
import Foundation
import Testing

/// `tools fixtures record` (secrets never recorded) and `tools fixtures check --live` (shape drift),
/// against the loopback fixture server.
@Suite("tools fixtures, end to end")
struct FixturesEndToEndTests {
    static let secret = "record-secret-key-4711"

    @Test("record writes a replayable exchange with no key, cookie or echoed header in any file")
    func recordRedacts() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        // The server adds Set-Cookie and echoes the key header back: both must be dropped.
        try await server.setFault("cookie")
        let scratch = try Scratch()
        let fixtures = scratch.url.appendingPathComponent("Fixtures")
        let environment = scratch.environment(["ALMANAC_BRAVE_URL": server.baseURL, "BRAVE_API_KEY": Self.secret])
        let output = try await ToolsBinary.run(
            [
                "fixtures", "record", "search", "web-hello", "--dir", fixtures.path, "--", "hello", "world", "--count",
                "20",
            ],
            environment: environment)
        #expect(output.status == 0, "\(output.stderr)")
        let folder = fixtures.appendingPathComponent("search/brave")
        #expect(
            output.stdout
                == "wrote \(folder.path)/web-hello.exchange.json\nwrote \(folder.path)/web-hello.response.json\n")

        let exchange = try String(contentsOf: folder.appendingPathComponent("web-hello.exchange.json"), encoding: .utf8)
        #expect(
            exchange
                == #"{"request":{"method":"GET","url":"https://api.search.brave.com/res/v1/web/search?q=hello%20world&count=20"},"response":{"body":"web-hello.response.json","headers":{"content-type":"application/json"},"status":200}}"#
        )
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            #expect(!text.contains(Self.secret), "\(name)")
            #expect(!text.lowercased().contains("cookie"), "\(name)")
        }
        #expect(!output.stdout.contains(Self.secret) && !output.stderr.contains(Self.secret))
        // The recorded body is the upstream's bytes.
        let recorded = try Data(contentsOf: folder.appendingPathComponent("web-hello.response.json"))
        #expect(recorded == (try Fixtures.data("search/brave/web-hello-world.response.json")))

        // And it replays with no network.
        let replay = try await ToolsBinary.run(
            ["run", "search", "hello", "world", "--count", "20"],
            environment: scratch.environment([
                "ALMANAC_REPLAY": fixtures.path, "BRAVE_API_KEY": "other", "ALMANAC_BRAVE_URL": "http://127.0.0.1:9",
            ]))
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.hasPrefix("[search] web results for \"hello world\""))
    }

    @Test(
        "check --live reports fields gone and types changed (exit 69), and nothing when the shape holds",
        arguments: [
            ("none", "ok    sports/espn/nba-scoreboard-final-2024-12-15"),
            (
                "drop:shortDetail",
                "drift sports/espn/nba-scoreboard-final-2024-12-15: gone: events[].competitions[].status.type.shortDetail; gone: events[].status.type.shortDetail"
            ),
            (
                "retype:completed",
                "drift sports/espn/nba-scoreboard-final-2024-12-15: type changed: events[].competitions[].status.type.completed (boolean → string); type changed: events[].status.type.completed (boolean → string)"
            ),
            (
                "drop:events",
                "drift sports/espn/nba-scoreboard-final-2024-12-15: gone: events"
            ),
        ])
    func liveDrift(fault: String, line: String) async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        try await server.setFault(fault)
        let scratch = try Scratch()
        let output = try await ToolsBinary.run(
            [
                "fixtures", "check", "--live", "sports", "nba-scoreboard-final-2024-12-15", "--dir",
                Fixtures.directory.path,
            ],
            environment: scratch.environment(["ALMANAC_ESPN_URL": server.baseURL, "ALMANAC_TIMEOUT": "5"]))
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == line)
        #expect(output.status == (fault == "none" ? 0 : 69), "\(output.stderr)")
    }

    @Test("offline check reads every recorded exchange")
    func offline() async throws {
        let scratch = try Scratch()
        let output = try await ToolsBinary.run(
            ["fixtures", "check", "--dir", Fixtures.directory.path], environment: scratch.environment())
        #expect(output.status == 0)
        #expect(output.stdout.hasSuffix(" scenarios ok or skipped\n"))
        #expect(!output.stdout.contains("fail"))
    }
}
