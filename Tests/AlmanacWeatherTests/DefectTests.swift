import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacWeather

/// The defects of issue #23 point 5, each on a real answer where the team corpus
/// (../shared/corpus/SOURCES.md) holds one that shows the case. Three cases no recording can show
/// (a geocoder's 5xx, Nominatim's empty answer, a place listed twice, a place with neither area
/// nor country) keep a synthetic part, named in the test's comment; every other body is recorded.
@Suite("Weather defects found on real data")
struct DefectTests {
    @Test("--wind with --hourly: every hour carries the wind (it printed bare times)")
    func hourlyWind() async throws {
        let harness = try Harness.replay(now: try instant("2026-07-26T21:05:00Z"))
        let result = try await harness.run(["--lat", "55.75", "--lon", "12.5", "--wind", "ms", "--hourly"])
        let hourLines = try harness.context(result).components(separatedBy: "\n").dropFirst(2)
        #expect(!hourLines.isEmpty)
        for line in hourLines where !line.hasPrefix("Other places") {
            // Upstream hourly wind_speed_10m in m/s (the recording's hourly block).
            let entries = line.components(separatedBy: ", ")
            #expect(entries.allSatisfy { $0.contains(" m/s") }, "\(line)")
        }
    }

    @Test("Open-Meteo geocoding down and Nominatim empty: the error names both")
    func geocoderNames() async throws {
        // Synthetic on purpose: a 500 is a fault no recording shows, and the corpus holds no
        // Nominatim answer without a match (its one Nominatim recording, Ottawa, has a result), so
        // Nominatim answers `[]`, the shape its documentation gives for "no match". Open-Meteo's
        // own recorded empty answer cannot stand in: an answer ends the chain, Nominatim is not asked.
        let transport = StubTransport { request in
            if request.url.path == "/v1/search" { return HTTPResponse(status: 500, body: Data("synthetic".utf8)) }
            return HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: Data("[]".utf8))
        }
        let harness = Harness(now: try instant("2026-08-09T18:50:00Z"), transport: transport)
        let error = await runError(harness, ["Nowhereville"])
        #expect(error?.exitStatus == 64)
        let message = error?.message ?? ""
        #expect(message.contains("Nominatim has no match"), "\(message)")
        #expect(message.contains("; failed: Open-Meteo geocoding: HTTP 500"), "\(message)")
        #expect(!message.contains("(Open-Meteo geocoding has no match"))
    }

    @Test("Nominatim's same place listed twice is no alternative; a place with no area shows where it is")
    func alternatives() throws {
        // The recorded Ottawa answer (Nominatim) and the recorded Frederick answer (Open-Meteo:
        // three real Fredericks). The one synthetic candidate is the case itself: the corpus has
        // no answer listing a place twice (Nominatim lists a city's boundary and its centre, 2 km
        // apart), so Frederick, Maryland is listed a second time 2 km north.
        let ottawa = try #require(
            try NominatimGeocoder.decode(Fixtures.data("weather/nominatim/search-ottawa-2017.response.json")).places
                .first)
        let fredericks = try OpenMeteoGeocoder.decode(
            Fixtures.data("weather/open-meteo/geocoding-frederick.response.json")
        ).places
        let maryland = try #require(fredericks.first)
        var twin = maryland
        twin.latitude += 0.018
        let choice = try PlaceMatcher.choose(PlaceText("Frederick"), from: [maryland, twin] + fredericks.dropFirst())
        #expect(choice.place == maryland)
        #expect(
            choice.alternatives.map(\.displayName) == [
                "Frederick, Colorado, United States", "Frederick, Oklahoma, United States",
            ])
        // Nominatim's own answer has nothing to drop: its one Ottawa is the choice.
        #expect(try PlaceMatcher.choose(PlaceText("Ottawa"), from: [ottawa]).alternatives.isEmpty)
        // Synthetic: no recorded answer has a place with neither area nor country (the defect was
        // seen live on "Italia", a stream in Antarctica); only how it is named is at stake.
        let bare = GeoPlace(name: "Italia", latitude: -77.85, longitude: 166.67)
        #expect(bare.displayName == "Italia, 77.85°S 166.67°E")
    }

    @Test("MET Norway daily precipitation sums carry no float noise")
    func precipitationNoise() throws {
        let forecast = try MetNorwayDecoder.decode(
            Fixtures.data("weather/met-norway/complete-london-2020.response.json"))
        // Upstream 2020-07-26 (UTC) steps sum to 0.7999999999999999 in binary floating point.
        let day = try #require(forecast.daily.first { $0.date == "2020-07-26" })
        #expect(day.precipitationSum == 0.8)
        for day in forecast.daily {
            let sum = day.precipitationSum ?? 0
            #expect(sum == (sum * 10).rounded() / 10, "\(day.date): \(sum)")
        }
    }

    @Test("both geocoders and the search failing: every attempt is listed")
    func everyAttempt() async throws {
        // Synthetic on purpose: the case is every upstream failing (503s and a failing searcher),
        // which no recording shows; no answered body takes part.
        let harness = Harness(
            now: try instant("2026-08-09T18:50:00Z"),
            transport: StubTransport { _ in HTTPResponse(status: 503, body: Data("synthetic".utf8)) },
            webSearch: FailingSearcher())
        let error = await runError(harness, ["Frederick"])
        #expect(error?.exitStatus == 69)
        #expect(error?.attempts.map(\.provider) == ["open-meteo-geocoding", "nominatim", "failing-search"])
    }
}

/// A searcher that always fails (synthetic).
struct FailingSearcher: WebSearching {
    let providerName = "failing-search"

    func search(_ query: String, count: Int, in environment: ProviderEnvironment) async throws -> [WebSearchHit] {
        throw ProviderFailure(.http, "failing-search: HTTP 503")
    }
}
