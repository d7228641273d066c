import Foundation

/// What a page says about itself: title, byline, site, language, dates, canonical URL.
public struct PageMetadata: Sendable, Hashable, Codable {
    /// The article's title.
    public var title: String?
    /// Who wrote it.
    var byline: String?
    /// The site's name.
    var siteName: String?
    /// The page's language (`lang` of `<html>`, or `og:locale`).
    var language: String?
    /// When it was first published, as the page writes it (ISO 8601 mostly).
    var published: String?
    /// When it was last changed, as the page writes it.
    var modified: String?
    /// The page's own canonical URL (`<link rel=canonical>` or `og:url`).
    var canonicalURL: String?
    /// The page's one-line summary.
    var excerpt: String?

    init(
        title: String? = nil, byline: String? = nil, siteName: String? = nil, language: String? = nil,
        published: String? = nil, modified: String? = nil, canonicalURL: String? = nil, excerpt: String? = nil
    ) {
        self.title = title
        self.byline = byline
        self.siteName = siteName
        self.language = language
        self.published = published
        self.modified = modified
        self.canonicalURL = canonicalURL
        self.excerpt = excerpt
    }
}

/// Reads metadata the way Readability does (JSON-LD first, then Dublin Core, Open Graph,
/// Twitter and Parse.ly meta tags, then the document's title), plus modified time, `<time>`
/// elements, language and canonical URL, which Readability does not read.
enum MetadataReader {
    static func read(_ root: HTMLNode, jsonLD: [String]) -> PageMetadata {
        // One walk for every element the metadata reads.
        let found = root.descendants(["title", "meta", "link", "time", "h1", "h2"])
        let documentTitle = Readability.normalize(found.first { $0.tag == "title" }?.textContent ?? "")
        var values: [String: String] = [:]
        var canonical: String?
        for meta in found where meta.tag == "meta" || meta.tag == "link" {
            if meta.tag == "link" {
                let rel = meta.attribute("rel")?.lowercased() ?? ""
                if rel.split(separator: " ").contains("canonical"), canonical == nil, let href = meta.attribute("href")
                {
                    canonical = href.trimmingWhitespaceAndNewlines()
                }
                continue
            }
            guard let content = meta.attribute("content")?.trimmingWhitespaceAndNewlines(), !content.isEmpty
            else { continue }
            if let property = meta.attribute("property") {
                for raw in property.split(separator: " ") {
                    let key = raw.lowercased()
                    if propertyKeys.contains(key) { values[key] = content }
                }
            }
            if let name = meta.attribute("name") ?? meta.attribute("itemprop") {
                var key = name.lowercased().filter { !$0.isWhitespace }
                // Most names have no dot: Foundation's replace is skipped for them.
                if key.utf8.contains(UInt8(ascii: ".")) { key = key.replacingOccurrences(of: ".", with: ":") }
                if nameKeys.contains(key) { values[key] = content }
            }
        }
        let headings = found.filter { $0.tag == "h1" || $0.tag == "h2" }
        let linked = JSONLDReader.read(jsonLD, documentTitle: { articleTitle(headings, documentTitle: documentTitle) })

        var metadata = PageMetadata()
        metadata.title =
            linked.title ?? first(
                values,
                [
                    "dc:title", "dcterm:title", "og:title", "weibo:article:title", "weibo:webpage:title", "title",
                    "twitter:title", "parsely-title",
                ])
            ?? articleTitle(headings, documentTitle: documentTitle)
        let articleAuthor = values["article:author"].flatMap { $0.hasPrefix("http") ? nil : $0 }
        metadata.byline =
            linked.byline ?? first(values, ["dc:creator", "dcterm:creator", "author", "parsely-author"])
            ?? articleAuthor
        metadata.siteName = linked.siteName ?? values["og:site_name"]
        metadata.published =
            linked.published ?? first(
                values,
                [
                    "article:published_time", "parsely-pub-date", "og:published_time", "dc:date", "dcterm:date", "date",
                    "pubdate", "datepublished",
                ])
            ?? timeElement(found)
        metadata.modified =
            linked.modified
            ?? first(
                values,
                ["article:modified_time", "og:updated_time", "last-modified", "datemodified", "dcterm:modified"])
        metadata.excerpt =
            linked.excerpt
            ?? first(
                values,
                [
                    "dc:description", "dcterm:description", "og:description", "weibo:article:description",
                    "weibo:webpage:description", "description", "twitter:description",
                ])
        let lang = root.attribute("lang") ?? root.attribute("xml:lang")
        metadata.language = lang.flatMap { $0.trimmingWhitespace().isEmpty ? nil : $0 } ?? values["og:locale"]
        metadata.canonicalURL = canonical ?? values["og:url"]
        metadata.title = metadata.title.map(Readability.normalize).flatMap { $0.isEmpty ? nil : $0 }
        metadata.byline = metadata.byline.map(Readability.normalize).flatMap { $0.isEmpty ? nil : $0 }
        return metadata
    }

