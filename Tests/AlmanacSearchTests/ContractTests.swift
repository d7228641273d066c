import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacSearch

@Suite("provider contract: search")
struct SearchContractTests {
    @Test("Brave keeps the provider contract on a recorded answer, its key (the kit's sentinel) in no failure or log")
    func brave() async throws {
        let query = SearchQuery(text: "hello world", kind: .web, count: 20)
        let violations = await ProviderContract.check(
            BraveSearchProvider(client: BraveClient()), query: query, recorded: try Fixtures.replay(),
            now: Date(timeIntervalSince1970: 1_750_000_000))
        #expect(violations.isEmpty, "\(violations)")
    }
}
