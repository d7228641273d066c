public import Foundation

/// How a result is printed.
public enum OutputFormat: String, Sendable, CaseIterable, Codable {
    /// Compact text for an LLM (default).
    case context
    /// The stable JSON envelope.
    case json
    /// Aligned text for people.
    case text
}

/// What a formatter may use besides its data: metadata, the reference time, zone and budget.
public struct Rendering: Sendable {
    /// Provenance and age.
    public var metadata: ResultMetadata
    /// The reference "now" for today/tomorrow labels.
    public var now: Date
    /// The viewer's zone (tools whose data has its own zone, like weather, use that instead).
    public var timeZone: TimeZone
    /// The token budget for context output.
    public var budget: ContextBudget

    /// Creates a rendering environment.
    public init(metadata: ResultMetadata, now: Date, timeZone: TimeZone, budget: ContextBudget = .unlimited) {
        self.metadata = metadata
        self.now = now
        self.timeZone = timeZone
        self.budget = budget
    }

    /// The first context line every tool prints: what, which day, where from, when fetched, how old.
    ///
    /// `[sports] NBA · Sun 15 Dec 2024 (today) · espn · fetched 23:10 EST (12 s ago)` or, when
    /// stale, `... · STALE: fetched ... (2 h 5 min ago); espn failed: HTTP 500`.
    public func header(_ title: String, zone: TimeZone? = nil) -> String {
        let zone = zone ?? timeZone
        var parts = ["[\(metadata.tool)] \(title)"]
        let source = metadata.provider
        parts.append("source: \(source)")
        let fetched =
            "fetched \(TimeText.clock(metadata.fetchedAt, in: zone)) \(TimeText.zoneAbbreviation(zone, at: metadata.fetchedAt)) (\(TimeText.age(seconds: metadata.ageSeconds)))"
        if metadata.stale {
            let failures = metadata.failures.map { "\($0.provider) failed: \($0.detail ?? $0.outcome.rawValue)" }
            parts.append(
                "STALE: \(fetched)" + (failures.isEmpty ? "" : "; " + failures.joined(separator: "; ")))
        } else {
            parts.append(fetched)
        }
        return parts.joined(separator: " · ")
    }
}

/// A tool's domain result, printable three ways.
///
/// ## Implementation requirements
/// - `encode(to:)` writes the documented `data` object of the JSON envelope.
/// - `context` starts with ``Rendering/header(_:zone:)``, keeps times local and labelled, fences
///   untrusted text, and fits ``Rendering/budget`` by dropping whole lines ("N more omitted").
public protocol ToolPayload: Sendable, Encodable {
    /// Compact text for an LLM.
    func context(_ rendering: Rendering) -> String
    /// Aligned text for people.
    func text(_ rendering: Rendering) -> String
}

/// A finished tool run.
public struct ToolResult: Sendable {
    /// Provenance and age.
    public var metadata: ResultMetadata
    /// The domain result.
    public var payload: any ToolPayload

    /// Creates a result.
    public init(metadata: ResultMetadata, payload: any ToolPayload) {
        self.metadata = metadata
        self.payload = payload
    }

    /// Prints the result in `format`.
    public func render(
        _ format: OutputFormat, now: Date, timeZone: TimeZone, budget: ContextBudget = .unlimited
    ) throws -> String {
        let rendering = Rendering(metadata: metadata, now: now, timeZone: timeZone, budget: budget)
        switch format {
        case .context: return payload.context(rendering)
        case .text: return payload.text(rendering)
        case .json: return try Envelope.json(metadata: metadata, payload: payload)
        }
    }

    /// ``render(_:now:timeZone:budget:)`` as UTF-8 bytes. The JSON envelope is written straight
    /// into them: for a result of megabytes (a year of a busy calendar) every copy into a
    /// `String` and back costs milliseconds.
    public func renderUTF8(
        _ format: OutputFormat, now: Date, timeZone: TimeZone, budget: ContextBudget = .unlimited
    ) throws -> [UInt8] {
        if format == .json { return try Envelope.jsonUTF8(metadata: metadata, payload: payload) }
        return Array(try render(format, now: now, timeZone: timeZone, budget: budget).utf8)
    }
}

/// A payload that writes its own one-line `data` JSON, for results too large for `JSONEncoder`
/// to be quick (a year of calendar instances). It must parse to the same value as `encode(to:)`.
public protocol CompactJSONPayload: ToolPayload {
    /// The `data` object as one line of JSON.
    func compactDataJSON() throws -> String

    /// Appends ``compactDataJSON()`` to `writer` (by default it appends that string; implement it
    /// to write the bytes directly).
    func writeCompactDataJSON(to writer: inout JSONWriter) throws
}

extension CompactJSONPayload {
    /// Appends ``compactDataJSON()``.
    public func writeCompactDataJSON(to writer: inout JSONWriter) throws {
        writer.raw(try compactDataJSON())
    }
}

/// Appends JSON to a byte buffer: for payloads of tens of thousands of records, where building
/// one `String` per field is most of the cost.
public struct JSONWriter: Sendable {
    /// The UTF-8 bytes written so far (append to it directly for digits and punctuation).
    public var bytes: [UInt8] = []

