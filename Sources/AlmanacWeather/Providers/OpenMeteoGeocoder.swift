import AlmanacCore
import Foundation

/// A place name to look up (the part before any comma: "Paris" for "Paris, TX").
struct GeocodeQuery: Sendable, Hashable {
    /// The name sent upstream.
    var name: String
}

/// Every candidate upstream returned for a name, in upstream order (possibly none).
struct GeocodeResult: Sendable, Codable, Equatable {
    /// Candidates.
    var places: [GeoPlace]
}

/// One geocoding candidate.
struct GeoPlace: Sendable, Codable, Equatable {
    /// Name (`Frederick`).
    var name: String
    var latitude: Double
    var longitude: Double
    /// `US`.
    var countryCode: String?
    /// `United States`.
    var country: String?
    /// `Maryland`.
    var admin1: String?
    /// `Frederick County`.
    var admin2: String?
    /// Third-level area: in Germany the district (`Kreisfreie Stadt Bonn`, `Berlin, Stadt`), the
    /// level MeteoAlarm names its areas by.
    var admin3: String?
    /// Fourth-level area: the municipality (`Bonn`).
    var admin4: String?
    /// `America/New_York`.
    var timezone: String?
    /// Inhabitants, when known.
    var population: Int?

    init(
        name: String, latitude: Double, longitude: Double, countryCode: String? = nil, country: String? = nil,
        admin1: String? = nil, admin2: String? = nil, admin3: String? = nil, admin4: String? = nil,
        timezone: String? = nil, population: Int? = nil
    ) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.countryCode = countryCode
        self.country = country
        self.admin1 = admin1
        self.admin2 = admin2
        self.admin3 = admin3
        self.admin4 = admin4
        self.timezone = timezone
        self.population = population
    }

    /// "Frederick, Maryland, United States".
    var displayName: String {
        WeatherLocation(
            name: name, admin1: admin1, country: country, latitude: latitude, longitude: longitude
        ).displayName
    }
}

/// Open-Meteo's geocoding API (`/v1/search`).
///
/// A name with no match answers 200 with no `results` key at all (recorded in
/// `Fixtures/weather/open-meteo/geocoding-no-results`), which decodes to an empty list.
struct OpenMeteoGeocoder: DescribedProvider {
    /// `open-meteo-geocoding`, tried first for place names.
    static let descriptor = ProviderDescriptor(
        name: "open-meteo-geocoding", tool: "weather", role: .geocoding, priority: 0,
        summary: "Open-Meteo geocoding API", label: "Open-Meteo geocoding",
        endpoints: [
            ProviderEndpoint(env: "ALMANAC_GEOCODING_URL", defaultBase: "https://geocoding-api.open-meteo.com")
        ],
        probe: HealthProbe(path: "/v1/search?name=Lisbon&count=1"),
        decoders: [
            UpstreamDecoder(name: "geocoding", seeds: ["Fixtures/weather/open-meteo/geocoding-*.response.json"]) {
                _ = try? OpenMeteoGeocoder.decode($0)
            }
        ],
        sampleCall: SampleCall(
            words: ["run", "weather", "Frederick"], environment: ["ALMANAC_NOW": "2026-08-09T18:50:00Z"]),
        fixtureFolder: "open-meteo")

    /// The request for `query` against `base`.
    static func request(_ query: GeocodeQuery, base: URL) -> HTTPRequest {
        let url = ForecastURL.make(
            base: base, path: "/v1/search",
            items: [("name", query.name), ("count", "10"), ("language", "en"), ("format", "json")])
        return HTTPRequest(url: url, headers: ["Accept": "application/json"])
    }

    /// Looks the name up.
    func fetch(_ query: GeocodeQuery, in environment: ProviderEnvironment) async throws -> GeocodeResult {
        let base = try descriptor.baseURL(environment.settings)
        let response = try await environment.transport.fetchJSON(
            SearchResponse.self, Self.request(query, base: base), timeout: environment.timeout,
            service: "Open-Meteo geocoding")
        return Self.result(from: response)
    }

    /// Decodes a `/v1/search` body (also used by tests on recorded bodies).
    static func decode(_ body: Data) throws -> GeocodeResult {
        result(from: try UpstreamJSON.decode(SearchResponse.self, from: body, service: "Open-Meteo geocoding"))
    }

    static func result(from response: SearchResponse) -> GeocodeResult {
        GeocodeResult(
            places: (response.results ?? []).compactMap { item in
                // A candidate without coordinates cannot be forecast; skip it rather than invent (0,0).
                guard let name = item.name, let latitude = item.latitude, let longitude = item.longitude else {
                    return nil
                }
                return GeoPlace(
                    name: name, latitude: latitude, longitude: longitude, countryCode: item.countryCode,
                    country: item.country, admin1: item.admin1, admin2: item.admin2, admin3: item.admin3,
                    admin4: item.admin4, timezone: item.timezone, population: item.population)
            })
    }

    /// The fields we read, as named in the recorded responses (Frederick, Hollywood, Berlin); all optional.
    struct SearchResponse: Decodable {
        struct Item: Decodable {
            let name: String?
            let latitude: Double?
            let longitude: Double?
            let countryCode: String?
            let country: String?
            let admin1: String?
            let admin2: String?
            let admin3: String?
            let admin4: String?
            let timezone: String?
            let population: Int?

            enum CodingKeys: String, CodingKey {
                case name, latitude, longitude, country, admin1, admin2, admin3, admin4, timezone, population
                case countryCode = "country_code"
            }
        }
        let results: [Item]?
    }
}