    static let propertyKeys: Set<String> = {
        var keys = Set<String>()
        for prefix in ["article", "dc", "dcterm", "og", "twitter"] {
            for name in [
                "author", "creator", "description", "published_time", "modified_time", "updated_time", "title",
                "site_name", "url", "locale",
            ] {
                keys.insert("\(prefix):\(name)")
            }
        }
        return keys
    }()

    static let nameKeys: Set<String> = {
        var keys = Set<String>()
        let names = ["author", "creator", "pub-date", "description", "title", "site_name", "date", "modified"]
        for name in names {
            keys.insert(name)
            for prefix in ["dc", "dcterm", "og", "twitter", "parsely", "weibo:article", "weibo:webpage"] {
                keys.insert("\(prefix):\(name)")
                keys.insert("\(prefix)-\(name)")
            }
        }
        keys.formUnion(["pubdate", "datepublished", "datemodified", "last-modified", "dcterm:modified"])
        return keys
    }()

    private static func first(_ values: [String: String], _ keys: [String]) -> String? {
        for key in keys { if let value = values[key] { return value } }
        return nil
    }

    /// The first `<time datetime>` in the page (a blog's post date).
    private static func timeElement(_ found: [HTMLNode]) -> String? {
        for time in found where time.tag == "time" {
            if let value = time.attribute("datetime")?.trimmingWhitespace(), !value.isEmpty { return value }
        }
        return nil
    }

    /// Readability's `_getArticleTitle`: the document title without the site's name around it.
    /// - Parameter headings: The page's `h1` and `h2` elements in document order.
    static func articleTitle(_ headings: [HTMLNode], documentTitle: String) -> String? {
        let original = documentTitle
        guard !original.isEmpty else {
            let ones = headings.filter { $0.tag == "h1" }
            return ones.count == 1 ? Readability.innerText(ones[0]) : nil
        }
        var current = original
        var hierarchical = false
        let separators: Set<Character> = ["|", "-", "–", "—", "\\", "/", ">", "»"]
        let words = { (text: String) in text.split(whereSeparator: \.isWhitespace).count }
        func hasSeparator(_ set: Set<Character>) -> Bool {
            let characters = Array(current)
            for index in characters.indices.dropFirst().dropLast() where set.contains(characters[index]) {
                if characters[index - 1] == " ", characters[index + 1] == " " { return true }
            }
            return false
        }
        if hasSeparator(separators) {
            hierarchical = hasSeparator(["\\", "/", ">", "»"])
            let characters = Array(original)
            // Before the last "<separator> ".
            var cut: Int?
            for index in characters.indices.reversed() where separators.contains(characters[index]) {
                if index + 1 < characters.count, characters[index + 1] == " " {
                    cut = index
                    break
                }
            }
            if let cut { current = String(characters[..<cut]) }
            if words(current) < 3, let first = characters.firstIndex(where: { separators.contains($0) }) {
                current = String(characters[(first + 1)...])
            }
        } else if current.contains(": ") {
            let texts = headings.map { $0.textContent.trimmingWhitespaceAndNewlines() }
            let trimmed = current.trimmingWhitespace()
            if !texts.contains(trimmed), let last = original.lastIndex(of: ":"),
                let first = original.firstIndex(of: ":")
            {
                current = String(original[original.index(after: last)...])
                if words(current) < 3 {
                    current = String(original[original.index(after: first)...])
                } else if words(String(original[..<first])) > 5 {
                    current = original
                }
            }
        } else if current.count > 150 || current.count < 15 {
            let ones = headings.filter { $0.tag == "h1" }
            if ones.count == 1 { current = Readability.innerText(ones[0]) }
        }
        current = Readability.normalize(current)
        let count = words(current)
        let stripped = String(original.filter { !separators.contains($0) })
        if count <= 4, !hierarchical || count != words(stripped) - 1 {
            current = original
        }
        return current
    }
}

