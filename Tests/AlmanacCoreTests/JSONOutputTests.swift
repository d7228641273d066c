import Foundation
import Testing

@testable import AlmanacCore

@Suite("JSON output")
struct JSONOutputTests {
    struct Sample: Codable, Equatable {
        var name: String
        @Nullable var note: String?
        var extra: Int?
    }

    struct Page: ToolPayload {
        var url: String
        @Nullable var title: String?
        func context(_ rendering: Rendering) -> String { url }
        func text(_ rendering: Rendering) -> String { url }
    }

    @Test("@Nullable writes null where a plain optional leaves the key out; keys sorted, slashes as is")
    func nullable() throws {
        let text = try JSONOutput.compactText(Sample(name: "a/b", note: nil, extra: nil))
        #expect(text == #"{"name":"a/b","note":null}"#)
        let full = try JSONOutput.compactText(Sample(name: "x", note: "n", extra: 1))
        #expect(full == #"{"extra":1,"name":"x","note":"n"}"#)
    }

    @Test("@Nullable reads null, a value, and a missing key (entries cached before the key existed)")
    func nullableDecoding() throws {
        let decoder = JSONDecoder()
        #expect(try decoder.decode(Sample.self, from: Data(#"{"name":"a","note":null}"#.utf8)).note == nil)
        #expect(try decoder.decode(Sample.self, from: Data(#"{"name":"a","note":"n"}"#.utf8)).note == "n")
        #expect(try decoder.decode(Sample.self, from: Data(#"{"name":"a"}"#.utf8)).note == nil)
    }

    @Test("an attempt is written by hand exactly as JSONEncoder writes it, with and without detail")
    func attemptBytes() throws {
        let attempts = [
            ProviderAttempt(provider: "espn", outcome: .ok, milliseconds: 12),
            ProviderAttempt(
                provider: "met \"no\"", outcome: .timeout, milliseconds: 8000, detail: "no answer\nwithin 8 s"),
        ]
        for attempt in attempts {
            var writer = JSONWriter()
            attempt.writeJSON(to: &writer)
            #expect(writer.bytes == Array(try JSONOutput.encoder().encode(attempt)))
        }
    }

    @Test("an envelope nested in another answer's data is the top-level envelope, keys sorted, not text")
    func nested() throws {
        let metadata = ResultMetadata(
            tool: "read", provider: "direct", fetchedAt: Date(timeIntervalSince1970: 1_700_000_000), ageSeconds: 5,
            stale: false, attempts: [ProviderAttempt(provider: "direct", outcome: .ok, milliseconds: 12)])
        let result = ToolResult(metadata: metadata, payload: Page(url: "https://example.org/a", title: nil))
        let top = try Envelope.json(metadata: metadata, payload: result.payload)
        #expect(top.hasPrefix(#"{"tool":"read","provider":"direct","fetchedAt":"2023-11-14T22:13:20Z""#))
        let nested = try JSONOutput.compactText(Envelope.Nested(result))
        #expect(
            nested == #"{"ageSeconds":5,"attempts":[{"ms":12,"outcome":"ok","provider":"direct"}],"#
                + #""data":{"title":null,"url":"https://example.org/a"},"fetchedAt":"2023-11-14T22:13:20Z","#
                + #""provider":"direct","stale":false,"tool":"read"}"#)
        let parsedTop = try JSONSerialization.jsonObject(with: Data(top.utf8)) as? NSDictionary
        let parsedNested = try JSONSerialization.jsonObject(with: Data(nested.utf8)) as? NSDictionary
        #expect(parsedTop != nil && parsedTop == parsedNested)
    }
}
