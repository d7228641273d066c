import CLibxml2
import Foundation

/// A parsed XML element (namespace-aware), small enough for WebDAV multistatus bodies.
final class XMLNode {
    let namespace: String
    let name: String
    var text = ""
    var children: [XMLNode] = []

    init(namespace: String, name: String) {
        self.namespace = namespace
        self.name = name
    }

    /// Direct children called `name` in `namespace`.
    func children(_ name: String, _ namespace: String = DAV.dav) -> [XMLNode] {
        children.filter { $0.name == name && $0.namespace == namespace }
    }

    /// The first direct child called `name`.
    func child(_ name: String, _ namespace: String = DAV.dav) -> XMLNode? {
        children.first { $0.name == name && $0.namespace == namespace }
    }

    /// Every descendant called `name` (depth first).
    func descendants(_ name: String, _ namespace: String = DAV.dav) -> [XMLNode] {
        var found: [XMLNode] = []
        for child in children {
            if child.name == name && child.namespace == namespace { found.append(child) }
            found += child.descendants(name, namespace)
        }
        return found
    }

    /// Trimmed text.
    var value: String { text.trimmingCharacters(in: .whitespacesAndNewlines) }
}

/// libxml2 could not be opened, so no WebDAV body can be read.
struct XMLUnavailable: Error, Sendable {
    let reason: String
}

/// The body is not well-formed XML: `reason` is libxml2's first error on one line, or says the
/// body is empty.
struct XMLMalformed: Error, Sendable {
    let reason: String
}

/// Builds an ``XMLNode`` tree with libxml2's pull parser, opened on first use (see CLibxml2).
enum XMLTreeBuilder {
    /// The document's root element. libxml2 prints nothing: its first error becomes the
    /// ``XMLMalformed`` reason.
    ///
    /// - Throws: ``XMLUnavailable`` when libxml2 cannot be opened, ``XMLMalformed`` when the body
    ///   is not well-formed XML.
    static func parse(_ data: Data) throws -> XMLNode {
        guard almanac_xml_load() == 0 else { throw XMLUnavailable(reason: String(cString: almanac_xml_error())) }
        guard !data.isEmpty else { throw XMLMalformed(reason: "the body is empty") }
        guard data.count < Int(Int32.max) else { throw XMLMalformed(reason: "the body is over 2 GB") }
        return try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws -> XMLNode in
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self),
                let reader = almanac_xml_reader_for_memory(base, Int32(bytes.count))
            else { throw XMLMalformed(reason: "libxml2 could not start a reader") }
            defer { almanac_xml_free(reader) }
            var stack: [XMLNode] = []
            var root: XMLNode?
            while true {
                let step = almanac_xml_read(reader)
                if step == 0 { break }
                if step < 0 {
                    throw XMLMalformed(
                        reason: almanac_xml_reader_error(reader).map { String(cString: $0) } ?? "malformed XML")
                }
                switch Int(almanac_xml_node_type(reader)) {
                case ALMANAC_XML_ELEMENT:
                    let node = XMLNode(
                        namespace: almanac_xml_namespace(reader).map { String(cString: $0) } ?? "",
                        name: almanac_xml_local_name(reader).map { String(cString: $0) } ?? "")
                    if let parent = stack.last { parent.children.append(node) } else { root = node }
                    // `<a/>` has no end node of its own.
                    if almanac_xml_is_empty_element(reader) != 1 { stack.append(node) }
                case ALMANAC_XML_END_ELEMENT:
                    _ = stack.popLast()
                case ALMANAC_XML_TEXT, ALMANAC_XML_CDATA,
                    ALMANAC_XML_SIGNIFICANT_WHITESPACE:
                    if let value = almanac_xml_value(reader) { stack.last?.text += String(cString: value) }
                default:
                    break  // comments, processing instructions, unexpanded entity references
                }
            }
            guard let root else { throw XMLMalformed(reason: "no root element") }
            return root
        }
    }
}

/// WebDAV/CalDAV names and the multistatus shape.
enum DAV {
    static let dav = "DAV:"
    static let caldav = "urn:ietf:params:xml:ns:caldav"
    static let calendarServer = "http://calendarserver.org/ns/"

    /// A `calendar-query` REPORT body (RFC 4791 7.8), one for the reader and the writer: each
    /// object's ETag, and its text when `withData`; `filter` goes inside the VCALENDAR comp-filter.
    static func calendarQuery(filter: String, withData: Bool) -> String {
        let data = withData ? "<c:calendar-data/>" : ""
        return """
            <?xml version="1.0" encoding="utf-8"?>
            <c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/>\(data)</d:prop><c:filter><c:comp-filter name="VCALENDAR">\(filter)</c:comp-filter></c:filter></c:calendar-query>
            """
    }

    /// One `<response>` of a multistatus: the href, its own status (sync deletions) and the
    /// properties of its 2xx propstats.
    struct Response {
        var href: String
        var status: Int?
        var properties: [XMLNode]

        func property(_ name: String, _ namespace: String = DAV.dav) -> XMLNode? {
            properties.first { $0.name == name && $0.namespace == namespace }
        }
    }

    /// The responses of a multistatus body and its top-level `sync-token`; nil when the body is
    /// well-formed XML but no multistatus.
    ///
    /// - Throws: ``XMLUnavailable`` when libxml2 cannot be opened, ``XMLMalformed`` when the body
    ///   is not well-formed XML.
    static func multistatus(_ data: Data) throws -> (responses: [Response], syncToken: String?)? {
        let root = try XMLTreeBuilder.parse(data)
        guard root.name == "multistatus", root.namespace == dav else { return nil }
        var responses: [Response] = []
        for response in root.children("response") {
            guard let href = response.child("href")?.value, !href.isEmpty else { continue }
            var properties: [XMLNode] = []
            for propstat in response.children("propstat") {
                let status = propstat.child("status").map { statusCode($0.value) } ?? 200
                guard (200..<300).contains(status ?? 200) else { continue }
                properties += propstat.child("prop")?.children ?? []
            }
            responses.append(
                Response(
                    href: href, status: response.child("status").flatMap { statusCode($0.value) },
                    properties: properties))
        }
        return (responses, root.child("sync-token")?.value)
    }

    /// `HTTP/1.1 404 Not Found` → 404.
    static func statusCode(_ line: String) -> Int? {
        line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }

    /// Escapes text for an XML body.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
