import AlmanacCore
import Foundation

/// `search ... --read N`: the results, then result N's page as the read tool prints it.
///
/// JSON `data`: the search `data` with `read` added: the read tool's envelope (`tool`,
/// `provider`, `fetchedAt`, ..., `data`) or null, and `readNote` (why nothing was read) or null.
struct SearchReadPayload: ToolPayload {
    let search: SearchPayload
    let read: ToolResult?
    let note: String?

    /// The results take a quarter of the budget, the page the rest.
    static let searchShare = 4

    /// By hand: `data` is the search's own keys with `read` and `readNote` added beside them.
    func encode(to encoder: any Encoder) throws {
        try search.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(read.map(Envelope.Nested.init), forKey: .read)
        try container.encode(note, forKey: .readNote)
    }

    enum Keys: String, CodingKey { case read, readNote }

    func context(_ rendering: Rendering) -> String {
        var searchRendering = rendering
        var readRendering = rendering
        if let tokens = rendering.budget.tokens {
            searchRendering.budget = ContextBudget(tokens: max(100, tokens / Self.searchShare))
            readRendering.budget = ContextBudget(tokens: max(200, tokens - tokens / Self.searchShare))
        }
        var text = search.context(searchRendering)
        if let read {
            readRendering.metadata = read.metadata
            text += read.payload.context(readRendering)
        } else if let note {
            text += "read: \(UntrustedText.clean(note, limit: 300))\n"
        }
        return text
    }

    func text(_ rendering: Rendering) -> String {
        var text = search.text(rendering)
        if let read {
            var readRendering = rendering
            readRendering.metadata = read.metadata
            text += "\n" + read.payload.text(readRendering)
        } else if let note {
            text += "\nRead: \(UntrustedText.clean(note, limit: 300))\n"
        }
        return text
    }
}
