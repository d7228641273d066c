public import AlmanacCore
import AlmanacRuntime
public import Foundation

/// What the LLM front needs from the runtime: the registry, the reference time and zone, and the
/// two ways of running a tool. ``Runtime`` conforms; tests use small fakes.
public protocol ToolRunning: Sendable {
    /// The tools.
    var registry: ToolRegistry { get }
    /// The reference time.
    var now: Date { get }
    /// The viewer's zone.
    var timeZone: TimeZone { get }
    /// Runs `tool` with CLI words.
    func run(tool: String, words: [String]) async throws -> ToolResult
    /// Runs `tool` with JSON arguments (MCP, OpenAI tool calls).
    func run(tool: String, json: [String: JSONValue]) async throws -> ToolResult
    /// The tools a model may be offered and call (``Runtime/publishedTools``).
    var publishedTools: [any Tool] { get }
}

extension ToolRunning {
    /// Every tool, for runners with no operator's switch (test fakes).
    var publishedTools: [any Tool] { registry.tools }
}

extension Runtime: ToolRunning {}

/// The outcome of one routed tool run: a result to render, or a one-line failure.
struct ContextBlock: Sendable {
    /// The route that produced it.
    var route: Route
    /// The result, or the failure line.
    var outcome: Result<ToolResult, BlockFailure>
}

/// Why a tool produced no block: one line naming the tool and the provider(s) that failed.
struct BlockFailure: Error, Sendable, Equatable {
    /// The line printed in place of the tool's block.
    var line: String

    /// Describes `error` from running `tool` in one line.
    init(tool: String, error: any Error) {
        switch error {
        case let almanac as AlmanacError where almanac.kind == .unavailable && !almanac.attempts.isEmpty:
            let providers = almanac.attempts.map { "\($0.provider): \($0.detail ?? $0.outcome.rawValue)" }
            line = "[\(tool)] unavailable: \(providers.joined(separator: "; "))"
        case let almanac as AlmanacError:
            line = "[\(tool)] unavailable: \(almanac.message)"
        default:
            line = "[\(tool)] unavailable: \(error)"
        }
    }
}

/// The prompt context for one question: the current date and time, then one block per tool.
///
/// Rendering is pure: the tool results are fetched once (``PromptContext/gather(question:router:runner:)``)
/// and can be rendered again at a smaller budget without asking any provider again.
public struct PromptContext: Sendable {
    var question: String
    /// The blocks, in route order.
    var blocks: [ContextBlock]
    /// The reference time.
    var now: Date
    /// The viewer's zone.
    var timeZone: TimeZone

    /// Creates a context from already-fetched blocks.
    init(question: String, blocks: [ContextBlock], now: Date, timeZone: TimeZone) {
        self.question = question
        self.blocks = blocks
        self.now = now
        self.timeZone = timeZone
    }

    /// The default token budget: leaves room in a 2048-token context for the system prompt, the
    /// question and an answer of a few hundred tokens.
    public static let defaultBudget = 1200

    /// Routes `question` and runs every routed tool at once; failures become one-line blocks.
    public static func gather(question: String, routes: [Route], runner: any ToolRunning) async -> PromptContext {
        let blocks = await withTaskGroup(of: (Int, ContextBlock).self) { group in
            for (index, route) in routes.enumerated() {
                group.addTask {
                    do {
                        let result = try await runner.run(tool: route.tool, words: route.words)
                        return (index, ContextBlock(route: route, outcome: .success(result)))
                    } catch {
                        return (
                            index,
                            ContextBlock(route: route, outcome: .failure(BlockFailure(tool: route.tool, error: error)))
                        )
                    }
                }
            }
            var collected: [(Int, ContextBlock)] = []
            for await item in group { collected.append(item) }
            return collected.sorted { $0.0 < $1.0 }.map(\.1)
        }
        return PromptContext(question: question, blocks: blocks, now: runner.now, timeZone: runner.timeZone)
    }

    /// "Now: Sun 15 Dec 2024 18:10 EST (America/New_York)."
    var clockLine: String {
        "Now: \(TimeText.day(now, in: timeZone)) \(TimeText.clock(now, in: timeZone)) "
            + "\(TimeText.zoneAbbreviation(timeZone, at: now)) (\(timeZone.identifier))."
    }

    /// The context text at `budget` tokens (nil: unlimited).
    ///
    /// The budget left after the clock line is split evenly across the blocks and handed to each
    /// formatter as its ``ContextBudget``; budget a block leaves unused goes to the blocks that
    /// had to drop lines, in a second pass. A block still over its share loses whole lines from
    /// its end, never part of a line.
    public func render(budget: Int?) -> String {
        var sections = [clockLine]
        if blocks.isEmpty {
            sections.append("(no tool had anything for this question)")
            return sections.joined(separator: "\n")
        }
        guard let budget else {
            sections += blocks.map { render($0, tokens: nil) }
            return sections.joined(separator: "\n\n")
        }
        let available = max(0, budget - ContextBudget.estimate(clockLine) - 2 * blocks.count)
        var shares = Array(repeating: available / blocks.count, count: blocks.count)
        var texts = blocks.indices.map { render(blocks[$0], tokens: shares[$0]) }
        // Second pass: hand what small blocks left over to the blocks that were cut.
        let used = texts.map(ContextBudget.estimate)
        let cut = blocks.indices.filter { blocks[$0].isResult && texts[$0] != render(blocks[$0], tokens: nil) }
        let spare = blocks.indices.filter { !cut.contains($0) }.map { max(0, shares[$0] - used[$0]) }.reduce(0, +)
        if spare > 0, !cut.isEmpty {
            for index in cut {
                shares[index] += spare / cut.count
                texts[index] = render(blocks[index], tokens: shares[index])
            }
        }
        sections += texts
        return sections.joined(separator: "\n\n")
    }

    func render(_ block: ContextBlock, tokens: Int?) -> String {
        switch block.outcome {
        case .failure(let failure):
            return failure.line
        case .success(let result):
            let text: String
            do {
                text = try result.render(.context, now: now, timeZone: timeZone, budget: ContextBudget(tokens: tokens))
            } catch {
                return BlockFailure(tool: block.route.tool, error: error).line
            }
            return Self.trim(text, to: tokens)
        }
    }

    /// Drops whole lines from the end until `text` fits (the first line, the header, always stays).
    static func trim(_ text: String, to tokens: Int?) -> String {
        let body = text.hasSuffix("\n") ? String(text.dropLast()) : text
        guard let tokens, ContextBudget.estimate(body) > tokens else { return body }
        let lines = body.components(separatedBy: "\n")
        guard let header = lines.first else { return body }
        let rest = Array(lines.dropFirst())
        let omitted: (Int) -> String = { "… \($0) more line\($0 == 1 ? "" : "s") omitted" }
        var kept = ContextBudget(tokens: tokens).fit(rest, reserved: header, minimum: 0, omitted: omitted)
        // Never leave a fence open: if the cut fell inside fenced text, cut before its opening marker.
        let keptBody = kept.count < rest.count ? kept.dropLast() : kept[...]
        if keptBody.count < rest.count,
            let open = keptBody.lastIndex(where: { $0.hasPrefix("<<<data ") }),
            !keptBody[open...].contains(where: { $0.hasPrefix("<<<end ") })
        {
            kept = Array(keptBody[..<open]) + [omitted(rest.count - open)]
        }
        return ([header] + kept).joined(separator: "\n")
    }
}

extension ContextBlock {
    var isResult: Bool {
        if case .success = outcome { return true }
        return false
    }
}
