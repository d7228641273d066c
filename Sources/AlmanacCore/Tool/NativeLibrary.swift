/// A C library opened with dlopen on first use, as a tool (or the transport) declares it, so
/// `tools doctor` can open every one up front without naming them: a missing one would otherwise
/// only show at the first request that needs it.
public struct NativeLibrary: Sendable {
    /// The library's name as the doctor shows it, e.g. `libxml2`; declarations sharing a name
    /// are one library.
    public var name: String
    /// The Debian package that installs it, e.g. `libical3`.
    public var package: String
    /// What it serves, for the warning when it cannot be opened (e.g. `CalDAV`); nil for a
    /// library everything needs.
    public var usedFor: String?
    /// Whether `tools` cannot work without it (the doctor then fails rather than warns).
    public var essential: Bool
    /// Opens it: nil when it is ready, else the dynamic loader's reason.
    public var open: @Sendable () -> String?
    /// What was opened (soname, and version where known), once ``open`` returned nil.
    public var opened: @Sendable () -> String
    /// Something to do about the library that was opened (e.g. a private build older than the
    /// system's), which the doctor shows as a warning; nil when there is nothing.
    public var advice: @Sendable () -> String?

    /// Creates a declaration.
    public init(
        name: String, package: String, usedFor: String?, essential: Bool = false,
        open: @escaping @Sendable () -> String?, opened: @escaping @Sendable () -> String,
        advice: @escaping @Sendable () -> String? = { nil }
    ) {
        self.name = name
        self.package = package
        self.usedFor = usedFor
        self.essential = essential
        self.open = open
        self.opened = opened
        self.advice = advice
    }
}
