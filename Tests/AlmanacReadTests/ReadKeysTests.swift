import AlmanacCore
import Foundation
import Testing

@testable import AlmanacRead

/// The read tool's typed seams: parameter names declared once (ReadParameter) and its cache key
/// built by one function (ReadTool.cacheKey), keeping the strings the cache already holds.
@Suite("read keys")
struct ReadKeysTests {
    @Test("the schema names exactly the ReadParameter cases, in order")
    func schemaNamesTheParameters() {
        #expect(ReadTool.schema.parameters.map(\.name) == ReadParameter.allCases.map(\.rawValue))
    }

    @Test("a value given under a ReadParameter name is read back through the same case")
    func readerTakesTheSameKeys() throws {
        let arguments = try ToolArguments.parse(
            cli: ["example.org/a", "--start", "42", "--section", "Usage", "--links", "--archive"],
            schema: ReadTool.schema, tool: "read")
        #expect(arguments.string(ReadParameter.url) == "example.org/a")
        #expect(arguments.integer(ReadParameter.start) == 42)
        #expect(arguments.string(ReadParameter.section) == "Usage")
        #expect(arguments.flag(ReadParameter.links) && arguments.flag(ReadParameter.archive))
        let request = try ReadTool.request(from: arguments)
        #expect(request.start == 42 && request.section == "Usage" && request.links && request.archive)
    }

    @Test("cache keys: the same strings as before")
    func keys() throws {
        let url = try #require(URL(string: "https://example.org/a"))
        #expect(ReadTool.cacheKey(ReadQuery(url: url, links: false)) == "read|plain|https://example.org/a")
        #expect(
            ReadTool.cacheKey(ReadQuery(url: url, links: true), archiveOnly: true)
                == "read|links|https://example.org/a|archive")
    }
}