/// schema.org JSON-LD (`<script type="application/ld+json">`): an Article's headline, author,
/// publisher and dates.
enum JSONLDReader {
    struct Found {
        var title: String?
        var byline: String?
        var siteName: String?
        var published: String?
        var modified: String?
        var excerpt: String?
    }

    static let articleTypes: Set<String> = [
        "Article", "AdvertiserContentArticle", "NewsArticle", "AnalysisNewsArticle", "AskPublicQuestion",
        "BackgroundNewsArticle", "BlogPosting", "DiscussionForumPosting", "LiveBlogPosting", "OpinionNewsArticle",
        "ReportageNewsArticle", "ReviewNewsArticle", "SatiricalArticle", "ScholarlyArticle", "MedicalScholarlyArticle",
        "SocialMediaPosting", "TechArticle", "Report",
    ]

    static func read(_ scripts: [String], documentTitle: () -> String?) -> Found {
        for script in scripts {
            var text = script.trimmingWhitespaceAndNewlines()
            if text.hasPrefix("<![CDATA["), text.hasSuffix("]]>") { text = String(text.dropFirst(9).dropLast(3)) }
            guard let data = text.data(using: .utf8),
                let parsed = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            else { continue }
            let objects: [[String: Any]]
            if let array = parsed as? [[String: Any]] {
                objects = array
            } else if let object = parsed as? [String: Any] {
                objects = [object]
            } else {
                continue
            }
            for object in objects {
                guard
                    let context = object["@context"] as? String ?? (object["@context"] as? [String: Any])?["@vocab"]
                        as? String,
                    context.contains("schema.org")
                else { continue }
                var article = object
                if object["@type"] == nil, let graph = object["@graph"] as? [[String: Any]] {
                    guard let match = graph.first(where: { isArticle($0["@type"]) }) else { continue }
                    article = match
                }
                guard isArticle(article["@type"]) else { continue }
                var found = Found()
                let name = (article["name"] as? String)?.trimmingWhitespaceAndNewlines()
                let headline = (article["headline"] as? String)?.trimmingWhitespaceAndNewlines()
                if let name, let headline, name != headline {
                    let title = documentTitle() ?? ""
                    let nameMatches = Readability.similarity(name, title) > 0.75
                    let headlineMatches = Readability.similarity(headline, title) > 0.75
                    found.title = headlineMatches && !nameMatches ? headline : name
                } else {
                    found.title = name ?? headline
                }
                if let author = article["author"] as? [String: Any], let name = author["name"] as? String {
                    found.byline = name.trimmingWhitespaceAndNewlines()
                } else if let authors = article["author"] as? [[String: Any]] {
                    let names = authors.compactMap { ($0["name"] as? String)?.trimmingWhitespaceAndNewlines() }
                    if !names.isEmpty { found.byline = names.joined(separator: ", ") }
                }
                if let description = article["description"] as? String {
                    found.excerpt = description.trimmingWhitespaceAndNewlines()
                }
                if let publisher = article["publisher"] as? [String: Any], let name = publisher["name"] as? String {
                    found.siteName = name.trimmingWhitespaceAndNewlines()
                }
                found.published = (article["datePublished"] as? String)?.trimmingWhitespace()
                found.modified = (article["dateModified"] as? String)?.trimmingWhitespace()
                return found
            }
        }
        return Found()
    }

    private static func isArticle(_ type: Any?) -> Bool {
        if let type = type as? String { return articleTypes.contains(type) }
        if let types = type as? [String] { return types.contains(where: articleTypes.contains) }
        return false
    }
}
