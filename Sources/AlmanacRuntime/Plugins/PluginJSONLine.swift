import AlmanacCore
import Foundation

/// The fast path for the JSON lines a plugin exchanges with us: writing a request or an answer
/// straight from ``JSONValue`` to bytes, without Foundation's Codable machinery (reading is
/// ``JSONValue/quickParse(_:)``, shared with `tools serve`'s request bodies).
///
/// Deliberately narrow: whatever it does not write exactly as JSONEncoder would (non-integer
/// numbers, non-ASCII keys when sorted) returns nil, and the caller falls back to Foundation, so
/// results stay the same as before.
package enum PluginJSONLine {
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
}
