public import AlmanacCore
import Foundation

/// The user's day in one call: today's events and due tasks, the weather at home (the day,
/// official warnings, rain in the next hour), each of the user's teams (last result, next game)
/// and the top headlines, from the `[me]` profile, within a token budget.
///
/// ```
/// tools brief                      # this morning
/// tools brief --for evening        # tomorrow's plans and weather, tonight's results
/// tools brief --budget 250 --format json
/// ```
///
/// Every section is another tool's run (calendar, weather, sports, news) through that tool's own
/// coordinator path: its cache, fallback and stale copies. All runs start at once. A section
/// whose runs all fail is one line and the rest still answer; a section with nothing configured
/// is left out with a note. The briefing names configured things only, so untrusted callers get
/// the same one (less the tools the operator switched off for them).
public struct BriefTool: Tool {
    /// `brief`.
    public let name = "brief"
    /// One line for listings.
    public let summary =
        "Your day in one call: today's events and due tasks, weather at home with warnings, your teams' last and "
        + "next games, top headlines, within a token budget ([me] profile)"

    /// The tools the sections run, by name.
    let sources: [String: any Tool]

    /// Creates the tool over the tools its sections run (calendar, weather, sports, news).
    public init(sources: [any Tool]) {
        var byName: [String: any Tool] = [:]
        for tool in sources { byName[tool.name] = tool }
        self.sources = byName
    }

    /// `[--for morning|evening|DATE] [--budget TOKENS]`.
    public var schema: ToolSchema {
        ToolSchema([
            ToolParameter(
                BriefParameter.for, .string,
                help: "morning (default: today), evening (tomorrow's plans, tonight's results), today, tomorrow "
                    + "or a day YYYY-MM-DD"),
            ToolParameter(
                BriefParameter.budget, .integer,
                help: "token budget, \(Self.budgetRange.lowerBound)-\(Self.budgetRange.upperBound) "
                    + "(default \(BriefPayload.defaultBudget)); the least important lines go first"),
        ])
    }

    static let budgetRange = 60...4000

    /// Heavy when a section's tool is (the calendar reads whole feeds): a server trims after it too.
    public var traits: ToolTraits {
        sources.values.reduce(into: ToolTraits()) { $0.formUnion($1.traits) }.intersection(.heavy)
    }

    /// "what's my day look like", "brief me", "morning briefing".
    public var questionReader: (any QuestionReader)? { BriefQuestions() }

    /// Runs every section's calls at once and puts the briefing together.
    public func run(_ arguments: ToolArguments, context: ToolContext) async throws -> ToolResult {
        let day = try BriefDay.read(
            try arguments.text(BriefParameter.for, needs: "morning, evening or a day", example: "--for evening"),
            now: context.now,
            zone: context.timeZone)
        let budget =
            try arguments.integer(BriefParameter.budget, in: Self.budgetRange, example: "--budget 400")
            ?? BriefPayload.defaultBudget
        let profile = try Profile.read(context.settings)
        let egress = context.environment.egress
        let plan = BriefPlan.make(
            profile: profile, day: day, zone: context.timeZone,
            offers: { egress.offers($0) && sources[$0] != nil })
        let outcomes = await perform(plan.calls, context: context)
        return try assemble(outcomes, plan: plan, day: day, budget: budget, context: context)
    }

    enum Result: Sendable {
        case answered(ToolResult, text: String)
        case failed(String)
        case unconfigured(String)
    }

    struct Outcome: Sendable {
        var call: BriefCall
        var result: Result
    }

    /// Runs `calls` at once; the outcomes come back in the calls' order. A call that is not
    /// configured and has a fallback (no feed: the topics) is replaced by its fallback's outcomes,
    /// run in the same task so they overlap the other sections instead of following them.
    func perform(_ calls: [BriefCall], context: ToolContext) async -> [Outcome] {
        var results = [[Outcome]?](repeating: nil, count: calls.count)
        await withTaskGroup(of: (Int, [Outcome]).self) { group in
            for (index, call) in calls.enumerated() {
                group.addTask {
                    let result = await answer(call, context: context)
                    if case .unconfigured = result, !call.fallback.isEmpty {
                        return (index, await perform(call.fallback, context: context))
                    }
                    return (index, [Outcome(call: call, result: result)])
                }
            }
            for await (index, outcomes) in group { results[index] = outcomes }
        }
        return zip(calls, results).flatMap { call, outcomes in
            outcomes ?? [Outcome(call: call, result: .failed("\(call.label): not run"))]
        }
    }

    /// One call's run, rendered as context.
    func answer(_ call: BriefCall, context: ToolContext) async -> Result {
        guard let tool = sources[call.tool] else { return .unconfigured("no \(call.tool) tool") }
        do {
            let arguments = try ToolArguments.parse(cli: call.words, schema: tool.schema, tool: tool.name)
            let result = try await tool.run(arguments, context: context)
            let text = try result.render(.context, now: context.now, timeZone: context.timeZone)
            return .answered(result, text: text)
        } catch let error as AlmanacError where error.kind == .configuration {
            return .unconfigured(error.message)
        } catch {
            return .failed(BriefLines.failure(call.label, error))
        }
    }

