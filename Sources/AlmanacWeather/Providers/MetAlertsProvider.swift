import AlmanacCore
import Foundation

/// MET Norway's MetAlerts 2.0 (`/weatherapi/metalerts/2.0/current.json?lat=&lon=`): the warnings
/// for Norway and its waters in force at a point (GeoJSON).
///
/// Its terms are Locationforecast's: a User-Agent with a contact (never called without one),
/// `Expires` honoured by the shared ``TermsTransport``, no more than one poll in ten minutes (the
/// tool caches its answers that long), CC BY 4.0 attribution.
struct MetAlertsProvider: DescribedProvider {
    /// `met-alerts`, the warning service for Norway.
    static let descriptor = ProviderDescriptor(
        name: "met-alerts", tool: "weather", role: .alerts, priority: 0, summary: "MET Norway MetAlerts 2.0 (Norway)",
        endpoints: [ProviderEndpoint(env: "ALMANAC_METALERTS_URL", defaultBase: "https://api.met.no")],
        terms: terms,
        probe: HealthProbe(path: "/weatherapi/metalerts/2.0/status", essential: false),
        decoders: [
            UpstreamDecoder(name: "met-alerts", seeds: ["Fixtures/weather/met-alerts/*.response.json"]) {
                _ = try? MetAlertsProvider.decode($0)
            }
        ],
        unconfiguredReason: { terms.unconfiguredReason($0, service: "MET Norway") },
        sampleCall: SampleCall(
            words: ["run", "weather", "--lat", "61.94", "--lon", "5.11", "--alerts"],
            environment: ["ALMANAC_NOW": "2025-06-04T19:00:00Z", "ALMANAC_CONTACT": "almanac-tests@example.org"]),
        liveRequestHeaders: { settings in
            terms.unconfiguredReason(settings, service: "MET Norway") == nil
                ? ["User-Agent": terms.userAgentValue(settings)] : nil
        })

    /// MET Norway's terms (the same as Locationforecast's).
    static let terms = UpstreamTerms(
        userAgent: .contactRequired(config: ["weather", "contact"]), conditionalRequests: true,
        attribution: "Warnings from MET Norway (CC BY 4.0)")

    /// How long an answer is kept: MET Norway asks clients not to poll MetAlerts more often.
    static let pollInterval: Duration = .seconds(600)

    /// Places in Norway (by country code; for bare coordinates, Norway's mainland and waters box).
    func supports(_ query: AlertsQuery) -> Bool {
        if let code = query.countryCode { return code == "NO" || code == "SJ" }
        return (57.5...81.5).contains(query.latitude) && (3.0...32.0).contains(query.longitude)
    }

    /// The request: the point (2 decimals, within the 4 the terms allow), English texts.
    static func request(_ query: AlertsQuery, base: URL) -> HTTPRequest {
        let url = ForecastURL.make(
            base: base, path: "/weatherapi/metalerts/2.0/current.json",
            items: [
                ("lat", Coordinate.text(query.latitude)), ("lon", Coordinate.text(query.longitude)), ("lang", "en"),
            ])
        return HTTPRequest(url: url, headers: ["Accept": "application/json"])
    }

    /// Fetches the warnings in force at the point.
    func fetch(_ query: AlertsQuery, in environment: ProviderEnvironment) async throws -> AlertsReport {
        let base = try descriptor.baseURL(environment.settings)
        let transport = try environment.transport(honouring: descriptor)
        let response = try await transport.fetch(
            Self.request(query, base: base), timeout: environment.timeout, service: "MET Norway MetAlerts")
        return try Self.decode(response.body)
    }

    /// Decodes a `current.json` FeatureCollection (features may be empty).
    ///
    /// - Throws: ``ProviderFailure`` of kind `decoding` for a body that is not one.
    static func decode(_ body: Data) throws -> AlertsReport {
        let collection = try UpstreamJSON.decode(Collection.self, from: body, service: "MET Norway MetAlerts")
        let alerts = collection.features.map { feature -> WeatherAlert in
            let properties = feature.properties
            let interval = feature.when?.interval ?? []
            // `awareness_level` is "2; yellow; Moderate"; `riskMatrixColor` "Yellow".
            let level =
                properties.awarenessLevel.flatMap { text in
                    text.split(separator: ";").dropFirst().first.map {
                        $0.trimmingCharacters(in: .whitespaces).lowercased()
                    }
                } ?? properties.riskMatrixColor?.lowercased()
            return WeatherAlert(
                id: properties.id ?? "", service: "MET Norway",
                event: AlertText.nonEmpty(properties.eventAwarenessName) ?? properties.event ?? "warning",
                severity: properties.severity, certainty: properties.certainty, urgency: nil, level: level,
                areas: [properties.area].compactMap(AlertText.nonEmpty),
                onset: interval.first.flatMap { $0 }.flatMap(TimeText.parseInstant),
                expires: (interval.count > 1 ? interval[1] : nil).flatMap(TimeText.parseInstant),
                headline: AlertText.nonEmpty(properties.title),
                description: AlertText.nonEmpty(
                    [properties.description, properties.consequences].compactMap(AlertText.nonEmpty).joined(
                        separator: " ")),
                instruction: AlertText.nonEmpty(properties.instruction),
                url: properties.resources?.first?.uri ?? properties.web)
        }
        return AlertsReport(service: "MET Norway MetAlerts", alerts: alerts, zoneHint: "Europe/Oslo")
    }

    /// The fields we read, as named in the recorded answer (Fixtures/weather/met-alerts/).
    struct Collection: Decodable {
        let features: [Feature]
    }

    struct Feature: Decodable {
        struct When: Decodable { let interval: [String?]? }
        let properties: Properties
        let when: When?
    }

    struct Properties: Decodable {
        struct Resource: Decodable { let uri: String? }
        let id: String?
        let event: String?
        let eventAwarenessName: String?
        let title: String?
        let area: String?
        let severity: String?
        let certainty: String?
        let awarenessLevel: String?
        let riskMatrixColor: String?
        let description: String?
        let consequences: String?
        let instruction: String?
        let resources: [Resource]?
        let web: String?

        enum CodingKeys: String, CodingKey {
            case id, event, eventAwarenessName, title, area, severity, certainty, riskMatrixColor, description,
                consequences, instruction, resources, web
            case awarenessLevel = "awareness_level"
        }
    }
}

extension ProviderRole {
    /// Official weather warnings.
    static let alerts = ProviderRole(rawValue: "warnings")
    /// Air quality, UV and pollen.
    static let airQuality = ProviderRole(rawValue: "air quality")
    /// Precipitation in the next hour.
    static let nextHour = ProviderRole(rawValue: "next hour")
}
