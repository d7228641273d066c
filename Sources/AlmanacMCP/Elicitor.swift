import AlmanacCore
import Foundation
public import MCP

/// Asks the person behind an MCP client to confirm a write, by `elicitation/create`, when the
/// client declared the elicitation capability in `initialize` (docs/security.md).
public actor Elicitor {
    private let server: Server
    private var supported = false

    /// Creates the asker for the session `server` serves.
    public init(server: Server) {
        self.server = server
    }

    /// Records whether the client declared the elicitation capability.
    public func declared(_ elicitation: Bool) {
        supported = elicitation
    }

    /// True when the person accepted, false when they declined or cancelled (or the request
    /// failed: nothing is written then either), nil when the client cannot be asked.
    public func ask(_ message: String) async -> Bool? {
        guard supported else { return nil }
        let schema = Elicitation.RequestSchema(
            title: "Confirm a calendar write",
            properties: [
                "confirm": .object([
                    "type": .string("boolean"), "title": .string("Write it"), "default": .bool(true),
                ])
            ])
        guard let result = try? await server.requestElicitation(message: message, requestedSchema: schema) else {
            return false
        }
        // An accept that unticks "Write it" is no.
        return result.action == .accept && result.content?["confirm"] != .bool(false)
    }
}
