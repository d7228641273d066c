import AlmanacCore
import Foundation

/// OpenStreetMap Nominatim (`/search?format=jsonv2`): weather's second geocoder, tried when
/// Open-Meteo's geocoding cannot answer.
///
/// Its usage policy: an identifying User-Agent, at most one request a second (kept across
/// processes by the shared ``TermsTransport``), and answers cached (the tool caches geocoding a
/// day). It names no time zone: the forecast provider's zone is used when it has one, else UTC.
struct NominatimGeocoder: DescribedProvider {
    /// `nominatim`, tried after Open-Meteo geocoding.
    static let descriptor = ProviderDescriptor(
        name: "nominatim", tool: "weather", role: .geocoding, priority: 10, summary: "OpenStreetMap Nominatim",
        label: "Nominatim",
        endpoints: [
            ProviderEndpoint(env: "ALMANAC_NOMINATIM_URL", defaultBase: "https://nominatim.openstreetmap.org")
        ],
        terms: terms,
        probe: HealthProbe(path: "/status?format=json", essential: false),
        decoders: [
            UpstreamDecoder(name: "nominatim", seeds: ["Fixtures/weather/nominatim/*.response.json"]) {
                _ = try? NominatimGeocoder.decode($0)
            }
        ],
        // The fault matrix points Open-Meteo geocoding at a dead port, so Nominatim answers first;
        // healthy, the forecast at the place it names (Ottawa) is served by a stand-in exchange
        // (Fixtures/weather/nominatim/standin-ottawa-forecast: a recorded forecast, moved).
        sampleCall: SampleCall(
            words: ["run", "weather", "Ottawa"], environment: ["ALMANAC_NOW": "2026-08-09T18:50:00Z"]),
        liveRequestHeaders: { ["User-Agent": terms.userAgentValue($0)] })

    /// Nominatim's usage policy: an identifying agent (with the contact when one is set), at most
    /// one request a second.
    static let terms = UpstreamTerms(
        userAgent: .contactWhenSet(config: ["weather", "contact"]), minimumInterval: .seconds(1),
        attribution: "Geocoding © OpenStreetMap contributors (ODbL)")

    /// The request for `query` against `base` (the parameters the issue and Nominatim's
    /// documentation name).
    static func request(_ query: GeocodeQuery, base: URL) -> HTTPRequest {
        let url = ForecastURL.make(
            base: base, path: "/search",
            items: [("q", query.name), ("format", "jsonv2"), ("limit", "10"), ("addressdetails", "1")])
        return HTTPRequest(url: url, headers: ["Accept": "application/json"])
    }

    /// Looks the name up, within Nominatim's usage policy.
    func fetch(_ query: GeocodeQuery, in environment: ProviderEnvironment) async throws -> GeocodeResult {
        let base = try descriptor.baseURL(environment.settings)
        let transport = try environment.transport(honouring: descriptor)
        let response = try await transport.fetch(
            Self.request(query, base: base), timeout: environment.timeout, service: "Nominatim")
        return try Self.decode(response.body)
    }

    /// Decodes a `/search?format=jsonv2` body (an array of places, possibly empty).
    static func decode(_ body: Data) throws -> GeocodeResult {
        let items = try UpstreamJSON.decode([Item].self, from: body, service: "Nominatim")
        return GeocodeResult(
            places: items.compactMap { item in
                // A candidate without readable coordinates cannot be forecast.
                guard let latitude = item.lat?.value, let longitude = item.lon?.value,
                    (-90...90).contains(latitude), (-180...180).contains(longitude),
                    let name = item.placeName
                else { return nil }
                return GeoPlace(
                    name: name, latitude: latitude, longitude: longitude,
                    countryCode: item.address?.countryCode?.uppercased(), country: item.address?.country,
                    admin1: item.address?.state, admin2: item.address?.county)
            })
    }

    /// The fields we read, as named in the recorded 2017 answer (`place_id` a string there, a
    /// number in today's answers; `name` is in today's jsonv2 answers per Nominatim's docs).
    struct Item: Decodable {
        let placeID: LooseNumber?
        let lat: LooseNumber?
        let lon: LooseNumber?
        let name: String?
        let displayName: String?
        let address: Address?

        enum CodingKeys: String, CodingKey {
            case lat, lon, name, address
            case placeID = "place_id"
            case displayName = "display_name"
        }

        struct Address: Decodable {
            let city: String?
            let town: String?
            let village: String?
            let hamlet: String?
            let municipality: String?
            let county: String?
            let state: String?
            let country: String?
            let countryCode: String?

            enum CodingKeys: String, CodingKey {
                case city, town, village, hamlet, municipality, county, state, country
                case countryCode = "country_code"
            }
        }

        /// `name`, else the settlement in the address, else the first part of `display_name`.
        var placeName: String? {
            let candidates = [
                name, address?.city, address?.town, address?.village, address?.hamlet, address?.municipality,
                displayName?.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) },
            ]
            return candidates.compactMap { $0 }.first { !$0.isEmpty }
        }
    }
}

/// A number Nominatim writes as a JSON string (`"45.421106"`, older `"173725143"`) or a number.
struct LooseNumber: Decodable {
    let value: Double?

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
            value = number.isFinite ? number : nil
        } else {
            let text = try container.decode(String.self)
            value = Double(text.trimmingCharacters(in: .whitespaces)).flatMap { $0.isFinite ? $0 : nil }
        }
    }
}
