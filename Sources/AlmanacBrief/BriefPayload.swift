import AlmanacCore
import Foundation

/// One section of a briefing as answered: where from, how old, its lines.
struct BriefSection: Sendable {
    var name: BriefSectionName
    /// The weather's place, as the forecast named it.
    var place: String?
    /// The providers that answered, joined with "+"; nil when every call failed.
    var source: String?
    /// The oldest answer's age.
    var ageSeconds: Int?
    /// Whether an answer came from an expired cache entry because its providers failed.
    var stale: Bool = false
    /// Lines, most important first. A failed section has one, not droppable.
    var lines: [BriefLine]

    var failed: Bool { source == nil }
}

/// The briefing: sections within a token budget, and notes on what it left out.
///
/// The budget is spent on the context output (what a model reads): lines are dropped least
/// important first (the last line of the last section, then the last of the one before, ...: every
/// section keeps its first lines longest) and each section says how many it dropped. JSON and
/// text show the same lines.
struct BriefPayload: ToolPayload {
    var label: String
    var day: Date
    var sections: [BriefSection]
    var notes: [String]
    var warnings: [String]
    var budget: Int

    /// The default budget: about 400 tokens.
    static let defaultBudget = 400

    /// Which lines of each section are kept for `budget` tokens, and the context text they make.
    ///
    /// Over budget, failed sections and notes shrink to their short forms first ("forecast,
    /// warnings: unavailable": why is `tools run TOOL`'s to say), before any line that answers goes.
    func fit(_ budget: Int, rendering: Rendering) -> (kept: [[Bool]], compact: Bool, text: String) {
        var kept = sections.map { $0.lines.map { _ in true } }
        var text = render(kept, rendering: rendering, fenced: true)
        guard ContextBudget.estimate(text) > budget else { return (kept, false, text) }
        text = render(kept, rendering: rendering, fenced: true, compact: true)
        guard ContextBudget.estimate(text) > budget else { return (kept, true, text) }
        // Least important first: later lines before earlier ones, later sections before earlier.
        var order: [(section: Int, line: Int)] = []
        for (section, entry) in sections.enumerated() {
            for (line, candidate) in entry.lines.enumerated() where candidate.droppable {
                order.append((section, line))
            }
        }
        order.sort { ($0.line, $0.section) > ($1.line, $1.section) }
        for (section, line) in order {
            kept[section][line] = false
            text = render(kept, rendering: rendering, fenced: true, compact: true)
            if ContextBudget.estimate(text) <= budget { break }
        }
        return (kept, true, text)
    }

    func render(_ kept: [[Bool]], rendering: Rendering, fenced: Bool, compact: Bool = false) -> String {
        let zone = rendering.timeZone
        let now = rendering.now
        var out: [String] = [
            "[brief] \(label) · \(TimeText.labelledDay(day, now: now, in: zone)) · now "
                + "\(TimeText.clock(now, in: zone)) \(TimeText.zoneAbbreviation(zone, at: now))"
        ]
        let untrusted = zip(sections, kept).flatMap { section, keep in
            zip(section.lines, keep).filter { $0.0.untrusted && $0.1 }.map(\.0.text)
        }
        let nonce = UntrustedText.nonce(for: untrusted)
        if fenced, !untrusted.isEmpty { out.append(UntrustedText.notice(nonce)) }
        for (section, keep) in zip(sections, kept) {
            out.append(heading(section))
            var inFence = false
            for (line, shown) in zip(section.lines, keep) where shown {
                if fenced, line.untrusted != inFence {
                    out.append(line.untrusted ? UntrustedText.open(nonce) : UntrustedText.close(nonce))
                    inFence = line.untrusted
                }
                out.append(compact ? line.short ?? line.text : line.text)
            }
            if fenced, inFence { out.append(UntrustedText.close(nonce)) }
            let omitted = keep.filter { !$0 }.count
            if omitted > 0 {
                out.append("… \(omitted) more \(section.name.noun(omitted)) omitted to fit the budget")
            }
        }
        if !notes.isEmpty {
            let shown = compact ? notes.map { String($0.prefix { $0 != ":" }) } : notes
            out.append("Not in this briefing: " + shown.joined(separator: compact ? ", " : "; "))
        }
        out += warnings.map { "Note: \($0)" }
        return out.joined(separator: "\n")
    }

