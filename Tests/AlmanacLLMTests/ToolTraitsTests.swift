import AlmanacCore
import Foundation
import Testing

@testable import AlmanacLLM

/// A tool that says it takes a URL (a page reader of another name).
struct FetchTool: Tool {
    var name: String
    var traits: ToolTraits
    var summary: String { "test tool \(name): a page" }
    var schema: ToolSchema { ToolSchema([ToolParameter("url", .string, help: "the page", placement: .positional)]) }
    var providerDescriptors: [ProviderDescriptor] { [] }
    func providers(in context: ToolContext) -> [ProviderInfo] { [ProviderInfo(name: "stub", priority: 0)] }
    func run(_ arguments: ToolArguments, context: ToolContext) async throws -> ToolResult {
        throw AlmanacError.internal("not run in these tests")
    }
}

/// Tools declare what they are instead of code testing their names (issue 32, point 6): the
/// router's web-address route follows the `takesURL` trait; the model's system prompt lists the
/// registry's tools, an extra one among them.
@Suite("tool traits and registry-built lists")
struct ToolTraitsTests {
    @Test("a question with a web address goes to the tool that declares takesURL, whatever its name")
    func urlRoute() {
        let registry = ToolRegistry([
            FetchTool(name: "notes", traits: []), FetchTool(name: "club.fetch", traits: [.takesURL]),
            LinesTool(name: "search"),
        ])
        let router = Router(registry: registry, now: Date(timeIntervalSince1970: 1_734_305_400), timeZone: .gmt)
        #expect(
            router.route("summarize https://example.org/a.").map(\.description) == ["club.fetch https://example.org/a"])
        // No tool declares it: the address is part of a search.
        let plain = Router(
            registry: ToolRegistry([FetchTool(name: "notes", traits: []), LinesTool(name: "search")]),
            now: Date(timeIntervalSince1970: 1_734_305_400), timeZone: .gmt)
        #expect(plain.route("summarize https://example.org/a").first?.tool == "search")
    }

    @Test("the native tool-calling system prompt names the registry's tools, an extra one too")
    func systemPrompt() {
        let prompt = Prompt.toolSystem(clockLine: "It is noon.", tools: ["sports", "time__get_current_time"])
        #expect(prompt.contains("(sports, time__get_current_time)"))
        #expect(!prompt.contains("web search)"))
    }
}
