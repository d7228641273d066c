import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCore

/// ProviderDescriptor's doc example, compiled: a stale example (`role: .forecast`, a role that does
/// not exist) fails this file's build instead of misleading whoever copies it.
@Suite struct ProviderDescriptorExampleTests {
    // The example in ProviderDescriptor.swift's doc comment, verbatim.
    static let descriptor = ProviderDescriptor(
        name: "met-norway", tool: "weather", priority: 10, summary: "MET Norway Locationforecast 2.0",
        label: "MET Norway",
        endpoints: [ProviderEndpoint(env: "ALMANAC_METNO_URL", defaultBase: "https://api.met.no")],
        terms: UpstreamTerms(
            userAgent: .contactRequired(config: ["weather", "contact"]), conditionalRequests: true,
            attribution: "Data from MET Norway (CC BY 4.0)"),
        probe: HealthProbe(path: "/weatherapi/locationforecast/2.0/status", essential: false))

    @Test func docExampleDescribesAMainProvider() {
        let descriptor = Self.descriptor
        #expect(descriptor.role == .main)
        #expect(descriptor.label == "MET Norway")
        #expect(descriptor.fixtureFolder == "met-norway")
        #expect(descriptor.terms.userAgent == .contactRequired(config: ["weather", "contact"]))
        #expect(descriptor.info.note == "MET Norway Locationforecast 2.0")
    }

    @Test func docCommentHoldsTheCompiledExample() throws {
        let source = try String(
            contentsOf: Fixtures.packageRoot().appendingPathComponent(
                "Sources/AlmanacCore/Tool/ProviderDescriptor.swift"),
            encoding: .utf8)
        #expect(!source.contains("role: .forecast"))
        #expect(source.contains("/// static let descriptor = ProviderDescriptor("))
        #expect(source.contains(#"///     label: "MET Norway","#))
    }
}
