import AlmanacCore
import AlmanacRead
package import Foundation

/// Reads RSS 2.0, RSS 1.0/0.90 (RDF), Atom and JSON Feed into ``ParsedFeed``: XML through
/// libxml2's recovering SAX parser (CLibxml2, opened on first use), JSON Feed with Codable.
///
/// Like feed readers (and Python's feedparser, which the tests compare it with), it reads on past
/// what is not well-formed (a raw `&` in a link) and says so in a note; a feed cut short, an HTML
/// page or bytes that are no feed at all fail in one line.
///
/// `package`: almanac-news-bench times it alone (scripts/bench-news).
package enum FeedParser {
    /// The most of one item's summary kept (HTML included); the tool shows far less.
    static let maximumSummaryBytes = 32 << 10

    /// Parses `data`; `url` is where it came from (relative links resolve against it).
    ///
    /// - Throws: ``FeedError`` naming what the bytes are instead.
    package static func parse(_ data: Data, url: URL? = nil) throws -> ParsedFeed {
        var start = data.startIndex
        // A UTF-8 byte order mark, then whitespace before the first `<` or `{` (feedparser skips it
        // too; libxml2 refuses an XML declaration that is not first).
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        while start < data.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(data[start]) { start += 1 }
        guard start < data.endIndex else { throw FeedError(reason: "the feed is empty") }
        let body = data[start...]
        if body.first == UInt8(ascii: "{") { return try JSONFeed.parse(Data(body), url: url) }
        if Self.looksLikeHTML(body) { throw FeedError(reason: "an HTML page, not a feed") }
        guard body.first == UInt8(ascii: "<") || data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF])
        else { throw FeedError(reason: "not a feed (neither XML nor JSON)") }
        var notes: [String] = []
        let (xml, encodingNote) = Self.transcoded(
            data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) ? data : Data(body))
        if let encodingNote { notes.append(encodingNote) }
        let builder = FeedBuilder(base: url)
        // A feed declared Latin-1 may still carry UTF-8 text (a template in one encoding, items in
        // the other): such texts are read back as UTF-8.
        builder.repairsLatin = declaredEncoding(xml).map { latinNames.contains($0.lowercased()) } ?? false
        let error: String?
        do {
            error = try XMLEvents.parse(xml, handler: builder)
        } catch let failure as XMLReadFailure {
            throw FeedError(reason: failure.reason)
        }
        guard let format = builder.format else {
            if let root = builder.rootName {
                if root.lowercased() == "html" { throw FeedError(reason: "an HTML page, not a feed") }
                throw FeedError(reason: "not a feed (its root element is <\(root.prefix(40))>)")
            }
            throw FeedError(reason: "not a feed (\(error ?? "no XML element"))")
        }
        guard builder.rootClosed else {
            throw FeedError(reason: "the feed ends early (cut short\(error.map { ": \($0)" } ?? ""))")
        }
        if let error { notes.append("not well-formed XML, read on past it (\(error))") }
        if builder.repaired > 0 {
            let declared = declaredEncoding(xml).map { String($0.prefix(20)) } ?? "Latin-1"
            notes.append(
                "broken encoding (declared \(declared) but partly written in UTF-8): \(builder.repaired) texts read as UTF-8"
            )
        }
        return ParsedFeed(
            format: format, title: builder.feedTitle.map(Self.plainTitle), link: builder.feedLink,
            items: builder.items, notes: notes)
    }

    /// `<!DOCTYPE html` or `<html` first (after comments are not looked past: a feed starts with
    /// its declaration or root).
    static func looksLikeHTML(_ body: Data.SubSequence) -> Bool {
        let head = String(decoding: body.prefix(256), as: UTF8.self).lowercased()
        return head.hasPrefix("<!doctype html") || head.hasPrefix("<html")
    }

    /// The encoding libxml2 would be told by the declaration; bytes declared (or taken to be)
    /// UTF-8 that are not are read as Windows-1252 instead, with a note (a Latin-1 feed without a
    /// declaration is common, and libxml2 would stop at its first accented letter).
    static func transcoded(_ data: Data) -> (Data, String?) {
        if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) { return (data, nil) }
        let declared = declaredEncoding(data)
        let valid = data.withUnsafeBytes { isValidUTF8($0) }
        if let declared, !["utf-8", "utf8"].contains(declared.lowercased()) {
            // Declared Latin-1 but written in UTF-8 (a generator's template left as it was): read
            // as what the bytes are; a Latin-1 text with accents is never valid UTF-8.
            guard valid, latinNames.contains(declared.lowercased()), data.contains(where: { $0 >= 0x80 }),
                let range = data.prefix(300).range(of: Data(declared.utf8))
            else { return (data, nil) }
            var fixed = data
            fixed.replaceSubrange(range, with: Data("UTF-8".utf8))
            return (fixed, "broken encoding (declared \(declared.prefix(20)) but written in UTF-8): read as UTF-8")
        }
        if valid { return (data, nil) }
        let text = String(data: data, encoding: .windowsCP1252) ?? String(data: data, encoding: .isoLatin1) ?? ""
        let what = declared == nil ? "no encoding declared and not valid UTF-8" : "declared UTF-8 but not valid UTF-8"
        return (Data(text.utf8), "broken encoding (\(what)): read as Windows-1252")
    }

    /// Single-byte Western encodings a UTF-8 feed is mislabelled with.
    static let latinNames: Set<String> = [
        "iso-8859-1", "latin1", "latin-1", "iso8859-1", "windows-1252", "cp1252", "us-ascii",
    ]

    /// `encoding="..."` of the XML declaration, if any.
    static func declaredEncoding(_ data: Data) -> String? {
        guard data.starts(with: Array("<?xml".utf8)) else { return nil }
        let head = data.prefix(300)
        guard let end = head.firstIndex(of: UInt8(ascii: ">")) else { return nil }
        let declaration = String(decoding: head[..<end], as: UTF8.self)
        guard let range = declaration.range(of: "encoding") else { return nil }
        let rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        let value = rest.dropFirst().prefix { $0 != quote }
        return value.isEmpty ? nil : String(value)
    }

    static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        // ASCII runs are the common case; the validating decoder only sees the rest.
        var index = 0
        let count = bytes.count
        while index < count, bytes[index] < 0x80 { index += 1 }
        if index == count { return true }
        return String(validating: UnsafeRawBufferPointer(rebasing: bytes[index...]), as: UTF8.self) != nil
    }

    /// A title as one line of plain text.
    static func plainTitle(_ text: String) -> String {
        Spaces.collapse(text)
    }

    /// `text` without ASCII whitespace at either end.
    static func trim(_ text: String) -> String {
        let utf8 = text.utf8
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        guard let first = utf8.firstIndex(where: { !isSpace($0) }), let last = utf8.lastIndex(where: { !isSpace($0) })
        else { return "" }
        if first == utf8.startIndex && last == utf8.index(before: utf8.endIndex) { return text }
        return String(text[first...last])
    }
}

