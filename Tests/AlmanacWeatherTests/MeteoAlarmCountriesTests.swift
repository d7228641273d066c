import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacWeather

/// Issue #31 point 11: MeteoAlarm areas are named differently in each country. Germany's DWD
/// writes districts ("Kreis Esslingen", AlertsTests); Poland's IMGW nests the county in its
/// voivodeship, "<Voivodeship> Province <County> County", and no Polish place matched one.
///
/// The feed is the recorded Polish one (Fixtures/weather/meteoalarm/poland-2023-04-28), whose two
/// entries name coastal zones; for the county cases their `cap:areaDesc` is replaced, in the test,
/// by area names in IMGW's scheme as other projects recorded them ("Śląskie Province Mysłowice
/// County", "Śląskie Province Myszkowski County", "Zachodniopomorskie Province Szczecin County";
/// Fixtures/weather/README.md). No geocoder answer for a Polish place is recorded: the place
/// fields are those third-party tests give (Open-Meteo/GeoNames: admin2 the county, admin1 the
/// voivodeship in English, "Lower Silesia", "Mazovia"; Nominatim: county "powiat myszkowski",
/// state "województwo śląskie").
@Suite("MeteoAlarm areas by country: Germany's districts, Poland's voivodeship and county")
struct MeteoAlarmCountriesTests {
    static let now = Date(timeIntervalSince1970: 1_682_607_600)  // 2023-04-27T15:00:00Z

    /// The recorded Polish feed with its two areas renamed.
    static func poland(_ first: String, _ second: String) throws -> Data {
        let recorded = try Fixtures.data("weather/meteoalarm/poland-2023-04-28.response.xml")
        let text = try #require(String(data: recorded, encoding: .utf8))
        #expect(text.components(separatedBy: "<cap:areaDesc>Eastern coastal zone</cap:areaDesc>").count == 2)
        #expect(text.components(separatedBy: "<cap:areaDesc>Central coastal zone</cap:areaDesc>").count == 2)
        let edited = text.replacingOccurrences(
            of: "<cap:areaDesc>Eastern coastal zone</cap:areaDesc>", with: "<cap:areaDesc>\(first)</cap:areaDesc>"
        ).replacingOccurrences(
            of: "<cap:areaDesc>Central coastal zone</cap:areaDesc>", with: "<cap:areaDesc>\(second)</cap:areaDesc>")
        return Data(edited.utf8)
    }

    /// The warning query the tool builds for a geocoded place.
    static func query(_ place: GeoPlace) -> AlertsQuery {
        AlertsQuery(WeatherQuery(latitude: place.latitude, longitude: place.longitude, place: place))
    }

    static func areas(_ body: Data, _ place: GeoPlace) throws -> [String] {
        let query = Self.query(place)
        return try MeteoAlarmProvider.decode(body, names: query.names, regions: query.regions, now: now)
            .alerts.flatMap(\.areas)
    }

    @Test("a city county: Mysłowice gets Mysłowice County's warning, Katowice next door does not")
    func cityCounty() throws {
        let body = try Self.poland("Śląskie Province Mysłowice County", "Zachodniopomorskie Province Szczecin County")
        let myslowice = GeoPlace(
            name: "Mysłowice", latitude: 50.2081, longitude: 19.1664, countryCode: "PL", country: "Poland",
            admin1: "Silesia", admin2: "Mysłowice")
        #expect(try Self.areas(body, myslowice) == ["Śląskie Province Mysłowice County"])
        let report = try MeteoAlarmProvider.decode(
            body, names: Self.query(myslowice).names, regions: Self.query(myslowice).regions, now: Self.now)
        #expect(report.alerts.first?.event == "Yellow Wind warning")
        #expect(report.elsewhere == 1)
        let katowice = GeoPlace(
            name: "Katowice", latitude: 50.2584, longitude: 19.0275, countryCode: "PL", country: "Poland",
            admin1: "Silesia", admin2: "Katowice")
        #expect(try Self.areas(body, katowice).isEmpty)
        let szczecin = GeoPlace(
            name: "Szczecin", latitude: 53.4289, longitude: 14.553, countryCode: "PL", country: "Poland",
            admin1: "West Pomerania", admin2: "Szczecin")
        #expect(try Self.areas(body, szczecin) == ["Zachodniopomorskie Province Szczecin County"])
    }