    /// Sections from the outcomes, in section order; exit 69 when every section failed, 64 when
    /// nothing at all is configured.
    func assemble(
        _ outcomes: [Outcome], plan: BriefPlan, day: BriefDay, budget: Int, context: ToolContext
    ) throws -> ToolResult {
        var sections: [BriefSection] = []
        var notes = plan.notes
        var attempts: [ProviderAttempt] = []
        var oldest: ResultMetadata?
        for name in BriefSectionName.allCases {
            let mine = outcomes.filter { $0.call.section == name }
            guard !mine.isEmpty else { continue }
            var section = BriefSection(name: name, lines: [])
            var sources: [String] = []
            var failures: [String] = []
            var unconfigured: [String] = []
            var age = 0
            // The events run's lines: the tasks run leaves out the warnings they already give.
            let eventsLines = Set(
                mine.flatMap { outcome -> [String] in
                    guard outcome.call.role == .events, case .answered(_, let text) = outcome.result else { return [] }
                    return text.split(separator: "\n").map(String.init)
                })
            for outcome in mine {
                switch outcome.result {
                case .answered(let result, let text):
                    let metadata = result.metadata
                    if !sources.contains(metadata.provider) { sources.append(metadata.provider) }
                    age = max(age, metadata.ageSeconds)
                    section.stale = section.stale || metadata.stale
                    attempts += metadata.attempts
                    if oldest.map({ metadata.fetchedAt < $0.fetchedAt }) ?? true { oldest = metadata }
                    if outcome.call.role == .forecast { section.place = BriefLines.place(fromHeader: text) }
                    section.lines += BriefLines.lines(from: text, role: outcome.call.role, said: eventsLines)
                case .failed(let line):
                    // One line per label: a team whose two runs failed alike says so once.
                    if !failures.contains(where: { $0.hasPrefix(outcome.call.label + ":") }) { failures.append(line) }
                case .unconfigured(let message):
                    unconfigured.append(message)
                }
            }
            if sources.isEmpty {
                if failures.isEmpty {
                    // Nothing configured for it (no calendar, no feed): a note, not an error.
                    notes.append("\(name.rawValue): " + (unconfigured.first ?? "nothing configured"))
                    continue
                }
                let labels = failures.map { String($0.prefix { $0 != ":" }) }
                section.lines = [
                    BriefLine(
                        text: failures.joined(separator: "; "), droppable: false,
                        short: labels.joined(separator: ", ") + ": unavailable")
                ]
                attempts.append(
                    ProviderAttempt(provider: name.rawValue, outcome: .failed, milliseconds: 0, detail: failures.first))
            } else {
                section.source = sources.joined(separator: "+")
                section.ageSeconds = age
                // A part that failed says so, after what answered (so the budget drops it first).
                section.lines += (failures + unconfigured.map { "\(name.rawValue): \($0)" }).map {
                    BriefLine(text: $0)
                }
            }
            sections.append(section)
        }
        guard sections.contains(where: { !$0.failed }) else {
            if sections.isEmpty {
                throw AlmanacError.configuration(
                    "brief: nothing to brief on: " + (notes.isEmpty ? "no profile" : notes.joined(separator: "; ")),
                    suggestion:
                        "set home, teams or feeds under [me], or add [calendars.NAME], in config.toml (docs/brief.md)")
            }
            throw AlmanacError.unavailable(tool: "brief", attempts: attempts.filter { $0.outcome == .failed })
        }
        let payload = BriefPayload(
            label: day.label, day: day.day, sections: sections, notes: notes, warnings: plan.warnings, budget: budget,
            encodedNow: context.now, encodedZone: context.timeZone)
        let sourceNames = sections.compactMap(\.source).flatMap { $0.split(separator: "+").map(String.init) }
        var unique: [String] = []
        for source in sourceNames where !unique.contains(source) { unique.append(source) }
        let metadata = ResultMetadata(
            tool: name, provider: unique.joined(separator: "+"), fetchedAt: oldest?.fetchedAt ?? context.now,
            ageSeconds: sections.compactMap(\.ageSeconds).max() ?? 0, stale: sections.contains { $0.stale },
            attempts: attempts)
        return ToolResult(metadata: metadata, payload: payload)
    }
}

/// The parameter names, one spelling for the schema and the reader.
enum BriefParameter: String, CaseIterable {
    case `for`, budget
}

/// Reads "what's my day look like", "brief me", "my morning briefing" as `brief` ("tonight" or
/// "this evening" as `--for evening`, "tomorrow" as `--for tomorrow`). A week or a month is the
/// calendar's ("what's on my plate this week").
struct BriefQuestions: QuestionReader {
    static let phrases = ["my day", "brief me", "briefing", "daily brief", "day ahead", "catch me up"]
    static let longer: Set<String> = ["week", "weekend", "month", "year"]

    func read(_ clause: QuestionClause) -> ToolReading? {
        guard clause.hasAnyPhrase(Self.phrases) || clause.words.contains("brief"), !clause.hasAny(Self.longer)
        else { return nil }
        if clause.hasAny(["evening", "tonight"]) { return ToolReading(["--for", "evening"], weight: .dominant) }
        if clause.hasAny(["tomorrow"]) { return ToolReading(["--for", "tomorrow"], weight: .dominant) }
        return ToolReading([], weight: .dominant)
    }
}
