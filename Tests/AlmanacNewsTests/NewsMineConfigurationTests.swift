import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacNews

/// `--mine` with every part failing for want of configuration: the configuration message, however
/// many topics there are.
@Suite("news --mine: nothing configured for any topic")
struct NewsMineConfigurationTests {
    static func error(topics: [String]) async throws -> AlmanacError? {
        let context = NewsTest.context(
            transport: try Fixtures.replay(), now: NewsTest.hackerNewsNow,
            settings: NewsMineTests.settings(feeds: [], topics: topics, brave: false))
        do {
            _ = try await NewsTool().run(NewsMineTests.mine, context: context)
            return nil
        } catch {
            return error as? AlmanacError
        }
    }

    @Test("two or more topics, no feeds, no search key: the configuration error, as with one topic")
    func twoTopicsNoSearch() async throws {
        let one = try #require(try await Self.error(topics: ["formula 1"]))
        let two = try #require(try await Self.error(topics: ["formula 1", "hello world"]))
        #expect(one.kind == .configuration)
        #expect(two.kind == .configuration)
        #expect(two.kind.exitStatus == one.kind.exitStatus)
        #expect(two.message == one.message)
        #expect(two.suggestion == one.suggestion)
        #expect(two.suggestion != nil)
    }
}
