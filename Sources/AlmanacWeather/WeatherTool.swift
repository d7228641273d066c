public import AlmanacCore
public import Foundation

/// Weather for a place: now, today and the next days, or hour by hour, or one named day.
///
/// Places are geocoded with Open-Meteo's geocoding API, else OpenStreetMap Nominatim (cached for a
/// day), and forecast with Open-Meteo's forecast API, else MET Norway's Locationforecast; when no
/// forecast provider can answer and a web searcher is configured, web search results stand in,
/// fenced and labelled as such. Official warnings in force head the forecast (`--alerts` alone:
/// MET Norway, NWS or MeteoAlarm by country); `--air` gives air quality, UV and pollen;
/// `--next-hour` the rain of the next hour.
///
/// ```
/// tools run weather Lisbon
/// tools run weather "Paris, TX" tomorrow --sun
/// tools run weather --lat 55.75 --lon 12.5 --hourly --wind ms
/// tools run weather Oslo --alerts
/// ```
public struct WeatherTool: Tool {
    /// `weather`.
    public let name = "weather"
    /// One line for listings.
    public var summary: String { Self.summary }

    /// The forecast providers named from the chain, so a new one shows up here by itself.
    static let summary =
        "Weather now, today and the next days for a place ("
        + forecastChain.map(\.descriptor.label).joined(separator: ", else ")
        + "), in the place's local time; official warnings, air quality and UV, rain in the next hour"

    /// Creates the tool. Register it with `WeatherTool()`.
    public init() {}

    /// The parameters (CLI and MCP/OpenAI schema).
    public var schema: ToolSchema {
        ToolSchema([
            ToolParameter(
                WeatherParameter.place, .string,
                help:
                    "place name, optionally qualified ('Paris, TX', 'Paris, FR'); a trailing today, tomorrow, weekday or YYYY-MM-DD picks that day",
                placement: .remainder),
            ToolParameter(WeatherParameter.lat, .number, help: "latitude in degrees, with --lon, instead of a place"),
            ToolParameter(WeatherParameter.lon, .number, help: "longitude in degrees, with --lat"),
            ToolParameter(
                WeatherParameter.hourly, .boolean,
                help: "the next 24 hours hour by hour (with a day: that day hour by hour)"),
            ToolParameter(WeatherParameter.days, .integer, help: "days to show, 1-16 (default 7)"),
            ToolParameter(
                WeatherParameter.day, .string,
                help: "one day: today, tomorrow, a weekday or YYYY-MM-DD (the place's calendar)"),
            ToolParameter(WeatherParameter.sun, .boolean, help: "include sunrise and sunset"),
            ToolParameter(
                WeatherParameter.units, .choice(UnitSystem.allCases.map(\.rawValue)),
                help: "metric (°C, km/h, mm) or imperial (°F, mph, inch); default: config [weather] units, else metric"),
            ToolParameter(
                WeatherParameter.wind, .choice(WindUnit.allCases.map(\.rawValue)),
                help: "wind speed unit, overriding --units; default: config [weather] wind"),
            ToolParameter(
                WeatherParameter.alerts, .boolean,
                help:
                    "official warnings in force at the place (MET Norway, US NWS, MeteoAlarm), instead of the forecast"),
            ToolParameter(
                WeatherParameter.air, .boolean,
                help: "air quality (European and US AQI, PM2.5, PM10, ozone, NO2), UV and pollen, now and for the day"),
            ToolParameter(
                WeatherParameter.nextHour, .boolean, help: "rain in the next hour: when it starts, peaks and stops"),
        ])
    }

    /// The forecast chain, in the order tried (web search comes last, when configured).
    static let forecastChain: [any DescribedProvider<WeatherQuery, WeatherReport>] = [
        OpenMeteoProvider(),
        MetNorwayProvider(),
    ]
    /// The geocoding chain, in the order tried.
    static let geocodingChain: [any DescribedProvider<GeocodeQuery, GeocodeResult>] = [
        OpenMeteoGeocoder(),
        NominatimGeocoder(),
    ]

