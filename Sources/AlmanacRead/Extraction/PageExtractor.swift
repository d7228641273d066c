public import Foundation

/// A page turned into readable text: its metadata and its main content as blocks.
public struct ReadPage: Sendable, Hashable, Codable {
    /// What kind of body it was.
    enum Kind: String, Sendable, Hashable, Codable {
        /// An HTML page (the article was extracted).
        case html
        /// Plain text, passed through.
        case text
        /// JSON, passed through.
        case json
    }

    /// What kind of body it was.
    var kind: Kind
    /// What the page says about itself.
    public var metadata: PageMetadata
    /// The main content, in reading order.
    var blocks: [ReadBlock]

    init(kind: Kind, metadata: PageMetadata, blocks: [ReadBlock]) {
        self.kind = kind
        self.metadata = metadata
        self.blocks = blocks
    }

    /// The text of every block, one per line (markdown-like).
    public var text: String { blocks.map(\.line).joined(separator: "\n") }
}

/// A body the reader does not turn into text (a PDF, an image), said in one line.
struct UnreadableContent: Error, Sendable, Equatable {
    /// The media type, e.g. `application/pdf`.
    var mediaType: String
    /// One line: what it is and what would work.
    var message: String
}

/// Turns fetched bytes into a ``ReadPage``: HTML through libxml2's parser and a Readability-style
/// extractor, plain text and JSON as they are, anything else refused in one line.
public enum PageExtractor {
    /// Extracts the page.
    ///
    /// - Parameters:
    ///   - data: The body as fetched.
    ///   - contentType: The `Content-Type` header, if any (decides the kind and the charset).
    ///   - url: The page's URL (for relative links).
    ///   - links: Whether links are kept as `[text](url)`.
    /// - Throws: ``UnreadableContent`` for PDFs, images and other binary types; ``HTMLParseFailure``
    ///   when libxml2 cannot be loaded.
    static func extract(_ data: Data, contentType: String?, url: URL?, links: Bool = false) throws -> ReadPage {
        let type = MediaType.of(contentType, sniffing: data)
        let media = type.essence
        // The type and charset as read from every Content-Type value, for the charset detector.
        let contentType = type.header
        switch media {
        case "text/html", "application/xhtml+xml":
            return try html(data, contentType: contentType, url: url, links: links)
        case "application/json", "application/ld+json":
            return ReadPage(
                kind: .json, metadata: PageMetadata(), blocks: [ReadBlock(kind: .code, text: decode(data, contentType))]
            )
        case _
        where media.hasPrefix("text/") || media.hasSuffix("+json") || media.hasSuffix("/xml") || media.hasSuffix("+xml"):
            let text = decode(data, contentType)
            let paragraphs = text.components(separatedBy: "\n\n").map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            .filter { !$0.isEmpty }
            let kind: ReadBlock.Kind = media == "text/plain" ? .paragraph : .code
            return ReadPage(
                kind: .text, metadata: PageMetadata(), blocks: paragraphs.map { ReadBlock(kind: kind, text: $0) })
        case "application/pdf":
            throw UnreadableContent(
                mediaType: media,
                message: "the page is a PDF (\(data.count) bytes); read only reads HTML, text and JSON")
        default:
            throw UnreadableContent(
                mediaType: media,
                message: "the page is \(media) (\(data.count) bytes); read only reads HTML, text and JSON")
        }
    }

    /// The HTML path alone (benchmarks and the fuzzer call it directly).
    public static func html(_ data: Data, contentType: String? = nil, url: URL?, links: Bool = false) throws -> ReadPage
    {
        let encoding = Charset.detect(data, contentType: contentType)
        let parsed = try HTMLParser.parse(data, encoding: encoding)
        var metadata = MetadataReader.read(parsed.root, jsonLD: parsed.jsonLD)
        var readability = Readability(title: metadata.title ?? "")
        let article = readability.extract(parsed.root) { try? HTMLParser.parse(data, encoding: encoding).root }
        if metadata.byline == nil { metadata.byline = readability.byline }
        let blocks = article.map { ArticleText.blocks(of: $0, links: links, base: url) } ?? []
        return ReadPage(kind: .html, metadata: metadata, blocks: blocks)
    }

    private static func decode(_ data: Data, _ contentType: String?) -> String {
        let name = Charset.detect(data, contentType: contentType)
        let encoding: String.Encoding =
            switch name {
            case "windows-1252": .windowsCP1252
            case "UTF-16LE": .utf16LittleEndian
            case "UTF-16BE": .utf16BigEndian
            default: .utf8
            }
        var body = data
        if name == "UTF-8", data.starts(with: [0xEF, 0xBB, 0xBF]) { body = data.dropFirst(3) }
        return String(data: body, encoding: encoding) ?? String(decoding: body, as: UTF8.self)
    }
}
