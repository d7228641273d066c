import AlmanacCore
import Foundation

// `[me] calendars`: the calendars a plain `tools run calendar` reads when the profile names them
// (else every configured one, as before). A name no `[calendars.NAME]` has is a warning naming it.

extension CalendarSources {
    /// The profile's calendars out of `configured` (every configured calendar, in name order), and
    /// a warning per name not configured. None matching: every configured calendar, with the warnings.
    static func profileDefault(
        _ configured: [CalendarSource], settings: Settings
    ) throws -> (sources: [CalendarSource], warnings: [String]) {
        let names = try Profile.read(settings).calendars
        guard !names.isEmpty else { return (configured, []) }
        var chosen: [CalendarSource] = []
        var warnings: [String] = []
        for name in names {
            if let match = configured.first(where: { $0.name.lowercased() == name.lowercased() }) {
                if !chosen.contains(where: { $0.name == match.name }) { chosen.append(match) }
            } else {
                let hint = Suggest.closest(to: name, in: configured.map(\.name)).map { "; did you mean '\($0)'?" } ?? ""
                warnings.append(
                    "[me] calendars: no calendar named '\(UntrustedText.clean(name, limit: 60))'"
                        + " ([calendars.NAME] in config.toml)\(hint); skipped")
            }
        }
        return (chosen.isEmpty ? configured : chosen, warnings)
    }

    /// `payload` with `warnings` before its own (JSON `data.warnings`, the context's warning lines).
    static func warn(_ payload: any ToolPayload, _ warnings: [String]) -> any ToolPayload {
        if var events = payload as? CalendarPayload {
            events.warnings = warnings + events.warnings
            return events
        }
        if var free = payload as? FreeBusyPayload {
            free.warnings = warnings + free.warnings
            return free
        }
        return payload
    }
}