/// The SAX state machine behind ``FeedParser``: which element is the feed, which an item, and
/// which of an item's children hold its title, link, date and summary.
final class FeedBuilder: XMLEventSink {
    static let atom = "http://www.w3.org/2005/Atom"
    static let atom03 = "http://purl.org/atom/ns#"
    static let rss10 = "http://purl.org/rss/1.0/"
    static let rss090 = "http://my.netscape.com/rdf/simple/0.9/"
    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    static let dc = "http://purl.org/dc/elements/1.1/"
    static let dcterms = "http://purl.org/dc/terms/"
    static let content = "http://purl.org/rss/1.0/modules/content/"
    static let media = "http://search.yahoo.com/mrss/"

    /// What an item's child holds.
    enum Field {
        case title, dcTitle, link, description, content, mediaDescription, published, updated, id
    }

    /// The element being read into text.
    struct Capture {
        var field: Field
        /// Depth of the captured element.
        var depth: Int
        var bytes: [UInt8] = []
        /// Atom `type="xhtml"`: child elements are markup, written back as tags.
        var xhtml: Bool
        /// Atom `type="html"` (or RSS, whose description is HTML).
        var html: Bool
        /// RSS `<guid isPermaLink>`.
        var permalink: Bool
        var base: URL?
    }

    /// An item being read.
    struct Pending {
        var title: String?
        var titleIsHTML = false
        var dcTitle: String?
        var link: String?
        var alternate: String?
        var description: (text: String, html: Bool)?
        var content: (text: String, html: Bool)?
        var mediaDescription: String?
        var published: Date?
        var updated: Date?
        var id: String?
        var permalinkID: String?
    }

