import AlmanacTesting
import Foundation
import Testing

/// With neither search provider configured.
@Suite("tools search unconfigured, end to end")
struct SearchUnconfiguredEndToEndTests {
    @Test("no key and no SearXNG URL: one line naming both ways to enable search, exit 64")
    func unconfigured() async throws {
        let scratch = try Scratch()
        let output = try await ToolsBinary.run(["run", "search", "python"], environment: scratch.environment())
        #expect(output.status == 64)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.contains("BRAVE_API_KEY"))
        #expect(output.stderr.contains("ALMANAC_SEARXNG_URL"))
        #expect(!output.stderr.contains("Fatal error"))
    }
}
