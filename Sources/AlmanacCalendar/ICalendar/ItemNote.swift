/// A problem with one event or task of a file, said on its own line unless the same problem
/// repeats: a feed exported without UIDs has one such note per event, and forty lines of the same
/// warning bury the one that matters.
struct ItemNote: Sendable, Equatable {
    /// The whole line, when said alone.
    var line: String
    /// What several items share, after "N events" (" have no UID; …", ": bad RRULE; …"); nil:
    /// always said alone.
    var group: String?
    /// How the item is named in a group's line ("'Standup' (uid-1)").
    var item: String

    /// A note about nothing in particular (a file-wide problem): always said alone.
    init(_ line: String) {
        self.line = line
        group = nil
        item = ""
    }

    init(line: String, group: String, item: String) {
        self.line = line
        self.group = group
        self.item = item
    }

    /// A problem repeated this often (in one file) is said once.
    static let groupedFrom = 4
    /// Items a grouped line names before "and N more".
    static let named = 3

    /// The lines for `notes` in their order: a problem that repeats `groupedFrom` times or more
    /// becomes one line where it is first met, "`file`: N `nouns`GROUP ('a', 'b', 'c' and N more)";
    /// every other note is its own line, as before.
    static func lines(_ notes: [ItemNote], file: String, nouns: String) -> [String] {
        var counts: [String: Int] = [:]
        for note in notes { if let group = note.group { counts[group, default: 0] += 1 } }
        guard counts.values.contains(where: { $0 >= groupedFrom }) else { return notes.map(\.line) }
        var items: [String: [String]] = [:]
        for note in notes {
            guard let group = note.group, let count = counts[group], count >= groupedFrom,
                items[group, default: []].count < named
            else { continue }
            items[group, default: []].append(note.item)
        }
        var said = Set<String>()
        var lines: [String] = []
        for note in notes {
            guard let group = note.group, let count = counts[group], count >= groupedFrom else {
                lines.append(note.line)
                continue
            }
            guard said.insert(group).inserted else { continue }
            let names = (items[group] ?? []).joined(separator: ", ")
            let more = count - (items[group]?.count ?? 0)
            lines.append("\(file): \(count) \(nouns)\(group) (\(names)\(more > 0 ? " and \(more) more" : ""))")
        }
        return lines
    }
}
