/// A time of day as people write it: "6", "6pm", "6 pm", "6:30", "6.30pm", "15:00", "6 a.m.",
/// "noon", "midday", "midnight". The one reader behind the words of `--due`/`--at`
/// (``WhenText``), the write questions ("move my 11am to 1") and the free/busy questions ("free
/// at 3pm"); each of them decides what a bare hour means ("at 6": the evening).
struct ClockWords: Equatable {
    /// How the words said it: which callers' rules for a bare hour apply.
    enum Said: Equatable {
        /// "6": the caller decides which half of the day.
        case hour
        /// "6:30", "15:00": minutes, no am/pm.
        case minutes
        /// "6pm", "6:30 a.m.", "noon", "midday", "midnight".
        case marked
    }

    /// 0–23, with am/pm applied, and the minute.
    var hour: Int, minute: Int
    var said: Said
    /// The am/pm was the next word ("6 pm").
    var usedNext = false

    private static let markers = ["am", "pm", "a.m.", "p.m."]

    /// `word` as a time, with `next` when that is its am/pm; nil when it is none.
    init?(_ word: String, next: String?) {
        switch word {
        case "noon", "midday": (hour, minute, said) = (12, 0, .marked)
        case "midnight": (hour, minute, said) = (0, 0, .marked)
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
            if parts.count == 2 {
                guard parts[1].count == 2, let value = Int(parts[1]), value < 60 else { return nil }
                minute = value
            }
            said = !suffix.isEmpty ? .marked : parts.count == 2 ? .minutes : .hour
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
