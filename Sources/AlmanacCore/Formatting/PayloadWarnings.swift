/// A result that carries warnings beside its data: configuration it could not use (an unknown team
/// in `[me] teams`), each one line naming the entry. JSON output has them as `data.warnings`; the
/// command line also writes them to stderr, so a person sees them whatever the format.
public protocol PayloadWarnings {
    /// One line each, naming what was skipped.
    var warnings: [String] { get }
}