    private(set) var format: FeedFormat?
    private(set) var rootName: String?
    private(set) var rootClosed = false
    private(set) var feedTitle: String?
    private(set) var feedLink: String?
    private(set) var items: [FeedItem] = []
    /// Whether texts that are UTF-8 read as Latin-1 are read back as UTF-8.
    var repairsLatin = false
    /// How many were.
    private(set) var repaired = 0

    private var depth = 0
    /// `xml:base` in force per open element (index = depth - 1).
    private var bases: [URL?] = []
    /// Local names of the open elements.
    private var names: [String] = []
    private var itemDepth: Int?
    private var pending = Pending()
    private var capture: Capture?
    private var channelTitleDepth: Int?
    private var channelTitleBytes: [UInt8] = []
    private var channelTitleHTML = false
    private let documentBase: URL?

    init(base: URL?) {
        self.documentBase = base
    }

    override func start(_ name: String, namespace: String, prefix: String, attributes: [XMLAttribute]) {
        depth += 1
        var base = bases.last ?? documentBase
        for attribute in attributes where attribute.name == "base" && attribute.namespace == XMLEvents.xmlNamespace {
            base = Self.resolve(attribute.value, against: base).flatMap { URL(string: $0) } ?? base
        }
        bases.append(base)
        names.append(name)
        if depth == 1 {
            rootName = prefix.isEmpty ? name : "\(prefix):\(name)"
            switch (name, namespace) {
            case ("rss", ""), ("rss", Self.rss10): format = .rss
            case ("RDF", Self.rdf): format = .rdf
            case ("feed", Self.atom), ("feed", Self.atom03): format = .atom
            default: format = nil
            }
            return
        }
        guard format != nil else { return }
        if let xhtml = capture?.xhtml {
            // Inside a captured element: xhtml children are written back as markup.
            if xhtml { capture?.bytes += Array("<\(name)>".utf8) }
            return
        }
        if let itemDepth {
            itemChild(name, namespace: namespace, attributes: attributes, base: base, itemDepth: itemDepth)
            return
        }
        if (name == "item" || name == "entry")
            && [Self.atom, Self.atom03, "", Self.rss10, Self.rss090].contains(namespace)
        {
            itemDepth = depth
            pending = Pending()
            return
        }
        // The feed's own title and link: children of <channel> (RSS, RDF) or of the root (Atom).
        let parent = names.count >= 2 ? names[names.count - 2] : ""
        let ownLevel = format == .atom ? depth == 2 : parent == "channel" && depth == 3
        let feedNamespace = [Self.atom, Self.atom03, "", Self.rss10, Self.rss090].contains(namespace)
        guard ownLevel, feedNamespace else { return }
        if name == "title", feedTitle == nil {
            channelTitleDepth = depth
            channelTitleBytes = []
            channelTitleHTML = attribute("type", in: attributes) == "html"
        } else if name == "link", feedLink == nil {
            if namespace == Self.atom || namespace == Self.atom03 {
                let rel = attribute("rel", in: attributes) ?? "alternate"
                if rel == "alternate", let href = attribute("href", in: attributes) {
                    feedLink = Self.resolve(href, against: base)
                }
            } else if namespace == "" || namespace == Self.rss10 || namespace == Self.rss090 {
                capture = Capture(field: .link, depth: depth, xhtml: false, html: false, permalink: false, base: base)
            }
        }
    }

    private func attribute(_ name: String, in attributes: [XMLAttribute]) -> String? {
        attributes.first { $0.name == name && $0.namespace.isEmpty }?.value
    }

