import AlmanacCore
import AlmanacMCP
import AlmanacRuntime
import AlmanacTesting
import Foundation
import MCP
import Testing

@testable import AlmanacServe

/// `ToolSchema.asksWrites` is the one test of whether a call can write; MCP's tools/list marks
/// such a tool destructive by it.
@Suite("a schema says whether it writes")
struct AsksWritesTests {
    @Test("a write word makes a schema ask writes; hidden from callers who may not write, it does not")
    func asksWrites() throws {
        let directory = try TempDirectory()
        let probe = ProbeTool(name: "probe")
        #expect(probe.schema.asksWrites)
        #expect(!ToolSchema([ToolParameter("place", .string, help: "a place", placement: .remainder)]).asksWrites)
        for front in [nil, "mcp"] {
            var environment = ServePeers.replayEnvironment(directory.url)
            if let front { environment["ALMANAC_ALLOW_WRITES"] = front }
            let runtime = try Runtime.make(
                environment: environment, options: RuntimeOptions(front: front), tools: [probe])
            #expect(runtime.publishedSchema(probe).asksWrites == (front != nil))
            let listed = try #require(AlmanacMCPServer.tools(runtime).first)
            #expect((listed.annotations.destructiveHint ?? false) == (front != nil))
        }
    }
}
