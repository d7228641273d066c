import AlmanacTesting
import Foundation
import Testing

/// Replays the URL normaliser's fuzz inputs (Tests/FuzzRegressions/url-normalizer) through the built
/// `almanac-fuzz`, whose body traps when normalising twice differs from once or a dot segment is left.
@Suite("URL normaliser fuzz regressions")
struct URLNormalizerFuzzReplay {
    @Test("every input keeps the normaliser's properties, and the target is listed for scripts/fuzz")
    func replay() async throws {
        let folder = Fixtures.packageRoot().appendingPathComponent("Tests/FuzzRegressions/url-normalizer")
        let inputs = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .map { folder.appendingPathComponent($0).path }
        #expect(inputs.count >= 5)
        let binary = ToolsBinary.url.deletingLastPathComponent().appendingPathComponent("almanac-fuzz")
        let listing = try await Command.run(binary, ["--list"], environment: [:], timeout: 60)
        #expect(
            listing.stdout.split(separator: "\n").contains("url-normalizer Tests/FuzzRegressions/url-normalizer/*"))
        let output = try await Command.run(binary, ["url-normalizer"] + inputs, environment: [:], timeout: 120)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "url-normalizer: \(inputs.count) inputs decoded without a crash\n")
    }
}
