import Foundation
import Testing

@testable import AlmanacRead

@Suite("read: trimming shortcut")
struct TrimmingTests {
    static let samples = [
        "", " ", "\n\t \r\n", "plain", "  both  ", "\n  {\"a\": 1}\n ", "\u{00A0}nbsp\u{00A0}", "\u{3000}ideo\u{2028}",
        " café ", "\té\u{301} ", " a\u{301}", "\r\n x \r\n", "\u{85}next\u{85}", "\u{FEFF}bom ", " \u{1}ctl ", "x",
        "\u{200B}zw ", " 😀 ", "\u{0B}v\u{0C}",
    ]

    @Test("the shortcut gives Foundation's result for ASCII, Unicode and control ends", arguments: samples)
    func sameAsFoundation(_ text: String) {
        #expect(text.trimmingWhitespaceAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
    }
}
