/// Almanac's version, as `tools --version` and the MCP server's handshake report it.
public enum AlmanacVersion {
    /// The release.
    public static let current = "0.1.0"
}
