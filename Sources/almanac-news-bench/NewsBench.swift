import AlmanacNews
import Foundation

// scripts/bench-news: `almanac-news-bench ROUNDS FILE...` parses every file ROUNDS times (after one
// warm-up round) and prints one JSON line: seconds per round for the parser alone and with plain-text
// summaries, and the items read per round.
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2, let rounds = Int(arguments[0]), rounds > 0 else {
    FileHandle.standardError.write(Data("usage: almanac-news-bench ROUNDS FILE...\n".utf8))
    exit(64)
}
let feeds = arguments.dropFirst().compactMap { FileManager.default.contents(atPath: $0) }

func seconds(plain: Bool) -> (Double, Int) {
    var items = NewsBenchmark.parse(feeds, plainSummaries: plain)
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<rounds { items = NewsBenchmark.parse(feeds, plainSummaries: plain) }
    let elapsed = clock.now - start
    let total = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return (total / Double(rounds), items)
}

let (parse, items) = seconds(plain: false)
let (plain, _) = seconds(plain: true)
print("{\"seconds\": \(parse), \"plainSeconds\": \(plain), \"items\": \(items), \"files\": \(feeds.count)}")
