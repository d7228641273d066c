import AlmanacCore
import AlmanacRuntime
import AlmanacTesting
import Foundation
import Testing

/// The documentation names what the registry has: a provider added to a chain without its
/// variable in README's configuration table, or its name in the providers table, fails here.
@Suite("README against the provider registry")
struct RegistryDocsTests {
    static let readme: String = {
        let url = Fixtures.packageRoot().appendingPathComponent("README.md")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    @Test("every provider's base-URL variable is in README's configuration table")
    func variables() {
        for descriptor in Runtime.defaultProviders().descriptors {
            for endpoint in descriptor.endpoints {
                #expect(Self.readme.contains("| `\(endpoint.env)` |"), "\(descriptor.name): \(endpoint.env)")
            }
        }
    }

    @Test("every provider is named in README's tools and providers table")
    func names() throws {
        let start = try #require(Self.readme.range(of: "## Tools and providers"))
        let section = Self.readme[start.upperBound...].prefix(4000)
        for descriptor in Runtime.defaultProviders().descriptors {
            #expect(section.contains("`\(descriptor.name)`"), "\(descriptor.name)")
        }
    }

    @Test("README's fault-matrix table has every fault for every provider the matrix runs (regenerate it with scripts/fault-matrix)")
    func faultMatrix() {
        let rows = Self.readme.split(separator: "\n").filter { $0.hasPrefix("| ") }
        for descriptor in Runtime.defaultProviders().descriptors where descriptor.sampleCall != nil && !descriptor.endpoints.isEmpty {
            let cell = " | \(descriptor.tool) (\(descriptor.name)) | "
            #expect(rows.filter { $0.contains(cell) }.count == FaultMatrixTests.expectations.count, "\(descriptor.name)")
        }
    }
}
