import CLibxml2
import Foundation

/// What libxml2's recovering SAX2 parse (CLibxml2's `almanac_xml_parse_events`) hands a feed or
/// OPML reader, element by element: no tree is built.
/// A base class rather than a protocol: the C callbacks reach it without a dynamic cast.
class XMLEventSink {
    /// An element starts: its local name, namespace URI ("" when none), prefix ("" when none) and
    /// attributes as (local name, namespace URI, value).
    func start(_ name: String, namespace: String, prefix: String, attributes: [XMLAttribute]) {}
    /// The innermost open element ends.
    func end() {}
    /// Text or CDATA inside the open elements (a run may come in several calls).
    func text(_ bytes: UnsafeRawBufferPointer) {}
}

/// One attribute of an element.
struct XMLAttribute {
    var name: String
    var namespace: String
    var value: String
}

/// Why a document could not be read at all.
struct XMLReadFailure: Error {
    var reason: String
}

enum XMLEvents {
    /// The XML namespace (`xml:base`, `xml:lang`).
    static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"

    /// Parses `data` and hands every event to `handler`. Returns libxml2's first error when the
    /// document was not well-formed (recovery read on), nil when it was.
    ///
    /// - Throws: ``XMLReadFailure`` when libxml2 cannot be loaded or no parser could be made.
    static func parse(_ data: Data, handler: XMLEventSink) throws -> String? {
        guard almanac_xml_load() == 0 else {
            throw XMLReadFailure(
                reason: "the XML reader (libxml2) is unavailable: \(String(cString: almanac_xml_error()))")
        }
        guard data.count < Int(Int32.max) else { throw XMLReadFailure(reason: "the document is over 2 GB") }
        let box = Unmanaged.passUnretained(handler)
        var events = almanac_xml_events(
            context: box.toOpaque(),
            start: { context, name, namespace, prefix, attributes in
                guard let context, let name else { return }
                let handler = Unmanaged<XMLEventSink>.fromOpaque(context).takeUnretainedValue()
                var list: [XMLAttribute] = []
                if let attributes {
                    var index = 0
                    while let local = attributes[index] {
                        let uri = attributes[index + 1].map { String(cString: $0) } ?? ""
                        var value = attributes[index + 2].map { String(cString: $0) } ?? ""
                        // Without entity substitution libxml2 hands `&amp;` in an attribute on as `&#38;`
                        // (its tree builder would resolve it later); every other reference arrives replaced.
                        if value.utf8.contains(UInt8(ascii: "&")) {
                            value = value.replacingOccurrences(of: "&#38;", with: "&")
                        }
                        list.append(XMLAttribute(name: String(cString: local), namespace: uri, value: value))
                        index += 3
                    }
                }
                handler.start(
                    String(cString: name), namespace: namespace.map { String(cString: $0) } ?? "",
                    prefix: prefix.map { String(cString: $0) } ?? "", attributes: list)
            },
            end: { context in
                guard let context else { return }
                Unmanaged<XMLEventSink>.fromOpaque(context).takeUnretainedValue().end()
            },
            text: { context, text, length in
                guard let context, let text, length > 0 else { return }
                Unmanaged<XMLEventSink>.fromOpaque(context).takeUnretainedValue().text(
                    UnsafeRawBufferPointer(start: text, count: Int(length)))
            })
        var error = [CChar](repeating: 0, count: 256)
        let status = withExtendedLifetime(handler) {
            data.withUnsafeBytes { raw -> Int32 in
                guard let base = raw.baseAddress?.assumingMemoryBound(to: CChar.self) else { return -1 }
                return error.withUnsafeMutableBufferPointer { buffer in
                    almanac_xml_parse_events(base, Int32(raw.count), &events, buffer.baseAddress, 256)
                }
            }
        }
        if status < 0 { throw XMLReadFailure(reason: "no XML parser could be made") }
        guard status == 1 else { return nil }
        let message = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return message.isEmpty ? "malformed XML" : message
    }
}