    func heading(_ section: BriefSection) -> String {
        let title = section.place.map { "\(section.name.title) · \($0)" } ?? section.name.title
        guard let source = section.source else { return "\(title) · failed" }
        let age = TimeText.age(seconds: section.ageSeconds ?? 0)
        return "\(title) · source: \(source) · " + (section.stale ? "STALE, fetched \(age)" : "fetched \(age)")
    }

    /// The briefing within its budget (a caller's budget, such as `tools mcp --budget`, wins).
    func context(_ rendering: Rendering) -> String {
        fit(rendering.budget.tokens ?? budget, rendering: rendering).text
    }

    /// The same lines for people (a terminal, a mail from cron): no fences.
    func text(_ rendering: Rendering) -> String {
        let fitted = fit(rendering.budget.tokens ?? budget, rendering: rendering)
        return render(fitted.kept, rendering: rendering, fenced: false, compact: fitted.compact)
    }

    enum CodingKeys: String, CodingKey {
        case label = "for"
        case day, budget, sections, notes, warnings
    }

    struct SectionJSON: Encodable {
        var name: String
        var title: String
        var source: String?
        var ageSeconds: Int?
        var stale: Bool
        var status: String
        var lines: [String]
        var omitted: Int

        enum CodingKeys: String, CodingKey {
            case name, title, source, ageSeconds, stale, status, lines, omitted
        }

        // By hand: a failed section's source and age are null, not missing.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(title, forKey: .title)
            try container.encode(source, forKey: .source)
            try container.encode(ageSeconds, forKey: .ageSeconds)
            try container.encode(stale, forKey: .stale)
            try container.encode(status, forKey: .status)
            try container.encode(lines, forKey: .lines)
            try container.encode(omitted, forKey: .omitted)
        }
    }

    /// `data`: `for`, `day`, `budget`, `sections[]` of `name`, `title`, `source`, `ageSeconds`,
    /// `stale`, `status` (`ok`|`stale`|`failed`), `lines`, `omitted`; `notes`, `warnings`.
    func encode(to encoder: any Encoder) throws {
        // Fitted as the context output is, at the reference time the tool ran with.
        let rendering = Rendering(
            metadata: ResultMetadata(
                tool: "brief", provider: "brief", fetchedAt: encodedNow, ageSeconds: 0, stale: false, attempts: []),
            now: encodedNow, timeZone: encodedZone)
        let fitted = fit(budget, rendering: rendering)
        let kept = fitted.kept
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(label, forKey: .label)
        try container.encode(TimeText.isoDay(day, in: encodedZone), forKey: .day)
        try container.encode(budget, forKey: .budget)
        try container.encode(
            zip(sections, kept).map { section, keep in
                SectionJSON(
                    name: section.name.rawValue,
                    title: section.place.map { "\(section.name.title) · \($0)" }
                        ?? section.name.title,
                    source: section.source, ageSeconds: section.ageSeconds, stale: section.stale,
                    status: section.failed ? "failed" : section.stale ? "stale" : "ok",
                    lines: zip(section.lines, keep).filter(\.1).map {
                        fitted.compact ? $0.0.short ?? $0.0.text : $0.0.text
                    },
                    omitted: keep.filter { !$0 }.count)
            }, forKey: .sections)
        try container.encode(notes, forKey: .notes)
        try container.encode(warnings, forKey: .warnings)
    }

    /// The run's reference time and zone, for JSON (which has no rendering).
    var encodedNow: Date
    var encodedZone: TimeZone
}
