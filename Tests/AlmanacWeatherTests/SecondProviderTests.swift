import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCore
@testable import AlmanacWeather

/// Answers 500 (synthetic) for paths starting with any of `failing`, else replays the recordings:
/// an upstream that is down beside one that answers.
struct PartlyDown: HTTPTransport {
    let failing: [String]
    let base: any HTTPTransport

    func send(_ request: HTTPRequest, timeout: Duration) async throws -> HTTPResponse {
        if failing.contains(where: { request.url.path.hasPrefix($0) }) {
            return HTTPResponse(status: 500, body: Data(#"{"error":true,"reason":"injected"}"#.utf8))
        }
        return try await base.send(request, timeout: timeout)
    }
}

/// MET Norway (Fixtures/weather/met-norway) and Nominatim (Fixtures/weather/nominatim) as the
/// second forecast provider and geocoder. Every number asserted below was read off the recorded
/// bytes with python3 (see the commit message), not off our own output.
@Suite("Weather second providers: MET Norway and Nominatim")
struct SecondProviderTests {
    static let osloNow = "2026-02-06T21:10:00Z"
    static let contact = weatherConfig(["contact": "almanac-tests@example.org"])

    static func oslo(_ words: [String] = [], settings: Settings = contact) async throws -> (Harness, ToolResult) {
        let transport = PartlyDown(failing: ["/v1/"], base: try Fixtures.replay())
        let harness = Harness(now: try instant(osloNow), transport: transport, settings: settings)
        return (harness, try await harness.run(["--lat", "59.91", "--lon", "10.75"] + words))
    }

    @Test("Open-Meteo down: MET Norway answers, its failure is in attempts; context and data goldens")
    func fallback() async throws {
        let (harness, result) = try await Self.oslo()
        #expect(result.metadata.provider == "met-norway")
        #expect(result.metadata.attempts.map(\.provider) == ["open-meteo", "met-norway"])
        #expect(result.metadata.attempts.first?.outcome == .failed)
        #expect(result.metadata.attempts.first?.detail?.contains("HTTP 500") == true)
        let context = try harness.context(result)
        // No zone for bare coordinates from MET Norway: the context says the times are UTC.
        #expect(context.contains("times in UTC (the place's time zone is unknown)"))
        // First step 21:00Z: -5.8 °C, 6.0 m/s = 21.6 km/h from 37° (NE), next hour "snow" (73).
        #expect(context.contains("Now (21:00): -5.8 °C, moderate snow, wind 21.6 km/h from NE"))
        #expect(Golden.check(context, against: "weather/met-norway/compact-oslo-snow.context.txt") == nil)
        #expect(
            Golden.check(
                try Envelope.dataJSON(result.payload), against: "weather/met-norway/compact-oslo-snow.data.json")
                == nil)
    }

    @Test("text output carries MET Norway's CC BY 4.0 attribution")
    func attribution() async throws {
        let (harness, result) = try await Self.oslo()
        let text = try result.render(.text, now: harness.now, timeZone: TimeText.utc)
        #expect(text.hasSuffix("Data from MET Norway (CC BY 4.0)"))
    }

    @Test("imperial units are converted from MET Norway's °C, m/s and mm")
    func imperial() async throws {
        let (_, result) = try await Self.oslo(["--units", "imperial"])
        guard case .forecast(let forecast) = (result.payload as? WeatherPayload)?.report else {
            Issue.record("not a forecast")
            return
        }
        #expect(forecast.units == WeatherUnits(temperature: "°F", windSpeed: "mph", precipitation: "inch"))
        // -5.8 °C = 21.56 °F; 6.0 m/s = 13.42 mph; 0.5 mm = 0.0197 inch.
        #expect(forecast.current?.temperature == 21.6)
        #expect(forecast.current?.windSpeed == 13.4)
        #expect(forecast.current?.precipitation == 0.02)
    }

    @Test("without a contact MET Norway is not called: its attempt says how to set one")
    func noContact() async throws {
        let transport = CountingTransport(base: PartlyDown(failing: ["/v1/"], base: try Fixtures.replay()))
        let harness = Harness(now: try instant(Self.osloNow), transport: transport)
        let error = await runError(harness, ["--lat", "59.91", "--lon", "10.75"])
        #expect(error?.kind == .unavailable)
        let metAttempt = error?.attempts.first { $0.provider == "met-norway" }
        #expect(metAttempt?.detail?.contains("[weather] contact = \"you@example.org\"") == true)
        #expect(await transport.paths.allSatisfy { !$0.contains("locationforecast") })
    }

    @Test("local days in the place's zone: Oslo (UTC+1) days aggregate from 23:00Z")
    func localDays() throws {
        let place = GeoPlace(name: "Oslo", latitude: 59.91, longitude: 10.75, timezone: "Europe/Oslo")
        let query = WeatherQuery(latitude: 59.91, longitude: 10.75, place: place)
        let forecast = try MetNorwayDecoder.decode(
            try Fixtures.data("weather/met-norway/compact-oslo-snow.response.json"), expected: query)
        #expect(forecast.location.timezone == "Europe/Oslo")
        #expect(forecast.location.name == "Oslo")
        // 2026-02-07 in Oslo = steps 2026-02-06T23:00Z ..2026-02-07T22:00Z (hand-computed from the bytes).
        let day = try #require(forecast.daily.first { $0.date == "2026-02-07" })
        #expect(day.min == -5.9)
        #expect(day.max == -2.7)
        #expect(day.precipitationSum.map { ($0 * 10).rounded() / 10 } == 2.6)
        #expect(day.weatherCode == 73)
        // In UTC the same steps make other days: 2026-02-07Z sums 1.8 mm.
        let utc = try MetNorwayDecoder.decode(
            try Fixtures.data("weather/met-norway/compact-oslo-snow.response.json"),
            expected: WeatherQuery(latitude: 59.91, longitude: 10.75))
        #expect(utc.daily.first { $0.date == "2026-02-07" }?.precipitationSum.map { ($0 * 10).rounded() / 10 } == 1.8)
        // Hourly steps end after ~2.5 days (51 of them, the last 2026-02-08T23:00Z); the 6-hourly
        // steps after that feed the days only.
        #expect(forecast.hourly.count == 51)
        #expect(forecast.hourly.last?.time == (try instant("2026-02-08T23:00:00Z")))
        // The series ends 2026-02-16T18:00Z (19:00 Oslo), inside the 16th's last six hours: kept.
        #expect(forecast.daily.last?.date == "2026-02-16")
        #expect(forecast.daily.last?.min == -9.3)
    }

    @Test("now is the last hourly step at or before the run's now (a stored answer served later)")
    func nowStep() throws {
        let body = try Fixtures.data("weather/met-norway/compact-oslo-snow.response.json")
        let later = try MetNorwayDecoder.decode(body, now: try instant("2026-02-06T23:30:00Z"))
        #expect(later.current?.time == (try instant("2026-02-06T23:00:00Z")))
        #expect(later.current?.temperature == -5.9)
        let earlier = try MetNorwayDecoder.decode(body, now: try instant("2026-02-06T20:00:00Z"))
        #expect(earlier.current?.time == (try instant("2026-02-06T21:00:00Z")))
    }

    @Test("complete answers (2020 London) decode; a day the series ends early in is dropped")
    func complete() throws {
        let forecast = try MetNorwayDecoder.decode(
            try Fixtures.data("weather/met-norway/complete-london-2020.response.json"))
        #expect(forecast.location.latitude == 51.5 && forecast.location.longitude == -0.1)
        #expect(forecast.location.elevation == 25)
        #expect(forecast.current?.temperature == 18.8)
        #expect(forecast.current?.weatherCode == 0)
        #expect(forecast.current?.isDay == true)
        let day = try #require(forecast.daily.first { $0.date == "2020-07-22" })
        // 11.0 at 03:00Z, 23.3 at 15:00Z (instants); the 18:00Z six-hour period's 14.9..21.8 is inside.
        #expect(day.min == 11.0)
        #expect(day.max == 23.3)
        // The series ends 2020-07-29T06:00Z, before that day's last six hours: dropped.
        #expect(forecast.daily.last?.date == "2020-07-28")
    }

    @Test("every symbol in the recordings maps to a WMO code; unknown symbols map to none")
    func symbols() throws {
        for file in ["compact-oslo-snow", "complete-london-2020"] {
            let text = String(decoding: try Fixtures.data("weather/met-norway/\(file).response.json"), as: UTF8.self)
            let pattern = try NSRegularExpression(pattern: #""symbol_code"\s*:\s*"([a-z_]+)""#)
            let symbols = pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
                Range($0.range(at: 1), in: text).map { String(text[$0]) }
            }
            #expect(!symbols.isEmpty)
            for symbol in symbols { #expect(MetSymbol.wmoCode(symbol) != nil, "\(symbol)") }
        }
        #expect(MetSymbol.wmoCode("lightsleetshowers_polartwilight") == 83)
        #expect(MetSymbol.wmoCode("heavyrainshowersandthunder_night") == 95)
        #expect(MetSymbol.wmoCode("volcano") == nil)
    }

    @Test("MET Norway keeps the provider contract on its recorded answer")
    func contract() async throws {
        let violations = await ProviderContract.check(
            MetNorwayProvider(), query: WeatherQuery(latitude: 59.91, longitude: 10.75),
            recorded: try Fixtures.replay(),
            settings: Self.contact, now: try instant(Self.osloNow))
        #expect(violations.isEmpty, "\(violations)")
    }

    // MARK: Nominatim

    @Test("Nominatim: place_id as a string (2017) or a number (today), coordinates from strings")
    func nominatimDecode() throws {
        let recorded = try Fixtures.data("weather/nominatim/search-ottawa-2017.response.json")
        let places = try NominatimGeocoder.decode(recorded).places
        #expect(
            places == [
                GeoPlace(
                    name: "Ottawa", latitude: 45.421106, longitude: -75.690308, countryCode: "CA", country: "Canada",
                    admin1: "Ontario")
            ])
        // Today's servers send place_id as a number: the same body with that one change decodes alike.
        let numeric = String(decoding: recorded, as: UTF8.self)
            .replacingOccurrences(of: #""place_id":"173725143""#, with: #""place_id":173725143"#)
        #expect(numeric != String(decoding: recorded, as: UTF8.self))
        #expect(try NominatimGeocoder.decode(Data(numeric.utf8)).places == places)
        #expect(try NominatimGeocoder.decode(Data("[]".utf8)).places.isEmpty)
        #expect(throws: ProviderFailure.self) { try NominatimGeocoder.decode(Data(#"{"error":"x"}"#.utf8)) }
    }

    @Test("Open-Meteo geocoding and forecast down: Nominatim names Ottawa, MET Norway forecasts it in UTC")
    func nominatimFallback() async throws {
        // The forecast body is Oslo's recording served at Ottawa's coordinates (synthetic pairing:
        // no Ottawa forecast is recorded); only the place and the zone wording are asserted.
        let oslo = try Fixtures.data("weather/met-norway/compact-oslo-snow.response.json")
        let transport = RouteTransport(base: PartlyDown(failing: ["/v1/"], base: try Fixtures.replay())) { request in
            request.url.path.hasSuffix("/compact") ? HTTPResponse(status: 200, body: oslo) : nil
        }
        let harness = Harness(now: try instant(Self.osloNow), transport: transport, settings: Self.contact)
        let result = try await harness.run(["Ottawa"])
        #expect(result.metadata.provider == "met-norway")
        let context = try harness.context(result)
        #expect(context.contains("Ottawa, Ontario, Canada · times in UTC (the place's time zone is unknown)"))
    }

    @Test("Nominatim keeps the provider contract on its recorded answer")
    func nominatimContract() async throws {
        let violations = await ProviderContract.check(
            NominatimGeocoder(), query: GeocodeQuery(name: "Ottawa"), recorded: try Fixtures.replay(),
            now: try instant(Self.osloNow))
        #expect(violations.isEmpty, "\(violations)")
    }
}

/// Answers from `route` when it has an answer, else from `base`.
struct RouteTransport: HTTPTransport {
    let base: any HTTPTransport
    let route: @Sendable (HTTPRequest) -> HTTPResponse?

    func send(_ request: HTTPRequest, timeout: Duration) async throws -> HTTPResponse {
        if let answer = route(request) { return answer }
        return try await base.send(request, timeout: timeout)
    }
}

/// Records the paths asked.
actor PathLog {
    var paths: [String] = []
    func append(_ path: String) { paths.append(path) }
}

/// Passes requests on, recording their paths.
struct CountingTransport: HTTPTransport {
    let base: any HTTPTransport
    let log = PathLog()

    var paths: [String] { get async { await log.paths } }

    func send(_ request: HTTPRequest, timeout: Duration) async throws -> HTTPResponse {
        await log.append(request.url.path)
        return try await base.send(request, timeout: timeout)
    }
}
