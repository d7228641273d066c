public import Foundation

/// RFC 3986 normalisation of the URLs the egress policy checks and sends (docs/security.md §3):
/// percent-encodings of unreserved characters decoded (`%2e` is `.`, `%7E` is `~`), the others'
/// hex digits upper-cased, and dot segments removed (§5.2.4, `remove_dot_segments`). A prefix
/// check on the raw text is escaped by `/feeds/../private/` or `/feeds/%2e%2e/private/`, which a
/// server resolves outside `/feeds/`; the policy checks the normal form and sends exactly it.
public enum URLNormalizer {
    /// `url` with its path in normal form, or nil when it is not an http(s) URL with a host.
    /// The scheme, host, port, query and fragment are kept as they are.
    public static func normalize(_ url: URL) -> URL? {
        let absolute = url.absoluteURL
        guard let scheme = absolute.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = absolute.host, !host.isEmpty,
            let components = URLComponents(url: absolute, resolvingAgainstBaseURL: false),
            let text = components.string
        else { return nil }
        let path = components.percentEncodedPath
        let normal = self.path(path)
        if normal == path { return absolute }
        // The path is replaced in the URL's own text: everything else stays byte for byte.
        guard let range = components.rangeOfPath else { return nil }
        return URL(string: text.replacingCharacters(in: range, with: normal))
    }

    /// A percent-encoded path in normal form: unreserved characters decoded, other escapes
    /// upper-cased, dot segments removed. Normalising twice gives the same path as once, and an
    /// absolute path (`/...`) comes back absolute with no `.` or `..` segment.
    public static func path(_ percentEncodedPath: String) -> String {
        let decoded = decodingUnreserved(Array(percentEncodedPath.utf8))
        return String(decoding: removingDotSegments(decoded), as: UTF8.self)
    }

    /// Whether a normal-form path can be compared with a prefix safely: no segment that a server
    /// could still read as a dot segment or a separator once it decodes escapes (once or more),
    /// nor one that servers strip parameters from (`..;x`, read as `..` by some), no backslash
    /// and no NUL. An allow-list refuses the others rather than guess which reading a server makes.
    public static func isPlain(_ path: String) -> Bool {
        for segment in path.split(separator: "/", omittingEmptySubsequences: false) {
            var text = Array(segment.utf8)
            // Decoded until nothing changes; an escape still unfolding after four rounds is refused.
            var stable = false
            for _ in 0..<4 {
                let next = decodingAll(text)
                if next == text {
                    stable = true
                    break
                }
                text = next
            }
            if !stable { return false }
            if text.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") || $0 == 0 }) {
                return false
            }
            let bare = text.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).first ?? []
            if bare.elementsEqual([UInt8(ascii: ".")]) || bare.elementsEqual(Array("..".utf8)) { return false }
        }
        return true
    }

    // MARK: Pieces

    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    static func decodingUnreserved(_ bytes: [UInt8]) -> [UInt8] {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                let value = high << 4 | low
                if isUnreserved(value) {
                    out.append(value)
                } else {
                    out += [UInt8(ascii: "%"), digits[Int(high)], digits[Int(low)]]
                }
                index += 3
            } else if bytes[index] == UInt8(ascii: "%") {
                // A stray `%` is written `%25`: left bare, it could join a decoded character into
                // a new escape on the next pass (`%e%35` would become `%e5`).
                out += Array("%25".utf8)
                index += 1
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return out
    }

    static func decodingAll(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return out
    }

    /// RFC 3986 §5.2.4, step by step on bytes.
    static func removingDotSegments(_ path: [UInt8]) -> [UInt8] {
        let slash = UInt8(ascii: "/")
        let dot = UInt8(ascii: ".")
        var input = path[...]
        var output: [UInt8] = []
        func dropLastSegment() {
            if let last = output.lastIndex(of: slash) {
                output.removeSubrange(last...)
            } else {
                output.removeAll()
            }
        }
        while !input.isEmpty {
            if input.starts(with: [dot, dot, slash]) {  // A: "../"
                input = input.dropFirst(3)
            } else if input.starts(with: [dot, slash]) {  // A: "./"
                input = input.dropFirst(2)
            } else if input.starts(with: [slash, dot, slash]) {  // B: "/./"
                input = input.dropFirst(2)
            } else if input.elementsEqual([slash, dot]) {  // B: "/." at the end
                input = [slash][...]
            } else if input.starts(with: [slash, dot, dot, slash]) {  // C: "/../"
                input = input.dropFirst(3)
                dropLastSegment()
            } else if input.elementsEqual([slash, dot, dot]) {  // C: "/.." at the end
                input = [slash][...]
                dropLastSegment()
            } else if input.elementsEqual([dot]) || input.elementsEqual([dot, dot]) {  // D
                input = []
            } else {  // E: the first segment, with its leading "/", moves to the output
                let start = input.startIndex
                let from = input[start] == slash ? input.index(after: start) : start
                let end = input[from...].firstIndex(of: slash) ?? input.endIndex
                output += input[start..<end]
                input = input[end...]
            }
        }
        return output
    }
}
