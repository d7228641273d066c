import Foundation

/// One well-formed VCALENDAR cut into its top-level parts, so that a big file is parsed by
/// libical a few hundred events at a time instead of as one tree (a 19 MB feed's tree is
/// hundreds of MB).
///
/// Only the plain shape is cut: blank lines, one `BEGIN:VCALENDAR`, properties and components
/// whose `BEGIN`/`END` lines pair up, `END:VCALENDAR`, blank lines. Anything else (several
/// calendars, a cut-off file, stray text, unpaired lines) gives nil, and the caller parses the
/// text whole as before, so odd files read exactly as they always did.
struct ICalendarParts {
    /// `BEGIN:VCALENDAR`, the calendar's own properties, its VTIMEZONEs, `END:VCALENDAR`: what
    /// every event's zones and floating times are resolved against.
    let zoneText: String
    /// The VEVENT blocks, in file order, as offsets into the UTF-8 (line ends included).
    let events: [Range<Int>]
    /// The UTF-8 cut (often a slice of a file's or a feed's bytes, not copied).
    private let utf8: Data

    /// Cuts `text`, or nil when it is not the plain shape.
    init?(_ text: String) {
        self.init(utf8: Data(text.utf8))
    }

    /// Cuts the text whose UTF-8 is `utf8`, or nil when it is not the plain shape.
    init?(utf8: Data) {
        guard
            let parts = utf8.withUnsafeBytes({ raw -> (String, [Range<Int>])? in
                Self.cut(raw.assumingMemoryBound(to: UInt8.self))
            })
        else { return nil }
        (zoneText, events) = parts
        self.utf8 = utf8
    }

    /// `BEGIN:VCALENDAR`, the VEVENT blocks `events[range]`, `END:VCALENDAR`: a small calendar
    /// libical parses on its own.
    func piece(_ range: Range<Int>) -> String {
        let blocks = events[range]
        var bytes: [UInt8] = []
        bytes.reserveCapacity(blocks.reduce(40) { $0 + $1.count })
        bytes += Array("BEGIN:VCALENDAR\r\n".utf8)
        utf8.withUnsafeBytes { raw in
            for block in blocks { bytes += UnsafeRawBufferPointer(rebasing: raw[block]) }
        }
        bytes += Array("END:VCALENDAR\r\n".utf8)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func cut(_ bytes: UnsafeBufferPointer<UInt8>) -> (String, [Range<Int>])? {
        var header: [UInt8] = Array("BEGIN:VCALENDAR\r\n".utf8)
        var zones: [UInt8] = []
        var events: [Range<Int>] = []
        // Names of the open components; the first is VCALENDAR once it has begun.
        var open: [String] = []
        var blockStart = 0
        var closed = false
        var start = 0
        let count = bytes.count
        while start < count {
            var end = start
            while end < count, bytes[end] != 0x0A { end += 1 }
            let next = end < count ? end + 1 : end
            // The line without its line end and trailing blanks.
            var last = end
            while last > start, bytes[last - 1] == 0x0D || bytes[last - 1] == 0x20 || bytes[last - 1] == 0x09 {
                last -= 1
            }
            let marker = Self.marker(bytes, start..<last)
            if closed || open.isEmpty {
                // Before BEGIN:VCALENDAR and after END:VCALENDAR: blank lines only.
                if last == start {
                    start = next
                    continue
                }
                guard !closed, let marker, marker.begin, marker.name == "VCALENDAR" else { return nil }
                open.append("VCALENDAR")
            } else if let marker {
                if marker.begin {
                    guard marker.name != "VCALENDAR" else { return nil }
                    if open.count == 1 { blockStart = start }
                    open.append(marker.name)
                } else {
                    guard open.last == marker.name else { return nil }
                    open.removeLast()
                    if open.isEmpty {
                        closed = true
                    } else if open.count == 1 {
                        if marker.name == "VEVENT" {
                            events.append(blockStart..<next)
                        } else if marker.name == "VTIMEZONE" {
                            zones += UnsafeBufferPointer(rebasing: bytes[blockStart..<next])
                        }
                    }
                }
            } else if open.count == 1 {
                header += UnsafeBufferPointer(rebasing: bytes[start..<next])
                if next == end { header += [0x0D, 0x0A] }
            }
            start = next
        }
        guard closed else { return nil }
        header += zones
        header += Array("END:VCALENDAR\r\n".utf8)
        return (String(decoding: header, as: UTF8.self), events)
    }

    /// `BEGIN:NAME` or `END:NAME` (any case), with NAME upper-cased; nil for other lines.
    private static func marker(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> (begin: Bool, name: String)?
    {
        func starts(with word: String) -> Bool {
            let word = Array(word.utf8)
            guard line.count > word.count else { return false }
            for (offset, letter) in word.enumerated() where bytes[line.lowerBound + offset] & 0xDF != letter & 0xDF {
                return false
            }
            return true
        }
        guard !line.isEmpty else { return nil }
        // Only B and E can start one: the common property line costs one comparison.
        let first = bytes[line.lowerBound] & 0xDF
        guard first == 0x42 || first == 0x45 else { return nil }
        let begin = starts(with: "BEGIN:")
        guard begin || starts(with: "END:") else { return nil }
        let name = String(
            decoding: UnsafeBufferPointer(rebasing: bytes[(line.lowerBound + (begin ? 6 : 4))..<line.upperBound]),
            as: UTF8.self)
        return (begin, name.uppercased())
    }
}
