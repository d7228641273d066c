import Foundation

/// One unfolded content line: `NAME;PARAM=VALUE:VALUE`.
struct ContentLine: Sendable, Hashable {
    var name: String
    var parameters: [String: String]
    var value: String

    /// Parses an unfolded line; nil when it has no `:` outside quotes.
    init?(_ line: String) {
        var name = ""
        var parameters: [String: String] = [:]
        var current = ""
        var key: String?
        var quoted = false
        var index = line.startIndex
        var seenName = false
        while index < line.endIndex {
            let character = line[index]
            if character == "\"" {
                quoted.toggle()
            } else if !quoted, character == ";" || character == ":" {
                if !seenName {
                    name = current
                    seenName = true
                } else if let key {
                    parameters[key] = current.replacingOccurrences(of: "\"", with: "")
                }
                current = ""
                key = nil
                if character == ":" {
                    self.name = name.uppercased()
                    self.parameters = parameters
                    value = String(line[line.index(after: index)...])
                    return
                }
                index = line.index(after: index)
                continue
            } else if !quoted, character == "=", seenName, key == nil {
                key = current.uppercased()
                current = ""
                index = line.index(after: index)
                continue
            }
            current.append(character)
            index = line.index(after: index)
        }
        return nil
    }

    init(name: String, parameters: [String: String] = [:], value: String) {
        self.name = name
        self.parameters = parameters
        self.value = value
    }
}

/// A top-level component (VEVENT, VTODO, VTIMEZONE, ...) as its exact text, with its own
/// properties read for finding and patching it.
struct RawComponent: Sendable {
    /// One logical line: its text as written (folds and line end included), and its depth (0 the
    /// component's own BEGIN/END and properties, 1 and more inside a VALARM or other sub-component).
    struct Line: Sendable {
        var raw: String
        var depth: Int
        var parsed: ContentLine?
    }

    var kind: String
    var lines: [Line]

    var raw: String { lines.map(\.raw).joined() }

    /// The component's own properties (not those of its VALARMs), BEGIN/END excluded.
    var properties: [ContentLine] {
        lines.filter { $0.depth == 0 }.compactMap(\.parsed).filter { $0.name != "BEGIN" && $0.name != "END" }
    }

    func first(_ name: String) -> ContentLine? { properties.first { $0.name == name } }

    var uid: String? { first("UID")?.value }
    var summary: String? { first("SUMMARY").map { ICalendarText.unescape($0.value) } }
    var isOverride: Bool { first("RECURRENCE-ID") != nil }
    var repeats: Bool { first("RRULE") != nil || first("RDATE") != nil }
    var status: String? { first("STATUS")?.value.uppercased() }
    var sequence: Int { first("SEQUENCE").flatMap { Int($0.value.trimmingCharacters(in: .whitespaces)) } ?? 0 }

    /// Replaces every own `name` property with `lines` (in place of the first one, or before the
    /// first sub-component or END when there was none).
    mutating func set(_ name: String, to newLines: [String], lineEnd: String) {
        let texts = newLines.map { Self.withLineEnd($0, lineEnd) }
        let own = lines.indices.filter { lines[$0].depth == 0 && lines[$0].parsed?.name == name }
        let at = own.first ?? insertionPoint
        for index in own.reversed() { lines.remove(at: index) }
        lines.insert(contentsOf: texts.map { Line(raw: $0, depth: 0, parsed: nil) }, at: at)
        reparse()
    }

    /// Adds a line before the first sub-component or END.
    mutating func add(_ line: String, lineEnd: String) {
        lines.insert(Line(raw: Self.withLineEnd(line, lineEnd), depth: 0, parsed: nil), at: insertionPoint)
        reparse()
    }

    mutating func remove(_ name: String) {
        lines.removeAll { $0.depth == 0 && $0.parsed?.name == name }
    }

    /// A new revision: SEQUENCE one up (RFC 5545 3.8.7.4), DTSTAMP and LAST-MODIFIED now.
    mutating func stamp(_ now: Date, lineEnd: String) {
        set("SEQUENCE", to: [ICalendarText.line("SEQUENCE", String(sequence + 1))], lineEnd: lineEnd)
        set("DTSTAMP", to: [ICalendarText.line("DTSTAMP", ICalendarText.utc(now))], lineEnd: lineEnd)
        set("LAST-MODIFIED", to: [ICalendarText.line("LAST-MODIFIED", ICalendarText.utc(now))], lineEnd: lineEnd)
    }

    private var insertionPoint: Int {
        lines.indices.dropFirst().first { index in
            let line = lines[index]
            return line.depth > 0 || (line.depth == 0 && line.parsed?.name == "END")
        } ?? max(lines.count - 1, 0)
    }

    private mutating func reparse() {
        for index in lines.indices where lines[index].parsed == nil {
            lines[index].parsed = ContentLine(Self.unfold(lines[index].raw))
        }
    }

    static func unfold(_ raw: String) -> String {
        raw.replacingOccurrences(of: "\r\n ", with: "").replacingOccurrences(of: "\r\n\t", with: "")
            .replacingOccurrences(of: "\n ", with: "").replacingOccurrences(of: "\n\t", with: "")
            .trimmingCharacters(in: CharacterSet(charactersIn: "\r\n"))
    }

