import AlmanacCore
import Foundation
import Testing

@testable import AlmanacWeather

/// The weather tool's typed seams: parameter names declared once (WeatherParameter) and every
/// cache key built by one function (WeatherKey), keeping the strings the cache already holds.
@Suite("weather keys")
struct WeatherKeysTests {
    @Test("the schema names exactly the WeatherParameter cases, in order")
    func schemaNamesTheParameters() {
        #expect(WeatherTool().schema.parameters.map(\.name) == WeatherParameter.allCases.map(\.rawValue))
    }

    @Test("a value given under a WeatherParameter name is read back through the same case")
    func readerTakesTheSameKeys() throws {
        let tool = WeatherTool()
        let arguments = try ToolArguments.parse(
            cli: ["Lisbon", "--days", "3", "--wind", "ms", "--next-hour", "--lat", "38.7"], schema: tool.schema,
            tool: tool.name)
        #expect(arguments.string(WeatherParameter.place) == "Lisbon")
        #expect(arguments.integer(WeatherParameter.days) == 3)
        #expect(arguments.string(WeatherParameter.wind) == "ms")
        #expect(arguments.flag(WeatherParameter.nextHour))
        #expect(arguments.number(WeatherParameter.lat) == 38.7)
        #expect(WeatherRequest.Extra.nextHour.parameter.rawValue == WeatherRequest.Extra.nextHour.rawValue)
    }

    @Test("cache keys: the same strings as before")
    func keys() {
        let point = WeatherQuery(latitude: 43.70455, longitude: -79.404625, days: 10, units: .imperial, wind: .mph)
        #expect(WeatherKey.forecast(point).text == "forecast:43.7,-79.4:d10:imperial:mph")
        let web = WeatherQuery(latitude: nil, longitude: nil, placeText: "Atlantis, XX")
        #expect(WeatherKey.forecast(web).text == "web:atlantis, xx:d7:metric:kmh")
        #expect(WeatherKey.geocode(PlaceText("FREDERICK, MD")).text == "geocode:frederick")
        let alerts = AlertsQuery(
            latitude: 59.91, longitude: 10.75, countryCode: "NO", names: ["Oslo"], regions: ["Oslo County"])
        #expect(WeatherKey.alerts(alerts).text == "alerts:59.91,10.75:NO:oslo|/|oslo county")
        #expect(WeatherKey.alerts(AlertsQuery(latitude: 1, longitude: 2)).text == "alerts:1,2::/")
        #expect(WeatherKey.air(latitude: 38.72, longitude: -9.14, days: 4).text == "air:38.72,-9.14:d4")
        #expect(WeatherKey.nextHour(latitude: 38.72, longitude: -9.14).text == "next-hour:38.72,-9.14")
    }
}
