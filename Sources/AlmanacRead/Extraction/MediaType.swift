import Foundation

/// A page's media type read as browsers read it: the WHATWG Fetch standard's "extract a MIME type"
/// over every `Content-Type` value (servers and proxies send two, which arrive joined by a comma:
/// `text/html; charset=utf-8, text/html`), then, when that gives nothing usable, the MIME Sniffing
/// standard's HTML, XML and PDF signatures.
struct MediaType: Equatable {
    /// `type/subtype`, lower-cased.
    var essence: String
    /// The `charset` parameter, if any.
    var charset: String?

    /// The `Content-Type` header to hand the charset detector: the essence and its charset only.
    var header: String { charset.map { "\(essence); charset=\($0)" } ?? essence }

    /// Fetch's "extract a MIME type" (https://fetch.spec.whatwg.org/#concept-header-extract-mime-type):
    /// every value in order; one that does not parse, or is `*/*`, is skipped; a later value of
    /// another essence replaces the earlier one with its own charset, one of the same essence
    /// keeps the earlier charset unless it names one. Nil when no value parses.
    static func extract(_ header: String?) -> MediaType? {
        guard let header else { return nil }
        var result: MediaType?
        var charset: String?
        var essence: String?
        for value in splitValues(header) {
            guard var parsed = parse(value), parsed.essence != "*/*" else { continue }
            if parsed.essence != essence {
                charset = parsed.charset
                essence = parsed.essence
            } else if parsed.charset == nil, let charset {
                parsed.charset = charset
            }
            result = parsed
        }
        return result
    }

    /// The type a page is read as: the header's, else (none usable, or one that says nothing:
    /// `application/octet-stream`, `unknown/unknown`, `application/unknown`) sniffed from the bytes.
    static func of(_ header: String?, sniffing data: Data) -> MediaType {
        if let type = extract(header),
            !["application/octet-stream", "unknown/unknown", "application/unknown"]
                .contains(type.essence)
        {
            return type
        }
        return MediaType(essence: sniff(data), charset: extract(header)?.charset)
    }

    /// Fetch's "get, decode, and split": commas outside quoted strings separate values.
    static func splitValues(_ header: String) -> [Substring] {
        var values: [Substring] = []
        var start = header.startIndex
        var index = header.startIndex
        var quoted = false
        var escaped = false
        while index < header.endIndex {
            let character = header[index]
            if escaped {
                escaped = false
            } else if quoted, character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == ",", !quoted {
                values.append(header[start..<index])
                start = header.index(after: index)
            }
            index = header.index(after: index)
        }
        values.append(header[start...])
        return values
    }

    /// MIME Sniffing's "parse a MIME type" (https://mimesniff.spec.whatwg.org/#parse-a-mime-type),
    /// keeping only the charset among the parameters. Nil when the type or subtype is not a token.
    static func parse(_ value: Substring) -> MediaType? {
        let text = value.trimmingCharacters(in: httpWhitespace)
        guard let slash = text.firstIndex(of: "/") else { return nil }
        let type = text[..<slash]
        let afterSlash = text[text.index(after: slash)...]
        let semicolon = afterSlash.firstIndex(of: ";") ?? afterSlash.endIndex
        let subtype = afterSlash[..<semicolon].trimmingCharacters(in: httpWhitespace)
        guard isToken(type), isToken(Substring(subtype)) else { return nil }
        var result = MediaType(essence: "\(type)/\(subtype)".lowercased(), charset: nil)
        var rest = afterSlash[semicolon...]
        while let first = rest.first, first == ";" {
            rest = rest.dropFirst().drop { httpWhitespace.contains($0.unicodeScalars.first ?? " ") }
            let nameEnd = rest.firstIndex { $0 == ";" || $0 == "=" } ?? rest.endIndex
            let name = rest[..<nameEnd].lowercased()
            rest = rest[nameEnd...]
            guard rest.first == "=" else { continue }
            rest = rest.dropFirst()
            var parameterValue: String
            if rest.first == "\"" {
                // A quoted string: backslash escapes, then anything up to the next ';'.
                parameterValue = ""
                rest = rest.dropFirst()
                while let character = rest.first, character != "\"" {
                    rest = rest.dropFirst()
                    if character == "\\", let next = rest.first {
                        parameterValue.append(next)
                        rest = rest.dropFirst()
                    } else {
                        parameterValue.append(character)
                    }
                }
                rest = rest[(rest.firstIndex(of: ";") ?? rest.endIndex)...]
            } else {
                let end = rest.firstIndex(of: ";") ?? rest.endIndex
                parameterValue = rest[..<end].trimmingCharacters(in: httpWhitespace)
                rest = rest[end...]
                if parameterValue.isEmpty { continue }
            }
            // The first charset wins, as the first of any parameter does.
            if name == "charset", result.charset == nil, !parameterValue.isEmpty { result.charset = parameterValue }
        }
        return result
    }

    private static let httpWhitespace = CharacterSet(charactersIn: " \t\r\n")

    /// RFC 9110 token characters.
    private static func isToken(_ text: Substring) -> Bool {
        !text.isEmpty
            && text.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (CharacterSet.alphanumerics.contains(scalar)
                        || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar))
            }
    }

    /// The HTML signatures of MIME Sniffing's "identifying an unknown MIME type" (after leading
    /// whitespace, case-insensitive, followed by a space or `>`), `<?xml`, `%PDF-`; then JSON (not
    /// in the standard: APIs often send it unlabelled), binary when a NUL is near the top, else text.
    static func sniff(_ data: Data) -> String {
        let head = [UInt8](data.prefix(1445))
        if head.starts(with: Array("%PDF-".utf8)) { return "application/pdf" }
        let whitespace: Set<UInt8> = [0x09, 0x0A, 0x0C, 0x0D, 0x20]
        let start = head.firstIndex { !whitespace.contains($0) } ?? head.count
        let body = head[start...].map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        for pattern in htmlSignatures {
            let bytes = Array(pattern.utf8)
            guard body.count > bytes.count, body.starts(with: bytes) else { continue }
            if body[bytes.count] == 0x20 || body[bytes.count] == 0x3E { return "text/html" }
        }
        if body.starts(with: Array("<?xml".utf8)) {
            // An XHTML page with its XML declaration is a page.
            let text = String(decoding: body, as: UTF8.self)
            return text.contains("<html") ? "text/html" : "text/xml"
        }
        if let first = body.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            return "application/json"
        }
        if head.prefix(512).contains(0) { return "application/octet-stream" }
        // Beyond the standard, as before it: any other body opening with a tag is a page.
        if body.first == UInt8(ascii: "<") { return "text/html" }
        return "text/plain"
    }

    /// Lower-cased, as compared.
    private static let htmlSignatures = [
        "<!doctype html", "<html", "<head", "<script", "<iframe", "<h1", "<div", "<font", "<table", "<a",
        "<style", "<title", "<b", "<body", "<br", "<p", "<!--",
    ]
}
