import AlmanacCore
import Foundation
import Testing

@testable import AlmanacServe

/// A tool that declares itself heavy (reads whole documents).
struct HeavyStubTool: Tool {
    var name: String
    var traits: ToolTraits
    var summary: String { "test tool \(name)" }
    var schema: ToolSchema { ToolSchema([]) }
    var providerDescriptors: [ProviderDescriptor] { [] }
    func providers(in context: ToolContext) -> [ProviderInfo] { [] }
    func run(_ arguments: ToolArguments, context: ToolContext) async throws -> ToolResult {
        throw AlmanacError.internal("not run in these tests")
    }
}

/// The server trims memory after the calls of tools that declare ``ToolTraits/heavy``, not of a
/// list of names (issue 32, point 6).
@Suite("memory relief follows the heavy trait")
struct MemoryReliefTraitTests {
    @Test("the heavy tools are those that say so")
    func heavyFromTraits() {
        MemoryRelief.register([
            HeavyStubTool(name: "club.feed", traits: [.heavy]), HeavyStubTool(name: "calendar", traits: []),
        ])
        #expect(MemoryRelief.heavyTools == ["club.feed"])
    }
}
