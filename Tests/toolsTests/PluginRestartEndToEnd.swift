import AlmanacTesting
import Foundation
import Testing

/// A plugin whose program fails inside `tools mcp` (a server that keeps programs) is not started
/// again at once: calls fail fast naming it and when it is retried, and a stale cached answer is
/// still served (Fixtures/plugins/fault_plugin.py; the calls made in order by mcp_sequence.py).
@Suite("plugins: restart backoff, end to end", .serialized)
struct PluginRestartEndToEndTests {
    @Test("after a crash: no new program before the backoff ends; fail fast naming the plugin; stale served")
    func backoff() async throws {
        let setup = try PluginPeers.Setup { starts in
            """
            [plugins.crashcall]
            command = ["python3", "\(PluginPeers.faultPlugin.path)", "crash-call"]
            env = { FAULT_STARTS = "\(starts)-crashcall" }

            [plugins.second]
            command = ["python3", "\(PluginPeers.faultPlugin.path)", "crash-second"]
            env = { FAULT_STARTS = "\(starts)-second" }
            ttl = 0
            """
        }
        let calls = """
            [["crashcall.echo", {"text": "hi"}], ["crashcall.echo", {"text": "hi"}],
             ["second.echo", {"text": "kept"}], ["second.echo", {"text": "kept"}],
             ["second.echo", {"text": "kept"}], ["second.echo", {"text": "new"}]]
            """
        let output = try await Command.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3", PluginPeers.root.appendingPathComponent("Fixtures/plugins/mcp_sequence.py").path,
                ToolsBinary.url.path, calls,
            ],
            environment: setup.environment(["ALMANAC_PLUGIN_BACKOFF": "30"]), timeout: 120)
        #expect(output.status == 0, "\(output.stderr)")
        let answers = try #require(try PluginPeers.json(output.stdout)["calls"] as? [[String: Any]])
        #expect(answers.count == 6)
        func text(_ index: Int) -> String { (answers[index]["text"] as? [String] ?? []).joined(separator: "\n") }
        func failed(_ index: Int) -> Bool { answers[index]["isError"] as? Bool ?? false }
        #expect(
            failed(0) && text(0).contains("crashcall: the plugin exited with status 4 during the call"), "\(text(0))")
        // Within the backoff: refused at once, naming the plugin, why and when it is tried again.
        #expect(failed(1), "\(text(1))")
        #expect(text(1).contains("crashcall: its program failed once (the plugin exited with status 4"), "\(text(1))")
        #expect(text(1).contains("not restarted before") && text(1).contains(" UTC (in "), "\(text(1))")
        // Answered, then the program dies: the cached answer is served stale, also while backing off.
        #expect(!failed(2) && text(2).contains("kept"), "\(text(2))")
        #expect(!failed(3) && text(3).contains("kept"), "\(text(3))")
        #expect(!failed(4) && text(4).contains("kept"), "\(text(4))")
        #expect(failed(5) && text(5).contains("second: its program failed once"), "\(text(5))")
        // One program each: none was started while backing off.
        for plugin in ["crashcall", "second"] {
            let file = URL(fileURLWithPath: setup.starts.path + "-" + plugin)
            let pids = ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n")
            #expect(pids.count == 1, "\(plugin): \(pids)")
        }
    }
}
