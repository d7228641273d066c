import Testing

@testable import AlmanacWeather

@Suite("Weather words")
struct WordsTests {
    @Test(
        "WMO codes in words",
        arguments: [
            (0, "clear sky"), (2, "partly cloudy"), (3, "overcast"), (45, "fog"), (55, "dense drizzle"),
            (61, "light rain"), (65, "heavy rain"), (71, "light snow"), (80, "light rain showers"),
            (95, "thunderstorm"), (99, "thunderstorm with heavy hail"), (42, "weather code 42"),
        ])
    func codes(_ code: Int, _ words: String) {
        #expect(WeatherCode.description(code) == words)
    }

    @Test(
        "compass points",
        arguments: [
            (0.0, "N"), (11.2, "N"), (11.3, "NNE"), (31, "NNE"), (45, "NE"), (180, "S"), (270, "W"), (340, "NNW"),
            (349, "N"),
            (355, "N"), (360, "N"), (-90, "W"),
        ])
    func compass(_ degrees: Double, _ point: String) {
        #expect(Compass.point(degrees) == point)
    }
}