    /// The warning services; each covers its own region (``Provider/supports(_:)``), so one
    /// chain serves them all and a place no service covers is said to be so.
    static let alertsChain: [any DescribedProvider<AlertsQuery, AlertsReport>] = [
        MetAlertsProvider(),
        NWSAlertsProvider(),
        MeteoAlarmProvider(),
    ]
    /// Air quality, UV and pollen (no second source without a key exists; see docs/weather.md).
    static let airChain: [any DescribedProvider<AirQualityQuery, AirQualityReport>] = [
        OpenMeteoAirQualityProvider()
    ]
    /// Precipitation in the next hour: MET Norway's radar nowcast where it covers the place, then
    /// Open-Meteo's 15-minute steps.
    static let nextHourChain: [any DescribedProvider<NextHourQuery, NextHourReport>] = [
        MetNowcastProvider(),
        OpenMeteoNextHourProvider(),
    ]

    /// Every provider of the tool.
    public var providerDescriptors: [ProviderDescriptor] {
        Self.forecastChain.map(\.descriptor) + Self.geocodingChain.map(\.descriptor)
            + Self.alertsChain.map(\.descriptor) + Self.airChain.map(\.descriptor)
            + Self.nextHourChain.map(\.descriptor)
    }

    /// Web search stands in for the forecast.
    public var usesWebSearchFallback: Bool { true }

    /// The forecast providers in the order they are tried.
    func forecastProviders(_ context: ToolContext) -> [any Provider<WeatherQuery, WeatherReport>] {
        let own: [any Provider<WeatherQuery, WeatherReport>] = Self.forecastChain
        return own
            + WebSearchFallback<WeatherQuery, WeatherReport>.chain(
                context.environment.webSearch, question: { $0.searchText },
                answer: { query, words, hits in .web(WebWeather(place: query.placeText, query: words, hits: hits)) })
    }

    /// Runs the tool: checks arguments, geocodes (cached a day), fetches the forecast (cached by
    /// coordinates, span and units) and builds the payload in the place's time zone.
    public func run(_ arguments: ToolArguments, context: ToolContext) async throws -> ToolResult {
        let request = try WeatherRequest(arguments, settings: context.settings)
        var query: WeatherQuery
        var alternatives: [GeoPlace] = []
        var estimateZone = context.timeZone
        var geocoder: String?
        var geocodingFailures: [ProviderAttempt] = []
        switch request.target {
        case .coordinates(let latitude, let longitude):
            let label = WeatherLocation.coordinates(latitude, longitude)
            query = WeatherQuery(
                latitude: latitude, longitude: longitude, units: request.units, wind: request.wind,
                searchText: "weather at \(label)", placeText: label)
        case .place(let text):
            do {
                let geocoded = try await context.fetch(
                    tool: name, key: WeatherKey.geocode(text).text, query: GeocodeQuery(name: text.lookupName),
                    providers: Self.geocodingChain,
                    ttl: .seconds(86_400))
                let choice: PlaceMatcher.Choice
                do {
                    choice = try PlaceMatcher.choose(
                        text, from: geocoded.value.places, answeredBy: Self.geocoderName(geocoded.metadata.provider),
                        // Each failure's detail already starts with its service's name.
                        failed: geocoded.metadata.failures.map {
                            $0.detail ?? "\(Self.geocoderName($0.provider)): \($0.outcome.rawValue)"
                        })
                } catch let error as AlmanacError where error.kind == .usage {
                    throw Self.profileError(error, request: request)
                }
                geocoder = geocoded.metadata.provider
                alternatives = choice.alternatives
                if let zone = choice.place.timezone.flatMap(TimeZone.init(identifier:)) { estimateZone = zone }
                query = WeatherQuery(
                    latitude: choice.place.latitude, longitude: choice.place.longitude, place: choice.place,
                    units: request.units, wind: request.wind, searchText: "weather in \(text.display)",
                    placeText: text.display)
            } catch let error as AlmanacError where error.kind == .unavailable && context.environment.webSearch != nil {
                // Geocoding is down: only the web fallback can still answer, from the name alone.
                query = WeatherQuery(
                    latitude: nil, longitude: nil, units: request.units, wind: request.wind,
                    searchText: "weather in \(text.display)", placeText: text.display)
                geocodingFailures = error.attempts
            }
        }
        query.days = try request.span(now: context.now, zone: estimateZone)
        query.profileName = request.profileName

        switch request.extra {
        case .alerts?: return try await alerts(query, context: context)
        case .air?: return try await air(query, request: request, context: context)
        case .nextHour?: return try await nextHour(query, context: context)
        case nil: break
        }
        let fetched: Fetched<WeatherReport>
        do {
            fetched = try await context.fetch(
                tool: name, key: WeatherKey.forecast(query).text, query: query, providers: forecastProviders(context))
        } catch let error as AlmanacError where error.kind == .unavailable && !geocodingFailures.isEmpty {
            // Every attempt failed, the geocoders' too: list them all, not only the search's.
            throw AlmanacError.unavailable(tool: name, attempts: geocodingFailures + error.attempts)
        }
        var payload = try WeatherPayload(
            report: fetched.value, request: request, now: context.now, alternatives: alternatives)
        payload.geocoder = geocoder
        payload.profileName = request.profileName
        // Warnings once the forecast is in (a failed forecast needs none); a warning service that
        // cannot answer (no contact set, down) leaves the forecast as it was.
        payload.alerts = await activeAlerts(query, context: context)
        return ToolResult(metadata: fetched.metadata, payload: payload)
    }

