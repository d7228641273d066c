import Foundation

/// Turns upstream display strings (Brave wraps matches in `<strong>` and escapes quotes as
/// `&quot;` / `&#x27;`) into plain text: tags removed, entities decoded, whitespace collapsed.
///
/// Order matters: tags are removed before entities are decoded, so an escaped `&lt;b&gt;` in
/// the page text survives as the literal text `<b>` instead of being mistaken for markup.
enum HTMLText {
    /// Plain text from an HTML-ish snippet.
    static func plain(_ html: String) -> String {
        collapseWhitespace(decodeEntities(stripTags(html)))
    }

    /// Removes `<tag ...>` / `</tag>` / `<!-- ... -->`. A `<` that does not start a tag
    /// (`a < b`) is kept. Inline emphasis tags vanish; other tags become a space so words on
    /// either side of `<br>` or `</p>` do not run together.
    static func stripTags(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            guard character == "<", let (end, name) = tagEnd(in: text, from: index) else {
                output.append(character)
                index = text.index(after: index)
                continue
            }
            if !inlineTags.contains(name) { output.append(" ") }
            index = end
        }
        return output
    }

    /// Decodes named (a common set), decimal (`&#39;`) and hex (`&#x27;`) entities. Unknown or
    /// malformed entities are left as written.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var output = ""
        output.reserveCapacity(text.utf8.count)
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            guard character == "&",
                let semicolon = text[index...].prefix(12).firstIndex(of: ";")
            else {
                output.append(character)
                index = text.index(after: index)
                continue
            }
            let body = text[text.index(after: index)..<semicolon]
            if let decoded = decodeEntity(body) {
                output.append(decoded)
                index = text.index(after: semicolon)
            } else {
                output.append(character)
                index = text.index(after: index)
            }
        }
        return output
    }

    /// Collapses runs of whitespace (including newlines and no-break spaces) to one space.
    static func collapseWhitespace(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    private static func decodeEntity(_ body: Substring) -> String? {
        if body.hasPrefix("#") {
            let digits = body.dropFirst()
            let value: UInt32?
            if digits.hasPrefix("x") || digits.hasPrefix("X") {
                value = UInt32(digits.dropFirst(), radix: 16)
            } else {
                value = UInt32(digits, radix: 10)
            }
            // NUL and surrogates are not characters; keep the text as written.
            guard let value, value != 0, let scalar = Unicode.Scalar(value) else { return nil }
            return String(Character(scalar))
        }
        return namedEntities[String(body)]
    }

    /// The end index just past a tag starting at `start`, with the lowercased tag name.
    private static func tagEnd(in text: String, from start: String.Index) -> (String.Index, String)? {
        var index = text.index(after: start)
        guard index < text.endIndex else { return nil }
        if text[index...].hasPrefix("!--") {
            guard let close = text.range(of: "-->", range: index..<text.endIndex) else { return nil }
            return (close.upperBound, "!--")
        }
        if text[index] == "/" { index = text.index(after: index) }
        guard index < text.endIndex, text[index].isASCII, text[index].isLetter else { return nil }
        var name = ""
        while index < text.endIndex, text[index].isASCII, text[index].isLetter || text[index].isNumber {
            name.append(text[index])
            index = text.index(after: index)
        }
        while index < text.endIndex {
            switch text[index] {
            case ">": return (text.index(after: index), name.lowercased())
            case "<": return nil  // "a <b <c>": the first "<" was not a tag
            default: index = text.index(after: index)
            }
        }
        return nil
    }

    private static let inlineTags: Set<String> = [
        "strong", "b", "em", "i", "u", "mark", "span", "a", "small", "sup", "sub", "code", "!--",
    ]

    private static let namedEntities: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ",
        "hellip": "…", "mdash": "—", "ndash": "–", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”",
        "laquo": "«", "raquo": "»", "middot": "·", "bull": "•", "copy": "©", "reg": "®", "trade": "™",
        "deg": "°", "euro": "€", "pound": "£", "yen": "¥", "cent": "¢", "times": "×", "divide": "÷",
        "eacute": "é", "egrave": "è", "aacute": "á", "agrave": "à", "iacute": "í", "oacute": "ó",
        "uacute": "ú", "ntilde": "ñ", "ccedil": "ç", "uuml": "ü", "ouml": "ö", "auml": "ä", "szlig": "ß",
    ]
}
