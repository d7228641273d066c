import Foundation

/// Turns calendar bytes into text the way browsers and calendar apps do: UTF-8 where the bytes
/// are UTF-8, windows-1252 where they are not (old Outlook and Windows exports write a byte 0x92
/// for an apostrophe), and never a C1 control character (U+0080–U+009F), which no calendar means
/// and which would reach JSON as an invisible control and context as a blank.
enum CalendarText {
    /// What windows-1252 puts at bytes 0x80–0x9F (WHATWG's index); nil where it defines nothing.
    private static let high: [Unicode.Scalar?] = [
        "\u{20AC}", nil, "\u{201A}", "\u{0192}", "\u{201E}", "\u{2026}", "\u{2020}", "\u{2021}",
        "\u{02C6}", "\u{2030}", "\u{0160}", "\u{2039}", "\u{0152}", nil, "\u{017D}", nil,
        nil, "\u{2018}", "\u{2019}", "\u{201C}", "\u{201D}", "\u{2022}", "\u{2013}", "\u{2014}",
        "\u{02DC}", "\u{2122}", "\u{0161}", "\u{203A}", "\u{0153}", nil, "\u{017E}", "\u{0178}",
    ]

    /// The character windows-1252 gives `byte` (0x80–0xFF); U+FFFD for the five bytes it leaves
    /// undefined, rather than the C1 control WHATWG maps them to.
    static func windows1252(_ byte: UInt8) -> Unicode.Scalar {
        guard byte >= 0x80, byte < 0xA0 else { return Unicode.Scalar(byte) }
        return high[Int(byte - 0x80)] ?? "\u{FFFD}"
    }

    /// `data` as the UTF-8 of its text (``decode(_:)``'s text): `data` itself, sliced past a byte
    /// order mark, when it is already that (well-formed UTF-8 without C1 controls, the common
    /// case), so a big file or feed is not copied; else the decoded text's UTF-8.
    static func utf8(_ data: Data) -> Data {
        if let start = plainUTF8Start(data) { return data.dropFirst(start) }
        return Data(decode(data).utf8)
    }

    /// Where the text starts in `data` (0, or 3 past a byte order mark) when its bytes are the
    /// text's UTF-8 as they are: well-formed UTF-8 with no C1 control; nil when they need decoding.
    static func plainUTF8Start(_ data: Data) -> Int? {
        let start = data.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let plain = data.withUnsafeBytes { raw in isPlainUTF8(UnsafeRawBufferPointer(rebasing: raw[start...])) }
        return plain ? start : nil
    }

    /// Whether `bytes` are well-formed UTF-8 (Unicode's table 3-7: no overlong forms, surrogates or
    /// values past U+10FFFF) without a C1 control (`C2 80`–`C2 9F`). Checked in place: making a
    /// `String` to validate would copy them. The standard library's in-place check,
    /// `UTF8Span(validating:)`, lets C1 controls through and took twice as long on a 10 MB
    /// calendar (8.9 ms against 4.5 ms, -O), so this one stays.
    static func isPlainUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        var index = 0
        while index < count {
            // Eight ASCII bytes at a time: most of any calendar.
            while index + 8 <= count,
                bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                index += 8
            }
            guard index < count else { break }
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            // The second byte's range for this lead byte (table 3-7); later ones are 80–BF.
            var second: ClosedRange<UInt8> = 0x80...0xBF
            switch lead {
            case 0xC2:
                length = 2
                second = 0xA0...0xBF
            case 0xC3...0xDF: length = 2
            case 0xE0:
                length = 3
                second = 0xA0...0xBF
            case 0xED:
                length = 3
                second = 0x80...0x9F
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xF0:
                length = 4
                second = 0x90...0xBF
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                second = 0x80...0x8F
            default: return false
            }
            guard index + length <= count, second.contains(bytes[index + 1]) else { return false }
            for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { return false }
            index += length
        }
        return true
    }

    /// Decodes `data` (a UTF-8 byte order mark dropped): each well-formed UTF-8 sequence as UTF-8,
    /// each byte outside one as windows-1252, so a file that is UTF-8 but for one pasted line
    /// keeps both. C1 controls are then read as the windows-1252 characters they stand for (text
    /// that went through a Latin-1 decoder on the way, as HTML5 reads "ISO-8859-1").
    static func decode(_ data: Data) -> String {
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        // The common case, valid UTF-8 without C1 controls, costs one check and one copy, made
        // from the contiguous bytes (a String of exactly their size, not grown as it is filled).
        let valid = bytes.withUnsafeBytes { raw in
            String(validating: raw.assumingMemoryBound(to: UInt8.self), as: UTF8.self)
        }
        if let text = valid { return repairingC1(text) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 8)
        var parser = Unicode.UTF8.ForwardParser()
        var input = bytes.makeIterator()
        var offset = bytes.startIndex
        loop: while true {
            switch parser.parseScalar(from: &input) {
            case .valid(let encoded):
                appendRepaired(UTF8.decode(encoded), to: &output)
                offset += encoded.count
            case .error(let length):
                for index in offset..<offset + length { append(windows1252(bytes[index]), to: &output) }
                offset += length
            case .emptyInput:
                break loop
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `text` with every C1 control read as the windows-1252 character of the same byte; `text`
    /// itself when it has none (found in its UTF-8: `C2 80`–`C2 9F`).
    static func repairingC1(_ text: String) -> String {
        var text = text
        let found =
            text.withUTF8 { utf8 -> Bool in
                guard utf8.count > 1 else { return false }
                for index in 0..<(utf8.count - 1) where utf8[index] == 0xC2 && (0x80..<0xA0).contains(utf8[index + 1]) {
                    return true
                }
                return false
            }
        guard found else { return text }
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars { appendRepaired(scalar, to: &output) }
        return String(decoding: output, as: UTF8.self)
    }

    private static func appendRepaired(_ scalar: Unicode.Scalar, to output: inout [UInt8]) {
        if (0x80..<0xA0).contains(scalar.value) {
            append(windows1252(UInt8(scalar.value)), to: &output)
        } else {
            append(scalar, to: &output)
        }
    }

    private static func append(_ scalar: Unicode.Scalar, to output: inout [UInt8]) {
        if scalar.value < 0x80 {
            output.append(UInt8(scalar.value))
        } else if let encoded = UTF8.encode(scalar) {
            output.append(contentsOf: encoded)
        }
    }
}