    /// A geocoder as people name it in messages.
    static func geocoderName(_ provider: String) -> String {
        geocodingChain.first { $0.name == provider }?.descriptor.label ?? provider
    }

    /// The place as the extras name it: "work (Porto, Portugal)" for a place of the profile.
    static func placeName(_ query: WeatherQuery) -> String {
        let name: String
        if let place = query.place {
            name = place.displayName
        } else if let latitude = query.latitude, let longitude = query.longitude {
            name = WeatherLocation.coordinates(latitude, longitude)
        } else {
            name = query.placeText
        }
        return query.profileName.map { "\($0) (\(name))" } ?? name
    }

    /// A place of the profile that could not be found: the message names the profile entry, so the
    /// user knows which line of config.toml to fix.
    static func profileError(_ error: AlmanacError, request: WeatherRequest) -> AlmanacError {
        guard let name = request.profileName, let value = request.profileValue else { return error }
        let entry = name == "home" ? "[me] home" : "[me] places: \(name)"
        return AlmanacError.usage(
            "weather: \(entry) = '\(value)' is not a known place: \(error.message)",
            suggestion: "fix it under [me] in config.toml: a place name ('Porto, PT') or \"LAT,LON\"")
    }

    /// The warning providers that cover `query`'s place.
    static func alertProviders(_ query: AlertsQuery) -> [any Provider<AlertsQuery, AlertsReport>] {
        alertsChain.filter { $0.supports(query) }
    }

    /// Freshness of stored warnings: MET Norway asks for no more than one poll in ten minutes.
    static let alertTTL: [String: Duration] = [MetAlertsProvider.descriptor.name: MetAlertsProvider.pollInterval]

    /// `--alerts`: the warnings at the place, or why there are none to show.
    func alerts(_ query: WeatherQuery, context: ToolContext) async throws -> ToolResult {
        guard let latitude = query.latitude, let longitude = query.longitude else {
            throw AlmanacError.usage(
                "weather: '\(query.placeText)' could not be located, so no warning service can be asked",
                suggestion: "try again later, or give --lat/--lon")
        }
        let alertsQuery = AlertsQuery(query)
        let place = Self.placeName(query)
        let providers = Self.alertProviders(alertsQuery)
        guard !providers.isEmpty else {
            let hint =
                alertsQuery.countryCode == nil ? Self.coordinatesHint(latitude: latitude, longitude: longitude) : nil
            let metadata = ResultMetadata(
                tool: name, provider: "none", fetchedAt: context.now, ageSeconds: 0, stale: false, attempts: [])
            return ToolResult(
                metadata: metadata,
                payload: AlertsPayload(
                    report: nil, place: place, timezone: query.place?.timezone, now: context.now, uncoveredHint: hint))
        }
        let fetched = try await context.fetch(
            tool: name, key: WeatherKey.alerts(alertsQuery).text, query: alertsQuery, providers: providers,
            providerTTL: Self.alertTTL)
        return ToolResult(
            metadata: fetched.metadata,
            payload: AlertsPayload(
                report: fetched.value, place: place, timezone: query.place?.timezone, now: context.now))
    }

