import CLibxml2
import Foundation

/// One node of a parsed page: an element or a run of text.
///
/// A mutable tree the extractor prunes and rewrites in place (Readability's algorithm is written
/// against a mutable DOM). It lives inside one extraction call and never crosses a task, so its
/// stored properties skip Swift's run-time exclusivity checks (`@exclusivity(unchecked)`): they
/// were a tenth of the extractor's instructions, on accesses that can never overlap.
final class HTMLNode {
    /// Element or text.
    enum Kind { case element, text }

    let kind: Kind
    /// Lower-case tag name ("" for text).
    @exclusivity(unchecked) var tag: String {
        didSet { code = TagCode.code(tag) }
    }
    /// The tag as a ``TagCode`` (0 for text and unlisted names), for ``TagSet`` tests.
    @exclusivity(unchecked) private(set) var code: UInt8
    /// Readability's class-and-id match string, made once (attributes never change after parsing).
    @exclusivity(unchecked) var matchCache: String?
    /// Class and id lower-cased, made once for Readability's class weight.
    @exclusivity(unchecked) var lowerNamesCache: (String, String)?
    /// Attributes in document order, names lower-cased.
    @exclusivity(unchecked) var attributes: [(name: String, value: String)]
    /// The text of a text node.
    @exclusivity(unchecked) var text: String
    /// The parent element; nil for the root and for detached nodes.
    @exclusivity(unchecked) unowned(unsafe) var parent: HTMLNode?
    /// Children in document order.
    @exclusivity(unchecked) var children: [HTMLNode] = []

    // Readability's per-node state.
    @exclusivity(unchecked) var score: Double = 0
    @exclusivity(unchecked) var scored = false
    @exclusivity(unchecked) var dataTable = false
    /// The text measure of the subtree, kept until the subtree changes (see ``changed()``).
    @exclusivity(unchecked) var measure: Readability.Measure?
    /// Where the node last was among its parent's children (checked before use: removals shift it).
    @exclusivity(unchecked) var indexHint = 0
    /// The text length inside its links, kept like ``measure``.
    @exclusivity(unchecked) var linkLength: Double?

