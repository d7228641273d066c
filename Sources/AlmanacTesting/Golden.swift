import Foundation

/// Compares text with a checked-in golden file under `Fixtures/`.
///
/// Set `ALMANAC_RECORD=1` to (re)write goldens; recording never happens when `CI` is set, and a
/// missing golden fails in CI. On mismatch the returned message holds a line diff.
public enum Golden {
    /// Nil when `actual` matches the golden at `relativePath`, else a failure message.
    public static func check(_ actual: String, against relativePath: String) -> String? {
        let url = Fixtures.url(relativePath)
        let environment = ProcessInfo.processInfo.environment
        let isCI = environment["CI"].map { !$0.isEmpty && $0 != "false" } ?? false
        let record = !isCI && environment["ALMANAC_RECORD"] == "1"
        let expected = try? String(contentsOf: url, encoding: .utf8)
        if record || (expected == nil && !isCI) {
            try? FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            do {
                try actual.write(to: url, atomically: true, encoding: .utf8)
            } catch {
                return "could not record golden \(relativePath): \(error)"
            }
            return expected == nil ? "recorded new golden \(relativePath); re-run to compare" : nil
        }
        guard let expected else { return "golden \(relativePath) is missing (record with ALMANAC_RECORD=1)" }
        if expected == actual { return nil }
        return "output differs from \(relativePath) (ALMANAC_RECORD=1 re-records):\n" + diff(expected, actual)
    }

    /// A compact line diff: `-expected` / `+actual` for lines that differ.
    static func diff(_ expected: String, _ actual: String) -> String {
        let left = expected.components(separatedBy: "\n")
        let right = actual.components(separatedBy: "\n")
        var lines: [String] = []
        for index in 0..<max(left.count, right.count) {
            let a = index < left.count ? left[index] : nil
            let b = index < right.count ? right[index] : nil
            if a != b {
                if let a { lines.append("-\(index + 1): \(a)") }
                if let b { lines.append("+\(index + 1): \(b)") }
            }
        }
        return lines.prefix(40).joined(separator: "\n")
    }
}
