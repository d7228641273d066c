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
        // Validated through a buffer: a Data argument takes the stdlib's slow generic path.
        let valid = data.withUnsafeBytes { raw in
            String(validating: raw.assumingMemoryBound(to: UInt8.self), as: UTF8.self) != nil
        }
        return valid ? "UTF-8" : "windows-1252"
    }

    /// `charset=` of a Content-Type value.
    static func parameter(_ contentType: String) -> String? {
        for part in contentType.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" else {
                continue
            }
            let value = pair[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(
                in: CharacterSet(charactersIn: "\"'"))
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// The label of `<meta charset=...>` or `<meta http-equiv=content-type content="...charset=...">`
    /// within the first 4 KB (the prescan browsers do; 1 KB is the spec's minimum).
    static func metaCharset(_ data: Data) -> String? {
        // A byte scan (the WHATWG prescan is one): ASCII letters lower-cased, the rest left as
        // they are, since only ASCII labels are accepted.
        var head = [UInt8](data.prefix(4096))
        for index in head.indices where (0x41...0x5A).contains(head[index]) { head[index] |= 0x20 }
        let meta = Array("<meta".utf8)
        let charset = Array("charset=".utf8)
        let stops = Array("\"' ;/>".utf8)
        var searchStart = 0
        while let start = find(meta, in: head, from: searchStart, to: head.count) {
            let tagStart = start + meta.count
            let end = head[tagStart...].firstIndex(of: UInt8(ascii: ">")) ?? head.count
            if let found = find(charset, in: head, from: tagStart, to: end) {
                var first = found + charset.count
                while first < end,
                    head[first] == UInt8(ascii: "\"") || head[first] == UInt8(ascii: "'") || head[first] == 0x20
                {
                    first += 1
                }
                var last = first
                while last < end, !stops.contains(head[last]) { last += 1 }
                if last > first { return String(decoding: head[first..<last], as: UTF8.self) }
            }
            searchStart = end
        }
        return nil
    }

    /// Where `needle` first starts within `haystack[from..<to]`.
    private static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int, to: Int) -> Int? {
        guard to - from >= needle.count, let first = needle.first else { return nil }
        var index = from
        while index <= to - needle.count {
            if haystack[index] == first, haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
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