    /// `text` (ending in CRLF, as Almanac writes) with the file's own line ends.
    static func withLineEnd(_ text: String, _ lineEnd: String) -> String {
        lineEnd == "\r\n" ? text : text.replacingOccurrences(of: "\r\n", with: lineEnd)
    }
}

/// A calendar file's text kept as written: everything outside the top-level components as it
/// was, each component as its exact bytes, so a write changes only what it touches.
struct RawCalendar: Sendable {
    enum Piece: Sendable {
        /// Lines outside components (BEGIN/END:VCALENDAR, calendar properties, blank lines).
        case text(String)
        case component(RawComponent)
    }

    var pieces: [Piece]
    /// The file's line end (CRLF unless the file uses bare LF): new lines are written with it.
    let lineEnd: String

    var text: String {
        pieces.map { piece in
            switch piece {
            case .text(let text): text
            case .component(let component): component.raw
            }
        }.joined()
    }

    /// An empty calendar, as a new file starts.
    static let empty = "\(ICalendarText.header)END:VCALENDAR\r\n"

    /// Splits `text`; nil when it is not a calendar (no BEGIN:VCALENDAR, or unbalanced blocks).
    init?(_ text: String) {
        lineEnd = text.contains("\r\n") || !text.contains("\n") ? "\r\n" : "\n"
        var pieces: [Piece] = []
        var outside = ""
        var component: RawComponent?
        var depth = 0
        var sawCalendar = false
        // Logical lines: a physical line and the continuation lines (leading space or tab) after it.
        var logical: [String] = []
        // By bytes: a Swift Character is a whole CRLF, so a search for "\n" would not find it.
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            if end < bytes.count { end += 1 }
            let line = String(decoding: bytes[start..<end], as: UTF8.self)
            if bytes[start] == 0x20 || bytes[start] == 0x09, !logical.isEmpty {
                logical[logical.count - 1] += line
            } else {
                logical.append(line)
            }
            start = end
        }
        for line in logical {
            let unfolded = RawComponent.unfold(line)
            let upper = unfolded.uppercased()
            if upper.hasPrefix("BEGIN:") {
                depth += 1
                if upper == "BEGIN:VCALENDAR" {
                    guard depth == 1 else { return nil }
                    sawCalendar = true
                    outside += line
                    continue
                }
                if depth == 2 {
                    pieces.append(.text(outside))
                    outside = ""
                    component = RawComponent(kind: String(upper.dropFirst(6)), lines: [])
                }
            }
            if var current = component {
                current.lines.append(RawComponent.Line(raw: line, depth: depth - 2, parsed: ContentLine(unfolded)))
                component = current
                if upper.hasPrefix("END:") {
                    depth -= 1
                    if depth == 1 {
                        guard upper == "END:" + current.kind else { return nil }
                        pieces.append(.component(current))
                        component = nil
                    }
                }
                continue
            }
            if upper.hasPrefix("END:") { depth -= 1 }
            guard depth >= 0 else { return nil }
            outside += line
        }
        guard sawCalendar, component == nil, depth == 0 else { return nil }
        pieces.append(.text(outside))
        self.pieces = pieces
    }

    var components: [RawComponent] {
        pieces.compactMap {
            if case .component(let component) = $0 { return component }
            return nil
        }
    }

    /// The TZIDs of the file's VTIMEZONEs.
    var timeZoneIDs: Set<String> {
        Set(components.filter { $0.kind == "VTIMEZONE" }.compactMap { $0.first("TZID")?.value })
    }

    /// Adds `text` (components, CRLF-ended) before the last END:VCALENDAR.
    mutating func append(_ text: String) {
        let converted = RawComponent.withLineEnd(text, lineEnd)
        guard case .text(let tail) = pieces.last,
            let end = tail.range(of: "END:VCALENDAR", options: [.caseInsensitive, .backwards])
        else { return }
        // Back to the start of that line.
        let lineStart =
            tail[..<end.lowerBound].lastIndex(where: { $0 == "\n" || $0 == "\r\n" }).map { tail.index(after: $0) }
            ?? tail.startIndex
        var before = String(tail[..<lineStart])
        // A file whose last line before END:VCALENDAR has no line end gets one.
        if !before.isEmpty, !before.hasSuffix("\n"), !before.hasSuffix("\r\n") { before += lineEnd }
        pieces[pieces.count - 1] = .text(before + converted + tail[lineStart...])
    }

    /// Replaces the components for which `update` returns a value (nil leaves one unchanged) and
    /// drops those `remove` names.
    mutating func update(_ body: (RawComponent) -> RawComponent?, remove: (RawComponent) -> Bool = { _ in false }) {
        var result: [Piece] = []
        for piece in pieces {
            guard case .component(let component) = piece else {
                result.append(piece)
                continue
            }
            if remove(component) { continue }
            result.append(.component(body(component) ?? component))
        }
        pieces = result
    }
}
