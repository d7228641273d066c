import Foundation

/// An OPML subscription list (what feed readers export): the `xmlUrl` of every outline.
enum OPML {
    /// One subscribed feed.
    struct Outline: Sendable, Hashable {
        var url: String
        var title: String?
    }

    /// The feeds `data` lists, in document order, without repeats.
    ///
    /// - Throws: ``FeedError`` when it is not OPML.
    static func parse(_ data: Data) throws -> [Outline] {
        var start = data.startIndex
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        while start < data.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(data[start]) { start += 1 }
        let (xml, _) = FeedParser.transcoded(Data(data[start...]))
        let builder = Builder()
        do {
            _ = try XMLEvents.parse(xml, handler: builder)
        } catch let failure as XMLReadFailure {
            throw FeedError(reason: failure.reason)
        }
        guard builder.root?.lowercased() == "opml" else {
            throw FeedError(
                reason: "not an OPML list of feeds (root element \(builder.root.map { "<\($0)>" } ?? "none"))")
        }
        var seen = Set<String>()
        return builder.outlines.filter { seen.insert($0.url).inserted }
    }

    final class Builder: XMLEventSink {
        var root: String?
        var outlines: [Outline] = []

        override func start(_ name: String, namespace: String, prefix: String, attributes: [XMLAttribute]) {
            if root == nil { root = name }
            guard name == "outline" else { return }
            let value = { (key: String) in attributes.first { $0.name.lowercased() == key }?.value }
            guard let url = value("xmlurl")?.trimmingCharacters(in: .whitespacesAndNewlines), !url.isEmpty else {
                return
            }
            outlines.append(Outline(url: url, title: value("title") ?? value("text")))
        }
    }
}