    /// Why bare coordinates found no service where a place name might: MeteoAlarm needs the
    /// country, and a point near the US–Canadian border may be in either.
    static func coordinatesHint(latitude: Double, longitude: Double) -> String? {
        if MeteoAlarmProvider.covers(latitude: latitude, longitude: longitude) {
            return "MeteoAlarm's feeds are per country: ask by place name so the country is known"
        }
        if NWSAlertsProvider.coverage(latitude: latitude, longitude: longitude) == .unsure {
            return "too near the US border to tell the country from coordinates: ask by place name"
        }
        return nil
    }

    /// The warnings in force for an ordinary forecast; empty when no service covers the place,
    /// none is configured, or none answers.
    func activeAlerts(_ query: WeatherQuery, context: ToolContext) async -> [WeatherAlert] {
        guard query.latitude != nil, query.longitude != nil else { return [] }
        let alertsQuery = AlertsQuery(query)
        let providers = Self.alertsChain.filter {
            $0.supports(alertsQuery) && $0.descriptor.unconfiguredReason(context.settings) == nil
        }
        guard !providers.isEmpty else { return [] }
        // A slow warning service must not hold the forecast up: it gets a short bound of its own.
        let name = self.name
        let key = WeatherKey.alerts(alertsQuery).text
        guard
            let fetched = try? await Deadline.run(
                Self.alertsBeside,
                {
                    try await context.fetch(
                        tool: name, key: key, query: alertsQuery, providers: providers, providerTTL: Self.alertTTL)
                })
        else { return [] }
        return fetched.value.alerts.filter { $0.inForce(at: context.now) }
    }

    /// How long an ordinary forecast waits for its warnings.
    static let alertsBeside: Duration = .seconds(2)

    /// `--air`: air quality, UV and pollen now and for the asked day.
    func air(_ query: WeatherQuery, request: WeatherRequest, context: ToolContext) async throws -> ToolResult {
        guard let latitude = query.latitude, let longitude = query.longitude else {
            throw AlmanacError.usage(
                "weather: '\(query.placeText)' could not be located, so air quality cannot be asked",
                suggestion: "try again later, or give --lat/--lon")
        }
        let airQuery = AirQualityQuery(
            latitude: latitude, longitude: longitude, days: min(query.days, AirQualityQuery.maxDays))
        let fetched = try await context.fetch(
            tool: name, key: WeatherKey.air(latitude: latitude, longitude: longitude, days: airQuery.days).text,
            query: airQuery, providers: Self.airChain)
        let payload = try AirPayload(
            report: fetched.value, place: Self.placeName(query), day: request.dayWord, now: context.now)
        return ToolResult(metadata: fetched.metadata, payload: payload)
    }

    /// `--next-hour`: when rain starts, peaks and stops.
    func nextHour(_ query: WeatherQuery, context: ToolContext) async throws -> ToolResult {
        guard let latitude = query.latitude, let longitude = query.longitude else {
            throw AlmanacError.usage(
                "weather: '\(query.placeText)' could not be located, so the next hour cannot be asked",
                suggestion: "try again later, or give --lat/--lon")
        }
        let nextQuery = NextHourQuery(latitude: latitude, longitude: longitude, countryCode: query.place?.countryCode)
        let fetched = try await context.fetch(
            tool: name, key: WeatherKey.nextHour(latitude: latitude, longitude: longitude).text, query: nextQuery,
            providers: Self.nextHourChain,
            ttl: .seconds(300))
        let payload = NextHourPayload(
            report: fetched.value, place: Self.placeName(query), timezone: query.place?.timezone, now: context.now)
        return ToolResult(metadata: fetched.metadata, payload: payload)
    }
}

extension WeatherTool {
    /// An Open-Meteo `/v1/forecast` body as the payload `run` answers with (now, today and the next
    /// days), without network, cache or coordinator: the decode and format almanac-bench times.
    ///
    /// - Throws: ``ProviderFailure`` (kind `decoding`) for a body that is not a forecast.
    public static func openMeteoPayload(_ body: Data, now: Date) throws -> any ToolPayload {
        let view = WeatherRequest.View.overview(days: WeatherRequest.defaultDays)
        return try WeatherPayload(
            report: .forecast(OpenMeteoDecoder.decode(body)), view: view, everyHour: false, sun: false, now: now)
    }
}
