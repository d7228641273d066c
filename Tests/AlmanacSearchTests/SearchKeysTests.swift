import AlmanacCore
import Foundation
import Testing

@testable import AlmanacSearch

/// The search tool's typed seams: parameter names declared once (SearchParameter); its one cache
/// key (SearchTool.cacheKey) keeps the strings the cache holds (pinned in SearchArgumentTests).
@Suite("search keys")
struct SearchKeysTests {
    @Test("the schema names exactly the SearchParameter cases, in order")
    func schemaNamesTheParameters() {
        #expect(SearchTool.schema.parameters.map(\.name) == SearchParameter.allCases.map(\.rawValue))
    }

    @Test("a value given under a SearchParameter name is read back through the same case")
    func readerTakesTheSameKeys() throws {
        let arguments = try ToolArguments.parse(
            cli: ["swift", "6", "--news", "-n", "7", "--freshness", "week", "--country", "DE"],
            schema: SearchTool.schema, tool: "search")
        #expect(arguments.string(SearchParameter.query) == "swift 6")
        #expect(arguments.flag(SearchParameter.news))
        #expect(arguments.integer(SearchParameter.count) == 7)
        #expect(arguments.string(SearchParameter.freshness) == "week")
        #expect(arguments.string(SearchParameter.country) == "DE")
        let request = try SearchTool.request(from: arguments)
        #expect(request.kind == .news && request.count == 7 && request.country == "DE")
    }
}
