import AlmanacCore
import Foundation

/// Weather for a place: now, today and the next days, or hour by hour, or one named day.
///
/// Places are geocoded with Open-Meteo's geocoding API, else OpenStreetMap Nominatim (cached for a
/// day), and forecast with Open-Meteo's forecast API, else MET Norway's Locationforecast; when no
/// forecast provider can answer and a web searcher is configured, web search results stand in,
/// fenced and labelled as such.
///
/// ```
/// tools run weather Lisbon
/// tools run weather "Paris, TX" tomorrow --sun
/// tools run weather --lat 55.75 --lon 12.5 --hourly --wind ms
/// ```
public struct WeatherTool: Tool {
    /// `weather`.
    public let name = "weather"
    /// One line for listings.
    public let summary = "Weather now, today and the next days for a place (Open-Meteo, else MET Norway), in the place's local time"

    /// Creates the tool. Register it with `WeatherTool()`.
    public init() {}

    /// The parameters (CLI and MCP/OpenAI schema).
    public var schema: ToolSchema {
        ToolSchema([
            ToolParameter(
                "place", .string,
                help:
                    "place name, optionally qualified ('Paris, TX', 'Paris, FR'); a trailing today, tomorrow, weekday or YYYY-MM-DD picks that day",
                placement: .remainder),
            ToolParameter("lat", .number, help: "latitude in degrees, with --lon, instead of a place"),
            ToolParameter("lon", .number, help: "longitude in degrees, with --lat"),
            ToolParameter(
                "hourly", .boolean, help: "the next 24 hours hour by hour (with a day: that day hour by hour)"),
            ToolParameter("days", .integer, help: "days to show, 1-16 (default 7)"),
            ToolParameter(
                "day", .string, help: "one day: today, tomorrow, a weekday or YYYY-MM-DD (the place's calendar)"),
            ToolParameter("sun", .boolean, help: "include sunrise and sunset"),
            ToolParameter(
                "units", .choice(UnitSystem.allCases.map(\.rawValue)),
                help: "metric (°C, km/h, mm) or imperial (°F, mph, inch); default: config [weather] units, else metric"),
            ToolParameter(
                "wind", .choice(WindUnit.allCases.map(\.rawValue)),
                help: "wind speed unit, overriding --units; default: config [weather] wind"),
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

    /// Every forecast and geocoding provider.
    public var providerDescriptors: [ProviderDescriptor] {
        Self.forecastChain.map(\.descriptor) + Self.geocodingChain.map(\.descriptor)
    }

    /// Web search stands in for the forecast.
    public var usesWebSearchFallback: Bool { true }

    /// The forecast providers in the order they are tried.
    func forecastProviders(_ context: ToolContext) -> [any Provider<WeatherQuery, WeatherReport>] {
        Self.forecastChain.map { $0 as any Provider<WeatherQuery, WeatherReport> }
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
        switch request.target {
        case .coordinates(let latitude, let longitude):
            let label = WeatherLocation.coordinates(latitude, longitude)
            query = WeatherQuery(
                latitude: latitude, longitude: longitude, units: request.units, wind: request.wind,
                searchText: "weather at \(label)", placeText: label)
        case .place(let text):
            do {
                let geocoded = try await context.fetch(
                    tool: name, key: "geocode:\(text.cacheKey)", query: GeocodeQuery(name: text.name),
                    providers: Self.geocodingChain.map { $0 as any Provider<GeocodeQuery, GeocodeResult> }, ttl: .seconds(86_400))
                let choice = try PlaceMatcher.choose(text, from: geocoded.value.places)
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
            }
        }
        query.days = try request.span(now: context.now, zone: estimateZone)

        let fetched = try await context.fetch(
            tool: name, key: Self.cacheKey(query), query: query, providers: forecastProviders(context))
        var payload = try WeatherPayload(
            report: fetched.value, request: request, now: context.now, alternatives: alternatives)
        payload.geocoder = geocoder
        return ToolResult(metadata: fetched.metadata, payload: payload)
    }

    /// The forecast cache key: coordinates rounded to 2 decimals, the days requested (the part of
    /// the view that changes the upstream request; views render from the same data) and units.
    /// Without coordinates (web fallback only) the place text stands in.
    static func cacheKey(_ query: WeatherQuery) -> String {
        let suffix = "d\(query.days):\(query.units.rawValue):\(query.wind.rawValue)"
        if let latitude = query.latitude, let longitude = query.longitude {
            return "forecast:\(Coordinate.text(latitude)),\(Coordinate.text(longitude)):\(suffix)"
        }
        return "web:\(query.placeText.lowercased()):\(suffix)"
    }
}
