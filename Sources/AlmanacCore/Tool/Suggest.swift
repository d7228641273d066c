/// "Did you mean" suggestions for usage errors.
public enum Suggest {
    /// The candidate closest to `word` by edit distance (or prefix), if it is close enough to help.
    public static func closest(to word: String, in candidates: [String]) -> String? {
        let needle = word.lowercased()
        if let prefixed = candidates.first(where: { $0.lowercased().hasPrefix(needle) && needle.count >= 2 }) {
            return prefixed
        }
        var best: (String, Int)?
        for candidate in candidates {
            let distance = editDistance(needle, candidate.lowercased())
            if distance < (best?.1 ?? Int.max) { best = (candidate, distance) }
        }
        guard let (candidate, distance) = best else { return nil }
        return distance <= max(2, needle.count / 3) ? candidate : nil
    }

    /// Whether `b` is `a` with two neighbouring characters swapped ("lakres" and "lakers"), the
    /// commonest typing slip.
    public static func isSwap(_ a: String, _ b: String) -> Bool {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        guard a.count == b.count, let first = a.indices.first(where: { a[$0] != b[$0] }), first + 1 < a.count
        else { return false }
        return a[first] == b[first + 1] && a[first + 1] == b[first] && a[(first + 2)...] == b[(first + 2)...]
    }

    /// Levenshtein distance.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(
                    previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
