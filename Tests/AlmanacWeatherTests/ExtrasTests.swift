import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCore
@testable import AlmanacWeather

/// `--air` and `--next-hour` on recorded real answers (Fixtures/weather/open-meteo-air,
/// met-nowcast, open-meteo-15min; provenance in Fixtures/weather/README.md).
@Suite("Weather air quality and the next hour")
struct ExtrasTests {
    static let contact = Settings(environment: ["ALMANAC_CONTACT": "almanac-tests@example.org"])

    @Test("air: European and US AQI with their words, UV, pollen, now and over the day, golden")
    func airTwente() async throws {
        let harness = try Harness.replay(now: try instant("2026-10-03T10:10:00Z"))
        let result = try await harness.run(["--lat", "52.3", "--lon", "6.9", "--air"])
        #expect(result.metadata.provider == "open-meteo-air")
        let context = try harness.context(result)
        // Upstream current (12:00 Europe/Amsterdam): european_aqi 44, us_aqi 65, uv_index 2.1, pollen all 0.0.
        #expect(
            context.contains(
                "Now (12:00): European AQI 44 (moderate), US AQI 65 (moderate); PM2.5 22.1, PM10 28.2, ozone 42, NO2 11.2 μg/m³; UV index 2.1 (low); pollen: none"
            ))
        #expect(
            Golden.check(context, against: "weather/open-meteo-air/current-pollen-twente-2026-10-03.context.txt") == nil
        )
        #expect(
            Golden.check(
                try Envelope.dataJSON(result.payload),
                against: "weather/open-meteo-air/current-pollen-twente-2026-10-03.data.json") == nil)
    }

    @Test("air: a US answer without a current block gives the asked day's highest values")
    func airNewJersey() async throws {
        let harness = try Harness.replay(now: try instant("2025-12-18T15:10:00Z"))
        let result = try await harness.run(["--lat", "40", "--lon", "-74.8", "--air", "tomorrow"])
        let context = try harness.context(result)
        #expect(context.contains("Fri 19 Dec 2025 (tomorrow), highest over the day: US AQI"))
        #expect(!context.contains("Now ("))
        #expect(context.contains("pollen: not forecast here (Europe only)"))
        // Upstream's highest us_aqi on 2025-12-19 (local) is checked against the bytes.
        let report = try OpenMeteoAirQualityProvider.decode(
            Fixtures.data("weather/open-meteo-air/pollutants-new-jersey-2025-12-18.response.json"))
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        let peak = report.hourly.filter { TimeText.isoDay($0.time, in: zone) == "2025-12-19" }.compactMap(\.usAQI).max()
        let expected = try #require(peak)
        #expect(context.contains("US AQI \(Numbers.text(expected)) (\(AirWords.us(expected)))"))
    }

    @Test("air: category words at the published band edges")
    func airWords() {
        #expect(AirWords.european(19.9) == "good")
        #expect(AirWords.european(44) == "moderate")
        #expect(AirWords.us(50) == "good")
        #expect(AirWords.us(101) == "unhealthy for sensitive groups")
        #expect(AirWords.uv(2.4) == "low")
        #expect(AirWords.uv(7.6) == "very high")
    }

    @Test("next hour, radar: rain starting in Trondheim, golden")
    func nowcastRain() async throws {
        let harness = try Harness.replay(now: try instant("2023-08-14T18:17:00Z"), settings: Self.contact)
        let result = try await harness.run(["--lat", "63.43", "--lon", "10.4", "--next-hour"])
        #expect(result.metadata.provider == "met-nowcast")
        let context = try harness.context(result)
        // Upstream precipitation_rate: 0.0 to 18:55Z, 0.2 at 19:00Z rising to 0.9 at 19:15Z.
        #expect(context.contains("Rain from 19:00, heaviest 19:15 (0.9 mm/h), still falling at 19:20 (0.9 mm/h)"))
        #expect(
            Golden.check(context, against: "weather/met-nowcast/rain-onset-trondheim-2023-08-14.context.txt") == nil)
        #expect(
            Golden.check(
                try Envelope.dataJSON(result.payload),
                against: "weather/met-nowcast/rain-onset-trondheim-2023-08-14.data.json") == nil)
    }

    @Test("next hour, radar: a dry night in Tromsø")
    func nowcastDry() async throws {
        let harness = try Harness.replay(now: try instant("2023-03-03T21:06:00Z"), settings: Self.contact)
        let context = try harness.context(try await harness.run(["--lat", "69.68", "--lon", "18.94", "--next-hour"]))
        #expect(context.contains("Dry for the next hour: no precipitation expected until 22:10."))
    }

    @Test("next hour outside the radar: Open-Meteo's 15-minute steps, in the place's zone")
    func openMeteo15() async throws {
        let harness = try Harness.replay(now: try instant("2026-10-03T10:20:00Z"), settings: Self.contact)
        let result = try await harness.run(["--lat", "52.28", "--lon", "6.87", "--next-hour"])
        #expect(result.metadata.provider == "open-meteo-15min")
        let context = try harness.context(result)
        // Upstream: precipitation 0.0 in the four steps ending 12:30..13:15 Europe/Amsterdam.
        #expect(context.contains("Dry for the next hour: no precipitation expected until 13:15."))
        #expect(context.contains("Steps (mm/h): 12:15 0, 12:30 0, 12:45 0, 13:00 0"))
    }

    @Test("next hour: the wording of rain now, a peak and an end")
    func wording() throws {
        let start = try instant("2026-01-01T12:00:00Z")
        let rates = [0.4, 1.2, 2.1, 0.6, 0, 0]
        let steps = rates.enumerated().map {
            NextHourReport.Step(time: start.addingTimeInterval(Double($0.offset) * 900), rate: $0.element)
        }
        let payload = NextHourPayload(
            report: NextHourReport(source: "test", stepSeconds: 900, steps: steps), place: "X", timezone: "UTC",
            now: start.addingTimeInterval(60))
        #expect(payload.summary() == "Raining now (0.4 mm/h), heaviest 12:30 (2.1 mm/h), dry again by 13:00")
    }

    @Test("the air and next-hour providers keep the provider contract")
    func contract() async throws {
        let air = await ProviderContract.check(
            OpenMeteoAirQualityProvider(), query: AirQualityQuery(latitude: 52.3, longitude: 6.9, days: 7),
            recorded: try Fixtures.replay(), now: try instant("2026-10-03T10:10:00Z"))
        #expect(air.isEmpty, "\(air)")
        let nowcast = await ProviderContract.check(
            MetNowcastProvider(), query: NextHourQuery(latitude: 63.43, longitude: 10.4),
            recorded: try Fixtures.replay(),
            settings: Self.contact, now: try instant("2023-08-14T18:17:00Z"))
        #expect(nowcast.isEmpty, "\(nowcast)")
        let fifteen = await ProviderContract.check(
            OpenMeteoNextHourProvider(), query: NextHourQuery(latitude: 52.28, longitude: 6.87),
            recorded: try Fixtures.replay(), now: try instant("2026-10-03T10:20:00Z"))
        #expect(fifteen.isEmpty, "\(fifteen)")
    }
}