    @Test("a land county: a village in powiat myszkowski (Nominatim's county) is under Myszkowski County")
    func landCounty() throws {
        let body = try Self.poland("Śląskie Province Myszkowski County", "Śląskie Province Mysłowice County")
        let jastrzab = GeoPlace(
            name: "Jastrząb", latitude: 50.6, longitude: 19.3, countryCode: "PL", country: "Polska",
            admin1: "województwo śląskie", admin2: "powiat myszkowski")
        #expect(try Self.areas(body, jastrzab) == ["Śląskie Province Myszkowski County"])
        // The county's seat, Myszków, geocoded with its county (GeoNames' "Powiat myszkowski").
        let myszkow = GeoPlace(
            name: "Myszków", latitude: 50.5749, longitude: 19.3246, countryCode: "PL", country: "Poland",
            admin1: "Silesia", admin2: "Powiat myszkowski")
        #expect(try Self.areas(body, myszkow) == ["Śląskie Province Myszkowski County"])
    }

    @Test("a county name two voivodeships share is the place's only in its own voivodeship")
    func sameCountyNameElsewhere() throws {
        // Poland has a powiat grodziski in Mazowieckie and one in Wielkopolskie.
        let body = try Self.poland("Mazowieckie Province Grodziski County", "Pomorskie Province Gdańsk County")
        let wielkopolska = GeoPlace(
            name: "Grodzisk Wielkopolski", latitude: 52.2275, longitude: 16.3656, countryCode: "PL",
            country: "Poland", admin1: "Greater Poland", admin2: "Powiat grodziski")
        #expect(try Self.areas(body, wielkopolska).isEmpty)
        let mazowsze = GeoPlace(
            name: "Grodzisk Mazowiecki", latitude: 52.1093, longitude: 20.625, countryCode: "PL", country: "Poland",
            admin1: "Mazovia", admin2: "Powiat grodziski")
        #expect(try Self.areas(body, mazowsze) == ["Mazowieckie Province Grodziski County"])
        // A voivodeship the matcher cannot name does not refuse (the county still has to agree).
        let unknown = GeoPlace(
            name: "Grodzisk Mazowiecki", latitude: 52.1093, longitude: 20.625, countryCode: "PL", country: "Poland",
            admin1: "Masovian District", admin2: "Powiat grodziski")
        #expect(try Self.areas(body, unknown) == ["Mazowieckie Province Grodziski County"])
    }

    @Test("a whole voivodeship's area is the place's under any of its names")
    func voivodeshipArea() throws {
        let body = try Self.poland("Dolnośląskie Province", "Śląskie Province")
        let wroclaw = GeoPlace(
            name: "Wrocław", latitude: 51.1, longitude: 17.0333, countryCode: "PL", country: "Poland",
            admin1: "Lower Silesia", admin2: "Wrocław")
        #expect(try Self.areas(body, wroclaw) == ["Dolnośląskie Province"])
        #expect(Voivodeship.key("województwo śląskie") == "śląskie")
        #expect(Voivodeship.key("Silesian Voivodeship") == "śląskie")
        #expect(Voivodeship.key("Lower Silesia") == "dolnośląskie")
        #expect(Voivodeship.key("Bavaria") == nil)
    }

    @Test("every country in the corpus: one place each, as recorded")
    func eachCountry() throws {
        // Germany: the recorded Bonn answer and feed (frost 2023-04-26T22:00Z..04-27T05:00Z).
        let germany = try Fixtures.data("weather/meteoalarm/germany-2023-04-28.response.xml")
        let bonn = try #require(
            try OpenMeteoGeocoder.decode(Fixtures.data("weather/open-meteo/geocoding-bonn.response.json")).places.first)
        let night = try MeteoAlarmProvider.decode(
            germany, names: Self.query(bonn).names, regions: Self.query(bonn).regions,
            now: Date(timeIntervalSince1970: 1_682_564_400))
        #expect(night.alerts.map(\.areas) == [["Bonn"]])
        // Poland as recorded: two marine coastal zones, no land place's; Gdańsk gets none, both counted.
        let poland = try Fixtures.data("weather/meteoalarm/poland-2023-04-28.response.xml")
        let gdansk = GeoPlace(
            name: "Gdańsk", latitude: 54.352, longitude: 18.6466, countryCode: "PL", country: "Poland",
            admin1: "Pomerania", admin2: "Gdańsk")
        let report = try MeteoAlarmProvider.decode(
            poland, names: Self.query(gdansk).names, regions: Self.query(gdansk).regions, now: Self.now)
        #expect(report.alerts.isEmpty)
        #expect(report.elsewhere == 2)
        // German areas never read as nested ones: no "<name> Province/County" pairs in the feed.
        let text = try #require(String(data: germany, encoding: .utf8))
        let areas = text.components(separatedBy: "<cap:areaDesc>").dropFirst().compactMap {
            $0.components(separatedBy: "</cap:areaDesc>").first
        }
        #expect(areas.count == 381)
        #expect(areas.allSatisfy { AreaName.levels($0) == nil })
    }
}