    /// An empty writer; `capacity` is a hint in bytes.
    public init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    /// The bytes as text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends `json` as is (it must already be JSON: punctuation, keys, numbers).
    mutating func raw(_ json: StaticString) {
        json.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends already-encoded JSON text.
    public mutating func raw(_ json: String) { bytes.append(contentsOf: json.utf8) }

    /// Appends another writer's bytes (already JSON).
    public mutating func raw(_ other: JSONWriter) { bytes.append(contentsOf: other.bytes) }

    mutating func bool(_ value: Bool) { value ? raw("true") : raw("false") }

    /// Appends an optional string literal, or `null`.
    public mutating func string(_ value: String?) {
        if let value { string(value) } else { raw("null") }
    }

    /// Appends `value` as a string literal, escaped as JSONEncoder escapes it (`.withoutEscapingSlashes`).
    /// Bytes of multi-byte UTF-8 sequences are all >= 0x80, so scanning bytes for `"`, `\` and
    /// controls is exact.
    public mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            bytes.append(UInt8(ascii: "\""))
            var clean = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean..<index]))
                bytes.append(contentsOf: Self.escape(byte))
                clean = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean..<utf8.count]))
            bytes.append(UInt8(ascii: "\""))
        }
    }

    private static func escape(_ byte: UInt8) -> [UInt8] {
        switch byte {
        case UInt8(ascii: "\""): return Array(#"\""#.utf8)
        case UInt8(ascii: "\\"): return Array(#"\\"#.utf8)
        case 0x0A: return Array(#"\n"#.utf8)
        case 0x0D: return Array(#"\r"#.utf8)
        case 0x09: return Array(#"\t"#.utf8)
        case 0x08: return Array(#"\b"#.utf8)
        case 0x0C: return Array(#"\f"#.utf8)
        default:
            let hex = String(byte, radix: 16)
            return Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
        }
    }
}

/// The JSON envelope that never changes shape.
///
/// `{"tool","provider","fetchedAt","ageSeconds","stale","attempts":[...],"data":{...}}`, keys in
/// that order (assembled by hand: JSONEncoder on Linux does not keep declaration order).
public enum Envelope {
    /// The envelope as one line of JSON (keys in documented order; `data` keys sorted).
    static func json(metadata: ResultMetadata, payload: any ToolPayload) throws -> String {
        String(decoding: try jsonUTF8(metadata: metadata, payload: payload), as: UTF8.self)
    }

    /// ``json(metadata:payload:)`` as UTF-8 bytes, written into one buffer (a compact payload
    /// writes its `data` straight into it).
    public static func jsonUTF8(metadata: ResultMetadata, payload: any ToolPayload) throws -> [UInt8] {
        // The metadata by hand, as JSONEncoder writes it (sorted keys, `detail` left out when nil):
        // five encoder runs were a third of the envelope's cost for a small answer.
        var writer = JSONWriter(capacity: 512)
        writer.raw(#"{"tool":"#)
        writer.string(metadata.tool)
        writer.raw(#","provider":"#)
        writer.string(metadata.provider)
        writer.raw(#","fetchedAt":"#)
        writer.string(TimeText.isoUTC(metadata.fetchedAt))
        writer.raw(#","ageSeconds":"#)
        writer.raw(String(metadata.ageSeconds))
        writer.raw(#","stale":"#)
        writer.bool(metadata.stale)
        writer.raw(#","attempts":["#)
        for (index, attempt) in metadata.attempts.enumerated() {
            if index > 0 { writer.raw(",") }
            attempt.writeJSON(to: &writer)
        }
        writer.raw(#"],"data":"#)
        if let compact = payload as? any CompactJSONPayload {
            try compact.writeCompactDataJSON(to: &writer)
        } else {
            writer.bytes += try JSONOutput.encoder().encode(AnyPayload(payload))
        }
        writer.raw("}")
        return writer.bytes
    }

    /// Just the `data` object, pretty with sorted keys (for goldens).
    static func dataJSON(_ payload: any ToolPayload) throws -> String {
        try JSONOutput.prettyText(AnyPayload(payload))
    }

    /// The envelope as an `Encodable` value, for an answer inside another's `data` (`search --read`):
    /// written by the outer encoder (keys sorted like the rest of `data`), with no text in between.
    public struct Nested: Encodable, Sendable {
        let tool: String
        let provider: String
        let fetchedAt: String
        let ageSeconds: Int
        let stale: Bool
        let attempts: [ProviderAttempt]
        let data: AnyPayload

        /// `result`'s envelope.
        public init(_ result: ToolResult) {
            tool = result.metadata.tool
            provider = result.metadata.provider
            fetchedAt = TimeText.isoUTC(result.metadata.fetchedAt)
            ageSeconds = result.metadata.ageSeconds
            stale = result.metadata.stale
            attempts = result.metadata.attempts
            data = AnyPayload(result.payload)
        }
    }

    /// By hand: a payload behind `any` is written through its own `encode(to:)`.
    struct AnyPayload: Encodable, Sendable {
        let payload: any ToolPayload
        init(_ payload: any ToolPayload) { self.payload = payload }
        func encode(to encoder: any Encoder) throws { try payload.encode(to: encoder) }
    }
}
