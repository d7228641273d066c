import CLibical
import Foundation

/// Why a whole calendar file could not be read; the message is safe to show.
struct ICalendarError: Error, Sendable, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// One-time libical setup.
enum LibICal {
    /// Why libical could not be opened, or nil once it is ready. Check this before any libical
    /// call: the library is opened on first use (see CLibical), and a libical build with fatal
    /// errors would abort the process on the first malformed property of an untrusted file.
    static let loadFailure: String? = {
        guard almanac_ical_load() == 0 else { return String(cString: almanac_ical_error()) }
        icalerror_set_errors_are_fatal(0)
        return nil
    }()

    /// libical's UTC zone (lives for the whole process), or nil when libical is missing.
    static var utc: OpaquePointer? { loadFailure == nil ? icaltimezone_get_utc_timezone() : nil }
}

/// A parsed iCalendar stream (one file or one CalDAV object).
///
/// Owns the libical tree: only the root is freed, in `deinit` (children and the zones built from
/// VTIMEZONE blocks die with it). Strings are copied out at once. Not `Sendable`: build it, read
/// it in one task, drop it.
final class ICalendarDocument {
    private let root: OpaquePointer
    /// A name for messages (file name or href).
    let name: String
    /// What was wrong with the text as a whole but could be read around (a cut-off file).
    let warnings: [String]

    /// Parses `text`.
    ///
    /// A text cut off before `END:VCALENDAR` (an interrupted download or copy) is read up to its
    /// last complete component, with a warning, instead of being lost whole.
    ///
    /// - Throws: ``ICalendarError`` when the text holds no VCALENDAR at all.
    init(text: String, name: String) throws {
        if let failure = LibICal.loadFailure {
            throw ICalendarError(message: "\(name): libical could not be opened: \(failure)")
        }
        guard text.contains("BEGIN:VCALENDAR") || text.contains("begin:vcalendar") else {
            throw ICalendarError(message: "\(name): not an iCalendar file (no BEGIN:VCALENDAR)")
        }
        var parsed = icalparser_parse_string(text)
        var warnings: [String] = []
        if parsed == nil, let complete = Self.completePart(ofTruncated: text) {
            // libical returns nothing at all for an unterminated VCALENDAR.
            parsed = icalparser_parse_string(complete.text)
            if parsed != nil {
                let dropped = complete.total - complete.kept
                warnings.append(
                    dropped == 0
                        ? "\(name): no END:VCALENDAR at the end; read as if it were there"
                        : "\(name): file ends early (no END:VCALENDAR); the last \(dropped) lines (an unfinished entry) skipped"
                )
            }
        }
        guard let parsed else {
            throw ICalendarError(message: "\(name): not an iCalendar file (could not parse)")
        }
        let kind = icalcomponent_isa(parsed)
        guard kind == ICAL_VCALENDAR_COMPONENT || kind == ICAL_XROOT_COMPONENT else {
            icalcomponent_free(parsed)
            throw ICalendarError(message: "\(name): not an iCalendar file (no VCALENDAR)")
        }
        root = parsed
        self.name = name
        self.warnings = warnings
    }

    deinit { icalcomponent_free(root) }

    /// Frees `document` on a short-lived thread: freeing the libical tree of a big calendar takes
    /// milliseconds the caller can spend sorting. The caller gives up its reference (`consume`),
    /// so the thread's is the last one; nothing taken from the document may point into it.
    static func freeElsewhere(_ document: consuming ICalendarDocument) {
        let doomed = Doomed(document: consume document)
        Thread { doomed.drop() }.start()
    }

    /// Holds the last reference to a document until a thread drops it.
    private final class Doomed: @unchecked Sendable {
        // Set once here, then touched only by the thread that frees it.
        private var document: ICalendarDocument?
        init(document: consuming ICalendarDocument) { self.document = document }
        func drop() { document = nil }
    }

    /// The text up to the last complete top-level component, closed with `END:VCALENDAR`, with the
    /// number of lines kept and in all; nil when the text is not cut off (it has an `END:VCALENDAR`).
    static func completePart(ofTruncated text: String) -> (text: String, kept: Int, total: Int)? {
        guard text.range(of: "END:VCALENDAR", options: .caseInsensitive) == nil else { return nil }
        let closers: Set<String> = ["END:VEVENT", "END:VTODO", "END:VJOURNAL", "END:VFREEBUSY", "END:VTIMEZONE"]
        var kept = text.startIndex
        var keptLines = 0
        var line = 0
        var start = text.startIndex
        while start < text.endIndex {
            let end = text[start...].firstIndex(where: { $0 == "\n" || $0 == "\r\n" }) ?? text.endIndex
            let content = text[start..<end].trimmingCharacters(in: .whitespaces)
            if !content.isEmpty { line += 1 }  // blank lines are not lost content
            if closers.contains(content.uppercased()) {
                kept = end
                keptLines = line
            }
            start = end < text.endIndex ? text.index(after: end) : end
        }
        return (String(text[..<kept]) + "\r\nEND:VCALENDAR\r\n", keptLines, line)
    }

    /// The VCALENDAR components (a stream may hold several).
    var calendars: [OpaquePointer] {
        if icalcomponent_isa(root) == ICAL_VCALENDAR_COMPONENT { return [root] }
        return children(of: root, kind: ICAL_VCALENDAR_COMPONENT)
    }
}

// MARK: - Tree helpers (borrowed pointers; never freed individually)

func children(of parent: OpaquePointer, kind: icalcomponent_kind) -> [OpaquePointer] {
    var result: [OpaquePointer] = []
    var child = icalcomponent_get_first_component(parent, kind)
    while let current = child {
        result.append(current)
        child = icalcomponent_get_next_component(parent, kind)
    }
    return result
}

func properties(of component: OpaquePointer, kind: icalproperty_kind) -> [OpaquePointer] {
    var result: [OpaquePointer] = []
    var property = icalcomponent_get_first_property(component, kind)
    while let current = property {
        result.append(current)
        property = icalcomponent_get_next_property(component, kind)
    }
    return result
}

/// The value of the first `X-NAME` property, copied.
func xProperty(_ component: OpaquePointer, named name: String) -> String? {
    for property in properties(of: component, kind: ICAL_X_PROPERTY) {
        guard let xName = icalproperty_get_x_name(property), String(cString: xName).uppercased() == name else {
            continue
        }
        // Ring-buffer string: copy at once.
        guard let value = icalproperty_get_value_as_string(property) else { return nil }
        let text = String(cString: value).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }
    return nil
}

/// The text value of the first property of `kind` (unescaped by libical), copied; nil when empty.
func textProperty(_ component: OpaquePointer, _ kind: icalproperty_kind) -> String? {
    guard let property = icalcomponent_get_first_property(component, kind),
        let value = icalproperty_get_value(property), let text = icalvalue_get_text(value)
    else { return nil }
    let string = String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
    return string.isEmpty ? nil : string
}

/// The TZID parameter of `property`, copied.
func tzid(of property: OpaquePointer) -> String? {
    guard let parameter = icalproperty_get_first_parameter(property, ICAL_TZID_PARAMETER),
        let value = icalparameter_get_tzid(parameter)
    else { return nil }
    return String(cString: value)
}
