public import Foundation

/// An HTML fragment (a feed item's summary) as plain text, through the page reader's own parser
/// and block writer: scripts, styles and hidden markup dropped as in `read`, entities decoded,
/// blocks joined by spaces. Readability's choice of the article is skipped: a fragment is all
/// article, and a short one would score as boilerplate.
public enum FragmentText {
    /// The fragment's text on one line; "" when it has none (or libxml2 cannot be loaded).
    public static func plain(_ html: String, base: URL? = nil) -> String {
        // Byte searches: Foundation's `contains` on a String costs more than the parse it saves.
        guard html.utf8.contains(UInt8(ascii: "<")) || html.utf8.contains(UInt8(ascii: "&")) else { return html }
        guard let parsed = try? HTMLParser.parse(Data(html.utf8), encoding: "UTF-8") else { return "" }
        return ArticleText.blocks(of: parsed.root, links: false, base: base).map(\.text).joined(separator: " ")
    }
}
