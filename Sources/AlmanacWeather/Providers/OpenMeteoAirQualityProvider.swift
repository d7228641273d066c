import AlmanacCore
import Foundation

/// What the air-quality providers are asked.
struct AirQualityQuery: Sendable, Hashable {
    /// Latitude (2 decimals).
    var latitude: Double
    /// Longitude (2 decimals).
    var longitude: Double
    /// Days of hourly values (1–``maxDays``).
    var days: Int

    /// Days Open-Meteo's air-quality API forecasts.
    static let maxDays = 7

    init(latitude: Double, longitude: Double, days: Int = 1) {
        self.latitude = Coordinate.round(latitude)
        self.longitude = Coordinate.round(longitude)
        self.days = max(1, min(days, Self.maxDays))
    }
}

/// Air quality at a place: now and hour by hour (any value may be absent: pollen exists only
/// over Europe, and answers carry only the variables asked).
struct AirQualityReport: Sendable, Codable, Equatable {
    struct Reading: Sendable, Codable, Equatable {
        /// When (the hour, or the current 15-minute/hour step).
        var time: Date
        /// European AQI (EAQI, 0–100+).
        var europeanAQI: Double?
        /// US AQI (0–500).
        var usAQI: Double?
        /// PM2.5, μg/m³.
        var pm25: Double?
        /// PM10, μg/m³.
        var pm10: Double?
        /// Ozone, μg/m³.
        var ozone: Double?
        /// Nitrogen dioxide, μg/m³.
        var nitrogenDioxide: Double?
        var uvIndex: Double?
        /// Pollen, grains/m³, by plant (`birch`, `grass`, ...); only species with a value.
        var pollen: [String: Double]

        init(
            time: Date, europeanAQI: Double? = nil, usAQI: Double? = nil, pm25: Double? = nil, pm10: Double? = nil,
            ozone: Double? = nil, nitrogenDioxide: Double? = nil, uvIndex: Double? = nil, pollen: [String: Double] = [:]
        ) {
            self.time = time
            self.europeanAQI = europeanAQI
            self.usAQI = usAQI
            self.pm25 = pm25
            self.pm10 = pm10
            self.ozone = ozone
            self.nitrogenDioxide = nitrogenDioxide
            self.uvIndex = uvIndex
            self.pollen = pollen
        }
    }

    /// The place's zone as upstream named it.
    var timezone: String?
    /// Upstream's offset at the time of the request.
    var utcOffsetSeconds: Int?
    /// The current reading, when the answer had one.
    var current: Reading?
    /// Hour by hour, in time order.
    var hourly: [Reading]
    /// The grid point that answered, when the answer says (whether pollen is forecast there).
    var latitude: Double?
    /// See ``latitude``.
    var longitude: Double?

    init(
        timezone: String?, utcOffsetSeconds: Int?, current: Reading?, hourly: [Reading], latitude: Double? = nil,
        longitude: Double? = nil
    ) {
        self.timezone = timezone
        self.utcOffsetSeconds = utcOffsetSeconds
        self.current = current
        self.hourly = hourly
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Whether CAMS forecasts pollen at the answer's point: its European domain (30–72°N,
    /// 25°W–45°E) only. Nil when the answer gave no coordinates.
    var pollenForecastHere: Bool? {
        guard let latitude, let longitude else { return nil }
        return (30...72).contains(latitude) && (-25...45).contains(longitude)
    }
}

/// Open-Meteo's air-quality API (`air-quality-api.open-meteo.com/v1/air-quality`, CAMS data):
/// European and US AQI, PM2.5, PM10, ozone, NO2, UV index and (over Europe) pollen.
///
/// No second air-quality source answers without a key (WAQI and OpenAQ both need one), so this
/// chain has one provider; when it fails the tool says so and names it.
struct OpenMeteoAirQualityProvider: DescribedProvider {
    /// `open-meteo-air`.
    static let descriptor = ProviderDescriptor(
        name: "open-meteo-air", tool: "weather", role: .airQuality, priority: 0,
        summary: "Open-Meteo air quality (CAMS): AQI, pollutants, UV, pollen",
        endpoints: [
            ProviderEndpoint(env: "ALMANAC_AIR_QUALITY_URL", defaultBase: "https://air-quality-api.open-meteo.com")
        ],
        terms: UpstreamTerms(attribution: "Air quality by Open-Meteo.com (CC BY 4.0), data from Copernicus CAMS"),
        probe: HealthProbe(path: "/v1/air-quality?latitude=0&longitude=0&current=us_aqi", essential: false),
        decoders: [
            UpstreamDecoder(name: "open-meteo-air", seeds: ["Fixtures/weather/open-meteo-air/*.response.json"]) {
                _ = try? OpenMeteoAirQualityProvider.decode($0)
            }
        ],
        sampleCall: SampleCall(
            words: ["run", "weather", "--lat", "40", "--lon", "-74.8", "--air"],
            environment: ["ALMANAC_NOW": "2025-12-18T15:10:00Z"]))

