import AlmanacCore
import Foundation

/// What the next-hour providers are asked.
struct NextHourQuery: Sendable, Hashable {
    /// Latitude (2 decimals).
    var latitude: Double
    /// Longitude (2 decimals).
    var longitude: Double
    /// The place's country, when geocoded (the radar nowcast covers the Nordic countries).
    var countryCode: String?

    init(latitude: Double, longitude: Double, countryCode: String? = nil) {
        self.latitude = Coordinate.round(latitude)
        self.longitude = Coordinate.round(longitude)
        self.countryCode = countryCode?.uppercased()
    }
}

/// Precipitation rates over the next hour or so, step by step.
struct NextHourReport: Sendable, Codable, Equatable {
    /// One step: the rate from `time` until the next step.
    struct Step: Sendable, Codable, Equatable {
        /// Start of the step.
        var time: Date
        /// Precipitation rate, mm/h.
        var rate: Double
    }

    /// Where the steps come from ("radar nowcast", "model, 15-minute steps").
    var source: String
    /// Step length in seconds (300 for the nowcast, 900 for Open-Meteo).
    var stepSeconds: Int
    /// The steps, in time order.
    var steps: [Step]
    /// The place's zone when the upstream named it.
    var timezone: String?

    init(source: String, stepSeconds: Int, steps: [Step], timezone: String? = nil) {
        self.source = source
        self.stepSeconds = stepSeconds
        self.steps = steps
        self.timezone = timezone
    }
}

/// MET Norway's Nowcast 2.0 (`/weatherapi/nowcast/2.0/complete`): radar precipitation in
/// five-minute steps for about 90 minutes, where the Nordic radar covers the place.
///
/// Same terms as Locationforecast (User-Agent with contact, `Expires` honoured). An answer whose
/// `radar_coverage` is not `ok` is not an answer: the attempt fails and Open-Meteo is asked.
struct MetNowcastProvider: DescribedProvider {
    /// `met-nowcast`.
    static let descriptor = ProviderDescriptor(
        name: "met-nowcast", tool: "weather", role: .nextHour, priority: 0,
        summary: "MET Norway Nowcast 2.0 (Nordic radar)",
        endpoints: [ProviderEndpoint(env: "ALMANAC_NOWCAST_URL", defaultBase: "https://api.met.no")],
        terms: terms,
        probe: HealthProbe(path: "/weatherapi/nowcast/2.0/status", essential: false),
        decoders: [
            UpstreamDecoder(name: "met-nowcast", seeds: ["Fixtures/weather/met-nowcast/*.response.json"]) {
                _ = try? MetNowcastProvider.decode($0)
            }
        ],
        unconfiguredReason: { terms.unconfiguredReason($0, service: "MET Norway") },
        sampleCall: SampleCall(
            words: ["run", "weather", "--lat", "63.43", "--lon", "10.4", "--next-hour"],
            environment: ["ALMANAC_NOW": "2023-08-14T18:17:00Z", "ALMANAC_CONTACT": "almanac-tests@example.org"]),
        liveRequestHeaders: { settings in
            terms.unconfiguredReason(settings, service: "MET Norway") == nil
                ? ["User-Agent": terms.userAgentValue(settings)] : nil
        })

    static let terms = UpstreamTerms(
        userAgent: .contactRequired(config: ["weather", "contact"]), conditionalRequests: true,
        attribution: "Radar nowcast from MET Norway (CC BY 4.0)")

    /// Countries the Nordic radar composite covers.
    static let countries: Set<String> = ["NO", "SE", "FI", "DK", "SJ"]

    /// Nordic places (by country; for bare coordinates, the radar's box).
    func supports(_ query: NextHourQuery) -> Bool {
        if let code = query.countryCode { return Self.countries.contains(code) }
        return (54.5...71.5).contains(query.latitude) && (4.0...31.5).contains(query.longitude)
    }

    /// The request (coordinates with 2 decimals, within the terms' 4).
    static func request(_ query: NextHourQuery, base: URL) -> HTTPRequest {
        let url = ForecastURL.make(
            base: base, path: "/weatherapi/nowcast/2.0/complete",
            items: [("lat", Coordinate.text(query.latitude)), ("lon", Coordinate.text(query.longitude))])
        return HTTPRequest(url: url, headers: ["Accept": "application/json"])
    }

    /// Fetches the nowcast.
    func fetch(_ query: NextHourQuery, in environment: ProviderEnvironment) async throws -> NextHourReport {
        let base = try descriptor.baseURL(environment.settings)
        let transport = try environment.transport(honouring: descriptor)
        let response = try await transport.fetch(
            Self.request(query, base: base), timeout: environment.timeout, service: "MET Norway nowcast")
        return try Self.decode(response.body)
    }

    /// Decodes a nowcast body.
    ///
    /// - Throws: ``ProviderFailure`` `decoding` for a body that is not one; `notFound` when the
    ///   radar does not cover the point (`radar_coverage` other than `ok`).
    static func decode(_ body: Data) throws -> NextHourReport {
        let dto = try UpstreamJSON.decode(Body.self, from: body, service: "MET Norway nowcast")
        if let coverage = dto.properties.meta?.radarCoverage, coverage != "ok" {
            throw ProviderFailure(
                .notFound, "MET Norway nowcast: no radar coverage here (\(UntrustedText.clean(coverage, limit: 40)))")
        }
        let steps = dto.properties.timeseries.compactMap { step -> NextHourReport.Step? in
            guard let time = TimeText.parseInstant(step.time), let rate = step.data.instant.details.precipitationRate,
                rate.isFinite
            else { return nil }
            return NextHourReport.Step(time: time, rate: rate)
        }.sorted { $0.time < $1.time }
        guard !steps.isEmpty else {
            throw ProviderFailure(.decoding, "MET Norway nowcast: unreadable response (no precipitation steps)")
        }
        return NextHourReport(source: "MET Norway radar nowcast", stepSeconds: 300, steps: steps)
    }

    /// The fields we read, as named in the recorded answers (Fixtures/weather/met-nowcast/).
    struct Body: Decodable {
        struct Properties: Decodable {
            let meta: Meta?
            let timeseries: [Step]
        }
        struct Meta: Decodable {
            let radarCoverage: String?
            enum CodingKeys: String, CodingKey { case radarCoverage = "radar_coverage" }
        }
        struct Step: Decodable {
            let time: String
            let data: StepData
        }
        struct StepData: Decodable {
            let instant: Instant
        }
        struct Instant: Decodable {
            let details: Details
        }
        struct Details: Decodable {
            let precipitationRate: Double?
            enum CodingKeys: String, CodingKey { case precipitationRate = "precipitation_rate" }
        }
        let properties: Properties
    }
}
