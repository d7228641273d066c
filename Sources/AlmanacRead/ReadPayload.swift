import AlmanacCore
import Foundation

/// A read page ready to print: context (dated, fenced, one part within the budget), JSON
/// `data`, or text.
///
/// Offsets are in characters of the page text (every block's line joined by newlines), so
/// `--start` is exact whatever the budget: the part printed is `[start, next)`, and the context
/// ends with `--start next`.
///
/// JSON `data`: `{"url","finalUrl","archivedAt","kind":"html|text|json","title","byline","siteName",
/// "language","published","modified","canonicalUrl","excerpt","start","end","length","nextStart",
/// "section","outline":[{"level","text","offset"}],"text"}`. Every key is always present (null when unknown).
struct ReadPayload: ToolPayload {
    let fetched: FetchedPage
    let start: Int?
    let section: String?

    /// Each block's line and where it starts.
    let lines: [String]
    let offsets: [Int]
    let totalLength: Int

    init(fetched: FetchedPage, start: Int?, section: String?) {
        self.fetched = fetched
        self.start = start
        self.section = section
        var lines: [String] = []
        var offsets: [Int] = []
        var offset = 0
        for block in fetched.page.blocks {
            let line = block.line
            lines.append(line)
            offsets.append(offset)
            offset += line.count + 1
        }
        self.lines = lines
        self.offsets = offsets
        totalLength = max(0, offset - 1)
    }

    struct Heading: Equatable {
        var level: Int
        var text: String
        var offset: Int
        var index: Int
    }

    var headings: [Heading] {
        fetched.page.blocks.enumerated().compactMap { index, block in
            block.kind == .heading
                ? Heading(level: block.level, text: block.text, offset: offsets[index], index: index) : nil
        }
    }

    /// The character range of `--section`: from its heading to the next heading of the same or
    /// a higher level. Nil when no heading matches (exactly first, then as a part, ignoring case).
    var sectionRange: Range<Int>? {
        guard let section else { return nil }
        let wanted = section.lowercased()
        let all = headings
        guard
            let heading = all.first(where: { $0.text.lowercased() == wanted })
                ?? all.first(where: { $0.text.lowercased().contains(wanted) })
        else { return nil }
        let end = all.first { $0.index > heading.index && $0.level <= heading.level }?.offset ?? totalLength + 1
        return heading.offset..<max(heading.offset, end - 1)
    }

    /// One part: the text in `[from, to)` and where the next part starts (nil at the end).
    struct Part {
        var from: Int
        var to: Int
        var text: String
        var next: Int?
    }

    /// The part that fits `tokens` tokens, starting at `--start` (or the section's start).
    func part(tokens: Int?) -> Part {
        let range = sectionRange ?? 0..<totalLength
        let from = min(max(start ?? range.lowerBound, range.lowerBound), range.upperBound)
        let limit = range.upperBound
        var pieces: [String] = []
        var used = 0
        var position = from
        let budget = tokens.map { max(60, $0) }
        // Whole lines while they fit; a line too long for what is left is cut at a word.
        var index = offsets.lastIndex { $0 <= from } ?? 0
        while index < lines.count, position < limit {
            let lineStart = offsets[index]
            let line = lines[index]
            let skip = max(0, position - lineStart)
            var rest = skip > 0 ? String(line.dropFirst(skip)) : line
            let lineEnd = min(lineStart + line.count, limit)
            if lineStart + line.count > limit { rest = String(rest.prefix(max(0, limit - position))) }
            let cost = ContextBudget.estimate(rest) + 1
            if let budget, used + cost > budget {
                let room = (budget - used) * 3
                if room > 80 || pieces.isEmpty {
                    let cut = Self.cut(rest, characters: max(room, 40))
                    pieces.append(cut)
                    position += cut.count
                }
                return Part(
                    from: from, to: position, text: pieces.joined(separator: "\n"),
                    next: position < limit ? position : nil)
            }
            pieces.append(rest)
            used += cost
            position = lineEnd + 1
            index += 1
        }
        let to = min(position, limit)
        return Part(from: from, to: to, text: pieces.joined(separator: "\n"), next: nil)
    }

