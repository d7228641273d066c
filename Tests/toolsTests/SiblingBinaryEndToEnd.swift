import AlmanacTesting
import Foundation
import Testing

@Suite("tools mcp and tools serve hand over to their own binaries")
struct SiblingBinaryEndToEnd {
    @Test(
        "a tools copied without tools-mcp or tools-serve beside it says which binary is missing and how to build it, exit 64",
        arguments: [
            ("mcp", "tools mcp: cannot run the MCP server", "tools-mcp"),
            ("serve", "tools serve: cannot run the HTTP server", "tools-serve"),
        ])
    func missingSibling(command: String, message: String, product: String) throws {
        let scratch = try Scratch()
        let lonely = scratch.url.appendingPathComponent("bin/tools")
        try FileManager.default.createDirectory(at: lonely.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: ToolsBinary.url, to: lonely)
        let output = try Command.run(lonely, [command], environment: scratch.environment(), timeout: 30)
        #expect(output.status == 64)
        let lines = output.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("error: \(message)") == true, "\(output.stderr)")
        #expect(lines.first?.contains(scratch.url.appendingPathComponent("bin/\(product)").path) == true)
        #expect(output.stderr.contains("swift build -c release --product \(product)"))
        #expect(output.stdout.isEmpty)
    }
}
