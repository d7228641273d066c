/// What a tool is, declared by the tool, so other code asks the trait instead of testing names
/// (issue 32, point 6): the router sends a question with a web address to the tool that takes a
/// URL; a server trims memory after a heavy tool's call.
public struct ToolTraits: OptionSet, Sendable, Hashable {
    /// The traits as bits.
    public let rawValue: Int

    /// Traits from their bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Reads the page a URL names (its schema has a `url` parameter): questions holding a web
    /// address are routed to it.
    public static let takesURL = ToolTraits(rawValue: 1 << 0)
    /// Reads whole documents into memory (large calendar feeds): a server gives the freed pages
    /// back after each call.
    public static let heavy = ToolTraits(rawValue: 1 << 1)
}

extension Tool {
    /// Most tools are neither.
    public var traits: ToolTraits { [] }
}
