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
    @Test("a call is trimmed after when its tool says it is heavy, with no list to keep")
    func heavyFromTraits() {
        #expect(MemoryRelief.needsTrim(after: HeavyStubTool(name: "club.feed", traits: [.heavy])))
        #expect(!MemoryRelief.needsTrim(after: HeavyStubTool(name: "calendar", traits: [])))
        #expect(!MemoryRelief.needsTrim(after: nil))
    }
}
