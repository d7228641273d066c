import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacRuntime

/// A config file Almanac cannot parse is one line whose suggestion points at a page that exists
/// and documents the format (README.md no longer carries the configuration reference).
@Suite("config parse errors point at the configuration reference")
struct ConfigErrorDocsTests {
    @Test("a bad line names docs/configuration.md, which documents the config file's format")
    func pointsAtExistingDoc() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-cfg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("config.toml").path
        try Data("[weather\nplace = \"Lisbon\"\n".utf8).write(to: URL(fileURLWithPath: path))
        do {
            _ = try ConfigLoader.load(environment: ["ALMANAC_CONFIG": path])
            Issue.record("a bad config file was read")
        } catch let error as AlmanacError {
            let suggestion = try #require(error.suggestion)
            #expect(suggestion.contains("docs/configuration.md"), "\(suggestion)")
            let page = Fixtures.packageRoot().appendingPathComponent("docs/configuration.md")
            let text = try String(contentsOf: page, encoding: .utf8)
            #expect(text.contains("TOML subset"))
        }
    }
}