    /// The longest prefix of `text` of at most `characters` characters ending at a space.
    static func cut(_ text: String, characters: Int) -> String {
        guard text.count > characters else { return text }
        let prefix = text.prefix(characters)
        if let space = prefix.lastIndex(of: " "), prefix.distance(from: prefix.startIndex, to: space) > characters / 2 {
            return String(prefix[..<prefix.index(after: space)])
        }
        return String(prefix)
    }

    // MARK: JSON

    enum CodingKeys: String, CodingKey {
        case url, finalUrl, archivedAt, kind, title, byline, siteName, language, published, modified, canonicalUrl,
            excerpt
        case start, end, length, nextStart, section, outline, text
    }

    enum OutlineKeys: String, CodingKey { case level, text, offset }

    /// The size of a part when no budget is given (JSON, and text without `--budget`): about
    /// 96 KB of text, so no answer carries a whole 8 MB page; `nextStart` continues it.
    static let unbudgetedPartTokens = 32_000

    /// By hand: `data` is the part from `--start` and the page's metadata, not this type's fields.
    func encode(to encoder: any Encoder) throws {
        // JSON has no token budget: a large part of the page (or section) from --start.
        let part = part(tokens: Self.unbudgetedPartTokens)
        let metadata = fetched.page.metadata
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(fetched.requested, forKey: .url)
        try container.encode(fetched.final, forKey: .finalUrl)
        try container.encode(fetched.archivedAt, forKey: .archivedAt)
        try container.encode(fetched.page.kind, forKey: .kind)
        try container.encode(metadata.title, forKey: .title)
        try container.encode(metadata.byline, forKey: .byline)
        try container.encode(metadata.siteName, forKey: .siteName)
        try container.encode(metadata.language, forKey: .language)
        try container.encode(metadata.published, forKey: .published)
        try container.encode(metadata.modified, forKey: .modified)
        try container.encode(metadata.canonicalURL, forKey: .canonicalUrl)
        try container.encode(metadata.excerpt, forKey: .excerpt)
        try container.encode(part.from, forKey: .start)
        try container.encode(part.to, forKey: .end)
        try container.encode(totalLength, forKey: .length)
        try container.encode(part.next, forKey: .nextStart)
        try container.encode(section, forKey: .section)
        var outline = container.nestedUnkeyedContainer(forKey: .outline)
        for heading in headings {
            var item = outline.nestedContainer(keyedBy: OutlineKeys.self)
            try item.encode(heading.level, forKey: .level)
            try item.encode(heading.text, forKey: .text)
            try item.encode(heading.offset, forKey: .offset)
        }
        try container.encode(part.text, forKey: .text)
    }

    // MARK: Context

    /// Lines about the page (our words, outside the fence; page-given strings cleaned).
    private func about(_ rendering: Rendering) -> [String] {
        let metadata = fetched.page.metadata
        var lines: [String] = []
        var url = "url: \(UntrustedText.clean(fetched.requested, limit: 300))"
        if let archivedAt = fetched.archivedAt, let date = TimeText.parseInstant(archivedAt) {
            url += " · archived copy of \(TimeText.labelledDay(date, now: rendering.now, in: rendering.timeZone))"
        } else if fetched.final != fetched.requested {
            url += " · redirected to \(UntrustedText.clean(fetched.final, limit: 300))"
        }
        lines.append(url)
        var facts: [String] = []
        if let byline = metadata.byline { facts.append("by \(UntrustedText.clean(byline, limit: 120))") }
        if let site = metadata.siteName { facts.append("site \(UntrustedText.clean(site, limit: 80))") }
        if let published = metadata.published { facts.append("published \(date(published, rendering))") }
        if let modified = metadata.modified, modified != metadata.published {
            facts.append("modified \(date(modified, rendering))")
        }
        if let language = metadata.language { facts.append("language \(UntrustedText.clean(language, limit: 20))") }
        if !facts.isEmpty { lines.append(facts.joined(separator: " · ")) }
        if let canonical = metadata.canonicalURL, canonical != fetched.requested, canonical != fetched.final {
            lines.append("canonical: \(UntrustedText.clean(canonical, limit: 300))")
        }
        return lines
    }

