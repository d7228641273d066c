import CLibical
import Foundation

/// Why a whole calendar file could not be read; the message is safe to show.
struct ICalendarError: Error, Sendable, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// One-time libical setup.
enum LibICal {
    /// Touch this before any libical call: a libical build with fatal errors would abort the
    /// process on the first malformed property, and a calendar file is untrusted input.
    static let ready: Bool = {
        icalerror_set_errors_are_fatal(0)
        return true
    }()

    /// libical's UTC zone (lives for the whole process).
    static var utc: OpaquePointer? { icaltimezone_get_utc_timezone() }
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

    /// Parses `text`.
    ///
    /// - Throws: ``ICalendarError`` when the text holds no VCALENDAR at all.
    init(text: String, name: String) throws {
        _ = LibICal.ready
        guard text.contains("BEGIN:VCALENDAR") || text.contains("begin:vcalendar") else {
            throw ICalendarError(message: "\(name): not an iCalendar file (no BEGIN:VCALENDAR)")
        }
        guard let parsed = icalparser_parse_string(text) else {
            throw ICalendarError(message: "\(name): not an iCalendar file (could not parse)")
        }
        let kind = icalcomponent_isa(parsed)
        guard kind == ICAL_VCALENDAR_COMPONENT || kind == ICAL_XROOT_COMPONENT else {
            icalcomponent_free(parsed)
            throw ICalendarError(message: "\(name): not an iCalendar file (no VCALENDAR)")
        }
        root = parsed
        self.name = name
    }

    deinit { icalcomponent_free(root) }

    /// The VCALENDAR components (a stream may hold several).
    var calendars: [OpaquePointer] {
        if icalcomponent_isa(root) == ICAL_VCALENDAR_COMPONENT { return [root] }
        return children(of: root, kind: ICAL_VCALENDAR_COMPONENT)
    }

    /// `X-WR-CALNAME`, when the producer set one.
    var calendarName: String? {
        calendars.lazy.compactMap { xProperty($0, named: "X-WR-CALNAME") }.first
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
