import AlmanacTesting
import Foundation
import Testing

/// The Swift example plugin (examples/swift-plugin, its own package, Foundation only) built with
/// the toolchain running the tests and checked as an operator would: `tools plugin check` and
/// `tools run` (issue 32, point 8). About 10 s of build on a warm machine.
@Suite("plugins: the Swift example plugin, end to end", .serialized)
struct SwiftPluginExampleEndToEndTests {
    static var swift: URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("swift") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    @Test(
        "built from examples/swift-plugin, it passes tools plugin check and answers tools run",
        .enabled(if: swift != nil || PluginPeers.isCI, "skipped: no swift in PATH"))
    func example() async throws {
        let package = PluginPeers.root.appendingPathComponent("examples/swift-plugin")
        let swift = try #require(Self.swift, "no swift in PATH")
        let build = try await Command.run(
            swift, ["build", "--package-path", package.path],
            environment: ProcessInfo.processInfo.environment, timeout: 600)
        #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
        let program = package.appendingPathComponent(".build/debug/WordCountPlugin")
        let setup = try PluginPeers.Setup { _ in
            """
            [plugins.words]
            command = ["\(program.path)"]
            """
        }
        let check = try await setup.run([
            "plugin", "check", "words", "--call", "count_words", "--arguments", #"{"text": "one two\nthree"}"#,
        ])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("ok    words.count_words: options --text (output schema)"), "\(check.stdout)")
        let run = try await setup.run(["run", "words.count_words", "--text", "one two three", "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        let data = try #require(try PluginPeers.json(run.stdout)["data"] as? [String: Any])
        #expect(data["words"] as? Int == 3)
        #expect(data["characters"] as? Int == 13)
        #expect(data["lines"] as? Int == 1)
    }
}
