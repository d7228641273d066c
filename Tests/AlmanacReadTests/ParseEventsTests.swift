import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacRead

/// The page tree is built from libxml2's parse events (HTMLParser.parse), not copied from the tree
/// libxml2 builds (HTMLParser.parseReference). libxml2's tree builder places some nodes its own way
/// (a second <html> inside the first, text outside every element dropped, prefixes cut from names,
/// `selected` valued "selected"); these tests hold the two trees equal, so the extractor reads the
/// same page either way, on this machine's libxml2 and on any other one CI runs.
@Suite("read: the tree from libxml2's parse events")
struct ParseEventsTests {
    /// Every node of the tree with its attributes, one per line, then the JSON-LD texts.
    static func describe(_ parsed: HTMLParser.Parsed) -> String {
        var lines: [String] = []
        func walk(_ node: HTMLNode, _ depth: Int) {
            let indent = String(repeating: " ", count: depth)
            if node.kind == .text {
                lines.append(indent + "#text " + node.text.debugDescription)
                return
            }
            lines.append(
                indent + node.tag + node.attributes.map { " \($0.name)=\($0.value.debugDescription)" }.joined())
            for child in node.children {
                #expect(child.parent === node)
                walk(child, depth + 1)
            }
        }
        walk(parsed.root, 0)
        return (lines + parsed.jsonLD.map { "json-ld " + $0.debugDescription }).joined(separator: "\n")
    }

    static func expectSameTree(_ data: Data, encoding: String, _ label: String) throws {
        let events = describe(try HTMLParser.parse(data, encoding: encoding))
        let reference = describe(try HTMLParser.parseReference(data, encoding: encoding))
        guard events != reference else { return }
        let ours = events.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let theirs = reference.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let line = (0..<min(ours.count, theirs.count)).first { ours[$0] != theirs[$0] } ?? min(ours.count, theirs.count)
        let mine = line < ours.count ? ours[line] : ""
        let libxml2 = line < theirs.count ? theirs[line] : ""
        Issue.record("\(label) (\(encoding)): line \(line + 1): events '\(mine)', libxml2's tree '\(libxml2)'")
    }

    static var pages: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: Fixtures.url("read/pages").path).sorted()) ?? []
    }

    static func page(_ name: String) throws -> Data {
        try Data(contentsOf: Fixtures.url("read/pages/\(name)/source.html"))
    }

    @Test("equals libxml2's own tree on the 70 reference pages (and a few in other charsets)")
    func referencePages() throws {
        #expect(Self.pages.count == 70)
        for (index, name) in Self.pages.enumerated() {
            let data = try Self.page(name)
            try Self.expectSameTree(data, encoding: Charset.detect(data, contentType: nil), name)
            if index % 10 == 0 {
                for encoding in ["windows-1252", "SHIFT_JIS"] {
                    try Self.expectSameTree(data, encoding: encoding, name)
                }
            }
        }
    }

    static let fragments = [
        "<html><p>a</p></html>more",  // a second <html>, inside the first
        "<!DOCTYPE html><html><p>a</p></html>more",  // beside it, after a DOCTYPE
        "<!-- c --><html><p>a</p></html>more<!-- d -->",
        "<p>a</p><!DOCTYPE html></html>late doctype",
        "<html lang=x><p>a</p><html class=y id=z>t</html>after</html> more",
        "  \n text first<body x=1><body y=2><head><title>t</title></head>",
        "<wb:follow-button a:b=c>t</wb:follow-button><xml:lang>q</xml:lang><a:>z</a:><:b>w</:b>",
        "<select><option selected>a</select><input disabled checked=x nowrap hidden data-x>",
        "<p>a<!-- c -->b<?pi x?>c<![CDATA[d]]>e<script>x</script>f<style>g</style>h</p>",
        "<p>&amp;&nbsp;&foo;&#x41;&#65 &unknown; &#0; \u{0}</p>",
        #"<script type="application/ld+json">{"@type": "Article"}</script><p>a</p>"#,
        #"<p>x</p></html><script type="application/LD+JSON">{"a": 1}</script>"#,
        #"<noscript><script type="application/ld+json">{"hidden": 1}</script></noscript>"#,
        #"<svg><script type="application/ld+json">{"x": 1}</script><p>in svg</p></svg>after"#,
        "<table><tr><td>a<td>b<tr><p>c</table><li>i<ul><li>j</ul>",
        "<div> <span> </span> <p> </p> </div>\n<b>x</b> <i>y</i>",
        "<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\"><body> <p>a</p> <b>x</b> </body>",
        "<textarea>t<b>u</b></textarea><frameset><frame></frameset><form><button>b</button></form>",
        "<p>unclosed <b>bold <i>both",
        "<",
        "</p>",
        "<?xml version=\"1.0\"?><html><body>x</body></html>",
    ]

    @Test("equals libxml2's own tree where its tree builder places nodes its own way", arguments: fragments)
    func fragment(_ html: String) throws {
        try Self.expectSameTree(Data(html.utf8), encoding: "UTF-8", html)
    }

    @Test("equals libxml2's own tree on cut and spliced pages")
    func splices() throws {
        // A fixed generator: the same 120 pieces every run.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(max(bound, 1)))
        }
        let sources = try Self.pages.map(Self.page)
        for round in 0..<120 {
            let page = sources[next(sources.count)]
            let start = next(page.count)
            var piece = Data(page[start..<min(page.count, start + 1 + next(6000))])
            piece.append(Data(Self.fragments[next(Self.fragments.count)].utf8))
            try Self.expectSameTree(piece, encoding: "UTF-8", "splice \(round)")
        }
    }
}
