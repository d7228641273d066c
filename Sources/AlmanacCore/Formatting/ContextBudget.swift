/// A token budget for context output. Formatters degrade by whole lines, never mid-line.
public struct ContextBudget: Sendable, Equatable {
    /// The budget in tokens; nil means unlimited.
    public var tokens: Int?

    /// Creates a budget.
    public init(tokens: Int?) {
        self.tokens = tokens
    }

    /// No limit.
    public static let unlimited = ContextBudget(tokens: nil)

    /// A rough token count for English-ish text with numbers (about 4 UTF-8 bytes a token),
    /// deliberately pessimistic so real tokenizers land under it.
    public static func estimate(_ text: String) -> Int {
        (text.utf8.count + 2) / 3
    }

    /// Keeps as many of `lines` as fit after `reserved` text, appending `omitted(n)` when some are dropped.
    ///
    /// - Parameters:
    ///   - lines: Candidate lines, most important first.
    ///   - reserved: Text that is printed anyway (header, fences) and counts against the budget.
    ///   - minimum: Lines kept even when over budget (so an answer is never empty).
    ///   - omitted: The footer for `n` dropped lines, e.g. "… 4 more games omitted".
    public func fit(
        _ lines: [String], reserved: String = "", minimum: Int = 1, omitted: (Int) -> String
    ) -> [String] {
        guard let tokens else { return lines }
        var used = Self.estimate(reserved)
        var kept: [String] = []
        for (index, line) in lines.enumerated() {
            let cost = Self.estimate(line) + 1
            let footerCost = index < lines.count - 1 ? Self.estimate(omitted(lines.count - index - 1)) + 1 : 0
            if kept.count >= minimum, used + cost + footerCost > tokens {
                kept.append(omitted(lines.count - index))
                return kept
            }
            used += cost
            kept.append(line)
        }
        return kept
    }
}
