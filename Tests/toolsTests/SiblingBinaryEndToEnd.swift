import AlmanacTesting
import Foundation
import Testing

@Suite("tools mcp and tools serve hand over to their own binaries")
struct SiblingBinaryEndToEnd {
    /// Copies the built `tools` by a `cp` process: a copy written in this process holds a writable
    /// descriptor that a fork on another test's thread inherits, and the exec then fails with
    /// "Text file busy" (seen in a full parallel run).
    static func copyBinary(to destination: URL) async throws {
        let copy = try await Command.run(
            URL(fileURLWithPath: "/bin/cp"), [ToolsBinary.url.path, destination.path], environment: [:], timeout: 30)
        guard copy.status == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    @Test(
        "a tools copied without tools-mcp or tools-serve beside it says which binary is missing and how to build it, exit 64",
        arguments: [
            ("mcp", "tools mcp: cannot run the MCP server", "tools-mcp"),
            ("serve", "tools serve: cannot run the HTTP server", "tools-serve"),
        ])
    func missingSibling(command: String, message: String, product: String) async throws {
        let scratch = try Scratch()
        let lonely = scratch.url.appendingPathComponent("bin/tools")
        try FileManager.default.createDirectory(
            at: lonely.deletingLastPathComponent(), withIntermediateDirectories: true)
        try await Self.copyBinary(to: lonely)
        let output = try await Command.run(lonely, [command], environment: scratch.environment(), timeout: 30)
        #expect(output.status == 64)
        let lines = output.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("error: \(message)") == true, "\(output.stderr)")
        #expect(lines.first?.contains(scratch.url.appendingPathComponent("bin/\(product)").path) == true)
        // The one install step, then the single product.
        #expect(
            lines.dropFirst().first?.hasPrefix("  run scripts/install in the Almanac checkout") == true,
            "\(output.stderr)")
        #expect(output.stderr.contains("swift build -c release --product \(product)"))
        #expect(output.stdout.isEmpty)
    }

    @Test(
        "tools doctor warns (exit 0) for each sibling missing beside tools, naming its path and the install step; ok for each present"
    )
    func doctorNamesMissingSiblings() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let scratch = try Scratch()
        let bin = scratch.url.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try await Self.copyBinary(to: bin.appendingPathComponent("tools"))
        // tools-serve present (any executable will do: doctor does not run it), tools-mcp missing.
        let serve = bin.appendingPathComponent("tools-serve")
        try await Self.copyBinary(to: serve)
        let environment = scratch.environment(
            DoctorEndToEndTests.everyEndpoint(at: server.baseURL).merging(["ALMANAC_LLM_URL": server.baseURL]) { $1 })
        let output = try await Command.run(
            bin.appendingPathComponent("tools"), ["doctor"], environment: environment, timeout: 60)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.contains(
                "warn  tools-mcp: missing beside tools (\(bin.appendingPathComponent("tools-mcp").path)), so tools mcp cannot run; "
                    + "run scripts/install in the Almanac checkout (builds tools, tools-mcp and tools-serve into ~/.local/bin)"
            ),
            "\(output.stdout)")
        #expect(lines.contains("ok    tools-serve: \(serve.path) (tools serve)"), "\(output.stdout)")
    }
}
