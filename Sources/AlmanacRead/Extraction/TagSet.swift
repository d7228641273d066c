/// HTML element names as small integers, so the extractor's many "is this one of these tags"
/// questions are a bit test instead of hashing a String (the hottest part of every walk).
enum TagCode {
    /// Every name the extractor asks about, and the rest of HTML's elements. A name not listed
    /// (a custom element) is 0, which no ``TagSet`` contains.
    static let names: [String] = [
        "a", "abbr", "address", "area", "article", "aside", "audio", "b", "base", "bdi", "bdo", "blockquote", "body",
        "br", "button", "canvas", "caption", "center", "cite", "code", "col", "colgroup", "data", "datalist", "dd",
        "del", "details", "dfn", "dialog", "div", "dl", "dt", "em", "embed", "fieldset", "figcaption", "figure", "font",
        "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hgroup", "hr", "html", "i", "iframe",
        "img", "input", "ins", "kbd", "label", "legend", "li", "link", "main", "map", "mark", "math", "menu", "meta",
        "meter", "nav", "noscript", "object", "ol", "optgroup", "option", "output", "p", "param", "picture", "pre",
        "progress", "q", "rp", "rt", "ruby", "s", "samp", "script", "search", "section", "select", "small", "source",
        "span", "strike", "strong", "style", "sub", "summary", "sup", "svg", "table", "tbody", "td", "template",
        "textarea", "tfoot", "th", "thead", "time", "title", "tr", "track", "tt", "u", "ul", "var", "video", "wbr",
    ]

    static let codes: [String: UInt8] = {
        precondition(names.count < 128, "TagSet holds 127 names")
        var codes: [String: UInt8] = [:]
        for (index, name) in names.enumerated() { codes[name] = UInt8(index + 1) }
        return codes
    }()

    /// The code of a lower-case tag name (0: not a listed HTML element).
    static func code(_ name: String) -> UInt8 { codes[name] ?? 0 }
}

/// A set of HTML element names as a 128-bit mask over ``TagCode``.
struct TagSet: ExpressibleByArrayLiteral, Sendable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    init(_ names: some Sequence<String>) {
        for name in names {
            let code = TagCode.code(name)
            // Every name a set is made of must be listed in TagCode.names; debug builds (the tests,
            // which build every set) stop on one that is not.
            assert(code != 0, "\(name) is not in TagCode.names")
            guard code != 0 else { continue }
            if code < 64 { low |= 1 << UInt64(code) } else { high |= 1 << UInt64(code - 64) }
        }
    }

    init(arrayLiteral names: String...) {
        self.init(names)
    }

    /// Whether the set holds the tag with `code` (0 never).
    @inline(__always)
    func contains(_ code: UInt8) -> Bool {
        code < 64 ? low & (1 << UInt64(code)) != 0 : high & (1 << UInt64(code &- 64)) != 0
    }

    /// Whether the set holds `node`'s tag.
    @inline(__always)
    func contains(_ node: HTMLNode) -> Bool { contains(node.code) }
}
