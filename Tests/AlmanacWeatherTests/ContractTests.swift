import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacWeather

@Suite("provider contract: weather")
struct WeatherContractTests {
    @Test("Open-Meteo's forecast keeps the provider contract on a recorded answer")
    func forecast() async throws {
        let query = WeatherQuery(latitude: 39.75, longitude: -104.99)
        let violations = await ProviderContract.check(
            OpenMeteoProvider(), query: query, recorded: try Fixtures.replay(), now: try instant("2026-08-09T18:50:00Z")
        )
        #expect(violations.isEmpty, "\(violations)")
    }

    @Test("Open-Meteo's geocoding keeps the provider contract on a recorded answer")
    func geocoding() async throws {
        let violations = await ProviderContract.check(
            OpenMeteoGeocoder(), query: GeocodeQuery(name: "Frederick"), recorded: try Fixtures.replay(),
            now: try instant("2026-08-09T18:50:00Z"))
        #expect(violations.isEmpty, "\(violations)")
    }
}
