import Foundation

/// One block of an article's text, as printed.
struct ReadBlock: Sendable, Hashable, Codable {
    /// What the block is.
    enum Kind: String, Sendable, Hashable, Codable {
        /// A heading (``ReadBlock/level`` 2-6).
        case heading
        /// A paragraph.
        case paragraph
        /// A list item (``ReadBlock/level``: nesting depth from 1).
        case item
        /// Preformatted text (code), whitespace kept.
        case code
        /// A quotation.
        case quote
        /// A table row, cells joined by ` | `.
        case row
        /// A figure's caption.
        case caption
    }

    /// What the block is.
    var kind: Kind
    /// Heading level or list depth; 0 otherwise.
    var level: Int
    /// The text, whitespace collapsed (except code).
    var text: String

    init(kind: Kind, level: Int = 0, text: String) {
        self.kind = kind
        self.level = level
        self.text = text
    }

    /// The block as one markdown-like line (code: a fenced block).
    var line: String {
        switch kind {
        case .heading: return String(repeating: "#", count: max(2, min(level, 6))) + " " + text
        case .paragraph: return text
        case .item: return String(repeating: "  ", count: max(0, level - 1)) + "- " + text
        case .code: return "```\n" + text + "\n```"
        case .quote: return "> " + text
        case .row: return "| " + text + " |"
        case .caption: return "(" + text + ")"
        }
    }
}

/// Turns the extracted article tree into blocks.
struct ArticleText {
    /// Whether links are written `[text](url)`.
    let links: Bool
    /// The page's URL, to make link targets absolute.
    let base: URL?

    private var blocks: [ReadBlock] = []
    private var inline = ""
    private var pendingSpace = false
    private var kind: ReadBlock.Kind = .paragraph
    private var level = 0
    private var listDepth = 0
    private var quoteDepth = 0

    init(links: Bool, base: URL?) {
        self.links = links
        self.base = base
    }

    static let blockTags: TagSet = [
        "p", "div", "section", "article", "header", "footer", "main", "aside", "nav", "blockquote", "ul", "ol", "li",
        "dl",
        "dt", "dd", "table", "thead", "tbody", "tfoot", "tr", "pre", "h1", "h2", "h3", "h4", "h5", "h6", "figure",
        "figcaption", "hr", "center", "form", "fieldset", "details", "summary", "address", "caption", "body", "html",
    ]

    static func blocks(of article: HTMLNode, links: Bool, base: URL?) -> [ReadBlock] {
        var writer = ArticleText(links: links, base: base)
        writer.visit(article)
        writer.flush()
        return writer.blocks
    }

    private mutating func flush() {
        let text = inline
        if !text.isEmpty {
            blocks.append(
                ReadBlock(kind: quoteDepth > 0 && kind == .paragraph ? .quote : kind, level: level, text: text))
        }
        inline = ""
        pendingSpace = false
        kind = .paragraph
        level = 0
    }

    private mutating func write(_ text: String) {
        // Runs between spaces are appended whole (a scalar at a time was the writer's main cost).
        let scalars = text.unicodeScalars
        var run: String.Index?
        var index = scalars.startIndex
        while index < scalars.endIndex {
            if Readability.isSpace(scalars[index]) {
                if let start = run {
                    inline.append(contentsOf: Substring(scalars[start..<index]))
                    run = nil
                }
                pendingSpace = !inline.isEmpty
            } else if run == nil {
                if pendingSpace { inline.append(" ") }
                pendingSpace = false
                run = index
            }
            scalars.formIndex(after: &index)
        }
        if let start = run { inline.append(contentsOf: Substring(scalars[start..<scalars.endIndex])) }
    }

    private mutating func visit(_ node: HTMLNode) {
        if node.kind == .text {
            write(node.text)
            return
        }
        switch node.tag {
        case "br":
            flush()
        case "img", "hr", "head", "title", "meta", "link":
            if node.tag == "hr" { flush() }
        case "pre":
            flush()
            let code = node.textContent.trimmingCharacters(in: .newlines)
            if !code.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                blocks.append(ReadBlock(kind: .code, text: code))
            }
        case "h1", "h2", "h3", "h4", "h5", "h6":
            flush()
            children(node)
            kind = .heading
            level = Int(node.tag.dropFirst()) ?? 2
            flush()
        case "ul", "ol", "dl":
            flush()
            listDepth += 1
            children(node)
            flush()
            listDepth -= 1
        case "li", "dt", "dd":
            flush()
            kind = listDepth > 0 ? .item : .paragraph
            level = max(1, listDepth)
            let depth = level
            for child in node.children {
                visit(child)
                // Text after a nested list continues the item at its depth.
                if kind == .paragraph, !inline.isEmpty || child.isElement && ["ul", "ol"].contains(child.tag) {
                    kind = .item
                    level = depth
                }
            }
            if kind == .paragraph {
                kind = .item
                level = depth
            }
            flush()
        case "tr":
            flush()
            var cells: [String] = []
            for cell in node.children where cell.tag == "td" || cell.tag == "th" {
                let text = Readability.innerText(cell)
                if !text.isEmpty { cells.append(text) }
            }
            if !cells.isEmpty { blocks.append(ReadBlock(kind: .row, text: cells.joined(separator: " | "))) }
        case "figcaption", "caption":
            flush()
            children(node)
            kind = .caption
            flush()
        case "blockquote":
            flush()
            quoteDepth += 1
            children(node)
            flush()
            quoteDepth -= 1
        case "a" where links:
            let text = Readability.innerText(node)
            if let href = node.attribute("href"), !text.isEmpty, let target = absolute(href) {
                if pendingSpace { inline.append(" ") }
                pendingSpace = false
                inline += "[\(text)](\(target))"
            } else {
                children(node)
            }
        default:
            if Self.blockTags.contains(node) {
                flush()
                children(node)
                flush()
            } else {
                children(node)
            }
        }
    }

    private mutating func children(_ node: HTMLNode) {
        for child in node.children { visit(child) }
    }

    /// An http(s) link target resolved against the page; nil for script and fragment links.
    private func absolute(_ href: String) -> String? {
        let trimmed = href.trimmingWhitespaceAndNewlines()
        guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { return nil }
        guard let url = URL(string: trimmed, relativeTo: base)?.absoluteURL,
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { return nil }
        return url.absoluteString
    }
}
