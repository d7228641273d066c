import AlmanacRuntime
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCore

/// The documentation names what the registry has: a provider added to a chain without its name in
/// README's providers table, its variable in docs/configuration.md's table, or its rows in
/// docs/reliability.md's fault matrix fails here (docs/providers.md says so to whoever adds one).
@Suite("Docs against the provider registry")
struct RegistryDocsTests {
    static func document(_ path: String) -> String {
        let url = Fixtures.packageRoot().appendingPathComponent(path)
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }

    static let readme = document("README.md")
    static let configuration = document("docs/configuration.md")
    static let reliability = document("docs/reliability.md")

    @Test("every provider's base-URL variable is in docs/configuration.md's table")
    func variables() {
        #expect(!Self.configuration.isEmpty, "docs/configuration.md is missing")
        for descriptor in Runtime.defaultProviders().descriptors {
            for endpoint in descriptor.endpoints {
                #expect(Self.configuration.contains("| `\(endpoint.env)` |"), "\(descriptor.name): \(endpoint.env)")
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

    @Test(
        "docs/reliability.md's fault matrix has every fault for every provider the matrix runs (rows from scripts/fault-matrix)"
    )
    func faultMatrix() {
        #expect(!Self.reliability.isEmpty, "docs/reliability.md is missing")
        let rows = Self.reliability.split(separator: "\n").filter { $0.hasPrefix("| ") }
        for descriptor in Runtime.defaultProviders().descriptors
        where descriptor.sampleCall != nil && !descriptor.endpoints.isEmpty {
            let cell = " | \(descriptor.tool) (\(descriptor.name)) | "
            #expect(
                rows.filter { $0.contains(cell) }.count == FaultMatrixTests.expectations.count, "\(descriptor.name)")
        }
    }

    @Test(
        "no upstream host or secret name outside the module that owns its provider (Core, the CLI, runtime and servers name none)"
    )
    func literalsStayHome() throws {
        let sources = Fixtures.packageRoot().appendingPathComponent("Sources")
        let modules = try FileManager.default.contentsOfDirectory(atPath: sources.path)
        for descriptor in Runtime.defaultProviders().descriptors {
            // A tool's module is Almanac + its name ("sports" -> AlmanacSports), by the layout's rule.
            let owner = "Almanac" + descriptor.tool.prefix(1).uppercased() + descriptor.tool.dropFirst()
            var words = descriptor.endpoints.compactMap(\.defaultHost)
            for secret in descriptor.secrets {
                switch secret {
                case .environment(let name), .header(let name), .queryParameter(let name): words.append(name)
                case .config: break
                }
            }
            for module in modules where module != owner {
                let folder = sources.appendingPathComponent(module)
                guard let files = FileManager.default.enumerator(atPath: folder.path) else { continue }
                for case let file as String in files where file.hasSuffix(".swift") || file.hasSuffix(".c") {
                    let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                    // Comments may name an upstream to explain; code may not.
                    let code = text.split(separator: "\n").filter {
                        let line = $0.trimmingCharacters(in: .whitespaces)
                        return !line.hasPrefix("//") && !line.hasPrefix("*") && !line.hasPrefix("/*")
                    }.joined(separator: "\n")
                    for word in words where code.localizedCaseInsensitiveContains(word) {
                        Issue.record("\(module)/\(file) names \(descriptor.name)'s '\(word)'")
                    }
                }
            }
        }
    }

    @Test("the doctor's libraries come from the tools: `tools` imports no tool module for them")
    func librariesFromTools() throws {
        let names = Runtime.defaultTools().flatMap(\.nativeLibraries).map(\.name)
        #expect(Set(names) == ["libical", "libxml2"], "\(names)")
        let folder = Fixtures.packageRoot().appendingPathComponent("Sources/tools")
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("import AlmanacCalendar"), "\(file)")
        }
        let manifest = try String(
            contentsOf: Fixtures.packageRoot().appendingPathComponent("Package.swift"), encoding: .utf8)
        let start = try #require(manifest.range(of: "name: \"tools\","))
        let target = manifest[start.upperBound...].prefix { $0 != ")" }
        #expect(!target.contains("AlmanacCalendar"), "\(target)")
    }

    @Test("a sample call gains only what providers tried after it need: SearXNG's gets no Brave key")
    func sampleCallsOwnNeeds() throws {
        let registry = Runtime.defaultProviders()
        let searxng = try #require(registry.descriptor(named: "searxng"))
        #expect(registry.sampleCall(for: searxng) == searxng.sampleCall)
        let changed = registry.descriptors.filter { registry.sampleCall(for: $0) != $0.sampleCall }.map(\.name)
        #expect(changed == ["open-meteo"])
    }
}
