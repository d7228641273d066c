import AlmanacTesting
import Foundation
import Testing

/// Replays the server's and the argument parser's fuzz inputs (Tests/FuzzRegressions/serve-request,
/// arguments-json, arguments-cli) through the built `almanac-fuzz`, the code the libFuzzer build runs.
@Suite("serve fuzz regressions")
struct ServeFuzzReplayTests {
    @Test(
        "every input survives the server's request handling and the argument parser",
        arguments: ["serve-request", "arguments-json", "arguments-cli"])
    func replay(target: String) async throws {
        let folder = Fixtures.packageRoot().appendingPathComponent("Tests/FuzzRegressions/\(target)")
        let inputs = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .map { folder.appendingPathComponent($0).path }
        #expect(inputs.count >= 5)
        let binary = ToolsBinary.url.deletingLastPathComponent().appendingPathComponent("almanac-fuzz")
        let listing = try await Command.run(binary, ["--list"], environment: [:], timeout: 60)
        #expect(listing.stdout.split(separator: "\n").contains { $0.hasPrefix("\(target) ") })
        let output = try await Command.run(binary, [target] + inputs, environment: [:], timeout: 120)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "\(target): \(inputs.count) inputs decoded without a crash\n")
    }
}
