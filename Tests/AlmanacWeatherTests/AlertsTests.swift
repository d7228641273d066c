import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacWeather

/// Official warnings on recorded real answers (Fixtures/weather/met-alerts, nws-alerts,
/// meteoalarm; provenance in Fixtures/weather/README.md), through `WeatherTool.run` where the
/// place can be given as coordinates, else through the provider and the payload.
@Suite("Weather warnings: MetAlerts, NWS, MeteoAlarm")
struct AlertsTests {
    static let contact = Settings(environment: ["ALMANAC_CONTACT": "almanac-tests@example.org"])

    @Test("MET Norway: three yellow gale warnings, times in Norway's zone, golden")
    func metAlerts() async throws {
        let harness = try Harness.replay(now: try instant("2025-06-04T19:00:00Z"), settings: Self.contact)
        let result = try await harness.run(["--lat", "61.94", "--lon", "5.11", "--alerts"])
        #expect(result.metadata.provider == "met-alerts")
        let context = try harness.context(result)
        // Upstream: interval 2025-06-03T17:00:00+00:00 → 2025-06-05T18:00:00+00:00 (CEST = UTC+2).
        #expect(context.contains("Warning: yellow (Moderate) Kuling, Måløy - Svinøy, in force since Tue 3 Jun (yesterday) 19:00 until Thu 5 Jun (tomorrow) 20:00"))
        #expect(context.components(separatedBy: "\n").filter { $0.hasPrefix("Warning: ") }.count == 3)
        #expect(Golden.check(context, against: "weather/met-alerts/gale-maloy-2025-06-04.context.txt") == nil)
        #expect(
            Golden.check(try Envelope.dataJSON(result.payload), against: "weather/met-alerts/gale-maloy-2025-06-04.data.json")
                == nil)
    }

    @Test("expired warnings are never shown as active, however the answer was stored")
    func expiry() async throws {
        // Fedje - Bulandet ends 2025-06-05T09:00Z: gone at 10:00Z; the others end 16:00Z and 18:00Z.
        let later = try Harness.replay(now: try instant("2025-06-05T10:00:00Z"), settings: Self.contact)
        let context = try later.context(try await later.run(["--lat", "61.94", "--lon", "5.11", "--alerts"]))
        #expect(!context.contains("Fedje - Bulandet"))
        #expect(context.components(separatedBy: "\n").filter { $0.hasPrefix("Warning: ") }.count == 2)
        let after = try Harness.replay(now: try instant("2025-06-05T18:30:00Z"), settings: Self.contact)
        let none = try after.context(try await after.run(["--lat", "61.94", "--lon", "5.11", "--alerts"]))
        #expect(none.contains("No active warnings from MET Norway MetAlerts for 61.94°N 5.11°E."))
        #expect(!none.contains("Warning: "))
    }

    @Test("NWS: a flood warning with its local end time, golden")
    func nwsFlood() async throws {
        let harness = try Harness.replay(now: try instant("2022-10-18T03:00:00Z"), settings: Self.contact)
        let result = try await harness.run(["--lat", "29.01", "--lon", "-81.38", "--alerts"])
        #expect(result.metadata.provider == "nws-alerts")
        let context = try harness.context(result)
        // Upstream: onset 2022-10-17T22:15:00-04:00, expires 2022-10-18T11:00:00-04:00, ends null.
        #expect(context.contains("Warning: severe Flood Warning, Lake, FL; Volusia, FL, in force since Mon 17 Oct (today) 22:15 until Tue 18 Oct (tomorrow) 11:00"))
        #expect(context.contains("NWS Melbourne FL"))
        #expect(Golden.check(context, against: "weather/nws-alerts/flood-volusia-2022-10-18.context.txt") == nil)
        #expect(
            Golden.check(
                try Envelope.dataJSON(result.payload), against: "weather/nws-alerts/flood-volusia-2022-10-18.data.json")
                == nil)
    }

    @Test("NWS: an announced warning says when it starts; an expired one is dropped")
    func nwsPhoenix() throws {
        let report = try NWSAlertsProvider.decode(Fixtures.data("weather/nws-alerts/heat-phoenix-2024-07-18.response.json"))
        let zone = try #require(TimeZone(identifier: "America/Phoenix"))
        // 14:00 MST on 18 July: the air quality alert is in force, the heat warning starts tomorrow 10:00.
        let now = try instant("2024-07-18T21:00:00Z")
        let lines = AlertLines(zone: zone, now: now)
        let active = report.alerts.filter { $0.inForce(at: now) }
        #expect(active.map(\.event) == ["Excessive Heat Warning", "Air Quality Alert"])
        #expect(lines.span(active[0]) == "from Fri 19 Jul (tomorrow) 10:00 until Sat 20 Jul 20:00 MST")
        // Air Quality Alert expires 2024-07-19T21:00-07:00: gone a minute later.
        let later = try instant("2024-07-20T04:01:00Z")
        #expect(report.alerts.filter { $0.inForce(at: later) }.map(\.event) == ["Excessive Heat Warning"])
    }

    @Test("NWS: the empty answer says no active warnings from NWS")
    func nwsEmpty() async throws {
        let harness = try Harness.replay(now: try instant("2026-01-19T06:00:00Z"), settings: Self.contact)
        let context = try harness.context(try await harness.run(["--lat", "40.71", "--lon", "-74.01", "--alerts"]))
        #expect(context.hasSuffix("\nNo active warnings from NWS for 40.71°N 74.01°W."))
    }

    @Test("NWS: a 400 names what upstream said was wrong")
    func nwsBadRequest() async throws {
        let query = AlertsQuery(latitude: 33.29, longitude: 33.29, countryCode: "US")
        let environment = testEnvironment(
            transport: try Fixtures.replay(), now: try instant("2022-10-19T12:00:00Z"), timeZone: "UTC",
            settings: Self.contact)
        await #expect(throws: ProviderFailure.self) { try await NWSAlertsProvider().fetch(query, in: environment) }
        do {
            _ = try await NWSAlertsProvider().fetch(query, in: environment)
        } catch let failure as ProviderFailure {
            #expect(failure.message == "NWS: HTTP 400, Parameter \"point\" is invalid: out of bounds")
        }
    }

    @Test("a place no warning service covers says so, never 'no warnings'")
    func uncovered() async throws {
        let harness = try Harness.replay(now: try instant("2026-01-19T06:00:00Z"), settings: Self.contact)
        let result = try await harness.run(["--lat", "-33.87", "--lon", "151.21", "--alerts"])
        let context = try harness.context(result)
        #expect(context.hasSuffix("\nNo warning service covers 33.87°S 151.21°E."))
        #expect(!context.contains("No active warnings"))
        let data = try Envelope.dataJSON(result.payload)
        #expect(data.contains("\"covered\" : false"))
    }

    @Test("MeteoAlarm Germany: Koblenz's orange thunderstorm warning in Berlin time; expired frost dropped")
    func meteoAlarmGermany() throws {
        let body = try Fixtures.data("weather/meteoalarm/germany-2023-04-28.response.xml")
        let now = try instant("2023-04-28T13:10:00Z")
        let report = try MeteoAlarmProvider.decode(body, names: ["Koblenz", "Rhineland-Palatinate"], now: now)
        let payload = AlertsPayload(report: report, place: "Koblenz, Germany", timezone: "Europe/Berlin", now: now)
        let rendering = Rendering(
            metadata: TestMetadata.fresh(tool: "weather", provider: "meteoalarm", fetchedAt: now), now: now,
            timeZone: TimeText.utc)
        let context = payload.context(rendering)
        // Upstream: Stadt Koblenz, onset 2023-04-28T13:06:00+00:00, expires 13:45:00+00:00 (CEST = UTC+2).
        #expect(context.contains("Warning: orange (Moderate) heavy thunderstorms with gale- or storm-force gusts and heavy rain, Stadt Koblenz, in force since Fri 28 Apr (today) 15:06 until Fri 28 Apr (today) 15:45 UTC+02:00; MeteoAlarm"))
        #expect(!context.contains("frost"))
        #expect(Golden.check(context, against: "weather/meteoalarm/germany-koblenz.context.txt") == nil)
        #expect(Golden.check(try Envelope.dataJSON(payload), against: "weather/meteoalarm/germany-koblenz.data.json") == nil)
    }

    @Test("MeteoAlarm Poland: none for the place, the country's others counted")
    func meteoAlarmPoland() throws {
        let body = try Fixtures.data("weather/meteoalarm/poland-2023-04-28.response.xml")
        let now = try instant("2023-04-27T15:00:00Z")
        let report = try MeteoAlarmProvider.decode(body, names: ["Kraków", "Lesser Poland"], now: now)
        #expect(report.alerts.isEmpty)
        #expect(report.elsewhere == 2)
        let coastal = try MeteoAlarmProvider.decode(body, names: ["Eastern coastal zone"], now: now)
        #expect(coastal.alerts.map(\.level) == ["yellow"])
        #expect(coastal.alerts.first?.event == "Yellow Wind warning")
        let payload = AlertsPayload(report: report, place: "Kraków, Poland", timezone: "Europe/Warsaw", now: now)
        let context = payload.context(
            Rendering(
                metadata: TestMetadata.fresh(tool: "weather", provider: "meteoalarm", fetchedAt: now), now: now,
                timeZone: TimeText.utc))
        #expect(context.contains("No active warnings from MeteoAlarm for Kraków, Poland."))
        #expect(context.contains("MeteoAlarm has 2 other warnings in force elsewhere in the country"))
    }

    @Test("the place's country picks the service")
    func regions() {
        let oslo = AlertsQuery(latitude: 59.91, longitude: 10.75, countryCode: "NO")
        let berlin = AlertsQuery(latitude: 52.52, longitude: 13.41, countryCode: "DE")
        let denver = AlertsQuery(latitude: 39.75, longitude: -104.99, countryCode: "US")
        let sydney = AlertsQuery(latitude: -33.87, longitude: 151.21, countryCode: "AU")
        #expect(WeatherTool.alertProviders(oslo).map(\.name) == ["met-alerts"])
        #expect(WeatherTool.alertProviders(berlin).map(\.name) == ["meteoalarm"])
        #expect(WeatherTool.alertProviders(denver).map(\.name) == ["nws-alerts"])
        #expect(WeatherTool.alertProviders(sydney).isEmpty)
    }

    @Test("warnings in force head an ordinary forecast, one line each; expired ones do not")
    func forecastHeader() throws {
        let forecast = try OpenMeteoDecoder.decode(Fixtures.data("weather/open-meteo/forecast-denver.response.json"))
        let report = try NWSAlertsProvider.decode(Fixtures.data("weather/nws-alerts/heat-phoenix-2024-07-18.response.json"))
        let now = try instant("2024-07-18T21:00:00Z")
        var payload = try WeatherPayload(report: .forecast(forecast), view: .overview(days: 7), now: now)
        payload.alerts = report.alerts
        let rendering = Rendering(
            metadata: TestMetadata.fresh(tool: "weather", provider: "open-meteo", fetchedAt: now), now: now,
            timeZone: TimeText.utc)
        let lines = payload.context(rendering).components(separatedBy: "\n")
        #expect(lines[1].hasPrefix("Warning: severe Excessive Heat Warning"))
        #expect(lines[2].hasPrefix("Warning: Air Quality Alert"))
        #expect(lines[3].hasPrefix("Now"))
        // The same payload read after both ended shows no warning.
        let later = try instant("2024-07-21T12:00:00Z")
        let rendered = payload.context(
            Rendering(
                metadata: TestMetadata.fresh(tool: "weather", provider: "open-meteo", fetchedAt: later), now: later,
                timeZone: TimeText.utc))
        #expect(!rendered.contains("Warning: "))
    }

    @Test("the warning providers keep the provider contract on their recorded answers")
    func contract() async throws {
        let met = await ProviderContract.check(
            MetAlertsProvider(), query: AlertsQuery(latitude: 61.94, longitude: 5.11), recorded: try Fixtures.replay(),
            settings: Self.contact, now: try instant("2025-06-04T19:00:00Z"))
        #expect(met.isEmpty, "\(met)")
        let nws = await ProviderContract.check(
            NWSAlertsProvider(), query: AlertsQuery(latitude: 29.01, longitude: -81.38), recorded: try Fixtures.replay(),
            settings: Self.contact, now: try instant("2022-10-18T03:00:00Z"))
        #expect(nws.isEmpty, "\(nws)")
        let alarm = await ProviderContract.check(
            MeteoAlarmProvider(), query: AlertsQuery(latitude: 53.13, longitude: 23.16, countryCode: "PL", names: ["Białystok"]),
            recorded: try Fixtures.replay(), now: try instant("2023-04-27T15:00:00Z"))
        #expect(alarm.isEmpty, "\(alarm)")
    }

    @Test("a small budget keeps every warning line and drops the fenced texts first")
    func budget() async throws {
        let harness = try Harness.replay(now: try instant("2025-06-04T19:00:00Z"), settings: Self.contact)
        let result = try await harness.run(["--lat", "61.94", "--lon", "5.11", "--alerts"])
        let context = try harness.context(result, budget: ContextBudget(tokens: 260))
        let lines = context.components(separatedBy: "\n")
        #expect(lines.filter { $0.hasPrefix("Warning: ") }.count == 3)
        #expect(lines.contains { $0.hasPrefix("… ") && $0.hasSuffix("omitted") }, "\(context)")
        #expect(ContextBudget.estimate(context) <= 300)
    }

    @Test("flags: one extra at a time; --alerts takes no day")
    func flags() async throws {
        let harness = try Harness.replay(now: try instant("2025-06-04T19:00:00Z"), settings: Self.contact)
        let both = await runError(harness, ["--lat", "61.94", "--lon", "5.11", "--alerts", "--air"])
        #expect(both?.exitStatus == 64)
        let day = await runError(harness, ["--lat", "61.94", "--lon", "5.11", "--alerts", "--day", "tomorrow"])
        #expect(day?.message == "weather: --alerts is about now, not 'tomorrow'")
    }
}
