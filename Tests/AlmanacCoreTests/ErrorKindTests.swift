import Foundation
import Testing

@testable import AlmanacCore

/// Error kinds are extensible values, not closed enums: a kind added later must break no caller,
/// while today's kinds read, compare, print, encode and map to exit statuses as before.
@Suite("error kinds: extensible structs")
struct ErrorKindTests {
    @Test("AlmanacError.Kind is a struct; exit statuses and names as before")
    func almanacErrorKind() {
        #expect(Mirror(reflecting: AlmanacError.Kind.usage).displayStyle == .struct)
        #expect(AlmanacError.usage("x", suggestion: nil).exitStatus == 64)
        #expect(AlmanacError.configuration("x", suggestion: nil).exitStatus == 64)
        #expect(AlmanacError.unavailable(tool: "t", attempts: []).exitStatus == 69)
        #expect(AlmanacError.internal("x").exitStatus == 70)
        #expect(AlmanacError.usage("x", suggestion: nil).kind == .usage)
        #expect(AlmanacError.usage("x", suggestion: nil).kind != .configuration)
        let names = [AlmanacError.Kind.usage, .unavailable, .configuration, .internal].map(\.description)
        #expect(names == ["usage", "unavailable", "configuration", "internal"])
    }

    @Test("ProviderFailure.Kind is a struct that prints, matches and encodes as the enum did")
    func providerFailureKind() throws {
        let kinds: [ProviderFailure.Kind] = [
            .timeout, .network, .http, .unauthorized, .rateLimited, .decoding, .notFound, .unconfigured,
        ]
        #expect(Mirror(reflecting: ProviderFailure.Kind.timeout).displayStyle == .struct)
        #expect(Set(kinds).count == kinds.count)
        #expect("\(ProviderFailure.Kind.rateLimited)" == "rateLimited")
        #expect(ProviderFailure.Kind.notFound.rawValue == "notFound")
        let data = try JSONEncoder().encode(kinds)
        #expect(String(decoding: data, as: UTF8.self).contains("\"rateLimited\""))
        #expect(try JSONDecoder().decode([ProviderFailure.Kind].self, from: data) == kinds)
        // Static members still match in a `switch` (as values), with a `default` for kinds to come.
        let matched: String
        switch ProviderFailure(.unauthorized, "no").kind {
        case .unauthorized: matched = "unauthorized"
        default: matched = "other"
        }
        #expect(matched == "unauthorized")
    }
}
