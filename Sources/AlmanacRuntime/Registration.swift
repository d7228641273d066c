import AlmanacCore

extension Runtime {
    /// Every tool Almanac ships, in listing order.
    public static func defaultTools() -> [any Tool] {
        []
    }

    /// The web searcher other tools fall back to, when a key is configured.
    static func webSearcher(_ settings: Settings) -> (any WebSearching)? {
        nil
    }
}
