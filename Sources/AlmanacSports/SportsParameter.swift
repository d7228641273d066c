/// The sports tool's parameter names, spelt once: the schema declares them, the argument reader and
/// the question reader name them by these cases, so a renamed parameter is a compile error.
enum SportsParameter: String, CaseIterable {
    case league, view, team, date, player, event, group, next, limit, mine

    /// The option as the command line (and the question reader's words) spells it: `--team`.
    var option: String { "--" + rawValue }
}
