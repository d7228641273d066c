public import AlmanacCore

extension ReadTool {
    /// The page reader: the router sends questions holding a web address here.
    public var traits: ToolTraits { [.takesURL] }
}
