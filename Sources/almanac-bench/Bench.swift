import AlmanacCore
import AlmanacSports
import AlmanacWeather
import Foundation

/// `almanac-bench espn FILE N` / `almanac-bench open-meteo FILE N`: decode+format a recorded body
/// N times in-process and print the mean milliseconds (last line), for scripts/bench;
/// `almanac-bench calendar-json ...` is ``CalendarJSONBench``.
@main
enum Bench {
    static func main() async throws {
        let arguments = CommandLine.arguments
        if arguments.count > 1, arguments[1] == "calendar-json" { return try await CalendarJSONBench.run(arguments) }
        guard arguments.count == 4, let iterations = Int(arguments[3]), iterations > 0 else {
            FileHandle.standardError.write(Data("usage: almanac-bench espn|open-meteo FILE ITERATIONS\n".utf8))
            exit(64)
        }
        let body = try Data(contentsOf: URL(fileURLWithPath: arguments[2]))
        let now = Date(timeIntervalSince1970: 1_666_000_000)
        let zone = TimeZone(identifier: "America/New_York") ?? .current
        let work: () throws -> Int
        switch arguments[1] {
        case "espn":
            guard let league = League.named("college-football") else { exit(70) }
            work = { try ESPNScoreboard.decodeAndFormat(body, league: league, now: now, timeZone: zone).utf8.count }
        case "open-meteo":
            work = { try openMeteoContext(body, now: now).utf8.count }
        default:
            FileHandle.standardError.write(Data("unknown decoder '\(arguments[1])'\n".utf8))
            exit(64)
        }
        var bytes = try work()  // warm-up
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            for _ in 0..<iterations { bytes &+= try work() }
        }
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        print("output bytes \(bytes / (iterations + 1))")
        print(milliseconds / Double(iterations))
    }

    /// An Open-Meteo forecast body decoded and rendered as `tools run weather` context, headed
    /// `source: open-meteo`, fetched at `now`.
    static func openMeteoContext(_ body: Data, now: Date) throws -> String {
        let payload = try WeatherTool.openMeteoPayload(body, now: now)
        let metadata = ResultMetadata(
            tool: "weather", provider: "open-meteo", fetchedAt: now, ageSeconds: 0, stale: false, attempts: [])
        return payload.context(Rendering(metadata: metadata, now: now, timeZone: TimeText.utc, budget: .unlimited))
    }
}
