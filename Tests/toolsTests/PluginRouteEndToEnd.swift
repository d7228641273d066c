import AlmanacTesting
import Foundation
import Testing

/// Plugin tools reached from a question (issue 32, point 1): the router by the words the operator
/// gives a tool (`words = { TOOL = [...] }`), `tools context` running it
/// (Fixtures/plugins/fault_plugin.py).
@Suite("plugins: the router, end to end", .serialized)
struct PluginRouteEndToEndTests {
    @Test("words route a question to the plugin tool (listed on first use); context runs it; no words, no route")
    func route() async throws {
        let setup = try PluginPeers.Setup { starts in
            """
            [plugins.ok]
            command = ["python3", "\(PluginPeers.faultPlugin.path)", "ok"]
            env = { FAULT_STARTS = "\(starts)" }
            words = { count = ["tally"], echo = ["parrot"] }
            """
        }
        let routed = try await setup.run(["route", "what is the tally"])
        #expect(routed.status == 0, "\(routed.stderr)")
        #expect(routed.stdout.split(separator: "\n").contains { $0.hasPrefix("ok.count") }, "\(routed.stdout)")
        // echo needs --text: the router does not guess arguments (native tool calling does).
        let needsArguments = try await setup.run(["route", "parrot this"])
        #expect(!needsArguments.stdout.contains("ok.echo"), "\(needsArguments.stdout)")
        let unrelated = try await setup.run(["route", "how many hours of sleep"])
        #expect(!unrelated.stdout.contains("ok."), "\(unrelated.stdout)")
        let context = try await setup.run(["context", "what is the tally"])
        #expect(context.status == 0, "\(context.stderr)")
        #expect(context.stdout.contains("ok.count") && context.stdout.contains("\"count\": 3"), "\(context.stdout)")
    }

    @Test("a bad words entry is a one-line usage error naming the plugin")
    func badWords() async throws {
        let setup = try PluginPeers.Setup { _ in
            """
            [plugins.ok]
            command = ["python3", "\(PluginPeers.faultPlugin.path)", "ok"]
            words = ["tally"]
            """
        }
        let output = try await setup.run(["route", "what is the tally"])
        #expect(output.status == 64, "\(output.stderr)")
        #expect(output.stderr.contains("[plugins.ok] words must be a table from tool names to lists of words"))
    }
}
