import Testing

@testable import AlmanacRead

@Suite("read: robots.txt")
struct RobotsTests {
    @Test("our group wins over *, the longest match decides, Allow wins a tie, * and $ are patterns")
    func rules() {
        let text = """
            # comment
            User-agent: *
            Disallow: /

            User-agent: Almanac
            User-agent: other
            Disallow: /private
            Allow: /private/open
            Disallow: /*.pdf$
            Disallow: /tmp*/x
            Disallow:
            """
        let rules = RobotsRules.parse(text)
        #expect(rules.allows("/"))
        #expect(rules.allows("/blog/post"))
        #expect(!rules.allows("/private"))
        #expect(!rules.allows("/private/secret"))
        #expect(rules.allows("/private/open/page"))
        #expect(!rules.allows("/paper.pdf"))
        #expect(rules.allows("/paper.pdf?x=1"))
        #expect(!rules.allows("/tmp123/x"))
        #expect(RobotsRules.parse("User-agent: *\nDisallow: /\n").allows("/anything") == false)
        #expect(RobotsRules.parse("User-agent: googlebot\nDisallow: /\n").allows("/anything"))
        #expect(RobotsRules.parse("").allows("/"))
        #expect(RobotsRules(rules: [], disallowAll: true).allows("/") == false)
    }
}
