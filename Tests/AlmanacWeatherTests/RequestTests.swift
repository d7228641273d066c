import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacWeather

/// Argument checks (no network): every bad input is a one-line usage error (exit 64).
@Suite("Weather arguments")
struct RequestTests {
    static func request(_ words: [String], settings: Settings = Settings()) throws -> WeatherRequest {
        let tool = WeatherTool()
        return try WeatherRequest(
            ToolArguments.parse(cli: words, schema: tool.schema, tool: tool.name), settings: settings)
    }

    @Test(
        "a trailing day word is split from the place",
        arguments: [
            ("Lisbon tomorrow", "Lisbon", "tomorrow"),
            ("New York Friday", "New York", "friday"),
            ("Paris, TX 2026-03-07", "Paris, TX", "2026-03-07"),
            ("Paris, TX, tonight", "Paris, TX", "tonight"),
            ("Tomorrowland", "Tomorrowland", nil),
            ("Sunday River", "Sunday River", nil),
            ("today", "", "today"),
            ("Lisbon 2026-02-30", "Lisbon 2026-02-30", nil),  // not a real date: part of the name
        ] as [(String, String, String?)])
    func split(_ text: String, _ place: String, _ day: String?) {
        let split = WeatherRequest.splitDayWord(text)
        #expect(split.place == place)
        #expect(split.day == day)
    }

    @Test("views from arguments")
    func views() throws {
        #expect(try Self.request(["Lisbon"]).view == .overview(days: 7))
        #expect(try Self.request(["Lisbon", "--days", "3"]).view == .overview(days: 3))
        #expect(try Self.request(["Lisbon", "--hourly"]).view == .hourly)
        #expect(try Self.request(["Lisbon", "tomorrow"]).view == .day("tomorrow"))
        #expect(try Self.request(["Lisbon", "--day", "Friday"]).view == .day("friday"))
        #expect(try Self.request(["Lisbon", "tomorrow"]).target == .place(PlaceText("Lisbon")))
        #expect(
            try Self.request(["--lat", "38.72", "--lon", "-9.14"]).target
                == .coordinates(latitude: 38.72, longitude: -9.14))
    }

    @Test("units and wind from flags, then config, then defaults")
    func units() throws {
        #expect(try Self.request(["Lisbon"]).units == .metric)
        #expect(try Self.request(["Lisbon"]).wind == .kmh)
        #expect(try Self.request(["Lisbon", "--units", "imperial"]).wind == .mph)
        let config = weatherConfig(["units": "imperial", "wind": "kn"])
        #expect(try Self.request(["Lisbon"], settings: config).units == .imperial)
        #expect(try Self.request(["Lisbon"], settings: config).wind == .kn)
        #expect(try Self.request(["Lisbon", "--units", "metric", "--wind", "ms"], settings: config).wind == .ms)
    }

    @Test(
        "bad input is a usage error naming what was wrong",
        arguments: [
            (["Lisbon", "--days", "0"], "weather: --days must be 1 to 16, got 0"),
            (["Lisbon", "--days", "17"], "weather: --days must be 1 to 16, got 17"),
            (["--lat", "38.7"], "weather: --lat and --lon go together"),
            (["--lat", "91", "--lon", "0"], "weather: --lat must be between -90 and 90, got 91.0"),
            (
                ["Lisbon", "--lat", "38.7", "--lon", "-9.1"],
                "weather: give a place or --lat/--lon, not both ('Lisbon')"
            ),
            (["Lisbon", "--day", "someday"], "weather: 'someday' is not a day"),
            (["Lisbon", "yesterday"], "weather: forecasts start today; past weather is not available"),
            (["Lisbon", "tomorrow", "--days", "3"], "weather: --days does not combine with a day ('tomorrow')"),
            (
                ["Lisbon", "--hourly", "--days", "3"],
                "weather: --days does not combine with --hourly (the next 24 hours)"
            ),
            ([], "weather: no place given and no home is set"),
            (["tomorrow"], "weather: no place given and no home is set"),
        ])
    func usage(_ words: [String], _ message: String) throws {
        do {
            _ = try Self.request(words)
            Issue.record("expected a usage error for \(words)")
        } catch let error as AlmanacError {
            #expect(error.kind == .usage)
            #expect(error.exitStatus == 64)
            #expect(error.message == message)
        }
    }

    @Test("no place and no default: the suggestion says how to set one")
    func noPlaceSuggestion() throws {
        do {
            _ = try Self.request([])
        } catch let error as AlmanacError {
            #expect(
                error.suggestion
                    == "tools run weather Lisbon, or set your home in config.toml: [me] home = \"Lisbon\"")
        }
    }

    @Test("a bad configured unit is a usage error too")
    func badConfig() {
        #expect(throws: AlmanacError.self) {
            try Self.request(["Lisbon"], settings: weatherConfig(["units": "kelvin"]))
        }
    }

    @Test("day words resolve to a forecast span in the place's zone")
    func span() throws {
        let now = try instant("2026-08-09T18:50:00Z")  // Sunday
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        #expect(try Self.request(["Lisbon", "tomorrow"]).span(now: now, zone: zone) == 7)
        #expect(try Self.request(["Lisbon", "saturday"]).span(now: now, zone: zone) == 8)
        #expect(try Self.request(["Lisbon", "2026-08-23"]).span(now: now, zone: zone) == 16)
        #expect(try Self.request(["Lisbon", "--days", "10"]).span(now: now, zone: zone) == 10)
        #expect(throws: AlmanacError.self) { try Self.request(["Lisbon", "2026-08-25"]).span(now: now, zone: zone) }
        #expect(throws: AlmanacError.self) { try Self.request(["Lisbon", "2026-08-08"]).span(now: now, zone: zone) }
    }

    @Test("the forecast request asks for timezone=auto, units and the span")
    func forecastRequest() throws {
        let base = try #require(URL(string: "https://api.open-meteo.com"))
        let query = WeatherQuery(latitude: 43.70455, longitude: -79.404625, days: 10, units: .imperial, wind: .mph)
        let url = OpenMeteoProvider.request(query, base: base).url.absoluteString
        #expect(url.hasPrefix("https://api.open-meteo.com/v1/forecast?latitude=43.7&longitude=-79.4&current="))
        #expect(
            url.hasSuffix(
                "&timezone=auto&forecast_days=10&temperature_unit=fahrenheit&precipitation_unit=inch&wind_speed_unit=mph"
            ))
        #expect(WeatherKey.forecast(query).text == "forecast:43.7,-79.4:d10:imperial:mph")
    }

    @Test("schema: place takes the remaining words; options are documented")
    func schema() {
        let schema = WeatherTool().schema
        #expect(schema.parameter(named: "place")?.placement == .remainder)
        #expect(
            schema.parameters.map(\.name) == [
                "place", "lat", "lon", "hourly", "days", "day", "sun", "units", "wind", "alerts", "air", "next-hour",
            ])
        #expect(WeatherTool().name == "weather")
    }
}
