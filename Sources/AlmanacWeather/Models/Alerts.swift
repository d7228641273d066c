import AlmanacCore
import Foundation

/// One official weather warning, whatever service issued it (CAP terms: severity, certainty,
/// urgency; times are instants, shown in the place's zone).
struct WeatherAlert: Sendable, Codable, Equatable {
    /// The issuer's identifier (a CAP identifier or URN).
    var id: String
    /// The issuing service as people know it ("MET Norway", "NWS Melbourne FL", "MeteoAlarm").
    var service: String
    /// What is warned of ("gale", "Flood Warning").
    var event: String
    /// CAP severity: Extreme, Severe, Moderate, Minor or Unknown.
    var severity: String?
    /// CAP certainty: Observed, Likely, Possible, Unlikely or Unknown.
    var certainty: String?
    /// CAP urgency: Immediate, Expected, Future, Past or Unknown.
    var urgency: String?
    /// The colour level where the service has one (`yellow`, `orange`, `red`); nil for NWS.
    var level: String?
    /// The areas the warning covers, as the service names them.
    var areas: [String]
    /// When the hazard begins (nil: upstream said no time; read as already under way).
    var onset: Date?
    /// When the warning stops being in force (NWS `ends`, else its `expires`; MetAlerts the end of
    /// `when.interval`; MeteoAlarm `cap:expires`). Nil: until further notice.
    var expires: Date?
    /// One line from the service (its headline or title).
    var headline: String?
    /// The full text (untrusted: fenced in context output).
    var description: String?
    /// What to do (untrusted).
    var instruction: String?
    /// A page or CAP document about it.
    var url: String?

    init(
        id: String, service: String, event: String, severity: String? = nil, certainty: String? = nil,
        urgency: String? = nil, level: String? = nil, areas: [String] = [], onset: Date? = nil, expires: Date? = nil,
        headline: String? = nil, description: String? = nil, instruction: String? = nil, url: String? = nil
    ) {
        self.id = id
        self.service = service
        self.event = event
        self.severity = severity
        self.certainty = certainty
        self.urgency = urgency
        self.level = level
        self.areas = areas
        self.onset = onset
        self.expires = expires
        self.headline = headline
        self.description = description
        self.instruction = instruction
        self.url = url
    }

    /// Whether the warning is still in force at `now` (it may begin later). An expired warning is
    /// never shown as active, however old the stored answer.
    func inForce(at now: Date) -> Bool {
        expires.map { $0 > now } ?? true
    }
}

/// What the warning providers are asked: a point, and the place it names (the country picks the
/// service; MeteoAlarm matches its areas by the place's names).
struct AlertsQuery: Sendable, Hashable {
    /// Latitude (2 decimals).
    var latitude: Double
    /// Longitude (2 decimals).
    var longitude: Double
    /// ISO 3166-1 alpha-2 country code, when the place was geocoded.
    var countryCode: String?
    /// Names of the place itself, most specific first: its name, municipality, district (the
    /// geocoder's admin4 and admin3; in Germany admin3 is the Kreis MeteoAlarm's areas are).
    var names: [String]
    /// The regions it lies in (second- and first-level areas: a Regierungsbezirk, a state). They
    /// match only areas that are regions themselves, never a town or district that shares the
    /// region's name (Stadt Brandenburg is not the state of Brandenburg).
    var regions: [String]

    init(
        latitude: Double, longitude: Double, countryCode: String? = nil, names: [String] = [],
        regions: [String] = []
    ) {
        self.latitude = Coordinate.round(latitude)
        self.longitude = Coordinate.round(longitude)
        self.countryCode = countryCode?.uppercased()
        self.names = names
        self.regions = regions
    }

    /// The query for a geocoded place, or for bare coordinates.
    init(_ query: WeatherQuery) {
        let place = query.place
        self.init(
            latitude: query.latitude ?? 0, longitude: query.longitude ?? 0, countryCode: place?.countryCode,
            names: Self.distinct([place?.name, place?.admin4, place?.admin3]),
            regions: Self.distinct([place?.admin2, place?.admin1]))
    }

    /// The non-empty names in order, each once.
    static func distinct(_ names: [String?]) -> [String] {
        var seen: Set<String> = []
        return names.compactMap { $0 }.filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}

/// A warning service's answer for one place.
struct AlertsReport: Sendable, Codable, Equatable {
    /// The service asked ("MET Norway MetAlerts", "NWS", "MeteoAlarm").
    var service: String
    /// Every warning the service gave for the place (expired ones are filtered when shown).
    var alerts: [WeatherAlert]
    /// Warnings the service has in the same country for other areas (MeteoAlarm's per-country
    /// feed), counted so "none here" is not read as "none anywhere".
    var elsewhere: Int
    /// The zone the service's own times suggest (NWS offsets, Norway's zone), used when the
    /// place's zone is unknown.
    var zoneHint: String?

    init(service: String, alerts: [WeatherAlert], elsewhere: Int = 0, zoneHint: String? = nil) {
        self.service = service
        self.alerts = alerts
        self.elsewhere = elsewhere
        self.zoneHint = zoneHint
    }
}

/// Warning services' shared reading helpers.
enum AlertText {
    /// CAP's colour words as levels.
    static let levels = ["green", "yellow", "orange", "red"]

    /// "Yellow Wind Warning issued …" → "yellow"; nil when the text starts with no colour.
    static func level(from text: String?) -> String? {
        guard let first = text?.split(separator: " ").first?.lowercased() else { return nil }
        return levels.contains(first) ? first : nil
    }

    /// Trimmed, nil when empty.
    static func nonEmpty(_ text: String?) -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        return trimmed
    }
}
