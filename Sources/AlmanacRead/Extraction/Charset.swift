import Foundation

/// Which character encoding a page's bytes are in: the byte-order mark, then the HTTP header,
/// then a `<meta>` near the top, then UTF-8 when the bytes are valid UTF-8, else windows-1252
/// (the WHATWG order, and the default browsers use for unlabelled legacy pages).
enum Charset {
    /// The encoding name to hand libxml2 (an IANA name iconv knows).
    static func detect(_ data: Data, contentType: String?) -> String {
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { return "UTF-8" }
        if data.starts(with: [0xFE, 0xFF]) { return "UTF-16BE" }
        if data.starts(with: [0xFF, 0xFE]) { return "UTF-16LE" }
        if let label = contentType.flatMap(parameter), let name = normalize(label) { return name }
        if let label = metaCharset(data), let name = normalize(label) {
            // A page saying UTF-16 in its meta is ASCII-compatible bytes by then (WHATWG): UTF-8.
            return name.hasPrefix("UTF-16") ? "UTF-8" : name
        }
        return String(validating: data, as: UTF8.self) != nil ? "UTF-8" : "windows-1252"
    }

    /// `charset=` of a Content-Type value.
    static func parameter(_ contentType: String) -> String? {
        for part in contentType.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" else { continue }
            let value = pair[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// The label of `<meta charset=...>` or `<meta http-equiv=content-type content="...charset=...">`
    /// within the first 4 KB (the prescan browsers do; 1 KB is the spec's minimum).
    static func metaCharset(_ data: Data) -> String? {
        let head = String(decoding: data.prefix(4096), as: UTF8.self).lowercased()
        var searchStart = head.startIndex
        while let range = head.range(of: "<meta", range: searchStart..<head.endIndex) {
            let end = head[range.upperBound...].firstIndex(of: ">") ?? head.endIndex
            let tag = head[range.upperBound..<end]
            if let found = tag.range(of: "charset=") {
                var value = tag[found.upperBound...].drop { $0 == "\"" || $0 == "'" || $0 == " " }
                value = value.prefix { !"\"' ;/>".contains($0) }
                if !value.isEmpty { return String(value) }
            }
            searchStart = end
        }
        return nil
    }

    /// An iconv name for a label, nil for labels we do not trust.
    static func normalize(_ label: String) -> String? {
        let name = label.trimmingCharacters(in: .whitespaces).lowercased()
        switch name {
        case "utf-8", "utf8", "unicode-1-1-utf-8": return "UTF-8"
        // WHATWG: these labels all mean windows-1252 on the web.
        case "iso-8859-1", "iso8859-1", "latin1", "l1", "us-ascii", "ascii", "windows-1252", "cp1252", "x-cp1252":
            return "windows-1252"
        case "shift_jis", "shift-jis", "sjis", "x-sjis", "windows-31j", "ms932": return "SHIFT_JIS"
        case "gb2312", "gbk", "x-gbk", "gb18030", "chinese": return "GB18030"
        case "big5", "big5-hkscs": return "BIG5"
        case "euc-kr", "ks_c_5601-1987", "windows-949": return "EUC-KR"
        case "euc-jp": return "EUC-JP"
        case "utf-16", "utf-16le": return "UTF-16LE"
        case "utf-16be": return "UTF-16BE"
        default:
            // iso-8859-N, windows-125N, koi8-r/u and the like: iconv knows them by these names.
            let allowed = name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
            return allowed && !name.isEmpty && name.count <= 40 ? name.uppercased() : nil
        }
    }
}