    init(
        kind: Kind, tag: String = "", code: UInt8? = nil, attributes: [(name: String, value: String)] = [],
        text: String = ""
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
    static let dropped: TagSet = [
        "script", "style", "noscript", "template", "iframe", "object", "embed", "svg", "canvas", "select", "textarea",
        "button",
    ]

    /// The document's root (`<html>`, made when the page had none) and the JSON-LD scripts'
    /// text, which the metadata reader wants before scripts are dropped.
    struct Parsed {
        let root: HTMLNode
        let jsonLD: [String]
    }

    /// Parses `data` as HTML in `encoding` (an IANA name libxml2 knows; nil: the page's own meta).
    ///
    /// The tree is built from libxml2's parse events (``EventBuilder``): libxml2 making its own tree
    /// for us to copy and free was about half of its time.
    static func parse(_ data: Data, encoding: String?) throws -> Parsed {
        guard almanac_xml_load() == 0 else {
            throw HTMLParseFailure(reason: String(cString: almanac_xml_error()))
        }
        guard !data.isEmpty else { return Parsed(root: HTMLNode(kind: .element, tag: "html"), jsonLD: []) }
        let builder = EventBuilder()
        let status = withExtendedLifetime(builder) {
            var events = almanac_html_events(
                context: Unmanaged.passUnretained(builder).toOpaque(),
                start: { context, name, attributes, place in
                    guard let context, let name else { return }
                    Unmanaged<EventBuilder>.fromOpaque(context).takeUnretainedValue()
                        .start(name, attributes, place: place)
                },
                end: { context in
                    guard let context else { return }
                    Unmanaged<EventBuilder>.fromOpaque(context).takeUnretainedValue().end()
                },
                text: { context, text, length in
                    guard let context, let text else { return }
                    Unmanaged<EventBuilder>.fromOpaque(context).takeUnretainedValue()
                        .text(UnsafeRawBufferPointer(start: text, count: Int(length)))
                })
            return data.withUnsafeBytes { raw -> Int32 in
                guard let base = raw.baseAddress?.assumingMemoryBound(to: CChar.self) else { return -1 }
                let size = Int32(clamping: raw.count)
                if let encoding {
                    return encoding.withCString { almanac_html_parse_events(base, size, $0, &events) }
                }
                return almanac_html_parse_events(base, size, nil, &events)
            }
        }
        guard status == 0 else { throw HTMLParseFailure(reason: "libxml2 could not parse the page") }
        builder.finish()
        return rooted(builder.document, jsonLD: builder.jsonLD)
    }

    /// The tree's root is <html>; a fragment without one is wrapped.
    static func rooted(_ document: HTMLNode, jsonLD: [String]) -> Parsed {
        if let html = document.children.first(where: { $0.tag == "html" }) {
            html.parent = nil
            return Parsed(root: html, jsonLD: jsonLD)
        }
        let html = HTMLNode(kind: .element, tag: "html")
        for child in document.children { html.append(child) }
        return Parsed(root: html, jsonLD: jsonLD)
    }

    /// Element and attribute names, interned by libxml2's pointer (its dictionary stores each
    /// distinct name once), so each is converted and lower-cased once per page.
    struct Names {
        private var table: [UnsafePointer<CChar>: (name: String, code: UInt8)] = [:]

        init() { table.reserveCapacity(256) }

        mutating func name(_ pointer: UnsafePointer<CChar>) -> String { named(pointer).name }

        mutating func named(_ pointer: UnsafePointer<CChar>) -> (name: String, code: UInt8) {
            if let known = table[pointer] { return known }
            let name = String(cString: pointer).lowercased()
            let made = (name, TagCode.code(name))
            table[pointer] = made
            return made
        }
    }

    /// Builds the tree from libxml2's parse events, as libxml2's own tree builder would place
    /// each node (CLibxml2 says where a top-level element goes), dropping ``dropped`` subtrees
    /// and keeping the JSON-LD scripts' text. Text is gathered as bytes and made a String once
    /// per run (libxml2 splits a run at every entity); consecutive runs are one text node, as in
    /// a browser's DOM, also across a dropped element or a comment.
    final class EventBuilder {
        // Used by one parse on one thread: no run-time exclusivity checks (see HTMLNode).
        let document = HTMLNode(kind: .element, tag: "#document")
        @exclusivity(unchecked) private(set) var jsonLD: [String] = []
        @exclusivity(unchecked) private var names = Names()
        /// The open elements that are kept, innermost last.
        @exclusivity(unchecked) private var open: [HTMLNode] = []
        /// The document's first child when it is an element (nil when it was dropped).
        @exclusivity(unchecked) private var first: HTMLNode?
        /// How deep inside a dropped element the parse is (0: not inside one).
        @exclusivity(unchecked) private var skipping = 0
        /// The text of the JSON-LD script being read.
        @exclusivity(unchecked) private var script: [UInt8]?
        /// Text of the innermost open element not yet made a node.
        @exclusivity(unchecked) private var pending: [UInt8] = []

        func start(_ name: UnsafePointer<CChar>, _ attributes: UnsafePointer<UnsafePointer<CChar>?>?, place: Int32) {
            if skipping > 0 {
                skipping += 1
                return
            }
            let parent: HTMLNode
            switch place {
            case Int32(ALMANAC_HTML_FIRST), Int32(ALMANAC_HTML_TOP): parent = document
            case Int32(ALMANAC_HTML_UNDER_FIRST):
                // Under a dropped first element: dropped with it.
                guard let first else {
                    skipping = 1
                    return
                }
                parent = first
            default:
                guard let innermost = open.last else {
                    skipping = 1
                    return
                }
                parent = innermost
            }
            flush()
            let (tag, code) = names.named(name)
            var pairs: [(name: String, value: String)] = []
            var index = 0
            while let attributes, let attribute = attributes[index], let value = attributes[index + 1] {
                pairs.append((names.name(attribute), String(cString: value)))
                index += 2
            }
            if tag == "script" {
                let type = pairs.first { $0.name == "type" }?.value.lowercased() ?? ""
                if type.contains("ld+json") { script = [] }
                skipping = 1
                return
            }
            if HTMLParser.dropped.contains(code) {
                skipping = 1
                return
            }
            let node = HTMLNode(kind: .element, tag: tag, code: code, attributes: pairs)
            node.parent = parent
            node.indexHint = parent.children.count
            parent.children.append(node)
            open.append(node)
            if place == Int32(ALMANAC_HTML_FIRST) { first = node }
        }

        func end() {
            if skipping > 0 {
                skipping -= 1
                if skipping == 0, let text = script {
                    jsonLD.append(String(decoding: text, as: UTF8.self))
                    script = nil
                }
                return
            }
            flush()
            open.removeLast()
        }

        func text(_ bytes: UnsafeRawBufferPointer) {
            if skipping > 0 {
                if skipping == 1, script != nil { script?.append(contentsOf: bytes) }
                return
            }
            pending.append(contentsOf: bytes)
        }

        /// Ends the tree (the parse may stop with elements open).
        func finish() {
            flush()
            if let text = script {
                jsonLD.append(String(decoding: text, as: UTF8.self))
                script = nil
            }
        }

        /// Makes the pending text a node of the innermost open element.
        private func flush() {
            guard !pending.isEmpty else { return }
            defer { pending.removeAll(keepingCapacity: true) }
            guard let parent = open.last else { return }
            let string = String(decoding: pending, as: UTF8.self)
            if let last = parent.children.last, last.kind == .text {
                last.text += string
            } else {
                let node = HTMLNode(kind: .text, text: string)
                node.parent = parent
                node.indexHint = parent.children.count
                parent.children.append(node)
            }
        }
    }

    /// libxml2's own tree, copied into ours: the reference ``parse(_:encoding:)`` is tested
    /// against (the tree libxml2 builds from the same events), not used to read pages.
    static func parseReference(_ data: Data, encoding: String?) throws -> Parsed {
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
        var builder = TreeCopier()
        var node = almanac_html_root(document)
        while let current = node {
            builder.build(current, into: root)
            node = almanac_html_next(current)
        }
        return rooted(root, jsonLD: builder.jsonLD)
    }

    /// Copies libxml2's tree (``parseReference(_:encoding:)``).
    struct TreeCopier {
        var jsonLD: [String] = []
        private var names = Names()

        mutating func build(_ pointer: OpaquePointer, into parent: HTMLNode) {
            switch Int(almanac_html_node_kind(pointer)) {
            case Int(ALMANAC_HTML_TEXT), Int(ALMANAC_HTML_CDATA):
                guard let text = almanac_html_node_text(pointer) else { return }
                let string = String(cString: text)
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
                let (tag, code) = names.named(rawName)
                var attributes: [(name: String, value: String)] = []
                var attribute = almanac_html_first_attribute(pointer)
                while let current = attribute {
                    if let name = almanac_html_attribute_name(current),
                        let value = almanac_html_attribute_value(current)
                    {
                        attributes.append((names.name(name), String(cString: value)))
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
                return
            }
        }
    }
}
