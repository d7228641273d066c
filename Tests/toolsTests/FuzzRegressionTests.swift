import AlmanacTesting
import Foundation
import Testing

/// Replays fuzz reproducers and seeds through the built `almanac-fuzz` (plain build, same decoders).
@Suite("fuzz regressions")
struct FuzzRegressionTests {
    static let seeds: [String: (folder: String, prefix: String, suffix: String)] = [
        "espn": ("Fixtures/sports/espn", "", ".response.json"),
        "open-meteo": ("Fixtures/weather/open-meteo", "forecast-", ".response.json"),
        "geocoding": ("Fixtures/weather/open-meteo", "geocoding-", ".response.json"),
        "brave": ("Fixtures/search/brave", "", ".response.json"),
        "searxng": ("Fixtures/search/searxng", "", ".response.json"),
        "calendar": ("Fixtures/calendar/ics", "", ".ics"),
        "meteoalarm": ("Fixtures/weather/meteoalarm", "", ".response.xml"),
        "news-feed": ("Fixtures/news/feeds", "", ".xml"),
    ]

    @Test(
        "every reproducer and recorded body decodes or fails cleanly",
        arguments: ["espn", "open-meteo", "geocoding", "brave", "searxng", "calendar", "meteoalarm", "news-feed"])
    func replay(target: String) async throws {
        let root = Fixtures.packageRoot()
        let fileManager = FileManager.default
        let regressions = root.appendingPathComponent("Tests/FuzzRegressions/\(target)")
        var inputs = try fileManager.contentsOfDirectory(atPath: regressions.path).sorted()
            .map { regressions.appendingPathComponent($0).path }
        let reproducers = inputs.count
        let seed = try #require(Self.seeds[target])
        let folder = root.appendingPathComponent(seed.folder)
        inputs += try fileManager.contentsOfDirectory(atPath: folder.path).sorted()
            .filter { $0.hasPrefix(seed.prefix) && $0.hasSuffix(seed.suffix) }
            .map { folder.appendingPathComponent($0).path }
        #expect(reproducers >= 5)
        #expect(inputs.count > reproducers)

        let binary = ToolsBinary.url.deletingLastPathComponent().appendingPathComponent("almanac-fuzz")
        let output = try await Command.run(binary, [target] + inputs, environment: [:], timeout: 120)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "\(target): \(inputs.count) inputs decoded without a crash\n")
    }
}
