/// A time of day as people write it: "6", "6pm", "6 pm", "6:30", "6.30pm", "15:00", "6 a.m.",
/// "noon", "midday", "midnight". The one reader behind the words of `--due`/`--at`
/// (``WhenText``), the write questions ("move my 11am to 1") and the free/busy questions ("free
/// at 3pm"); each of them decides what a bare hour means ("at 6": the evening).
struct ClockWords: Equatable {
    /// 0–23, with am/pm applied.
    var hour: Int
    var minute: Int
    /// Said with am/pm, or as noon, midday or midnight: not a bare number.
    var marked: Bool
    /// Written with minutes ("6:30").
    var hasMinutes: Bool
    /// The am/pm was the next word ("6 pm").
    var usedNext: Bool

    private static let markers = ["am", "pm", "a.m.", "p.m."]

    /// `word` as a time, with `next` when that is its am/pm; nil when it is none.
    init?(_ word: String, next: String?) {
        usedNext = false
        switch word {
        case "noon", "midday": (hour, minute, marked, hasMinutes) = (12, 0, true, false)
        case "midnight": (hour, minute, marked, hasMinutes) = (0, 0, true, false)
        default:
            var text = word
            var suffix = ""
            for marker in Self.markers where text.hasSuffix(marker) && text.count > marker.count {
                suffix = marker
                text = String(text.dropLast(marker.count))
                break
            }
            if suffix.isEmpty, let next, Self.markers.contains(next) {
                suffix = next
                usedNext = true
            }
            let parts = text.split(separator: text.contains(":") ? ":" : ".", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }),
                parts[0].count <= 2, let written = Int(parts[0])
            else { return nil }
            minute = 0
            hasMinutes = parts.count == 2
            if hasMinutes {
                guard parts[1].count == 2, let value = Int(parts[1]), value < 60 else { return nil }
                minute = value
            }
            marked = !suffix.isEmpty
            switch suffix {
            case "am", "a.m.":
                guard (1...12).contains(written) else { return nil }
                hour = written == 12 ? 0 : written
            case "pm", "p.m.":
                guard (1...12).contains(written) else { return nil }
                hour = written == 12 ? 12 : written + 12
            default:
                guard written <= 23 else { return nil }
                hour = written
            }
        }
    }
}
