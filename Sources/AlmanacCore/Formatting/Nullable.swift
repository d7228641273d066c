import Foundation

/// An optional written as `null` when absent. Synthesized `Encodable` leaves a nil optional's key
/// out, but our JSON never changes shape: `@Nullable var x: T?` keeps the key, so a type is
/// declared once and needs no hand-written `encode(to:)` just to write nulls.
@propertyWrapper
public struct Nullable<Value: Encodable>: Encodable {
    /// The value, or nil for `null`.
    public var wrappedValue: Value?

    /// Wraps `wrappedValue`.
    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    /// Writes the value, or `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension Nullable: Sendable where Value: Sendable {}
extension Nullable: Equatable where Value: Equatable {}
extension Nullable: Hashable where Value: Hashable {}

extension Nullable: Decodable where Value: Decodable {
    /// Reads the value, or nil for `null`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }
}

extension KeyedDecodingContainer {
    /// A `@Nullable` key that is missing reads as nil, like a plain optional (entries cached before
    /// the key was written as `null` still decode).
    func decode<Value: Decodable>(_ type: Nullable<Value>.Type, forKey key: Key) throws -> Nullable<Value> {
        try decodeIfPresent(type, forKey: key) ?? Nullable(wrappedValue: nil)
    }
}
