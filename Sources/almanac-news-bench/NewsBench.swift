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

/// Parses every feed once; returns the items read (so the work cannot be skipped). With
/// `plainSummaries`, each feed is read as the news tool keeps it: every item's summary made plain
/// text through the page reader's extractor.
func parse(_ feeds: [Data], plainSummaries: Bool) -> Int {
    let source = FeedSource(location: "/bench", isFile: true, configured: true)
    var items = 0
    for data in feeds {
        if plainSummaries {
            items += (try? ParsedFeed(reading: data, from: source, url: nil).items.count) ?? 0
        } else {
            items += (try? FeedParser.parse(data).items.count) ?? 0
        }
    }
    return items
}

func seconds(plain: Bool) -> (Double, Int) {
    var items = parse(feeds, plainSummaries: plain)
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<rounds { items = parse(feeds, plainSummaries: plain) }
    let elapsed = clock.now - start
    let total = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return (total / Double(rounds), items)
}

let (parse, items) = seconds(plain: false)
let (plain, _) = seconds(plain: true)
print("{\"seconds\": \(parse), \"plainSeconds\": \(plain), \"items\": \(items), \"files\": \(feeds.count)}")
