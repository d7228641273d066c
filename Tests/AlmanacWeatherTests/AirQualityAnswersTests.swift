import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacWeather

/// Issue #31 point 13: an answer for a place in Europe without pollen values was told "pollen:
/// not forecast here (Europe only)", and every header promised UV and pollen whether the answer
/// held them or not.
@Suite("Air quality: what the answer holds, not what it might")
struct AirQualityAnswersTests {
    static func context(_ report: AirQualityReport, place: String, now: Date) throws -> String {
        let payload = try AirPayload(report: report, place: place, day: nil, now: now)
        return payload.context(
            Rendering(
                metadata: TestMetadata.fresh(tool: "weather", provider: "open-meteo-air", fetchedAt: now), now: now,
                timeZone: TimeText.utc))
    }

    @Test("Amsterdam without pollen values: no 'Europe only', and the header names only air quality")
    func europeWithoutPollen() throws {
        // Recorded: latitude 52.4, longitude 4.8999996, Europe/Amsterdam, one hour (2026-07-11T00:00)
        // with european_aqi 22 and pm2_5 5.8; no UV, no pollen (the original asked for neither).
        let report = try OpenMeteoAirQualityProvider.decode(
            Fixtures.data("weather/open-meteo-air/eaqi-pm25-amsterdam-2026-07-11-trimmed.response.json"))
        #expect(report.pollenForecastHere == true)
        let now = try instant("2026-07-10T22:30:00Z")
        let context = try Self.context(report, place: "52.40°N 4.90°E", now: now)
        #expect(context.contains("52.40°N 4.90°E · air quality · local time"), "\(context)")
        #expect(!context.contains("UV and pollen"))
        #expect(!context.contains("Europe only"))
        #expect(context.contains("European AQI 22 (fair); PM2.5 5.8 μg/m³; pollen: none in this answer"))
    }

    @Test("New Jersey: outside the pollen forecast's domain it says so; the header has no UV or pollen")
    func outsideEurope() throws {
        let report = try OpenMeteoAirQualityProvider.decode(
            Fixtures.data("weather/open-meteo-air/pollutants-new-jersey-2025-12-18.response.json"))
        #expect(report.pollenForecastHere == false)
        let context = try Self.context(report, place: "40.00°N 74.80°W", now: try instant("2025-12-18T15:10:00Z"))
        #expect(context.contains("· air quality · local time"))
        #expect(context.contains("pollen: not forecast here (Europe only)"))
    }

    @Test("Twente with UV and pollen: the header promises both")
    func everything() throws {
        let report = try OpenMeteoAirQualityProvider.decode(
            Fixtures.data("weather/open-meteo-air/current-pollen-twente-2026-10-03.response.json"))
        #expect(AirWords.contents(report) == "air quality, UV and pollen")
        var uvOnly = report
        uvOnly.current?.pollen = [:]
        uvOnly.hourly = uvOnly.hourly.map { reading in
            var reading = reading
            reading.pollen = [:]
            return reading
        }
        #expect(AirWords.contents(uvOnly) == "air quality and UV")
    }
}
