public import AlmanacCore

extension CalendarTool {
    /// Reads whole feeds (tens of MB) into memory: a server trims after each call.
    public var traits: ToolTraits { [.heavy] }
}
