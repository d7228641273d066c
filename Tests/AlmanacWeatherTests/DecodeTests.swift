import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCore
@testable import AlmanacWeather

/// Recorded responses whose original requests differ from what `run` sends (GMT instead of
/// `timezone=auto`, daily-only, one day, `minutely_15`): decoded and rendered through the public
/// synchronous entry point, which uses the same decoder and formatter as `run`.
@Suite("Weather decoding: recorded bodies through WeatherTool.renderForecast")
struct DecodeTests {
    struct Case: Sendable, CustomStringConvertible {
        let golden: String
        let now: String
        let view: WeatherRequest.View
        var sun = false
        var description: String { golden }
    }

    static let cases: [Case] = [
        // timezone GMT: times are GMT wall-clock, labelled GMT, "today" is the GMT day.
        Case(golden: "forecast-melbourne-gmt", now: "2025-10-25T11:35:00Z", view: .overview(days: 7), sun: true),
        Case(golden: "forecast-melbourne-daily-only", now: "2025-10-25T01:00:00Z", view: .overview(days: 3)),
        Case(golden: "forecast-berlin-sunrise", now: "2026-03-20T09:00:00Z", view: .day("today"), sun: true),
        Case(golden: "forecast-berlin-minutely15-gmt", now: "2023-11-13T10:50:00Z", view: .hourly),
    ]

    @Test("context and data goldens", arguments: cases)
    func golden(_ testCase: Case) async throws {
        let body = try Fixtures.data("weather/open-meteo/\(testCase.golden).response.json")
        let now = try instant(testCase.now)
        let context = try WeatherTool.renderForecast(body, now: now, view: testCase.view, sun: testCase.sun)
        #expect(Golden.check(context, against: "weather/open-meteo/\(testCase.golden).context.txt") == nil)
        let payload = try WeatherPayload(
            report: .forecast(try OpenMeteoDecoder.decode(body)), view: testCase.view,
            everyHour: testCase.view == .hourly, sun: testCase.sun, now: now)
        #expect(
            Golden.check(try Envelope.dataJSON(payload), against: "weather/open-meteo/\(testCase.golden).data.json")
                == nil)
    }

    @Test("units come from the *_units blocks")
    func units() throws {
        let toronto = try OpenMeteoDecoder.decode(
            Fixtures.data("weather/open-meteo/forecast-toronto-imperial.response.json"))
        #expect(toronto.units == WeatherUnits(temperature: "°F", windSpeed: "mph", precipitation: "inch"))
        let copenhagen = try OpenMeteoDecoder.decode(
            Fixtures.data("weather/open-meteo/forecast-copenhagen-ms.response.json"))
        #expect(copenhagen.units == WeatherUnits(temperature: "°C", windSpeed: "m/s", precipitation: "mm"))
    }

    @Test("nulls in daily arrays stay absent, not zero")
    func nulls() throws {
        let forecast = try OpenMeteoDecoder.decode(
            Fixtures.data("weather/open-meteo/forecast-frederick-nulls.response.json"))
        #expect(forecast.daily.count == 8)
        #expect(forecast.daily[7] == DailyForecast(date: "2026-08-16"))
        #expect(forecast.daily[6].max == 26.8)
        // The null day is named, not dropped and not shown as zero.
        let body = try Fixtures.data("weather/open-meteo/forecast-frederick-nulls.response.json")
        let context = try WeatherTool.renderForecast(
            body, now: try instant("2026-08-09T18:50:00Z"), view: .overview(days: 8))
        #expect(context.hasSuffix("; Sat 15 Aug: mainly clear, 16.3 to 26.8 °C\nThen: Sun 16 Aug: no data"))
    }

    @Test("utc_offset_seconds decides the zone when it disagrees with the named zone")
    func offsetWins() throws {
        let now = try instant("2026-08-09T18:50:00Z")
        let named = WeatherLocation(latitude: 0, longitude: 0, timezone: "America/New_York", utcOffsetSeconds: -14_400)
        #expect(named.zone(at: now).identifier == "America/New_York")
        let odd = WeatherLocation(latitude: 0, longitude: 0, timezone: "America/New_York", utcOffsetSeconds: 3600)
        #expect(odd.zone(at: now).secondsFromGMT(for: now) == 3600)
    }

    @Test("a body that is not a forecast is a decoding failure")
    func notAForecast() throws {
        #expect(throws: ProviderFailure(.decoding, "Open-Meteo: unreadable response (missing key 'latitude')")) {
            try OpenMeteoDecoder.decode(Fixtures.data("weather/open-meteo/geocoding-frederick.response.json"))
        }
    }
}
