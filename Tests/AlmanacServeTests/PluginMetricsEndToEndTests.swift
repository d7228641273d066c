import AlmanacTesting
import Foundation
import Testing

/// `/metrics` of `tools serve` counts each plugin's calls, failures, restarts and call times
/// (issue 32, point 3), with a plugin from Fixtures/plugins/fault_plugin.py that answers its first
/// call and dies during its second.
@Suite("plugins: metrics per plugin in tools serve", .serialized)
struct PluginMetricsEndToEndTests {
    @Test("a call, a crash (stale answer), a restart after the backoff: calls 3, failures 1, restarts 1")
    func perPlugin() async throws {
        let scratch = try TempDirectory()
        let plugin = Fixtures.packageRoot().appendingPathComponent("Fixtures/plugins/fault_plugin.py").path
        let config = scratch.url.appendingPathComponent("config.toml")
        try """
        [plugins.second]
        command = ["python3", "\(plugin)", "crash-second"]
        ttl = 0
        """.write(to: config, atomically: true, encoding: .utf8)
        let server = try ServeProcess(
            environment: ToolsBinary.environment(
                cacheDirectory: scratch.url,
                extra: ["ALMANAC_CONFIG": config.path, "ALMANAC_PLUGIN_BACKOFF": "0.2"]))
        defer { server.stop() }
        let url = "\(server.baseURL)/tools/second.echo"
        let first = try await HTTP.post(url, #"{"text": "hi"}"#)
        #expect(first.status == 200, "\(first.body)")
        let crashed = try await HTTP.post(url, #"{"text": "hi"}"#)
        #expect(crashed.status == 200 && crashed.body.contains("hi"), "stale answer expected: \(crashed.body)")
        // Past the 0.2 s backoff the plugin is started again and answers its first call.
        usleep(600_000)
        let restarted = try await HTTP.post(url, #"{"text": "hi"}"#)
        #expect(restarted.status == 200, "\(restarted.body)")
        let metrics = try await HTTP.get("\(server.baseURL)/metrics").body
        #expect(metrics.contains(#"almanac_plugin_calls_total{plugin="second"} 3"#), "\(metrics)")
        #expect(metrics.contains(#"almanac_plugin_failures_total{plugin="second"} 1"#), "\(metrics)")
        #expect(metrics.contains(#"almanac_plugin_restarts_total{plugin="second"} 1"#), "\(metrics)")
        #expect(metrics.contains(#"almanac_plugin_call_duration_seconds_count{plugin="second"} 3"#), "\(metrics)")
    }
}
