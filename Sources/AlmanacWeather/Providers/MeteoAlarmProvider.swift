import AlmanacCore
import CLibxml2
import Foundation

/// MeteoAlarm (`feeds.meteoalarm.org/feeds/meteoalarm-legacy-atom-COUNTRY`): the warnings of
/// Europe's national weather services, one Atom feed with CAP fields per country.
///
/// The feed names areas (`cap:areaDesc`, EMMA codes), not shapes, so a warning is the place's
/// when its area names the place, its municipality or district, or (for an area that is a region)
/// its region: see ``AreaMatcher``. The country's other warnings are counted, so "none here"
/// never reads as "none anywhere".
/// Feeds are cached by `Expires`/`If-Modified-Since` through the shared ``TermsTransport``.
struct MeteoAlarmProvider: DescribedProvider {
    /// `meteoalarm`, the warning service for the other European countries.
    static let descriptor = ProviderDescriptor(
        name: "meteoalarm", tool: "weather", role: .alerts, priority: 10,
        summary: "MeteoAlarm (Europe's national services, Atom/CAP)",
        endpoints: [ProviderEndpoint(env: "ALMANAC_METEOALARM_URL", defaultBase: "https://feeds.meteoalarm.org")],
        terms: terms,
        probe: HealthProbe(path: "/feeds/meteoalarm-legacy-atom-austria", essential: false),
        decoders: [
            UpstreamDecoder(name: "meteoalarm", seeds: ["Fixtures/weather/meteoalarm/*.response.xml"]) {
                _ = try? MeteoAlarmProvider.decode($0, names: ["Vulkaneifel"], regions: ["Rheinland-Pfalz"])
            }
        ],
        // Berlin's recorded Open-Meteo answer, then the German feed while Berlin's frost warning
        // was in force (2023-04-26T22:00Z to 04-27T05:00Z).
        sampleCall: SampleCall(
            words: ["run", "weather", "Berlin", "--alerts"], environment: ["ALMANAC_NOW": "2023-04-27T03:00:00Z"]))

    /// MeteoAlarm asks credit for itself and the issuing service.
    static let terms = UpstreamTerms(
        conditionalRequests: true, attribution: "Warnings from meteoalarm.org and the issuing national service")

    /// Feed names by ISO country code (MeteoAlarm's members; Norway is MET Norway's own).
    static let feeds: [String: String] = [
        "AT": "austria", "BA": "bosnia-herzegovina", "BE": "belgium", "BG": "bulgaria", "CH": "switzerland",
        "CY": "cyprus", "CZ": "czechia", "DE": "germany", "DK": "denmark", "EE": "estonia", "ES": "spain",
        "FI": "finland", "FR": "france", "GB": "united-kingdom", "GR": "greece", "HR": "croatia",
        "HU": "hungary", "IE": "ireland", "IL": "israel", "IS": "iceland", "IT": "italy", "LT": "lithuania",
        "LU": "luxembourg", "LV": "latvia", "MD": "moldova", "ME": "montenegro", "MK": "republic-of-north-macedonia",
        "MT": "malta", "NL": "netherlands", "PL": "poland", "PT": "portugal", "RO": "romania", "RS": "serbia",
        "SE": "sweden", "SI": "slovenia", "SK": "slovakia", "UA": "ukraine",
    ]

    /// Whether bare coordinates may lie in a member country (Europe's box): the feed then needs
    /// the place's name to be known.
    static func covers(latitude: Double, longitude: Double) -> Bool {
        (27...72).contains(latitude) && (-25...45).contains(longitude)
    }

    /// Places in a member country (a country code is needed to pick the feed).
    func supports(_ query: AlertsQuery) -> Bool {
        query.countryCode.map { Self.feeds[$0] != nil } ?? false
    }

    /// The country's feed.
    static func request(_ query: AlertsQuery, base: URL) -> HTTPRequest {
        let feed = query.countryCode.flatMap { feeds[$0] } ?? "europe"
        let url = base.appendingPathComponent("feeds").appendingPathComponent("meteoalarm-legacy-atom-\(feed)")
        return HTTPRequest(url: url, headers: ["Accept": "application/atom+xml"])
    }

    /// Fetches the country's feed and keeps the place's warnings.
    func fetch(_ query: AlertsQuery, in environment: ProviderEnvironment) async throws -> AlertsReport {
        let base = try descriptor.baseURL(environment.settings)
        let transport = try environment.transport(honouring: descriptor)
        let response = try await transport.fetch(
            Self.request(query, base: base), timeout: environment.timeout, service: "MeteoAlarm")
        return try Self.decode(response.body, names: query.names, regions: query.regions, now: environment.now)
    }

