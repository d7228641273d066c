import AlmanacCore

extension SportsTool {
    /// `tools list sports [SPORT]`: every league ESPN serves, or one sport's.
    public func choices(filter: String?) throws -> String? {
        try League.listing(sport: filter)
    }
}
