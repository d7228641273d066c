import AlmanacTesting
import Foundation
import Testing

/// `scripts/bench-answers --llm` once against the canned tiny model: the plumbing (three ways per
/// question, the fixture server feeding raw upstream JSON, scoring) works. The tiny model answers
/// nonsense, so only the shape of the report is checked, not the scores.
@Suite("bench-answers against llama.cpp", .serialized, .enabled(if: Peers.runLlama, Peers.llamaNote))
struct BenchAnswersTests {
    @Test("three ways per question, each scored by the question's facts")
    func plumbing() async throws {
        let script = Peers.root.appendingPathComponent("scripts/bench-answers")
        let output = try await Command.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", script.path, "--llm", "tiny", "--limit", "2", "--binary", ToolsBinary.url.path],
            environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"], timeout: 300)
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains("almanac=") && $0.contains("raw=") && $0.contains("none=") }.count == 2)
        // The raw way got bodies from the fixture server (the same recordings the context replays).
        #expect(lines.contains { $0.contains("from 1 bodies") || $0.contains("from 2 bodies") }, "\(output.stdout)")
        for way in ["almanac", "raw", "none"] {
            #expect(lines.contains { $0.hasPrefix("  \(way)") && $0.contains("/2 = ") }, "\(output.stdout)")
        }
    }
}