    /// Decodes an Atom feed and splits its entries into the place's (an area naming one of
    /// `names`, or a region area naming one of `regions`: ``AlertsQuery``) and the rest of the
    /// country's in force at `now` (begun and not ended; counted; all when nil).
    ///
    /// - Throws: ``ProviderFailure`` of kind `decoding` for a body that is not an Atom feed.
    static func decode(
        _ body: Data, names: [String], regions: [String] = [], now: Date? = nil
    ) throws -> AlertsReport {
        let root: FeedElement
        do {
            root = try FeedElement.parse(body)
        } catch let error as FeedElement.Malformed {
            throw ProviderFailure(.decoding, "MeteoAlarm: unreadable response (\(error.reason))")
        }
        guard root.name == "feed", root.namespace == atom else {
            throw ProviderFailure(.decoding, "MeteoAlarm: unreadable response (no Atom feed)")
        }
        let matcher = AreaMatcher(names: names, regions: regions)
        var mine: [WeatherAlert] = []
        var elsewhere = 0
        for entry in root.children("entry", atom) {
            let area = entry.child("areaDesc", cap)?.value ?? ""
            guard matcher.matches(area) else {
                // Counted only while in force: ended and announced ones are not "in force elsewhere".
                let expires = entry.child("expires", cap).flatMap { TimeText.parseInstant($0.value) }
                let onset = entry.child("onset", cap).flatMap { TimeText.parseInstant($0.value) }
                if let now, let expires, expires <= now { continue }
                if let now, let onset, onset > now { continue }
                elsewhere += 1
                continue
            }
            let title = entry.child("title", atom)?.value
            let event = AlertText.nonEmpty(entry.child("event", cap)?.value) ?? title ?? "warning"
            mine.append(
                WeatherAlert(
                    id: entry.child("identifier", cap)?.value ?? entry.child("id", atom)?.value ?? "",
                    service: "MeteoAlarm", event: event,
                    severity: AlertText.nonEmpty(entry.child("severity", cap)?.value),
                    certainty: AlertText.nonEmpty(entry.child("certainty", cap)?.value),
                    urgency: AlertText.nonEmpty(entry.child("urgency", cap)?.value),
                    level: AlertText.level(from: title) ?? AlertText.level(from: event),
                    areas: [area].compactMap(AlertText.nonEmpty),
                    onset: (entry.child("onset", cap) ?? entry.child("effective", cap)).flatMap {
                        TimeText.parseInstant($0.value)
                    },
                    expires: entry.child("expires", cap).flatMap { TimeText.parseInstant($0.value) },
                    headline: AlertText.nonEmpty(title), url: AlertText.nonEmpty(entry.child("id", atom)?.value)))
        }
        return AlertsReport(service: "MeteoAlarm", alerts: mine, elsewhere: elsewhere)
    }

    static let atom = "http://www.w3.org/2005/Atom"
    static let cap = "urn:oasis:names:tc:emergency:cap:1.2"
}

/// A small namespace-aware XML tree (MeteoAlarm's Atom feed), built with libxml2's pull parser
/// (CLibxml2, opened on first use, as the calendar's WebDAV reader does).
final class FeedElement {
    let namespace: String
    let name: String
    var text = ""
    var elements: [FeedElement] = []

    init(namespace: String, name: String) {
        self.namespace = namespace
        self.name = name
    }

    /// Direct children called `name` in `namespace`.
    func children(_ name: String, _ namespace: String) -> [FeedElement] {
        elements.filter { $0.name == name && $0.namespace == namespace }
    }

    /// The first direct child called `name` in `namespace`.
    func child(_ name: String, _ namespace: String) -> FeedElement? {
        elements.first { $0.name == name && $0.namespace == namespace }
    }

    /// Trimmed text.
    var value: String { text.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// Why a body could not be read (libxml2's first error, on one line).
    struct Malformed: Error {
        let reason: String
    }

    /// The document's root element.
    static func parse(_ data: Data) throws -> FeedElement {
        guard almanac_xml_load() == 0 else {
            throw Malformed(reason: "XML reader unavailable: \(String(cString: almanac_xml_error()))")
        }
        guard !data.isEmpty else { throw Malformed(reason: "malformed XML: the body is empty") }
        guard data.count < Int(Int32.max) else { throw Malformed(reason: "the body is over 2 GB") }
        return try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws -> FeedElement in
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self),
                let reader = almanac_xml_reader_for_memory(base, Int32(bytes.count))
            else { throw Malformed(reason: "malformed XML") }
            defer { almanac_xml_free(reader) }
            var stack: [FeedElement] = []
            var root: FeedElement?
            while true {
                let step = almanac_xml_read(reader)
                if step == 0 { break }
                if step < 0 {
                    let detail = almanac_xml_reader_error(reader).map { String(cString: $0) } ?? ""
                    throw Malformed(reason: "malformed XML" + (detail.isEmpty ? "" : ": \(detail)"))
                }
                switch Int(almanac_xml_node_type(reader)) {
                case ALMANAC_XML_ELEMENT:
                    let node = FeedElement(
                        namespace: almanac_xml_namespace(reader).map { String(cString: $0) } ?? "",
                        name: almanac_xml_local_name(reader).map { String(cString: $0) } ?? "")
                    if let parent = stack.last { parent.elements.append(node) } else { root = node }
                    if almanac_xml_is_empty_element(reader) != 1 { stack.append(node) }
                case ALMANAC_XML_END_ELEMENT:
                    _ = stack.popLast()
                case ALMANAC_XML_TEXT, ALMANAC_XML_CDATA, ALMANAC_XML_SIGNIFICANT_WHITESPACE:
                    if let value = almanac_xml_value(reader) { stack.last?.text += String(cString: value) }
                default:
                    break
                }
            }
            guard let root, stack.isEmpty else { throw Malformed(reason: "malformed XML: the document ends early") }
            return root
        }
    }
}
