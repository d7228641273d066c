import AlmanacCore

/// The cap on one answer's bytes in `tools serve` and `tools mcp`: a chat client handed tens of
/// megabytes of tool result is wrecked, so a larger answer keeps its envelope, drops `data` for
/// a note of what was cut, and keeps as much of the context text as fits, ending in a line that
/// says it was cut.
public enum AnswerLimit {
    /// The default cap: 1 MiB.
    public static let defaultBytes = 1_048_576

    /// `envelope` (the JSON envelope) with its `data` replaced by
    /// `{"truncated":true,"bytes":total,"limit":limit}`.
    static func envelopeWithoutData(_ envelope: [UInt8], total: Int, limit: Int) -> [UInt8] {
        // `,"data":` cannot occur inside a JSON string (its quotes would be escaped), and the
        // envelope's keys before `data` hold no object with such a key: the first one is the key.
        let key = Array(#","data":"#.utf8)
        guard let start = envelope.firstRange(of: key)?.lowerBound else { return envelope }
        return Array(envelope[..<start]) + key + Array(#"{"truncated":true,"bytes":\#(total),"limit":\#(limit)}}"#.utf8)
    }

    /// `context` cut at a line end so that it and a closing line saying so take at most
    /// `bytes` UTF-8 bytes once JSON-escaped (a sixteenth is left for escapes).
    static func cut(_ context: String, toBytes bytes: Int, total: Int, limit: Int) -> String {
        let note =
            "[answer cut: \(total) bytes is over this server's limit of \(limit); ask for a narrower range or fewer items]"
        let room = bytes * 15 / 16 - note.utf8.count - 1
        // A character split at the cut decodes as U+FFFD; cutting at the last line end drops it.
        var kept = Substring(String(decoding: context.utf8.prefix(max(0, room)), as: UTF8.self))
        if let end = kept.lastIndex(of: "\n") { kept = kept[..<end] }
        return kept.isEmpty ? note : kept + "\n" + note
    }
}
