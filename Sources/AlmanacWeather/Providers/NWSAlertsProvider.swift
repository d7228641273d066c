import AlmanacCore
import Foundation

/// The US National Weather Service's active alerts at a point (`/alerts/active?point=LAT,LON`,
/// GeoJSON): watches, warnings and advisories for the United States and its territories.
///
/// NWS asks for a User-Agent with a contact (so without one it is never called) and sends
/// `Expires`, honoured by the shared ``TermsTransport``. Its errors are `application/problem+json`
/// whose `detail` says what was wrong; that line (cleaned) becomes the failure.
struct NWSAlertsProvider: DescribedProvider {
    /// `nws-alerts`, the warning service for the United States.
    static let descriptor = ProviderDescriptor(
        name: "nws-alerts", tool: "weather", role: .alerts, priority: 0, summary: "US National Weather Service alerts",
        endpoints: [ProviderEndpoint(env: "ALMANAC_NWS_URL", defaultBase: "https://api.weather.gov")],
        terms: terms,
        probe: HealthProbe(path: "/", essential: false),
        decoders: [
            UpstreamDecoder(name: "nws-alerts", seeds: ["Fixtures/weather/nws-alerts/*.response.json"]) {
                _ = try? NWSAlertsProvider.decode($0)
            }
        ],
        unconfiguredReason: { terms.unconfiguredReason($0, service: "NWS") },
        sampleCall: SampleCall(
            words: ["run", "weather", "--lat", "29.01", "--lon", "-81.38", "--alerts"],
            environment: ["ALMANAC_NOW": "2022-10-18T03:00:00Z", "ALMANAC_CONTACT": "almanac-tests@example.org"]),
        liveRequestHeaders: { settings in
            terms.unconfiguredReason(settings, service: "NWS") == nil
                ? ["User-Agent": terms.userAgentValue(settings)] : nil
        })

    /// What api.weather.gov asks: an identifying agent with a contact.
    static let terms = UpstreamTerms(
        userAgent: .contactRequired(config: ["weather", "contact"]), conditionalRequests: true,
        attribution: "Alerts from the US National Weather Service (public domain)")

    /// Country codes NWS alerts cover: the states and the territories it forecasts for.
    static let countries: Set<String> = ["US", "PR", "VI", "GU", "AS", "MP", "UM"]

    /// US places (by country code; for bare coordinates, see ``coverage(latitude:longitude:)``).
    func supports(_ query: AlertsQuery) -> Bool {
        if let code = query.countryCode { return Self.countries.contains(code) }
        return Self.coverage(latitude: query.latitude, longitude: query.longitude) == .inside
    }

    /// Where bare coordinates lie for NWS: inside the United States, outside, or too near the
    /// Canadian border to tell (the place must then be asked by name).
    enum Coverage: Sendable, Equatable {
        case inside, outside, unsure
    }

    /// Whether NWS covers bare coordinates: the contiguous states' box less southern Canada (a
    /// coarse outline of the border; within ``borderMargin`` km of it, unsure), Alaska west of
    /// 141°W (east of it the Yukon, British Columbia and the Panhandle's coast: unsure), Hawaii.
    /// NWS's own answer does not tell: a point in Ottawa is within its bounds and answers as if
    /// it had no warnings, while Environment Canada may have one in force there.
    static func coverage(latitude: Double, longitude: Double) -> Coverage {
        if (18.5...22.5).contains(latitude) && (-161...(-154)).contains(longitude) { return .inside }
        if (51...71.5).contains(latitude) && (-180...(-129)).contains(longitude) {
            return longitude <= -141 ? .inside : .unsure
        }
        guard (24.4...49.5).contains(latitude) && (-125...(-66.9)).contains(longitude) else { return .outside }
        if Geo.distanceToLine(latitude: latitude, longitude: longitude, canadaBorder) < borderMargin { return .unsure }
        return Geo.contains(canada, latitude: latitude, longitude: longitude) ? .outside : .inside
    }

