public import AlmanacCore
import AlmanacRuntime
public import Foundation

/// Rule-based intent detection: a question in, the tool runs that answer it out.
///
/// The router knows no tool: it splits a question into clauses at "and"/"also"/";", asks every
/// registered tool's ``QuestionReader`` to read each clause, and picks (a tool's dominant reading,
/// a team say, drops other tools' weak ones). A clause no tool reads joins the one before it
/// ("weather in Lisbon and Porto"), unless it is a question of its own, which goes to the tool
/// that answers anything (web search). Deterministic for a question, clock and zone; no model.
public struct Router: Sendable {
    /// The tools that may be chosen, in registry order.
    let tools: [any Tool]
    /// The reference time for relative days.
    var now: Date
    /// The zone relative days are counted in.
    var timeZone: TimeZone

    /// Creates a router over the tools of `registry`.
    public init(registry: ToolRegistry, now: Date, timeZone: TimeZone) {
        self.tools = registry.tools
        self.now = now
        self.timeZone = timeZone
    }

    /// Creates a router over Almanac's own tools, or those of them named in `tools`.
    init(tools names: [String]? = nil, now: Date, timeZone: TimeZone) {
        let all = Runtime.defaultTools()
        let chosen = names.map { names in all.filter { names.contains($0.name) } } ?? all
        self.init(registry: ToolRegistry(chosen), now: now, timeZone: timeZone)
    }

    /// The tool runs for `question`, in the order they appear in it, without duplicates.
    public func route(_ question: String) -> [Route] {
        let tokens = QuestionToken.tokenize(question)
        guard !tokens.isEmpty else { return [] }
        let clock = QuestionClock(now: now, timeZone: timeZone)
        if let url = urlRoute(tokens) { return [url] }
        let readers = tools.compactMap { tool in tool.questionReader.map { (tool: tool, reader: $0) } }
        let fallback = readers.first { $0.reader.answersAnything }
        let specific = readers.filter { !$0.reader.answersAnything }
        func clause(_ part: [QuestionToken]) -> QuestionClause {
            QuestionClause(tokens: part, question: question, whole: tokens, clock: clock)
        }
        func readings(_ clause: QuestionClause) -> [(tool: any Tool, reading: ToolReading)] {
            let found = specific.compactMap { entry in entry.reader.read(clause).map { (tool: entry.tool, reading: $0) }
            }
            let dominant = found.contains { $0.reading.weight == .dominant }
            return found.filter { !(dominant && $0.reading.weight == .weak) }
        }
        // A clause that no tool reads belongs to the one before it ("weather in Lisbon and Porto"),
        // unless it is a question of its own; a leading one belongs to the next ("Lisbon and Porto weather").
        var merged: [[QuestionToken]] = []
        var pending: [QuestionToken] = []
        for raw in Self.split(tokens) {
            let body = Array(raw.drop { Self.connectors.contains($0.lower) })
            let read = !readings(clause(body)).isEmpty
            if !read, let last = merged.last, !clause(body).isStandaloneQuestion {
                merged[merged.count - 1] = last + raw
            } else if !read, merged.isEmpty, !clause(body).isStandaloneQuestion {
                pending += raw
            } else {
                merged.append(pending + (pending.isEmpty ? body : raw))
                pending = []
            }
        }
        if !pending.isEmpty { merged.append(pending) }
        let clauses = merged.map(clause)
        let read = clauses.map(readings)
        var routes: [Route] = []
        if read.allSatisfy(\.isEmpty) {
            if let fallback, let reading = fallback.reader.read(clause(tokens)) {
                routes.append(Route(fallback.tool.name, reading.words))
            }
        } else {
            for (index, var found) in read.enumerated() {
                // "did arsenal win and when do they play next": a pronoun's subject is in the clause before.
                if found.isEmpty, index > 0, !read[index - 1].isEmpty, clauses[index].hasAny(Self.pronouns) {
                    found = readings(clause(merged[index - 1] + merged[index]))
                }
                if found.isEmpty {
                    if let fallback, let reading = fallback.reader.read(clauses[index]) {
                        routes.append(Route(fallback.tool.name, reading.words))
                    }
                    continue
                }
                for (tool, reading) in found {
                    for words in [reading.words] + reading.more {
                        routes.append(Route(tool.name, Self.declared(words, by: tool.schema)))
                    }
                }
            }
        }
        var seen = Set<Route>()
        return routes.filter { seen.insert($0).inserted }
    }

    /// A question with a web address goes to the tool that declares it takes a URL (a page
    /// reader, ``ToolTraits/takesURL``), when one is registered; otherwise the address is part of a search.
    func urlRoute(_ tokens: [QuestionToken]) -> Route? {
        guard let url = tokens.first(where: { $0.lower.hasPrefix("http://") || $0.lower.hasPrefix("https://") }),
            let tool = tools.first(where: { $0.traits.contains(.takesURL) }),
            let parameter = tool.schema.parameter(named: "url")
        else { return nil }
        let address = url.original.trimmingCharacters(in: CharacterSet(charactersIn: ".,;:!?)\"'"))
        return Route(tool.name, parameter.placement == .option ? ["--url", address] : [address])
    }

    /// `words` without the options `schema` does not declare (a capability of a later version of
    /// the tool), each with its value when the next word is not an option. After a bare `--`
    /// everything is kept.
    static func declared(_ words: [String], by schema: ToolSchema) -> [String] {
        var kept: [String] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            if word == "--" {
                kept += words[index...]
                break
            }
            if word.hasPrefix("--") {
                let name = String(word.dropFirst(2).prefix { $0 != "=" })
                let known = schema.parameters.contains { $0.name == name || $0.aliases.contains("--" + name) }
                if !known {
                    let takesValue = index + 1 < words.count && !words[index + 1].hasPrefix("--")
                    index += takesValue ? 2 : 1
                    continue
                }
            }
            kept.append(word)
            index += 1
        }
        return kept
    }

    /// Clauses; each after the first starts with the word that split it ("and"), which routing
    /// ignores but merging back keeps ("Lisbon and Porto" stays one place phrase that ends at "and").
    static func split(_ tokens: [QuestionToken]) -> [[QuestionToken]] {
        var clauses: [[QuestionToken]] = [[]]
        for token in tokens {
            if connectors.contains(token.lower) {
                if !(clauses.last?.isEmpty ?? true) { clauses.append([token]) }
                continue
            }
            clauses[clauses.count - 1].append(token)
            if token.semicolon { clauses.append([]) }
        }
        return clauses.filter { clause in clause.contains { !connectors.contains($0.lower) } }
    }

    static let connectors: Set<String> = ["and", "also", "plus", "&"]

    /// Words that stand for a subject named before.
    static let pronouns: Set<String> = [
        "they", "them", "their", "theyre", "he", "him", "his", "she", "her", "it", "its", "there",
    ]
}
