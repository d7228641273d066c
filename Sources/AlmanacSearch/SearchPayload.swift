import AlmanacCore
import Foundation

/// A search result ready to print: context (fenced, budgeted), JSON `data`, or text.
///
/// JSON `data`: `{"query","kind":"web|news","freshness":null|"day|week|month","country":null|"DE",
/// "answers":[...],"infobox":null|"...","results":[{"title","url","snippet","age","pageAge","engines"}],
/// "suggestions":[...]}` — every key always present (`engines` null for Brave; `suggestions`
/// only filled when there are no results).
struct SearchPayload: ToolPayload {
    var query: String
    var kind: SearchKind
    @Nullable var freshness: SearchFreshness?
    @Nullable var country: String?
    var results: [SearchHit]
    var answers: [String] = []
    @Nullable var infobox: String? = nil
    var suggestions: [String] = []

    // MARK: Context

    func context(_ rendering: Rendering) -> String {
        let header = rendering.header(title(rendering))
        // Answers and the fact line first, then the results; suggestions only when nothing else.
        var blocks = answers.map { "answer: \(UntrustedText.clean($0, limit: 400))" }
        if let infobox { blocks.append("facts: \(UntrustedText.clean(infobox, limit: 600))") }
        blocks += results.enumerated().map { index, hit in block(index + 1, hit, rendering) }
        if results.isEmpty, !suggestions.isEmpty {
            blocks.append(
                "suggested searches: " + suggestions.map { UntrustedText.clean($0, limit: 80) }.joined(separator: "; "))
        }
        guard !blocks.isEmpty else {
            return [header, "No \(kind.rawValue) results."].joined(separator: "\n") + "\n"
        }
        // Our own words stay outside the fence.
        let top = results.isEmpty ? [header, "No \(kind.rawValue) results."] : [header]
        let nonce = UntrustedText.nonce(for: blocks)
        let notice = UntrustedText.notice(nonce)
        let reserved = (top + [notice, UntrustedText.open(nonce), UntrustedText.close(nonce)]).joined(separator: "\n")
        let omitted: (Int) -> String = { "… \($0) more result\($0 == 1 ? "" : "s") omitted" }
        let kept = rendering.budget.fit(blocks, reserved: reserved, omitted: omitted)
        // `fit` appends its footer as the last line; it belongs outside the fence.
        let truncated = kept != Array(blocks.prefix(kept.count))
        let fenced = truncated ? Array(kept.dropLast()) : kept
        var lines = top + [notice, UntrustedText.open(nonce)] + fenced + [UntrustedText.close(nonce)]
        if truncated, let footer = kept.last { lines.append(footer) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `web results for "swift 6" · past week · country DE · Tue 31 Dec 2024 (today)`.
    private func title(_ rendering: Rendering) -> String {
        var parts = ["\(kind.rawValue) results for \"\(UntrustedText.clean(query, limit: 200))\""]
        if let freshness { parts.append("past \(freshness.rawValue)") }
        if let country { parts.append("country \(country)") }
        parts.append(TimeText.labelledDay(rendering.now, now: rendering.now, in: rendering.timeZone))
        return parts.joined(separator: " · ")
    }

    /// Three lines per hit: rank and title (+ date), URL, snippet. Every upstream string is cleaned.
    private func block(_ rank: Int, _ hit: SearchHit, _ rendering: Rendering) -> String {
        var first = "\(rank). \(UntrustedText.clean(hit.title, limit: 200))"
        if let date = dated(hit, rendering) { first += " (\(date))" }
        var lines = [first, "   \(UntrustedText.clean(hit.url, limit: 300))" + engines(hit)]
        let snippet = UntrustedText.clean(hit.snippet, limit: 400)
        if !snippet.isEmpty { lines.append("   \(snippet)") }
        return lines.joined(separator: "\n")
    }

    /// ` (bing, qwant)`: which engines of a metasearch found the hit (several agreeing is a signal).
    private func engines(_ hit: SearchHit) -> String {
        guard let engines = hit.engines, !engines.isEmpty else { return "" }
        return " (\(UntrustedText.clean(engines.joined(separator: ", "), limit: 80)))"
    }

    /// "dated Fri 27 Dec 2024" (web) or "dated Tue 31 Dec 2024 (today) 12:09 EST" (news, where the
    /// hour matters), from `page_age`; else Brave's own `age` text.
    ///
    /// `page_age` carries no zone; it is read as UTC. A midnight value is a bare date (Brave
    /// writes dates without times as `T00:00:00`), shown as that calendar day, not converted.
    func dated(_ hit: SearchHit, _ rendering: Rendering) -> String? {
        if let raw = hit.pageAge, let instant = Self.parsePageAge(raw) {
            let zone = rendering.timeZone
            let utcParts = TimeText.calendar(TimeText.utc).dateComponents([.hour, .minute, .second], from: instant)
            let bareDate = utcParts.hour == 0 && utcParts.minute == 0 && utcParts.second == 0
            if bareDate, let day = TimeText.parseDay(TimeText.isoDay(instant, in: TimeText.utc), in: zone) {
                return "dated \(TimeText.labelledDay(day, now: rendering.now, in: zone))"
            }
            let day = "dated \(TimeText.labelledDay(instant, now: rendering.now, in: zone))"
            guard kind == .news else { return day }
            return day + " \(TimeText.clock(instant, in: zone)) \(TimeText.zoneAbbreviation(zone, at: instant))"
        }
        if let age = hit.age { return "age: \(UntrustedText.clean(age, limit: 40))" }
        return nil
    }

    private static func parsePageAge(_ raw: String) -> Date? {
        let text = raw.trimmingCharacters(in: .whitespaces)
        if let date = TimeText.parseInstant(text) { return date }
        return TimeText.parseInstant(text + "Z")
    }

    // MARK: Text

    func text(_ rendering: Rendering) -> String {
        var lines = [rendering.header(title(rendering))]
        for answer in answers { lines += ["", "Answer: \(UntrustedText.clean(answer, limit: 400))"] }
        if let infobox { lines += ["", "Facts: \(UntrustedText.clean(infobox, limit: 600))"] }
        if results.isEmpty { lines.append("No \(kind.rawValue) results.") }
        if results.isEmpty, !suggestions.isEmpty {
            lines.append("Try: " + suggestions.map { UntrustedText.clean($0, limit: 80) }.joined(separator: "; "))
        }
        for (index, hit) in results.enumerated() {
            lines.append("")
            let rank = String(index + 1)
            let pad = String(repeating: " ", count: max(0, 2 - rank.count))
            lines.append("\(pad)\(rank). \(UntrustedText.clean(hit.title, limit: 200))")
            lines.append("    \(UntrustedText.clean(hit.url, limit: 300))" + engines(hit))
            if let date = dated(hit, rendering) { lines.append("    \(date)") }
            let snippet = UntrustedText.clean(hit.snippet, limit: 400)
            if !snippet.isEmpty { lines.append("    \(snippet)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
