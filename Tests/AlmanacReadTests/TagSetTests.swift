import Testing

@testable import AlmanacRead

@Suite("read: tag codes")
struct TagSetTests {
    @Test("a tag set holds exactly its names, on both halves of the mask, and follows a renamed node")
    func membership() {
        let set: TagSet = ["a", "wbr", "h2", "video"]
        for name in TagCode.names {
            #expect(set.contains(TagCode.code(name)) == ["a", "wbr", "h2", "video"].contains(name), "\(name)")
        }
        #expect(!set.contains(0))
        #expect(TagCode.code("my-widget") == 0)
        let node = HTMLNode(kind: .element, tag: "span")
        #expect(!set.contains(node))
        node.tag = "h2"
        #expect(set.contains(node))
        #expect(Set(TagCode.names).count == TagCode.names.count)
    }

    @Test("every tag set the extractor asks with names only listed tags")
    func extractorSets() {
        let sets: [TagSet] = [
            Readability.tagsToScore, Readability.divToPElements, Readability.phrasing, Readability.alterToDivExceptions,
            Readability.removableWhenEmpty, Readability.headings, ArticleText.blockTags, HTMLParser.dropped,
        ]
        // Building them (asserting in debug builds) is the check; each is non-empty.
        #expect(sets.allSatisfy { set in TagCode.names.contains { set.contains(TagCode.code($0)) } })
    }
}
