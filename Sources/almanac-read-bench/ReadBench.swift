import AlmanacRead
import Foundation

/// Extraction timing for scripts/bench-read: no network, the extractor alone.
///
///     almanac-read-bench PAGES_DIR [REPEAT]   one JSON line per page: name, ms (CPU, best of REPEAT), title, text
///     almanac-read-bench --one FILE           extracts FILE once (for peak RSS) and prints its length
@main
struct ReadBench {
    static func main() throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--one", arguments.count == 2 {
            let page = try PageExtractor.html(Data(contentsOf: URL(fileURLWithPath: arguments[1])), url: nil)
            print(page.text.count)
            return
        }
        guard let directory = arguments.first else {
            FileHandle.standardError.write(Data("usage: almanac-read-bench PAGES_DIR [REPEAT] | --one FILE\n".utf8))
            exit(64)
        }
        let repeats = arguments.count > 1 ? max(1, Int(arguments[1]) ?? 5) : 5
        let root = URL(fileURLWithPath: directory)
        for name in try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() {
            let file = root.appendingPathComponent(name).appendingPathComponent("source.html")
            guard let data = try? Data(contentsOf: file) else { continue }
            var best = Double.infinity
            var page: ReadPage?
            for _ in 0..<repeats {
                let start = cpuSeconds()
                page = try PageExtractor.html(data, url: URL(string: "http://fakehost/test/page.html"))
                best = min(best, cpuSeconds() - start)
            }
            let line: [String: Any] = [
                "name": name, "ms": best * 1000, "bytes": data.count, "title": page?.metadata.title ?? "",
                "text": page?.text ?? "",
            ]
            let json = try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys])
            print(String(decoding: json, as: UTF8.self))
        }
    }

    /// This process's CPU time: the machine is shared, so wall time would measure the neighbours.
    static func cpuSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
