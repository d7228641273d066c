import AlmanacCore
import Foundation

extension CalendarWriteRun {
    /// For `move` and `cancel` named by a start time ("move 15:00 --to 16:00", as `tools route`
    /// reads "move my 3pm to 4"): the UID of the one event that starts at that local time on the
    /// first day from today that has one; nil when WORDS are not a time (or a title holds them).
    func startingAt(in calendars: [RawCalendar]) throws -> String? {
        guard command == .move || command == .cancel, let text = words, let clock = Self.clock(text) else {
            return nil
        }
        let today = CivilDate(now, in: zone).start(in: zone)
        var found: [(day: CivilDate, uid: String, summary: String)] = []
        for calendar in calendars {
            for item in calendar.components where item.kind == "VEVENT" && !item.isOverride && !item.repeats {
                if (item.summary ?? "").lowercased().contains(text.lowercased()) { return nil }
                guard item.status != "CANCELLED", let uid = item.uid, let line = item.first("DTSTART"),
                    let start = ReadTime(line, viewer: zone), case .instant(let date) = start.time, date >= today,
                    TimeText.clock(date, in: zone) == clock
                else { continue }
                found.append((CivilDate(date, in: zone), uid, item.summary ?? "(no title)"))
            }
        }
        guard let first = found.map(\.day).min() else {
            throw AlmanacError.usage(
                "calendar: no event starts at \(clock) today or later", suggestion: "name it by words of its title")
        }
        let candidates = found.filter { $0.day == first }
        guard candidates.count == 1, let only = candidates.first else {
            let list = candidates.map { "\"\($0.summary)\" uid \($0.uid)" }.joined(separator: "; ")
            throw AlmanacError.usage(
                "calendar: \(candidates.count) events start at \(clock) on \(first): \(list); which one?",
                suggestion: "say words of its title, or its UID")
        }
        return only.uid
    }

    /// `15:00` as `HH:MM`, else nil.
    static func clock(_ text: String) -> String? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":")
        guard parts.count == 2, parts[0].count <= 2, parts[1].count == 2, let hour = Int(parts[0]),
            let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        return String(format: "%02d:%02d", hour, minute)
    }
}
