import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

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

/// Parses XML with Foundation's XMLParser (libxml2 underneath).
final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    private var stack: [XMLNode] = []
    private(set) var root: XMLNode?

    /// The document's root element, or nil when the body is not well-formed XML.
    static func parse(_ data: Data) -> XMLNode? {
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        let builder = XMLTreeBuilder()
        parser.delegate = builder
        guard parser.parse() else { return nil }
        return builder.root
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        let node = XMLNode(namespace: namespaceURI ?? "", name: elementName)
        if let parent = stack.last { parent.children.append(node) } else { root = node }
        stack.append(node)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        _ = stack.popLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        stack.last?.text += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        stack.last?.text += String(decoding: CDATABlock, as: UTF8.self)
    }
}

/// WebDAV/CalDAV names and the multistatus shape.
enum DAV {
    static let dav = "DAV:"
    static let caldav = "urn:ietf:params:xml:ns:caldav"
    static let calendarServer = "http://calendarserver.org/ns/"

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

    /// The responses of a multistatus body and its top-level `sync-token`.
    static func multistatus(_ data: Data) -> (responses: [Response], syncToken: String?)? {
        guard let root = XMLTreeBuilder.parse(data), root.name == "multistatus", root.namespace == dav else { return nil }
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
                Response(href: href, status: response.child("status").flatMap { statusCode($0.value) }, properties: properties))
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
