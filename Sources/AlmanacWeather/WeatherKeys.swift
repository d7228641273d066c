import AlmanacCore

/// Every parameter of the weather schema, named once: the schema (``WeatherTool/schema``) and
/// every reader of the arguments (``WeatherRequest``) take these cases.
enum WeatherParameter: String, CaseIterable, Sendable {
    case place, lat, lon, hourly, days, day, sun, units, wind, alerts, air
    case nextHour = "next-hour"

    /// The option as written on the command line (`--next-hour`).
    var option: String { "--" + rawValue }
}

/// Every cache key the weather tool fetches under, built in one place; the strings are the ones
/// the cache already holds (pinned by WeatherKeysTests).
enum WeatherKey {
    /// A forecast: coordinates rounded to 2 decimals, the days requested (the part of the view
    /// that changes the upstream request; views render from the same data) and units. Without
    /// coordinates (web fallback only) the place text stands in.
    case forecast(WeatherQuery)
    /// A geocoded place name (kept a day).
    case geocode(PlaceText)
    /// The warnings for a place: coordinates, country, and the names and regions matched against.
    case alerts(AlertsQuery)
    /// Air quality for `days` days at a point.
    case air(latitude: Double, longitude: Double, days: Int)
    /// The next hour's rain at a point.
    case nextHour(latitude: Double, longitude: Double)

    var text: String {
        switch self {
        case .forecast(let query):
            let suffix = "d\(query.days):\(query.units.rawValue):\(query.wind.rawValue)"
            if let latitude = query.latitude, let longitude = query.longitude {
                return "forecast:\(Self.point(latitude, longitude)):\(suffix)"
            }
            return "web:\(query.placeText.lowercased()):\(suffix)"
        case .geocode(let text): return "geocode:\(text.cacheKey)"
        case .alerts(let query):
            return "alerts:\(Self.point(query.latitude, query.longitude)):\(query.countryCode ?? "")"
                + ":\((query.names + ["/"] + query.regions).joined(separator: "|").lowercased())"
        case .air(let latitude, let longitude, let days): return "air:\(Self.point(latitude, longitude)):d\(days)"
        case .nextHour(let latitude, let longitude): return "next-hour:\(Self.point(latitude, longitude))"
        }
    }

    private static func point(_ latitude: Double, _ longitude: Double) -> String {
        "\(Coordinate.text(latitude)),\(Coordinate.text(longitude))"
    }
}