    /// Pollen species Open-Meteo names (`birch_pollen`, ...).
    static let pollen = ["alder", "birch", "grass", "mugwort", "olive", "ragweed"]
    /// The variables asked, current and hourly (each named in a recorded answer).
    static let variables =
        ["european_aqi", "us_aqi", "pm2_5", "pm10", "ozone", "nitrogen_dioxide", "uv_index"]
        + pollen.map { "\($0)_pollen" }

    /// The request for `query`.
    static func request(_ query: AirQualityQuery, base: URL) -> HTTPRequest {
        let list = variables.joined(separator: ",")
        let url = ForecastURL.make(
            base: base, path: "/v1/air-quality",
            items: [
                ("latitude", Coordinate.text(query.latitude)), ("longitude", Coordinate.text(query.longitude)),
                ("current", list), ("hourly", list), ("timezone", "auto"), ("forecast_days", String(query.days)),
            ])
        return HTTPRequest(url: url, headers: ["Accept": "application/json"])
    }

    /// Fetches and decodes.
    func fetch(_ query: AirQualityQuery, in environment: ProviderEnvironment) async throws -> AirQualityReport {
        let base = try descriptor.baseURL(environment.settings)
        let response = try await environment.transport.fetch(
            Self.request(query, base: base), timeout: environment.timeout, service: "Open-Meteo air quality")
        return try Self.decode(response.body)
    }

    /// Decodes an `/v1/air-quality` body (times are the place's wall clock, read with its offset).
    ///
    /// - Throws: ``ProviderFailure`` of kind `decoding` for a body that is not one, or one with
    ///   neither a current block nor hours.
    static func decode(_ body: Data) throws -> AirQualityReport {
        let dto = try UpstreamJSON.decode(Body.self, from: body, service: "Open-Meteo air quality")
        let fixed = TimeZone(secondsFromGMT: dto.utcOffsetSeconds ?? 0) ?? TimeText.utc
        let zone: TimeZone = {
            guard let named = dto.timezone.flatMap(TimeZone.init(identifier:)) else { return fixed }
            return named
        }()
        let calendar = TimeText.calendar(zone)
        let current = dto.current.flatMap { block -> AirQualityReport.Reading? in
            guard let time = block["time"]?.text.flatMap({ LocalTime.instant($0, calendar: calendar) }) else {
                return nil
            }
            return reading(time) { block[$0]?.number }
        }
        var hourly: [AirQualityReport.Reading] = []
        if let block = dto.hourly, case .texts(let times)? = block["time"] {
            for (index, text) in times.enumerated() {
                guard let text, let time = LocalTime.instant(text, calendar: calendar) else { continue }
                hourly.append(reading(time) { block[$0]?.number(at: index) })
            }
        }
        guard current != nil || !hourly.isEmpty else {
            throw ProviderFailure(
                .decoding, "Open-Meteo air quality: unreadable response (no current values and no hours)")
        }
        return AirQualityReport(
            timezone: dto.timezone, utcOffsetSeconds: dto.utcOffsetSeconds, current: current, hourly: hourly,
            latitude: dto.latitude, longitude: dto.longitude)
    }

    static func reading(_ time: Date, _ value: (String) -> Double?) -> AirQualityReport.Reading {
        var pollen: [String: Double] = [:]
        for name in Self.pollen { if let amount = value("\(name)_pollen") { pollen[name] = amount } }
        return AirQualityReport.Reading(
            time: time, europeanAQI: value("european_aqi"), usAQI: value("us_aqi"), pm25: value("pm2_5"),
            pm10: value("pm10"), ozone: value("ozone"), nitrogenDioxide: value("nitrogen_dioxide"),
            uvIndex: value("uv_index"), pollen: pollen)
    }

    /// The body: variables are open-ended, so blocks are read as maps of loose values.
    struct Body: Decodable {
        let timezone: String?
        let utcOffsetSeconds: Int?
        let current: [String: Loose]?
        let hourly: [String: Loose]?
        let latitude: Double?
        let longitude: Double?

        enum CodingKeys: String, CodingKey {
            case timezone, current, hourly, latitude, longitude
            case utcOffsetSeconds = "utc_offset_seconds"
        }
    }

    /// A value of a block: a number, a text, or an array of either (entries may be null).
    enum Loose: Decodable {
        case number(Double)
        case text(String)
        case numbers([Double?])
        case texts([String?])
        case other

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .other
            } else if let value = try? container.decode(Double.self) {
                self = .number(value)
            } else if let value = try? container.decode(String.self) {
                self = .text(value)
            } else if let value = try? container.decode([Double?].self) {
                self = .numbers(value)
            } else if let value = try? container.decode([String?].self) {
                self = .texts(value)
            } else {
                self = .other
            }
        }

        var number: Double? {
            if case .number(let value) = self, value.isFinite { return value }
            return nil
        }

        var text: String? {
            if case .text(let value) = self { return value }
            return nil
        }

        func number(at index: Int) -> Double? {
            guard case .numbers(let values) = self, index < values.count, let value = values[index], value.isFinite
            else { return nil }
            return value
        }
    }
}