    /// A page date with its weekday and how long ago, in the viewer's zone; as written when it
    /// is not a date we can read.
    private func date(_ raw: String, _ rendering: Rendering) -> String {
        readDate(raw, rendering) ?? UntrustedText.clean(raw.trimmingCharacters(in: .whitespaces), limit: 40)
    }

    /// `2018-04-05T06:00` (no zone, read as UTC) and `2018-04-05T06:00:00.000+0000`.
    static func parseLooseInstant(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        for format in [
            "yyyy-MM-dd'T'HH:mm:ss.SSSZ", "yyyy-MM-dd'T'HH:mm:ssZ", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm",
            "yyyy-MM-dd HH:mm:ss",
        ] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }

    private var title: String {
        UntrustedText.clean(fetched.page.metadata.title ?? fetched.requested, limit: 200)
    }

    /// The host asked for: the context's header names the page by it, since the title is the page's.
    private var host: String {
        UntrustedText.clean(URLComponents(string: fetched.requested)?.host ?? fetched.requested, limit: 200)
    }

    /// Context lines in our words, outside the fence: the URL asked for, the archive's day, and the
    /// page's dates once read as dates.
    private func ourLines(_ rendering: Rendering) -> [String] {
        let metadata = fetched.page.metadata
        var url = "url: \(UntrustedText.clean(fetched.requested, limit: 300))"
        if let archivedAt = fetched.archivedAt, let date = TimeText.parseInstant(archivedAt) {
            url += " · archived copy of \(TimeText.labelledDay(date, now: rendering.now, in: rendering.timeZone))"
        }
        var dates: [String] = []
        if let published = metadata.published, let day = readDate(published, rendering) {
            dates.append("published \(day)")
        }
        if let modified = metadata.modified, modified != metadata.published, let day = readDate(modified, rendering) {
            dates.append("modified \(day)")
        }
        return [url] + (dates.isEmpty ? [] : [dates.joined(separator: " · ")])
    }

    /// Context lines the page (or its server) wrote, fenced with its text: title, byline, site
    /// name, language, dates that are not dates, where a redirect led, the canonical URL.
    private func pageLines(_ rendering: Rendering) -> [String] {
        let metadata = fetched.page.metadata
        var lines: [String] = []
        if let title = metadata.title { lines.append("title: \(UntrustedText.clean(title, limit: 200))") }
        var facts: [String] = []
        if let byline = metadata.byline { facts.append("by \(UntrustedText.clean(byline, limit: 120))") }
        if let site = metadata.siteName { facts.append("site \(UntrustedText.clean(site, limit: 80))") }
        if let published = metadata.published, readDate(published, rendering) == nil {
            facts.append("published \(UntrustedText.clean(published, limit: 40))")
        }
        if let modified = metadata.modified, modified != metadata.published, readDate(modified, rendering) == nil {
            facts.append("modified \(UntrustedText.clean(modified, limit: 40))")
        }
        if let language = metadata.language { facts.append("language \(UntrustedText.clean(language, limit: 20))") }
        if !facts.isEmpty { lines.append(facts.joined(separator: " · ")) }
        if fetched.archivedAt == nil, fetched.final != fetched.requested {
            lines.append("redirected to: \(UntrustedText.clean(fetched.final, limit: 300))")
        }
        if let canonical = metadata.canonicalURL, canonical != fetched.requested, canonical != fetched.final {
            lines.append("canonical: \(UntrustedText.clean(canonical, limit: 300))")
        }
        return lines
    }

