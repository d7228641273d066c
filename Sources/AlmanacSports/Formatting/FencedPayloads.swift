import AlmanacCore
import Foundation

/// Headlines, fenced as untrusted text: `tools run sports nba news`.
struct NewsPayload: ToolPayload {
    var league: League
    /// Headlines, newest first as upstream orders them.
    var items: [NewsItem]
    /// How many to show.
    var limit: Int

    init(league: League, items: [NewsItem], limit: Int) {
        self.league = league
        self.items = items
        self.limit = limit
    }

    var shown: [NewsItem] { Array(items.prefix(max(1, limit))) }

    /// "Fri 30 May 19:12 EDT: headline — description", every upstream text cleaned.
    func line(_ item: NewsItem, rendering: Rendering) -> String {
        var text = ""
        if let published = item.published {
            let zone = rendering.timeZone
            let day = TimeText.relativeDay(published, now: rendering.now, in: zone) ?? TimeText.day(published, in: zone)
            text = "\(day) \(TimeText.clock(published, in: zone)) \(TimeText.zoneAbbreviation(zone, at: published)): "
        }
        text += UntrustedText.clean(item.headline, limit: 160)
        // Some descriptions open with a dash of their own ("— The Indiana Pacers ...").
        let description = item.description.map {
            UntrustedText.clean($0, limit: 200).drop { "—–- ".contains($0) }
        }
        if let description, !description.isEmpty {
            text += " — \(description)"
        }
        return "- " + text
    }

    /// Header, notice, then the fenced headlines.
    func context(_ rendering: Rendering) -> String {
        let header = rendering.header("\(league.name) news")
        guard !items.isEmpty else { return header + "\nNo \(league.name) headlines." }
        return Fence.render(header: header, lines: shown.map { line($0, rendering: rendering) }, rendering: rendering) {
            "… \($0) more headlines omitted"
        }
    }

    /// The same lines for people, without the fence.
    func text(_ rendering: Rendering) -> String {
        ([rendering.header("\(league.name) news")] + shown.map { line($0, rendering: rendering) })
            .joined(separator: "\n")
    }

    private struct ArticleJSON: Encodable {
        var headline: String
        @Nullable var description: String?
        @Nullable var published: String?
        @Nullable var url: String?
        @Nullable var type: String?
    }

    enum CodingKeys: String, CodingKey { case view, articles }

    /// `{"league",...,"view":"news","articles":[{"headline","description","published","url","type"}]}`.
    /// By hand: `data` flattens the league's keys in beside the view's.
    func encode(to encoder: any Encoder) throws {
        try LeagueJSON(league).encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(SportsView.news.rawValue, forKey: .view)
        try container.encode(
            shown.map {
                ArticleJSON(
                    headline: UntrustedText.clean($0.headline),
                    description: $0.description.map { UntrustedText.clean($0) },
                    published: $0.published.map(TimeText.isoUTC), url: $0.url, type: $0.kind)
            }, forKey: .articles)
    }
}

/// Web search hits standing in for ESPN: says so, and fences every snippet.
struct WebFallbackPayload: ToolPayload {
    var league: League
    /// What was asked.
    var view: SportsView
    var answer: WebAnswer

    func lines() -> [String] {
        answer.hits.map { hit in
            var text = "- " + UntrustedText.clean(hit.title, limit: 120)
            let snippet = UntrustedText.clean(hit.snippet, limit: 240)
            if !snippet.isEmpty { text += " — \(snippet)" }
            if let age = hit.age.map({ UntrustedText.clean($0, limit: 40) }), !age.isEmpty { text += " (\(age))" }
            return text + " <\(UntrustedText.clean(hit.url, limit: 200))>"
        }
    }

    func title() -> String { "\(league.name) \(view.rawValue) from web search for \"\(answer.query)\"" }

    /// Header, a line saying ESPN did not answer, notice, fenced hits.
    func context(_ rendering: Rendering) -> String {
        let header =
            rendering.header(title())
            + "\nESPN did not answer; these are web search results, not a scoreboard. Check dates in them."
        return Fence.render(header: header, lines: lines(), rendering: rendering) { "… \($0) more results omitted" }
    }

    /// The same for people, unfenced.
    func text(_ rendering: Rendering) -> String {
        ([rendering.header(title())] + lines()).joined(separator: "\n")
    }

    enum CodingKeys: String, CodingKey { case view, source, query, games, results }

    /// `{"league",...,"view","source":"web search","query","games":[],"results":[{"title","url","snippet","age"}]}`.
    /// By hand: `data` flattens the league's keys in, and `games` is there only for the views that have it.
    func encode(to encoder: any Encoder) throws {
        try LeagueJSON(league).encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(view.rawValue, forKey: .view)
        try container.encode("web search", forKey: .source)
        try container.encode(answer.query, forKey: .query)
        // Same keys as an ESPN answer: a consumer reading `games` finds none rather than a missing key.
        if view == .scores || view == .schedule { try container.encode([String](), forKey: .games) }
        try container.encode(
            answer.hits.map {
                WebSearchHit(
                    title: UntrustedText.clean($0.title), url: $0.url, snippet: UntrustedText.clean($0.snippet),
                    age: $0.age)
            }, forKey: .results)
    }
}

/// The fence around untrusted lines, with budget degradation inside it.
enum Fence {
    static func render(header: String, lines: [String], rendering: Rendering, omitted: (Int) -> String) -> String {
        let nonce = UntrustedText.nonce(for: lines)
        let notice = UntrustedText.notice(nonce)
        let open = UntrustedText.open(nonce)
        let close = UntrustedText.close(nonce)
        let reserved = [header, notice, open, close].joined(separator: "\n")
        var kept = rendering.budget.fit(lines, reserved: reserved, omitted: omitted)
        // The "… N more omitted" footer is ours, not third-party text: it goes after the fence.
        var footer: [String] = []
        if kept != Array(lines.prefix(kept.count)), let last = kept.popLast() { footer = [last] }
        return ([header, notice, open] + kept + [close] + footer).joined(separator: "\n")
    }
}