    /// How near the border outline (km) a point is too near to tell: the outline's own error is a
    /// few km, and the border runs through rivers with a city each side (Detroit and Windsor).
    static let borderMargin = 15.0

    /// The US–Canada border from the Pacific to the Bay of Fundy, coarsely (longitude, latitude):
    /// Juan de Fuca and Haro straits, the 49th parallel, Lake of the Woods, the Great Lakes and
    /// their rivers, the St Lawrence, the 45th parallel and Maine.
    static let canadaBorder: [(Double, Double)] = [
        (-125.0, 48.5), (-124.0, 48.3), (-123.25, 48.2), (-123.25, 48.75), (-123.0, 48.8), (-123.0, 49.0),
        (-95.15, 49.0), (-95.15, 49.38), (-94.95, 49.37), (-94.6, 48.72), (-93.8, 48.52), (-92.6, 48.45),
        (-91.4, 48.05), (-90.0, 48.1), (-89.6, 48.0), (-88.4, 48.3), (-84.8, 46.9), (-84.35, 46.5),
        (-84.1, 46.25), (-83.5, 45.95), (-82.5, 45.35), (-82.13, 43.6), (-82.42, 43.0), (-82.5, 42.6),
        (-82.95, 42.35), (-83.13, 42.05), (-82.6, 41.68), (-81.25, 42.2), (-80.1, 42.4), (-78.92, 42.85),
        (-79.05, 43.1), (-79.07, 43.27), (-78.0, 43.63), (-76.35, 44.1), (-75.9, 44.35), (-75.2, 44.85),
        (-74.75, 45.0), (-71.5, 45.01), (-71.08, 45.3), (-70.3, 45.9), (-70.0, 46.7), (-69.23, 47.45),
        (-68.3, 47.35), (-67.79, 47.07), (-67.78, 45.95), (-67.4, 45.6), (-67.05, 45.2), (-66.9, 44.8),
    ]

    /// Southern Canada inside the contiguous states' box: north of the border outline.
    static let canada: [(Double, Double)] = canadaBorder + [(-66.9, 50), (-125.5, 50), (-125.5, 48.5)]

    /// The request (NWS redirects points with more than 4 decimals; ours carry 2).
    static func request(_ query: AlertsQuery, base: URL) -> HTTPRequest {
        let url = ForecastURL.make(
            base: base, path: "/alerts/active",
            items: [("point", "\(Coordinate.text(query.latitude)),\(Coordinate.text(query.longitude))")])
        return HTTPRequest(url: url, headers: ["Accept": "application/geo+json"])
    }

    /// Fetches the active alerts at the point.
    func fetch(_ query: AlertsQuery, in environment: ProviderEnvironment) async throws -> AlertsReport {
        let base = try descriptor.baseURL(environment.settings)
        let transport = try environment.transport(honouring: descriptor)
        let request = Self.request(query, base: base)
        let response = try await transport.send(request, timeout: environment.timeout, service: "NWS")
        if response.status == 400, let problem = try? JSONDecoder().decode(Problem.self, from: response.body),
            let reason = problem.reason
        {
            throw ProviderFailure(.http, "NWS: HTTP 400, \(UntrustedText.clean(reason, limit: 160))")
        }
        _ = try await StoredResponse(response).fetch(request, timeout: environment.timeout, service: "NWS")
        return try Self.decode(response.body)
    }

