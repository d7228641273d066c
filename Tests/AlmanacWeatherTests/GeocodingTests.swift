import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCore
@testable import AlmanacWeather

/// Place choice on recorded geocoding responses (Frederick, Hollywood, no results).
@Suite("Weather geocoding")
struct GeocodingTests {
    static func candidates(_ name: String) throws -> [GeoPlace] {
        try OpenMeteoGeocoder.decode(Fixtures.data("weather/open-meteo/geocoding-\(name).response.json")).places
    }

    @Test(
        "qualifiers pick the place meant",
        arguments: [
            ("Hollywood", "Hollywood, California, United States"),  // largest population wins
            ("Hollywood, FL", "Hollywood, Florida, United States"),  // US state abbreviation
            ("Hollywood, Florida", "Hollywood, Florida, United States"),  // admin1 name
            ("hollywood, south carolina", "Hollywood, South Carolina, United States"),
            ("Hollywood, IE", "Hollywood, Leinster, Ireland"),  // country code; no populations → upstream order
            ("Hollywood, Ireland", "Hollywood, Leinster, Ireland"),  // country name
            ("Hollywood, Munster", "Hollywood, Munster, Ireland"),
            ("Hollywood, USA", "Hollywood, California, United States"),  // country alias
            ("Frederick", "Frederick, Maryland, United States"),
            ("Frederick, CO", "Frederick, Colorado, United States"),
            ("Frederick, Oklahoma, US", "Frederick, Oklahoma, United States"),  // every qualifier must hold
        ])
    func choose(_ text: String, _ expected: String) throws {
        let name = PlaceText(text).name.lowercased()
        let choice = try PlaceMatcher.choose(PlaceText(text), from: Self.candidates(name))
        #expect(choice.place.displayName == expected)
    }

    @Test("exact names beat partial matches even when smaller")
    func exactName() throws {
        // "Peggy" and "MacArthur" come back for "Hollywood" (alternate names); never picked over a Hollywood.
        let choice = try PlaceMatcher.choose(PlaceText("Hollywood, TX"), from: Self.candidates("hollywood"))
        #expect(choice.place.name == "Peggy")  // the only Texas candidate: chosen, and named in the output
        let unqualified = try PlaceMatcher.choose(PlaceText("Hollywood"), from: Self.candidates("hollywood"))
        #expect(
            unqualified.alternatives.map(\.displayName) == [
                "Hollywood, Florida, United States", "Hollywood, South Carolina, United States",
            ])
    }

    @Test("a qualifier nothing matches is a usage error listing what was found")
    func unmatchedQualifier() throws {
        #expect(throws: AlmanacError.self) {
            try PlaceMatcher.choose(PlaceText("Frederick, Texas"), from: Self.candidates("frederick"))
        }
        do {
            _ = try PlaceMatcher.choose(PlaceText("Frederick, Texas"), from: Self.candidates("frederick"))
        } catch let error as AlmanacError {
            #expect(error.exitStatus == 64)
            #expect(
                error.message
                    == "no 'Frederick' in 'Texas' was found; found: Frederick, Maryland, United States; Frederick, Oklahoma, United States; Frederick, Colorado, United States"
            )
        }
    }

    @Test("no match (the real response has no results key) exits 64 before any forecast request")
    func noResults() async throws {
        #expect(try Self.candidates("no-results").isEmpty)
        let harness = try Harness.replay(now: try instant("2026-08-09T18:50:00Z"))
        let error = await runError(harness, ["Qwxlorbia"])
        #expect(error?.exitStatus == 64)
        #expect(error?.message == "no place called 'Qwxlorbia' was found (Open-Meteo geocoding has no match)")
        #expect(
            error?.suggestion
                == "check the spelling, add a country or state ('Paris, FR', 'Paris, TX'), or use --lat/--lon")
        #expect(await harness.coordinator.providerCallCount == 1)
    }

    @Test("the geocoding request carries the name only, qualifiers are applied locally")
    func request() throws {
        let base = try #require(URL(string: "https://geocoding-api.open-meteo.com"))
        let request = OpenMeteoGeocoder.request(GeocodeQuery(name: PlaceText("São Paulo & Co, BR").name), base: base)
        #expect(
            request.url.absoluteString
                == "https://geocoding-api.open-meteo.com/v1/search?name=S%C3%A3o%20Paulo%20%26%20Co&count=10&language=en&format=json"
        )
    }
}