    /// A child (or deeper descendant) of the item being read.
    private func itemChild(
        _ name: String, namespace: String, attributes: [XMLAttribute], base: URL?, itemDepth: Int
    ) {
        // media:description may sit inside media:group; everything else counts as a direct child only
        // (an Atom entry's <source> has its own title and link).
        if namespace == Self.media, name == "description" {
            begin(.mediaDescription, attributes: attributes, base: base, html: false)
            return
        }
        guard depth == itemDepth + 1 else { return }
        let feedNamespace = [Self.atom, Self.atom03, "", Self.rss10, Self.rss090].contains(namespace)
        let atomish = namespace == Self.atom || namespace == Self.atom03
        switch name {
        case "title" where feedNamespace:
            begin(.title, attributes: attributes, base: base, html: false)
        case "title" where namespace == Self.dc:
            begin(.dcTitle, attributes: attributes, base: base, html: false)
        case "link" where atomish:
            let rel = attribute("rel", in: attributes) ?? "alternate"
            if rel == "alternate", pending.alternate == nil, let href = attribute("href", in: attributes) {
                // An empty reference is the base itself (RFC 3986 §5.2), as feedparser reads it.
                pending.alternate = href.isEmpty ? base?.absoluteString : Self.resolve(href, against: base)
            }
        case "link" where feedNamespace:
            begin(.link, attributes: attributes, base: base, html: false)
        case "description" where namespace == "" || namespace == Self.rss10 || namespace == Self.rss090:
            begin(.description, attributes: attributes, base: base, html: true)
        case "summary" where atomish:
            begin(.description, attributes: attributes, base: base, html: false)
        case "content" where atomish:
            begin(.content, attributes: attributes, base: base, html: false)
        case "encoded" where namespace == Self.content:
            begin(.content, attributes: attributes, base: base, html: true)
        case "pubDate" where namespace == "", "published" where atomish, "issued" where atomish,
            "issued" where namespace == Self.dcterms, "created" where namespace == Self.dcterms:
            begin(.published, attributes: attributes, base: base, html: false)
        case "updated" where atomish, "modified" where atomish, "date" where namespace == Self.dc,
            "modified" where namespace == Self.dcterms:
            begin(.updated, attributes: attributes, base: base, html: false)
        case "guid" where namespace == "":
            begin(.id, attributes: attributes, base: base, html: false)
            capture?.permalink = attribute("isPermaLink", in: attributes)?.lowercased() != "false"
        case "id" where atomish:
            begin(.id, attributes: attributes, base: base, html: false)
        default:
            break
        }
    }

    /// Starts capturing a field's text; Atom's `type` says whether it is text, HTML or XHTML.
    private func begin(_ field: Field, attributes: [XMLAttribute], base: URL?, html: Bool) {
        let type = attribute("type", in: attributes)?.lowercased()
        let xhtml = type == "xhtml" || type == "application/xhtml+xml"
        let isHTML = html || xhtml || type == "html" || type == "text/html"
        capture = Capture(field: field, depth: depth, xhtml: xhtml, html: isHTML, permalink: false, base: base)
    }

    override func text(_ bytes: UnsafeRawBufferPointer) {
        if capture != nil {
            guard let count = capture?.bytes.count, count < FeedParser.maximumSummaryBytes else { return }
            if capture?.xhtml == true {
                for byte in bytes {
                    switch byte {
                    case UInt8(ascii: "<"): capture?.bytes += Array("&lt;".utf8)
                    case UInt8(ascii: "&"): capture?.bytes += Array("&amp;".utf8)
                    default: capture?.bytes.append(byte)
                    }
                }
            } else {
                capture?.bytes.append(contentsOf: bytes)
            }
        } else if channelTitleDepth != nil, channelTitleBytes.count < 4096 {
            channelTitleBytes.append(contentsOf: bytes)
        }
    }

    override func end() {
        defer {
            depth -= 1
            bases.removeLast()
            names.removeLast()
        }
        if depth == 1 {
            rootClosed = true
            return
        }
        if let capture, depth > capture.depth {
            if capture.xhtml, let name = names.last { self.capture?.bytes += Array("</\(name)>".utf8) }
            return
        }
        if let capture, depth == capture.depth {
            self.capture = nil
            finish(capture)
            return
        }
        if let titleDepth = channelTitleDepth, depth == titleDepth {
            channelTitleDepth = nil
            var text = String(decoding: channelTitleBytes, as: UTF8.self)
            if repairsLatin, let fixed = Self.utf8ReadAsLatin1(text) { text = fixed }
            feedTitle = channelTitleHTML || HTMLish.looksLikeMarkup(text) ? FragmentText.plain(text) : text
            return
        }
        if let itemDepth, depth == itemDepth {
            self.itemDepth = nil
            items.append(item(from: pending))
        }
    }