    /// Decodes an `/alerts/active` FeatureCollection (features may be empty; the empty answer's
    /// `@context` is an object, not the array of a full one, and is not read).
    ///
    /// - Throws: ``ProviderFailure`` of kind `decoding` for a body that is not one.
    static func decode(_ body: Data) throws -> AlertsReport {
        let collection = try UpstreamJSON.decode(Collection.self, from: body, service: "NWS")
        var zoneHint: String?
        let alerts = collection.features.map { feature -> WeatherAlert in
            let properties = feature.properties
            let onsetText = properties.onset ?? properties.effective
            if zoneHint == nil, let text = onsetText { zoneHint = offsetZone(text) }
            return WeatherAlert(
                id: properties.id ?? feature.id ?? "", service: AlertText.nonEmpty(properties.senderName) ?? "NWS",
                event: AlertText.nonEmpty(properties.event) ?? "alert", severity: properties.severity,
                certainty: properties.certainty, urgency: properties.urgency, level: nil,
                areas: (properties.areaDesc ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                    .filter { !$0.isEmpty },
                onset: onsetText.flatMap(TimeText.parseInstant),
                expires: (properties.ends ?? properties.expires).flatMap(TimeText.parseInstant),
                headline: AlertText.nonEmpty(properties.headline),
                description: AlertText.nonEmpty(properties.description),
                instruction: AlertText.nonEmpty(properties.instruction), url: properties.atID ?? feature.id)
        }
        return AlertsReport(service: "NWS", alerts: alerts, zoneHint: zoneHint)
    }

    /// "UTC-04:00"-style zone from an NWS time's own offset (`2022-10-17T22:15:00-04:00`), as a
    /// fixed-offset identifier `TimeZone(identifier:)` reads ("GMT-0400").
    static func offsetZone(_ text: String) -> String? {
        guard text.count >= 25 else { return nil }
        let tail = text.suffix(6)
        guard let sign = tail.first, sign == "+" || sign == "-" else { return nil }
        let digits = tail.dropFirst().replacingOccurrences(of: ":", with: "")
        guard digits.count == 4, Int(digits) != nil else { return nil }
        return "GMT\(sign)\(digits)"
    }

    /// The fields we read, as named in the recorded answers (Fixtures/weather/nws-alerts/).
    struct Collection: Decodable {
        let features: [Feature]
    }

    struct Feature: Decodable {
        let id: String?
        let properties: Properties
    }

    struct Properties: Decodable {
        let atID: String?
        let id: String?
        let areaDesc: String?
        let effective: String?
        let onset: String?
        let expires: String?
        let ends: String?
        let severity: String?
        let certainty: String?
        let urgency: String?
        let event: String?
        let senderName: String?
        let headline: String?
        let description: String?
        let instruction: String?

        enum CodingKeys: String, CodingKey {
            case id, areaDesc, effective, onset, expires, ends, severity, certainty, urgency, event, senderName,
                headline, description, instruction
            case atID = "@id"
        }
    }

    /// An `application/problem+json` error body (both recorded shapes: a `detail` that says what
    /// was wrong, or a bare "Bad Request" with `parameterErrors`).
    struct Problem: Decodable {
        let detail: String?
        let parameterErrors: [ParameterError]?

        struct ParameterError: Decodable {
            let parameter: String?
            let message: String?
        }

        /// "Parameter "point" is invalid: out of bounds"; "Bad Request (query.point: Does not match …)".
        var reason: String? {
            let parameters = (parameterErrors ?? []).compactMap { error -> String? in
                guard let message = AlertText.nonEmpty(error.message) else { return nil }
                return AlertText.nonEmpty(error.parameter).map { "\($0): \(message)" } ?? message
            }
            guard let detail = AlertText.nonEmpty(detail) else { return parameters.first }
            return parameters.isEmpty ? detail : "\(detail) (\(parameters.joined(separator: "; ")))"
        }
    }
}

/// A response already received, replayed through ``HTTPTransport/fetch(_:timeout:service:)`` so a
/// provider that read the status itself still gets the shared status handling.
struct StoredResponse: HTTPTransport {
    let response: HTTPResponse

    init(_ response: HTTPResponse) { self.response = response }

    func send(_ request: HTTPRequest, timeout: Duration) async throws -> HTTPResponse { response }
}
