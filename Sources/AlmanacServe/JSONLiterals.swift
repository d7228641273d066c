import AlmanacCore

// Literals for the OpenAPI document (AlmanacCore gives JSONValue string, boolean and integer
// literals only).
extension JSONValue: ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    /// An array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
