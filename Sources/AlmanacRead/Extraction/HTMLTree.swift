import CLibxml2
import Foundation

/// One node of a parsed page: an element or a run of text.
///
/// A mutable tree the extractor prunes and rewrites in place (Readability's algorithm is written
/// against a mutable DOM). It lives inside one extraction call and never crosses a task.
final class HTMLNode {
    /// Element or text.
    enum Kind { case element, text }

    let kind: Kind
    /// Lower-case tag name ("" for text).
    var tag: String {
        didSet { code = TagCode.code(tag) }
    }
    /// The tag as a ``TagCode`` (0 for text and unlisted names), for ``TagSet`` tests.
    private(set) var code: UInt8
    /// Readability's class-and-id match string, made once (attributes never change after parsing).
    var matchCache: String?
    /// Class and id lower-cased, made once for Readability's class weight.
    var lowerNamesCache: (String, String)?
    /// Attributes in document order, names lower-cased.
    var attributes: [(name: String, value: String)]
    /// The text of a text node.
    var text: String
    /// The parent element; nil for the root and for detached nodes.
    unowned(unsafe) var parent: HTMLNode?
    /// Children in document order.
    var children: [HTMLNode] = []

    // Readability's per-node state.
    var score: Double = 0
    var scored = false
    var dataTable = false
    /// The text measure of the subtree, kept until the subtree changes (see ``changed()``).
    var measure: Readability.Measure?
    /// Where the node last was among its parent's children (checked before use: removals shift it).
    var indexHint = 0
    /// The text length inside its links, kept like ``measure``.
    var linkLength: Double?

    init(
        kind: Kind, tag: String = "", code: UInt8? = nil, attributes: [(name: String, value: String)] = [], text: String = ""
    ) {
        self.kind = kind
        self.tag = tag
        self.code = code ?? TagCode.code(tag)
        self.attributes = attributes
        self.text = text
    }

    var isElement: Bool { kind == .element }

    /// The attribute `name` (lower-case), or nil.
    func attribute(_ name: String) -> String? {
        for attribute in attributes where attribute.name == name { return attribute.value }
        return nil
    }

    /// Whether the element has the attribute at all (`hidden`).
    func has(_ name: String) -> Bool { attributes.contains { $0.name == name } }

    var className: String { attribute("class") ?? "" }
    var id: String { attribute("id") ?? "" }

    /// Element children only.
    var elementChildren: [HTMLNode] { children.filter(\.isElement) }

    /// The node's index among its parent's children (the hint when it still holds).
    func indexInParent() -> Int? {
        guard let parent else { return nil }
        let children = parent.children
        if indexHint < children.count, children[indexHint] === self { return indexHint }
        guard let index = children.firstIndex(where: { $0 === self }) else { return nil }
        indexHint = index
        return index
    }

    /// Forgets the kept measures of this node and its ancestors (their text changed).
    func changed() {
        var node: HTMLNode? = self
        while let current = node {
            current.measure = nil
            current.linkLength = nil
            node = current.parent
        }
    }

    /// Appends `child`, detaching it from its old parent first.
    func append(_ child: HTMLNode) {
        child.detach()
        child.parent = self
        children.append(child)
        changed()
    }

    /// Removes the node from its parent.
    func detach() {
        guard let parent else { return }
        if let index = indexInParent() { parent.children.remove(at: index) }
        parent.changed()
        self.parent = nil
    }

    /// Puts `other` where this node is.
    func replace(with other: HTMLNode) {
        guard let parent, let index = indexInParent() else { return }
        other.detach()
        parent.children[index] = other
        other.parent = parent
        parent.changed()
        self.parent = nil
    }

    /// Every descendant element with one of `tags`, in document order.
    func descendants(_ tags: TagSet) -> [HTMLNode] {
        var found: [HTMLNode] = []
        Self.collect(self, tags, into: &found)
        return found
    }

    /// The walk of ``descendants(_:)``: a static function with an inout result, not a capturing closure.
    private static func collect(_ node: HTMLNode, _ tags: TagSet, into found: inout [HTMLNode]) {
        for child in node.children where child.kind == .element {
            if tags.contains(child.code) { found.append(child) }
            if !child.children.isEmpty { collect(child, tags, into: &found) }
        }
    }

    /// Every descendant element, in document order.
    func allElements() -> [HTMLNode] {
        var found: [HTMLNode] = []
        Self.collectAll(self, into: &found)
        return found
    }

    private static func collectAll(_ node: HTMLNode, into found: inout [HTMLNode]) {
        for child in node.children where child.kind == .element {
            found.append(child)
            if !child.children.isEmpty { collectAll(child, into: &found) }
        }
    }

    /// Counts descendant elements named `tag`.
    func count(_ tag: String) -> Int {
        var total = 0
        for child in children where child.isElement {
            if child.tag == tag { total += 1 }
            total += child.count(tag)
        }
        return total
    }

    /// The concatenated text of the subtree (the DOM's `textContent`).
    var textContent: String {
        if kind == .text { return text }
        var result = ""
        appendText(to: &result)
        return result
    }

    func appendText(to result: inout String) {
        if kind == .text {
            result += text
            return
        }
        for child in children { child.appendText(to: &result) }
    }

    /// Whether some ancestor within `depth` levels (0: any) is a `tag` (optionally passing `filter`).
    func hasAncestor(_ tag: String, depth: Int = 3, where filter: ((HTMLNode) -> Bool)? = nil) -> Bool {
        var node = parent
        var level = 0
        while let current = node {
            if depth > 0, level > depth { return false }
            if current.tag == tag, filter?(current) ?? true { return true }
            node = current.parent
            level += 1
        }
        return false
    }

