package import AlmanacCore
import Foundation

/// The fast path for the JSON lines a plugin exchanges with us: reading an answer line and writing a
/// request straight between bytes and ``JSONValue``, without Foundation's Codable machinery (on
/// Linux, JSONDecoder into JSONValue was the largest single cost of a plugin call through `serve`).
///
/// Both sides are deliberately narrow: whatever they do not handle exactly as JSONDecoder /
/// JSONEncoder would (surrogate escapes, duplicate keys, deep nesting, non-integer numbers on the
/// way out, ...) returns nil, and the caller falls back to Foundation, so results and errors stay
/// the same as before.
package enum PluginJSONLine {
    /// `bytes` as one JSON value, or nil when the fast path does not handle it (the caller then asks
    /// JSONDecoder, which parses it or names the fault). Also `tools serve`'s request bodies.
    package static func parse(_ bytes: [UInt8]) -> JSONValue? {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = Reader(bytes: buffer)
            guard let value = reader.value(depth: 0) else { return nil }
            reader.skipWhitespace()
            return reader.index == buffer.count ? value : nil
        }
    }

    /// `value` as one line of JSON (no newline) as JSONEncoder writes it with
    /// `.withoutEscapingSlashes` (and `.sortedKeys` when `sortedKeys`), or nil when it holds a
    /// number that is not a whole number below 10^15 or, sorted, a key that is not ASCII (the caller
    /// then uses JSONEncoder, which formats and orders those).
    static func encode(_ value: JSONValue, sortedKeys: Bool = false) -> [UInt8]? {
        var writer = JSONWriter(capacity: 256)
        return write(value, sortedKeys: sortedKeys, to: &writer) ? writer.bytes : nil
    }

    /// `value` as one line of JSON: the fast path, else JSONEncoder with the same options (the one
    /// place that chooses, for requests, cache keys and answers alike).
    static func encoded(_ value: JSONValue, sortedKeys: Bool = false) throws -> [UInt8] {
        if let bytes = encode(value, sortedKeys: sortedKeys) { return bytes }
        return Array(try (sortedKeys ? sortedEncoder : encoder).encode(value))
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()

    private static let sortedEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// A plugin answer's cache entry, as JSONEncoder writes ``PluginAnswer`` (nil: see ``encode(_:sortedKeys:)``).
    static func encode(structured: JSONValue?, text: String) -> [UInt8]? {
        var writer = JSONWriter(capacity: 256 + text.utf8.count)
        writer.bytes += #"{"#.utf8
        if let structured {
            writer.bytes += #""structured":"#.utf8
            guard write(structured, sortedKeys: false, to: &writer) else { return nil }
            writer.bytes.append(UInt8(ascii: ","))
        }
        writer.bytes += #""text":"#.utf8
        writer.string(text)
        writer.bytes.append(UInt8(ascii: "}"))
        return writer.bytes
    }

    private static func write(_ value: JSONValue, sortedKeys: Bool, to writer: inout JSONWriter) -> Bool {
        switch value {
        case .null: writer.bytes += "null".utf8
        case .bool(let flag): writer.bytes += (flag ? "true" : "false").utf8
        case .number(let number):
            // What JSONValue.encode writes as an integer; anything else is left to JSONEncoder.
            guard number.rounded() == number, abs(number) < 1e15 else { return false }
            writer.bytes += String(Int64(number)).utf8
        case .string(let text): writer.string(text)
        case .array(let items):
            writer.bytes.append(UInt8(ascii: "["))
            for (offset, item) in items.enumerated() {
                if offset > 0 { writer.bytes.append(UInt8(ascii: ",")) }
                guard write(item, sortedKeys: sortedKeys, to: &writer) else { return false }
            }
            writer.bytes.append(UInt8(ascii: "]"))
        case .object(let fields):
            writer.bytes.append(UInt8(ascii: "{"))
            var members = Array(fields)
            if sortedKeys {
                // ASCII keys sort the same by bytes as JSONEncoder sorts them; others are left to it.
                guard members.allSatisfy({ $0.key.utf8.allSatisfy { $0 < 0x80 } }) else { return false }
                members.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            }
            var first = true
            for (key, item) in members {
                if !first { writer.bytes.append(UInt8(ascii: ",")) }
                first = false
                writer.string(key)
                writer.bytes.append(UInt8(ascii: ":"))
                guard write(item, sortedKeys: sortedKeys, to: &writer) else { return false }
            }
            writer.bytes.append(UInt8(ascii: "}"))
        }
        return true
    }

    /// A strict RFC 8259 reader over one line.
    private struct Reader {
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
}
