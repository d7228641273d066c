import AlmanacCore
import Foundation

/// One line of a section: its text, whether it is third-party text (fenced in context output),
/// and whether the budget may drop it.
struct BriefLine: Sendable, Equatable {
    var text: String
    var untrusted: Bool = false
    var droppable: Bool = true
    /// A shorter form for a budget too small for the line itself (a failed section's).
    var short: String?
}

/// Turns a tool's own context output into briefing lines: the tool already dates and labels
/// everything (today/tomorrow, local times), so the briefing keeps its lines, less the header (the
/// section says source and age once), the fence notice and markers (the briefing fences again),
/// and what a briefing has no room for.
enum BriefLines {
    /// `said`: the lines another run of the section already showed (the events run's, for the
    /// tasks run's warnings).
    static func lines(from context: String, role: BriefCall.Role, said: Set<String> = []) -> [BriefLine] {
        var lines: [BriefLine] = []
        var fenced = false
        for (index, raw) in context.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            let text = String(raw)
            if index == 0, text.hasPrefix("[") { continue }
            if text.hasPrefix("Text between <<<data ") { continue }
            if text.hasPrefix("<<<data ") {
                fenced = true
                continue
            }
            if text.hasPrefix("<<<end ") {
                fenced = false
                continue
            }
            guard let kept = keep(text, role: role, said: said) else { continue }
            lines.append(BriefLine(text: kept, untrusted: fenced))
        }
        return lines
    }

    /// The line as the briefing shows it, or nil to leave it out.
    static func keep(_ text: String, role: BriefCall.Role, said: Set<String> = []) -> String? {
        switch role {
        case .events, .tasks:
            // "Now: Mon 4 Mar 2019 08:00 UTC. No events.": the briefing's header says when now is.
            if text.hasPrefix("Now: "), let stop = text.range(of: ". ") {
                let rest = String(text[stop.upperBound...])
                return rest.isEmpty ? nil : rest
            }
            // Due tasks only: an undated one is not due today.
            if role == .tasks, text.contains("no due date") { return nil }
            // The tasks run reads the same calendars as the events run: a warning both give, once
            // only. Its own (a failed CalDAV request, a VTODO it could not read) stay.
            if role == .tasks, text.hasPrefix("warnings: ") || text.hasPrefix("! "), said.contains(text) { return nil }
            return text
        case .forecast:
            // The day only: the next days belong to `tools run weather`, the other places of the
            // name to someone who has not chosen one (the profile has).
            if text.hasPrefix("Next days:") || text.hasPrefix("Then:") || text.hasPrefix("Other places with this name")
            {
                return nil
            }
            return text
        case .headlines:
            // Titles only ("1. Title (Source · Sun 14 Dec 2025 (today) 01:19 UTC)"): the links and
            // summaries are for `tools run news`.
            guard let first = text.first, first.isNumber, text.contains(". ") else { return nil }
            return text
        case .alerts, .nextHour, .scores, .nextGame:
            return text
        }
    }

    /// The place a weather header names: "[weather] Frederick, Maryland, United States · local time ..."
    /// gives "Frederick, Maryland, United States", and so does the profile's "[weather] home
    /// (Frederick, Maryland, United States) · ..." (the section is the home weather already).
    static func place(fromHeader context: String) -> String? {
        guard let first = context.split(separator: "\n").first, first.hasPrefix("[weather] ") else { return nil }
        let title = first.dropFirst("[weather] ".count)
        guard let end = title.range(of: " · ") else { return nil }
        let place = title[..<end.lowerBound]
        if place.hasPrefix("home ("), place.hasSuffix(")") { return String(place.dropFirst("home (".count).dropLast()) }
        return String(place)
    }

    /// One line for a call that failed: what and why, short (the section goes on without it).
    static func failure(_ label: String, _ error: any Error) -> String {
        "\(label): unavailable (\(reason(error)))"
    }

    /// The error's reason in one short line: the first provider's failure (and how many more
    /// failed), or the message. Short: a briefing has no room for every provider's story, and
    /// `tools run TOOL` tells it in full.
    static func reason(_ error: any Error, limit: Int = 90) -> String {
        guard let almanac = error as? AlmanacError else { return "internal error" }
        func cut(_ text: String) -> String { text.count > limit ? String(text.prefix(limit - 1)) + "…" : text }
        let failed = almanac.attempts.filter { $0.outcome != .ok && $0.outcome != .cached }
        guard let first = failed.first else { return cut(almanac.message) }
        let more = failed.count > 1 ? "; \(failed.count - 1) more failed" : ""
        return cut("\(first.provider): \(first.detail ?? first.outcome.rawValue)") + more
    }
}
