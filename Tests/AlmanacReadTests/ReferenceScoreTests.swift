import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacRead

/// Our text against Mozilla Readability's (Firefox Reader View's) on the 70 real pages of
/// Fixtures/read/pages: word-overlap F1 and titles. The floors are what the extractor reaches
/// today (above the issue's goals: mean F1 0.96, 90 % of pages at 0.90, titles 85 %), so a
/// regression fails here. scripts/bench-read prints the same scores beside trafilatura's and
/// readability-lxml's.
@Suite("read: against Readability's output")
struct ReferenceScoreTests {
    static let meanFloor = 0.99
    static let goodShareFloor = 0.98
    static let titleShareFloor = 0.98

    struct Score {
        var name: String
        var f1: Double
        var titleMatches: Bool
    }

    static func words(_ text: String) -> [Substring] {
        text.lowercased().split { !($0.isLetter || $0.isNumber) }
    }

    /// Word-multiset F1 of `ours` against `theirs`.
    static func f1(_ ours: String, _ theirs: String) -> Double {
        let a = words(ours)
        let b = words(theirs)
        if a.isEmpty, b.isEmpty { return 1 }
        var counts: [Substring: Int] = [:]
        for word in b { counts[word, default: 0] += 1 }
        var common = 0
        for word in a {
            if let count = counts[word], count > 0 {
                common += 1
                counts[word] = count - 1
            }
        }
        guard common > 0 else { return 0 }
        let precision = Double(common) / Double(a.count)
        let recall = Double(common) / Double(b.count)
        return 2 * precision * recall / (precision + recall)
    }

    static func scores() throws -> [Score] {
        let root = Fixtures.url("read/pages")
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        return try names.map { name in
            let folder = root.appendingPathComponent(name)
            let source = try Data(contentsOf: folder.appendingPathComponent("source.html"))
            let expected = try Data(contentsOf: folder.appendingPathComponent("expected.html"))
            let metadata =
                try JSONSerialization.jsonObject(
                    with: Data(contentsOf: folder.appendingPathComponent("expected-metadata.json"))) as? [String: Any]
            let page = try PageExtractor.html(source, url: URL(string: "http://fakehost/test/page.html"))
            let reference = try HTMLParser.parse(expected, encoding: "UTF-8").root.textContent
            let title = Readability.normalize(metadata?["title"] as? String ?? "")
            return Score(name: name, f1: f1(page.text, reference), titleMatches: title == (page.metadata.title ?? ""))
        }
    }

    @Test("mean F1, share of pages at F1 >= 0.90 and title matches stay at their floors")
    func floors() throws {
        let scores = try Self.scores()
        #expect(scores.count == 70)
        let mean = scores.map(\.f1).reduce(0, +) / Double(scores.count)
        let good = Double(scores.filter { $0.f1 >= 0.90 }.count) / Double(scores.count)
        let titles = Double(scores.filter(\.titleMatches).count) / Double(scores.count)
        let weakest = scores.sorted { $0.f1 < $1.f1 }.prefix(5).map { "\($0.name) \(String(format: "%.3f", $0.f1))" }
        #expect(mean >= Self.meanFloor, "mean F1 \(mean); weakest: \(weakest)")
        #expect(good >= Self.goodShareFloor, "pages at F1 >= 0.90: \(good); weakest: \(weakest)")
        #expect(titles >= Self.titleShareFloor, "titles: \(scores.filter { !$0.titleMatches }.map(\.name))")
    }
}
