extension JSONValue {
    /// `bytes` as one JSON value, or nil when this fast path does not read it exactly as
    /// JSONDecoder would (surrogate escapes, duplicate keys, deep nesting, numbers out of range,
    /// ...): the caller then asks JSONDecoder, which parses it or names the fault. On Linux,
    /// JSONDecoder into JSONValue was the largest single cost of a plugin call through `serve`;
    /// plugins' answer lines and `tools serve`'s request bodies come this way.
    package static func quickParse(_ bytes: [UInt8]) -> JSONValue? {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONByteReader(bytes: buffer)
            guard let value = reader.value(depth: 0) else { return nil }
            reader.skipWhitespace()
            return reader.index == buffer.count ? value : nil
        }
    }
}

/// A strict RFC 8259 reader over one document in memory.
private struct JSONByteReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    /// Deeper documents go to JSONDecoder (which has its own limit).
    static let maxDepth = 64

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    mutating func value(depth: Int) -> JSONValue? {
        skipWhitespace()
        guard index < bytes.count, depth < Self.maxDepth else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"): return object(depth: depth)
        case UInt8(ascii: "["): return array(depth: depth)
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
        default: return nil
        }
    }

    mutating func literal(_ word: StaticString, _ value: JSONValue) -> JSONValue? {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { return nil }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return nil }
        index += count
        return value
    }

    mutating func object(depth: Int) -> JSONValue? {
        index += 1
        var fields: [String: JSONValue] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(fields)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            guard let item = value(depth: depth + 1) else { return nil }
            // A repeated key: which one JSONDecoder keeps is its business.
            guard fields.updateValue(item, forKey: key) == nil else { return nil }
            skipWhitespace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(fields)
            default: return nil
            }
        }
    }

    mutating func array(depth: Int) -> JSONValue? {
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            guard let item = value(depth: depth + 1) else { return nil }
            items.append(item)
            skipWhitespace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(items)
            default: return nil
            }
        }
    }

    /// A string from its opening quote; nil for raw control bytes, invalid UTF-8 and surrogate
    /// escapes.
    mutating func string() -> String? {
        index += 1
        let start = index
        // The common case: no escapes, so the bytes between the quotes are the string.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(validating: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { return nil }
            index += 1
        }
        var scratch = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(validating: scratch, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { return nil }
                let escaped = bytes[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(escaped)
                case UInt8(ascii: "n"): scratch.append(0x0A)
                case UInt8(ascii: "r"): scratch.append(0x0D)
                case UInt8(ascii: "t"): scratch.append(0x09)
                case UInt8(ascii: "b"): scratch.append(0x08)
                case UInt8(ascii: "f"): scratch.append(0x0C)
                case UInt8(ascii: "u"):
                    guard let code = hex4(), !(0xD800...0xDFFF).contains(code),
                        let scalar = Unicode.Scalar(code)
                    else { return nil }
                    scratch += String(Character(scalar)).utf8
                default: return nil
                }
            case 0..<0x20: return nil
            default:
                scratch.append(byte)
                index += 1
            }
        }
        return nil
    }

    mutating func hex4() -> UInt32? {
        guard bytes.count - index >= 4 else { return nil }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            code = code << 4 | UInt32(digit)
            index += 1
        }
        return code
    }

    /// `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`, finite.
    mutating func number() -> JSONValue? {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            guard digits() > 0 else { return nil }
        }
        var integral = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            integral = false
            guard digits() > 0 else { return nil }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            integral = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits() > 0 else { return nil }
        }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
        // Small integers exactly; the rest through Double's own (correctly rounded) parser.
        if integral, text.count <= 15, let whole = Int64(String(decoding: text, as: UTF8.self)) {
            return .number(whole == 0 && text[0] == UInt8(ascii: "-") ? -0.0 : Double(whole))
        }
        // Out of range (including underflow to zero or a subnormal): JSONDecoder decides.
        guard let number = Double(String(decoding: text, as: UTF8.self)), number.isNormal else { return nil }
        return .number(number)
    }

    mutating func digits() -> Int {
        let start = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            index += 1
        }
        return index - start
    }
}