    /// A deep copy (attributes and text; no scores).
    func clone() -> HTMLNode {
        let copy = HTMLNode(kind: kind, tag: tag, code: code, attributes: attributes, text: text)
        copy.children.reserveCapacity(children.count)
        for child in children {
            let childCopy = child.clone()
            childCopy.parent = copy
            childCopy.indexHint = copy.children.count
            copy.children.append(childCopy)
        }
        return copy
    }
}

/// Why a page could not be parsed at all.
struct HTMLParseFailure: Error {
    let reason: String
}

/// libxml2's HTML parser (through CLibxml2, loaded on first use) into an ``HTMLNode`` tree.
enum HTMLParser {
    /// Elements whose content is never text a reader sees; dropped while building the tree so no
    /// later step can leak them (scripts and styles are a known injection channel).
    static let dropped: TagSet = ["script", "style", "noscript", "template", "iframe", "object", "embed", "svg", "canvas", "select", "textarea", "button"]

    /// The document's root (`<html>`, made when the page had none) and the JSON-LD scripts'
    /// text, which the metadata reader wants before scripts are dropped.
    struct Parsed {
        let root: HTMLNode
        let jsonLD: [String]
    }

    /// Parses `data` as HTML in `encoding` (an IANA name libxml2 knows; nil: the page's own meta).
    static func parse(_ data: Data, encoding: String?) throws -> Parsed {
        guard almanac_xml_load() == 0 else {
            throw HTMLParseFailure(reason: String(cString: almanac_xml_error()))
        }
        guard !data.isEmpty else { return Parsed(root: HTMLNode(kind: .element, tag: "html"), jsonLD: []) }
        let document: OpaquePointer? = data.withUnsafeBytes { raw -> OpaquePointer? in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: CChar.self) else { return nil }
            let size = Int32(clamping: raw.count)
            if let encoding {
                return encoding.withCString { almanac_html_parse(base, size, $0) }
            }
            return almanac_html_parse(base, size, nil)
        }
        guard let document else { throw HTMLParseFailure(reason: "libxml2 could not parse the page") }
        defer { almanac_html_free(document) }
        let root = HTMLNode(kind: .element, tag: "#document")
        var builder = Builder()
        builder.reserve()
        var node = almanac_html_root(document)
        while let current = node {
            builder.build(current, into: root)
            node = almanac_html_next(current)
        }
        let jsonLD = builder.jsonLD
        // The tree's root is <html>; a fragment without one is wrapped.
        if let html = root.children.first(where: { $0.tag == "html" }) {
            html.parent = nil
            return Parsed(root: html, jsonLD: jsonLD)
        }
        let html = HTMLNode(kind: .element, tag: "html")
        for child in root.children { html.append(child) }
        return Parsed(root: html, jsonLD: jsonLD)
    }

    /// Builds the tree; names are interned by libxml2's dictionary pointer (the parser stores
    /// each distinct name once), so each is converted and lower-cased once per page.
    struct Builder {
        var jsonLD: [String] = []
        private var names: [UnsafePointer<CChar>: (name: String, code: UInt8)] = [:]

        /// Room for a page's distinct tag and attribute names, so the table is not regrown while building.
        mutating func reserve() { names.reserveCapacity(256) }

        private mutating func name(_ pointer: UnsafePointer<CChar>) -> String { named(pointer).name }

        private mutating func named(_ pointer: UnsafePointer<CChar>) -> (name: String, code: UInt8) {
            if let known = names[pointer] { return known }
            let name = String(cString: pointer).lowercased()
            let made = (name, TagCode.code(name))
            names[pointer] = made
            return made
        }

        mutating func build(_ pointer: OpaquePointer, into parent: HTMLNode) {
            switch Int(almanac_html_node_kind(pointer)) {
            case Int(ALMANAC_HTML_TEXT), Int(ALMANAC_HTML_CDATA):
                guard let text = almanac_html_node_text(pointer) else { return }
                let string = String(cString: text)
                // Consecutive text nodes are merged, as a browser's DOM has them.
                if let last = parent.children.last, last.kind == .text {
                    last.text += string
                } else {
                    let node = HTMLNode(kind: .text, text: string)
                    node.parent = parent
                    node.indexHint = parent.children.count
                    parent.children.append(node)
                }
            case Int(ALMANAC_HTML_ELEMENT):
                guard let rawName = almanac_html_node_name(pointer) else { return }
                let (tag, code) = named(rawName)
                var attributes: [(name: String, value: String)] = []
                var attribute = almanac_html_first_attribute(pointer)
                while let current = attribute {
                    if let name = almanac_html_attribute_name(current), let value = almanac_html_attribute_value(current) {
                        attributes.append((self.name(name), String(cString: value)))
                    }
                    attribute = almanac_html_next_attribute(current)
                }
                if tag == "script" {
                    let type = attributes.first { $0.name == "type" }?.value.lowercased() ?? ""
                    if type.contains("ld+json") {
                        var text = ""
                        var child = almanac_html_first_child(pointer)
                        while let current = child {
                            if let raw = almanac_html_node_text(current) { text += String(cString: raw) }
                            child = almanac_html_next(current)
                        }
                        jsonLD.append(text)
                    }
                    return
                }
                if HTMLParser.dropped.contains(code) { return }
                let node = HTMLNode(kind: .element, tag: tag, code: code, attributes: attributes)
                node.parent = parent
                node.indexHint = parent.children.count
                parent.children.append(node)
                var child = almanac_html_first_child(pointer)
                while let current = child {
                    build(current, into: node)
                    child = almanac_html_next(current)
                }
            default:
                // Comments, processing instructions, DTDs: never text a reader sees.
                return
            }
        }
    }
}
