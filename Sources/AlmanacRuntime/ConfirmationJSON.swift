public import AlmanacCore

extension ConfirmationRequired {
    /// What a server's caller gets for a write waiting for confirmation, nothing written:
    /// `{"tool", "confirm": {"token", "preview", "expiresInSeconds"}}`. The preview may quote a
    /// server's text, so its control characters are escaped as in every other caller text.
    public var callerJSON: JSONValue {
        .object([
            "tool": .string(tool),
            "confirm": .object([
                "token": .string(token ?? ""), "preview": .string(TerminalText.escaped(preview)),
                "expiresInSeconds": .number(Double(validSeconds ?? 0)),
            ]),
        ])
    }
}
