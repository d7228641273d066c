public import Foundation

// A tool names each parameter once, in a string-backed enum (`enum WeatherParameter: String { case days }`),
// and both its schema and its argument reader take that case: a renamed or misspelt parameter is then a
// compile error instead of a silently absent value.

extension ToolParameter {
    /// Creates a parameter named by `key`'s raw value.
    public init(
        _ key: some RawRepresentable<String>, _ kind: Kind, help: String, placement: Placement = .option,
        required: Bool = false, aliases: [String] = [], access: Access = .anyCaller, writeChoices: Set<String> = []
    ) {
        self.init(
            key.rawValue, kind, help: help, placement: placement, required: required, aliases: aliases,
            access: access, writeChoices: writeChoices)
    }
}

extension ToolArguments {
    /// Whether `key` was given at all.
    func has(_ key: some RawRepresentable<String>) -> Bool {
        values[key.rawValue] != nil
    }

    /// A text value.
    public func string(_ key: some RawRepresentable<String>) -> String? {
        string(key.rawValue)
    }

    /// A whole-number value.
    public func integer(_ key: some RawRepresentable<String>) -> Int? {
        integer(key.rawValue)
    }

    /// A number value.
    public func number(_ key: some RawRepresentable<String>) -> Double? {
        number(key.rawValue)
    }

    /// A switch value (absent means `false`).
    public func flag(_ key: some RawRepresentable<String>) -> Bool {
        flag(key.rawValue)
    }

    /// See ``text(_:needs:example:)-(String,_,_)``.
    public func text(_ key: some RawRepresentable<String>, needs what: String, example: String) throws -> String? {
        try text(key.rawValue, needs: what, example: example)
    }

    /// See ``integer(_:in:example:)-(String,_,_)``.
    public func integer(
        _ key: some RawRepresentable<String>, in range: ClosedRange<Int>, example: String
    ) throws
        -> Int?
    {
        try integer(key.rawValue, in: range, example: example)
    }

    /// See ``day(_:now:in:)-(String,_,_)``.
    public func day(_ key: some RawRepresentable<String>, now: Date, in zone: TimeZone) throws -> Date? {
        try day(key.rawValue, now: now, in: zone)
    }
}
