import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacRead

@Suite("provider contract: read")
struct ReadContractTests {
    static let query = ReadQuery(url: URL(string: ReadTest.acluURL)!, links: false)

    @Test("the site keeps the provider contract on a recorded page (robots.txt, then the page)")
    func site() async throws {
        let violations = await ProviderContract.check(
            SiteProvider(), query: Self.query, recorded: try Fixtures.replay(), now: ReadTest.now)
        #expect(violations.isEmpty, "\(violations)")
    }

    @Test("the Internet Archive keeps the provider contract (availability answer, then the snapshot)")
    func archive() async throws {
        let violations = await ProviderContract.check(
            ArchiveProvider(), query: Self.query, recorded: try Fixtures.replay(), now: ReadTest.now)
        #expect(violations.isEmpty, "\(violations)")
    }

    @Test("an archive answer without a snapshot is a not-found failure in one line")
    func noSnapshot() throws {
        let body = try Fixtures.data("read/archive/none-available.response.json")
        #expect(throws: ProviderFailure.self) {
            _ = try ArchiveProvider.snapshot(from: HTTPResponse(status: 200, body: body))
        }
        let found = try ArchiveProvider.snapshot(
            from: HTTPResponse(status: 200, body: try Fixtures.data("read/archive/aclu-available.response.json")))
        #expect(found.timestamp == "20180406093205")
        #expect(ArchiveProvider.isoTimestamp(found.timestamp) == "2018-04-06T09:32:05Z")
    }
}
