import AlmanacCore
import AlmanacRead
import Foundation

/// JSON Feed 1.0 and 1.1 (jsonfeed.org), read with Codable.
enum JSONFeed {
    struct Document: Decodable {
        var version: String?
        var title: String?
        var homePageURL: String?
        var items: [Item]?

        enum CodingKeys: String, CodingKey {
            case version, title, items
            case homePageURL = "home_page_url"
        }
    }

    struct Item: Decodable {
        var id: FlexibleID?
        var url: String?
        var externalURL: String?
        var title: String?
        var contentHTML: String?
        var contentText: String?
        var summary: String?
        var datePublished: String?
        var dateModified: String?

        enum CodingKeys: String, CodingKey {
            case id, url, title, summary
            case externalURL = "external_url"
            case contentHTML = "content_html"
            case contentText = "content_text"
            case datePublished = "date_published"
            case dateModified = "date_modified"
        }
    }

    /// The spec says `id` is a string; producers also write numbers.
    struct FlexibleID: Decodable {
        var text: String
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let string = try? container.decode(String.self) {
                text = string
            } else if let number = try? container.decode(Int.self) {
                text = String(number)
            } else {
                text = String(try container.decode(Double.self))
            }
        }
    }

    /// The feed in `data`.
    ///
    /// - Throws: ``FeedError`` when it is not JSON, or JSON without a JSON Feed `version`.
    static func parse(_ data: Data, url: URL?) throws -> ParsedFeed {
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch {
            throw FeedError(reason: "unreadable JSON (\(Self.describe(error)))")
        }
        guard let version = document.version,
            version.hasPrefix("https://jsonfeed.org/version/") || version.hasPrefix("http://jsonfeed.org/version/")
        else {
            throw FeedError(reason: "JSON, but not a JSON Feed (no jsonfeed.org version)")
        }
        let items = (document.items ?? []).map { item -> FeedItem in
            var summary = (item.contentText ?? "", false)
            if let html = item.contentHTML, !html.isEmpty {
                summary = (String(decoding: html.utf8.prefix(FeedParser.maximumSummaryBytes), as: UTF8.self), true)
            }
            if let text = item.summary, !text.isEmpty { summary = (text, false) }
            let link = (item.url ?? item.externalURL).flatMap { FeedBuilder.resolve($0, against: url) }
            let title = item.title.map(plainTitle).flatMap { $0.isEmpty ? nil : $0 }
            return FeedItem(
                title: title, link: link,
                published: (item.datePublished ?? item.dateModified).flatMap(FeedDates.parse),
                summary: summary.0, summaryIsHTML: summary.1, id: item.id?.text)
        }
        return ParsedFeed(
            format: .json, title: document.title.map(Spaces.collapse), link: document.homePageURL, items: items,
            notes: [])
    }

    /// A JSON Feed title is plain text by the spec, yet producers escape entities (`&#8216;`): those
    /// are decoded by the page reader's extractor, while `<` stays a letter (a post titled "<i> and <b>").
    static func plainTitle(_ title: String) -> String {
        guard HTMLish.looksLikeMarkup(title) else { return Spaces.collapse(title) }
        return Spaces.collapse(FragmentText.plain(title.replacingOccurrences(of: "<", with: "&lt;")))
    }

    /// One line for a decoding error, without the value (it is the upstream's).
    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): return context.debugDescription.prefix(80).description
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "unexpected value at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        case DecodingError.keyNotFound(let key, _): return "no \(key.stringValue)"
        default: return "not JSON"
        }
    }
}
