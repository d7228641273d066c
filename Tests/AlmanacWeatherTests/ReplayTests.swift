import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCore
@testable import AlmanacWeather

/// Real recorded Open-Meteo responses replayed through the real tool `run` (Fixtures/weather/
/// open-meteo, provenance in Fixtures/weather/README.md). Each case states its fixed "now"; the
/// viewer's zone is always Europe/Lisbon, so every local time below proves the place's zone is used.
@Suite("Weather replay: recorded Open-Meteo responses through WeatherTool.run")
struct ReplayTests {
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let words: [String]
        let now: String
        let golden: String
        var description: String { golden }
    }

    static let cases: [Case] = [
        // Toronto, °F/mph/inch, named zone; the response starts the day before (past day dropped).
        Case(
            name: "toronto", words: ["--lat", "43.70455", "--lon", "-79.404625", "--units", "imperial"],
            now: "2026-03-06T02:05:00Z", golden: "forecast-toronto-imperial"),
        Case(
            name: "toronto hourly",
            words: ["--lat", "43.70455", "--lon", "-79.404625", "--units", "imperial", "--hourly"],
            now: "2026-03-06T02:05:00Z", golden: "forecast-toronto-imperial.hourly"),
        // Copenhagen, wind in m/s, 23:05 local: "tomorrow" is already Monday there.
        Case(
            name: "copenhagen", words: ["--lat", "55.75", "--lon", "12.5", "--wind", "ms"],
            now: "2026-07-26T21:05:00Z", golden: "forecast-copenhagen-ms"),
        Case(
            name: "copenhagen tomorrow",
            words: ["--lat", "55.75", "--lon", "12.5", "--wind", "ms", "tomorrow", "--sun"],
            now: "2026-07-26T21:05:00Z", golden: "forecast-copenhagen-ms.tomorrow"),
        // Denver: 21:35 Friday local while it is already Saturday in Lisbon.
        Case(
            name: "denver", words: ["--lat", "39.746895", "--lon", "-104.987076"],
            now: "2026-08-08T03:35:00Z", golden: "forecast-denver"),
        // The geocode → forecast chain: "Frederick" → Frederick, Maryland → the forecast with nulls.
        Case(name: "frederick", words: ["Frederick"], now: "2026-08-09T18:50:00Z", golden: "forecast-frederick-nulls"),
    ]

    @Test("context and data goldens", arguments: cases)
    func golden(_ testCase: Case) async throws {
        let harness = try Harness.replay(now: try instant(testCase.now))
        let result = try await harness.run(testCase.words)
        #expect(result.metadata.provider == "open-meteo")
        #expect(result.metadata.stale == false)
        #expect(
            Golden.check(try harness.context(result), against: "weather/open-meteo/\(testCase.golden).context.txt")
                == nil)
        #expect(
            Golden.check(
                try Envelope.dataJSON(result.payload), against: "weather/open-meteo/\(testCase.golden).data.json")
                == nil)
    }

    @Test("the chain names the geocoded place and lists same-named places")
    func frederickChain() async throws {
        let harness = try Harness.replay(now: try instant("2026-08-09T18:50:00Z"))
        let context = try harness.context(try await harness.run(["Frederick"]))
        let lines = context.components(separatedBy: "\n")
        #expect(
            lines[0].hasPrefix(
                "[weather] Frederick, Maryland, United States · local time Sun 9 Aug 2026 14:50 EDT · source: open-meteo"
            ))
        #expect(
            lines.last
                == "Other places with this name: Frederick, Colorado, United States; Frederick, Oklahoma, United States (ask for e.g. 'Frederick, CO' to pick one)."
        )
    }

    @Test("a qualified place with a trailing day word: that day only, in the place's calendar")
    func qualifiedTomorrow() async throws {
        let harness = try Harness.replay(now: try instant("2026-08-09T18:50:00Z"))
        let result = try await harness.run(["Frederick,", "MD", "tomorrow", "--sun"])
        #expect(
            try harness.context(result) == """
                [weather] Frederick, Maryland, United States · local time Sun 9 Aug 2026 14:50 EDT · source: open-meteo · fetched 14:50 EDT (0 s ago)
                Mon 10 Aug (tomorrow): light rain showers, 20.3 to 34.6 °C, sunrise/sunset not in this response
                """)
    }

    @Test("a forecast without an hourly block says so in the hourly view")
    func noHourly() async throws {
        let harness = try Harness.replay(now: try instant("2026-08-08T03:35:00Z"))
        let result = try await harness.run(["--lat", "39.746895", "--lon", "-104.987076", "--hourly"])
        #expect(
            try harness.context(result).components(separatedBy: "\n").dropFirst() == [
                "Now (21:30): 26.8 °C, feels like 24 °C, partly cloudy, wind 7.6 km/h",
                "No hourly forecast from now on in this response.",
            ])
    }

    @Test("a default place from [weather] place is used when none is given")
    func configuredPlace() async throws {
        let harness = try Harness.replay(
            now: try instant("2026-08-09T18:50:00Z"), settings: weatherConfig(["place": "Frederick"]))
        let context = try harness.context(try await harness.run([]))
        #expect(context.hasPrefix("[weather] Frederick, Maryland, United States"))
    }

    @Test("geocoding and forecast are cached under normalized keys")
    func cacheKeys() async throws {
        let harness = try Harness.replay(now: try instant("2026-08-09T18:50:00Z"))
        _ = try await harness.run(["Frederick"])
        #expect(await harness.cache.entry(for: "weather:geocode:frederick") != nil)
        #expect(await harness.cache.entry(for: "weather:forecast:39.41,-77.41:d7:metric:kmh") != nil)
        let calls = await harness.coordinator.providerCallCount
        #expect(calls == 2)
        // Same place, other spelling and another view: both answered from the cache.
        let again = try await harness.run(["FREDERICK", "today"])
        #expect(await harness.coordinator.providerCallCount == calls)
        #expect(again.metadata.attempts.map(\.outcome) == [.cached])
    }

    @Test("context stays within a budget by dropping whole lines")
    func budget() async throws {
        let harness = try Harness.replay(now: try instant("2026-03-06T02:05:00Z"))
        let result = try await harness.run([
            "--lat", "43.70455", "--lon", "-79.404625", "--units", "imperial", "--hourly",
        ])
        let full = try harness.context(result)
        let small = try harness.context(result, budget: ContextBudget(tokens: 120))
        #expect(ContextBudget.estimate(small) <= 120)
        #expect(small.components(separatedBy: "\n").last?.hasPrefix("… ") == true)
        #expect(full.hasPrefix(small.components(separatedBy: "\n")[0]))
        // Even unbudgeted, the hourly view is a few short lines, not the raw series.
        #expect(full.components(separatedBy: "\n").count == 6)
        #expect(ContextBudget.estimate(full) < 400)
    }
}
