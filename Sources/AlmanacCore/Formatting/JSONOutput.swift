public import Foundation

/// The one JSON encoder configuration for everything Almanac writes: keys sorted (stable bytes for
/// goldens, caches and diffs) and slashes unescaped (URLs stay readable). Compact for answers and
/// requests, pretty for goldens and `tools schema`.
public enum JSONOutput {
    /// A new encoder with the shared configuration (an encoder is a class: one per use, so no
    /// instance is shared across threads).
    static func encoder(pretty: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// `value` as one line of JSON.
    public static func compact<Value: Encodable>(_ value: Value) throws -> Data {
        try encoder().encode(value)
    }

    /// `value` as indented JSON.
    static func pretty<Value: Encodable>(_ value: Value) throws -> Data {
        try encoder(pretty: true).encode(value)
    }

    /// `value` as indented JSON text.
    public static func prettyText<Value: Encodable>(_ value: Value) throws -> String {
        String(decoding: try pretty(value), as: UTF8.self)
    }

    /// `value` as one line of JSON text.
    public static func compactText<Value: Encodable>(_ value: Value) throws -> String {
        String(decoding: try compact(value), as: UTF8.self)
    }

    /// The encoder for the answer cache's entries (``storageDecoder()`` reads them back): dates as
    /// seconds since 1970, keys unsorted (nobody reads these bytes, and sorting a year of a big
    /// calendar's events costs time on every fetch).
    static func storageEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }

    /// Reads what ``storageEncoder()`` wrote.
    static func storageDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}