    /// A page date read as a date, with its weekday and how long ago; nil when it is not one.
    private func readDate(_ raw: String, _ rendering: Rendering) -> String? {
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        if let instant = TimeText.parseInstant(trimmed) ?? Self.parseLooseInstant(trimmed) {
            return TimeText.labelledDay(instant, now: rendering.now, in: rendering.timeZone)
        }
        if let day = TimeText.parseDay(String(trimmed.prefix(10)), in: rendering.timeZone) {
            return TimeText.labelledDay(day, now: rendering.now, in: rendering.timeZone)
        }
        return nil
    }

    func context(_ rendering: Rendering) -> String {
        let budget = rendering.budget.tokens ?? ReadTool.defaultBudget
        // Everything the page or its server wrote is fenced; only our words are outside (#31).
        var top = [rendering.header(host)] + ourLines(rendering)
        let about = pageLines(rendering).map(Self.defuse)
        if fetched.page.blocks.isEmpty {
            if !about.isEmpty {
                let nonce = UntrustedText.nonce(for: about)
                top += [UntrustedText.notice(nonce), UntrustedText.open(nonce)] + about + [UntrustedText.close(nonce)]
            }
            top.append("The page has no readable text.")
            return top.joined(separator: "\n") + "\n"
        }
        // The outline goes first when the page does not fit: a model can then ask for a section.
        let whole = ContextBudget.estimate(lines.joined(separator: "\n"))
        var outline: [String] = []
        if whole > budget, section == nil {
            let entries = headings.prefix(30).map {
                "\(String(repeating: "#", count: $0.level)) \(UntrustedText.clean($0.text, limit: 80)) @\($0.offset)"
            }
            if !entries.isEmpty {
                outline = ["outline (heading @offset; read one with --section or --start):"] + entries
                if headings.count > 30 { outline.append("… \(headings.count - 30) more headings") }
            }
        }
        let reserved = ContextBudget.estimate((top + about + outline).joined(separator: "\n")) + 80
        let part = part(tokens: max(60, budget - reserved))
        let nonce = UntrustedText.nonce(for: [part.text])
        var lines = top
        if let section, let range = sectionRange {
            lines.append(
                "section \"\(UntrustedText.clean(section, limit: 80))\": characters \(range.lowerBound)-\(range.upperBound)"
            )
        }
        // Outline entries are page text too: fenced with the body.
        lines.append(UntrustedText.notice(nonce))
        lines.append(UntrustedText.open(nonce))
        lines += about
        lines += outline.map(Self.defuse)
        if !about.isEmpty || !outline.isEmpty { lines.append("") }
        lines += part.text.split(separator: "\n", omittingEmptySubsequences: false).map { Self.defuse(String($0)) }
        lines.append(UntrustedText.close(nonce))
        if let next = part.next {
            lines.append("part: characters \(part.from)-\(part.to) of \(totalLength); continue with --start \(next)")
        } else if part.from > 0 || section != nil {
            lines.append(
                "part: characters \(part.from)-\(part.to) of \(totalLength); end of \(section == nil ? "page" : "section")"
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A line of page text with the fence's brackets defused and invisible characters removed
    /// (so the text cannot close the fence), keeping its leading spaces (list nesting, code).
    static func defuse(_ line: String) -> String {
        let indent = line.prefix { $0 == " " }
        return String(indent) + UntrustedText.clean(String(line.dropFirst(indent.count)), limit: 100_000)
    }

    // MARK: Text

    func text(_ rendering: Rendering) -> String {
        var lines = [rendering.header(title)] + about(rendering) + [""]
        let part = part(tokens: rendering.budget.tokens ?? Self.unbudgetedPartTokens)
        lines += part.text.split(separator: "\n", omittingEmptySubsequences: false).map { Self.defuse(String($0)) }
        if let next = part.next { lines += ["", "(continues: --start \(next))"] }
        return lines.joined(separator: "\n") + "\n"
    }
}
