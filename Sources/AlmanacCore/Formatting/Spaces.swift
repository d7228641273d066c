/// Whitespace as the news tool and the `[me]` topics read it, in one place so that both agree.
package enum Spaces {
    /// Whitespace runs as one space, trimmed (ASCII whitespace and no-break spaces, byte by byte:
    /// Foundation's character sets cost more than the whole XML parse).
    package static func collapse(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var space = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            // U+00A0 (no-break space) is C2 A0.
            let width = byte == 0xC2 && index + 1 < bytes.count && bytes[index + 1] == 0xA0 ? 2 : 1
            if width == 2 || byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                space = !output.isEmpty
            } else {
                if space { output.append(0x20) }
                space = false
                output.append(byte)
            }
            index += width
        }
        return String(decoding: output, as: UTF8.self)
    }
}
