import Testing

@testable import AlmanacSearch

@Suite("HTML snippets to plain text")
struct HTMLTextTests {
    @Test(
        "tags removed, entities decoded, whitespace collapsed",
        arguments: [
            ("<strong>Hello</strong> <strong>World</strong>!", "Hello World!"),
            ("A &quot;Hello, World!&quot; program", "A \"Hello, World!\" program"),
            ("a language&#x27;s basic syntax", "a language's basic syntax"),
            ("K&amp;R C book from the &#39;70s", "K&R C book from the '70s"),
            ("line<br>break<p>para</p>end", "line break para end"),
            ("<a href=\"x\">link</a>&nbsp;text", "link text"),
            ("1 < 2 and 3 > 2", "1 < 2 and 3 > 2"),
            ("a <b <c>", "a <b"),
            ("&lt;strong&gt; is literal", "<strong> is literal"),
            ("caf&eacute; &hellip; &mdash; &#8212; &#x1F600;", "café … — — 😀"),
            ("AT&T &unknown; &#0; &#xD800; & done", "AT&T &unknown; &#0; &#xD800; & done"),
            ("  spaced \n\t out  ", "spaced out"),
            ("<!-- hidden --> shown", "shown"),
            ("", ""),
        ])
    func plain(input: String, expected: String) {
        #expect(HTMLText.plain(input) == expected)
    }
}
