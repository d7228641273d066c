import AlmanacCore
import Foundation

/// Open-Meteo's forecast API in 15-minute steps (`minutely_15=precipitation`): the next hour
/// anywhere, from the model (not radar). Each value is the amount in the 15 minutes *before* its
/// time (Open-Meteo's convention for sums), so a step starts 15 minutes earlier, and mm in 15
/// minutes × 4 is the rate in mm/h.
struct OpenMeteoNextHourProvider: DescribedProvider {
    /// `open-meteo-15min`.
    static let descriptor = ProviderDescriptor(
        name: "open-meteo-15min", tool: "weather", role: .nextHour, priority: 10,
        summary: "Open-Meteo 15-minute precipitation",
        endpoints: [ProviderEndpoint(env: "ALMANAC_OPEN_METEO_URL", defaultBase: "https://api.open-meteo.com")],
        terms: UpstreamTerms(attribution: "Weather data by Open-Meteo.com (CC BY 4.0)"),
        decoders: [
            UpstreamDecoder(name: "open-meteo-15min", seeds: ["Fixtures/weather/open-meteo-15min/*.response.json"]) {
                _ = try? OpenMeteoNextHourProvider.decode($0)
            }
        ],
        sampleCall: SampleCall(
            words: ["run", "weather", "--lat", "52.28", "--lon", "6.87", "--next-hour"],
            environment: ["ALMANAC_NOW": "2026-10-03T10:20:00Z"]),
        fixtureFolder: "open-meteo-15min")

    /// The request: two hours of 15-minute precipitation in the place's zone.
    static func request(_ query: NextHourQuery, base: URL) -> HTTPRequest {
        let url = ForecastURL.make(
            base: base, path: "/v1/forecast",
            items: [
                ("latitude", Coordinate.text(query.latitude)), ("longitude", Coordinate.text(query.longitude)),
                ("minutely_15", "precipitation"), ("forecast_minutely_15", "8"), ("timezone", "auto"),
            ])
        return HTTPRequest(url: url, headers: ["Accept": "application/json"])
    }

    /// Fetches and decodes.
    func fetch(_ query: NextHourQuery, in environment: ProviderEnvironment) async throws -> NextHourReport {
        let base = try descriptor.baseURL(environment.settings)
        let response = try await environment.transport.fetch(
            Self.request(query, base: base), timeout: environment.timeout, service: "Open-Meteo")
        return try Self.decode(response.body)
    }

    /// Decodes a `minutely_15` answer.
    ///
    /// - Throws: ``ProviderFailure`` `decoding` for a body without 15-minute precipitation.
    static func decode(_ body: Data) throws -> NextHourReport {
        let dto = try UpstreamJSON.decode(Body.self, from: body, service: "Open-Meteo")
        let zone =
            dto.timezone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(secondsFromGMT: dto.utcOffsetSeconds)
            ?? TimeText.utc
        let calendar = TimeText.calendar(zone)
        guard let block = dto.minutely15, let amounts = block.precipitation else {
            throw ProviderFailure(.decoding, "Open-Meteo: unreadable response (no minutely_15 precipitation)")
        }
        var steps: [NextHourReport.Step] = []
        for (index, text) in block.time.enumerated() where index < amounts.count {
            guard let end = LocalTime.instant(text, calendar: calendar), let amount = amounts[index], amount.isFinite
            else { continue }
            steps.append(
                NextHourReport.Step(time: end.addingTimeInterval(-900), rate: (amount * 4 * 100).rounded() / 100))
        }
        guard !steps.isEmpty else {
            throw ProviderFailure(.decoding, "Open-Meteo: unreadable response (no minutely_15 precipitation)")
        }
        return NextHourReport(
            source: "Open-Meteo model, 15-minute steps", stepSeconds: 900, steps: steps, timezone: dto.timezone)
    }

    /// The fields we read (named in the recorded answer, Fixtures/weather/open-meteo-15min/).
    struct Body: Decodable {
        struct Block: Decodable {
            let time: [String]
            let precipitation: [Double?]?
        }
        let timezone: String?
        let utcOffsetSeconds: Int
        let minutely15: Block?

        enum CodingKeys: String, CodingKey {
            case timezone
            case utcOffsetSeconds = "utc_offset_seconds"
            case minutely15 = "minutely_15"
        }
    }
}
