import Foundation

extension String {
    /// `trimmingCharacters(in: .whitespacesAndNewlines)`, without Foundation's bridge (which
    /// re-decodes the whole string, costly for a JSON-LD block) when only ASCII whitespace is
    /// trimmed and visible ASCII is left at both ends: then the result is provably the same.
    func trimmingWhitespaceAndNewlines() -> String {
        trimmingASCII { $0 == 0x20 || (0x09...0x0D).contains($0) } ?? trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `trimmingCharacters(in: .whitespaces)` (spaces and tabs), with the same shortcut.
    func trimmingWhitespace() -> String {
        trimmingASCII { $0 == 0x20 || $0 == 0x09 } ?? trimmingCharacters(in: .whitespaces)
    }

    /// The string without the leading and trailing bytes `trimmed` accepts (ASCII whitespace of
    /// the Foundation set), when what stops the trim at each end is visible ASCII (or nothing is
    /// left); nil when Foundation has to decide (a non-ASCII or control character at an end).
    private func trimmingASCII(_ trimmed: (UInt8) -> Bool) -> String? {
        let bytes = utf8
        guard let start = bytes.firstIndex(where: { !trimmed($0) }), let end = bytes.lastIndex(where: { !trimmed($0) })
        else { return "" }
        func visible(_ byte: UInt8) -> Bool { byte < 0x80 && byte != 0x20 && !(0x09...0x0D).contains(byte) }
        guard visible(bytes[start]), visible(bytes[end]) else { return nil }
        if start == bytes.startIndex, bytes.index(after: end) == bytes.endIndex { return self }
        return String(bytes[start...end])
    }
}