    /// Stores a captured field in the item being read (or the feed's link).
    private func finish(_ capture: Capture) {
        var text = String(decoding: capture.bytes, as: UTF8.self)
        if repairsLatin, let fixed = Self.utf8ReadAsLatin1(text) {
            text = fixed
            repaired += 1
        }
        guard itemDepth != nil else {
            if capture.field == .link, feedLink == nil {
                feedLink = Self.resolve(FeedParser.trim(text), against: capture.base)
            }
            return
        }
        let trimmed = FeedParser.trim(text)
        switch capture.field {
        case .title:
            if pending.title == nil {
                pending.title = trimmed
                pending.titleIsHTML = capture.html
            }
        case .dcTitle: if pending.dcTitle == nil { pending.dcTitle = trimmed }
        case .link:
            if pending.link == nil, !trimmed.isEmpty { pending.link = Self.resolve(trimmed, against: capture.base) }
        case .description: if pending.description == nil { pending.description = (trimmed, capture.html) }
        case .content: if pending.content == nil { pending.content = (trimmed, capture.html) }
        case .mediaDescription: if pending.mediaDescription == nil { pending.mediaDescription = trimmed }
        case .published: if pending.published == nil { pending.published = FeedDates.parse(trimmed) }
        case .updated: if pending.updated == nil { pending.updated = FeedDates.parse(trimmed) }
        case .id:
            if pending.id == nil {
                pending.id = trimmed
                if capture.permalink, trimmed.hasPrefix("http://") || trimmed.hasPrefix("https://") {
                    pending.permalinkID = trimmed
                }
            }
        }
    }

    private func item(from pending: Pending) -> FeedItem {
        var title = pending.title ?? pending.dcTitle
        if let raw = title, pending.titleIsHTML || HTMLish.looksLikeMarkup(raw) {
            title = FragmentText.plain(raw)
        }
        title = title.map(Spaces.collapse).flatMap { $0.isEmpty ? nil : $0 }
        let summary: (text: String, html: Bool) =
            [pending.description, pending.content].compactMap { $0 }.first { !$0.text.isEmpty }
            ?? pending.mediaDescription.map { ($0, false) } ?? ("", false)
        return FeedItem(
            title: title, link: pending.link ?? pending.alternate ?? pending.permalinkID,
            published: pending.published ?? pending.updated, summary: summary.text, summaryIsHTML: summary.html,
            id: pending.id)
    }

    /// `text` read back as UTF-8 when it is UTF-8 bytes decoded as Latin-1 (`BrÃ¸ndby`), else nil.
    static func utf8ReadAsLatin1(_ text: String) -> String? {
        guard text.unicodeScalars.contains(where: { $0.value >= 0xC2 && $0.value <= 0xF4 }) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            guard scalar.value <= 0xFF else { return nil }
            bytes.append(UInt8(scalar.value))
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// `href` against `base` (unchanged when there is no base or it does not parse).
    static func resolve(_ href: String, against base: URL?) -> String? {
        let trimmed = FeedParser.trim(href)
        guard !trimmed.isEmpty else { return nil }
        guard let base, !trimmed.hasPrefix("http://"), !trimmed.hasPrefix("https://") else { return trimmed }
        return URL(string: trimmed, relativeTo: base)?.absoluteString ?? trimmed
    }
}

/// Whether a title that should be plain text carries markup or escaped entities (a title tagged as
/// text that is HTML, or escaped twice, is common): then it goes through the page reader's extractor.
enum HTMLish {
    static func looksLikeMarkup(_ text: String) -> Bool {
        let bytes = text.utf8
        guard let ampersand = bytes.firstIndex(of: UInt8(ascii: "&")) ?? bytes.firstIndex(of: UInt8(ascii: "<")) else {
            return false
        }
        if bytes[ampersand] == UInt8(ascii: "<") {
            return bytes.contains(UInt8(ascii: ">"))
        }
        // `&name;` or `&#...;` somewhere after the first ampersand.
        var index = ampersand
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "&") {
                var next = bytes.index(after: index)
                var length = 0
                while next < bytes.endIndex, length < 10,
                    bytes[next] == UInt8(ascii: "#") || (bytes[next] | 0x20 >= 97 && bytes[next] | 0x20 <= 122)
                        || (bytes[next] >= 48 && bytes[next] <= 57)
                {
                    next = bytes.index(after: next)
                    length += 1
                }
                if length > 0, next < bytes.endIndex, bytes[next] == UInt8(ascii: ";") { return true }
            } else if bytes[index] == UInt8(ascii: "<") {
                return true
            }
            index = bytes.index(after: index)
        }
        return false
    }
}
