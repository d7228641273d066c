import AlmanacTesting
import Foundation
import Testing

/// `/metrics` of `tools serve` counts an MCP call's provider attempts as it counts those of the
/// same call to `/tools/NAME`, failed ones included (the MCP front once read them back out of the
/// envelope, which a failed call does not have).
@Suite("serve: MCP calls counted like HTTP calls", .serialized)
struct MCPMetricsEndToEndTests {
    @Test("a call whose provider fails shows its failed attempt over MCP as over HTTP")
    func failedAttempts() async throws {
        // ESPN answers 500: the sports call fails with espn's failed attempt.
        let upstream = try FixtureServer()
        defer { upstream.stop() }
        let directory = try TempDirectory()
        try await upstream.setFault("500")
        let server = try ServeProcess(
            environment: ToolsBinary.environment(
                cacheDirectory: directory.url,
                extra: ["ALMANAC_ESPN_URL": upstream.baseURL, "ALMANAC_NOW": fixedNow, "ALMANAC_TZ": "UTC"]))
        defer { server.stop() }
        let arguments = #"{"league": "nba", "date": "2024-12-15"}"#

        let overHTTP = try await HTTP.post("\(server.baseURL)/tools/sports", arguments)
        #expect(overHTTP.status == 502, "\(overHTTP.body)")
        let afterHTTP = await Self.attempts(try HTTP.get("\(server.baseURL)/metrics").body)
        #expect(afterHTTP[#"provider="espn",outcome="failed""#, default: 0] >= 1, "\(afterHTTP)")

        let mcp = "\(server.baseURL)/mcp"
        let accept = ["Content-Type: application/json", "Accept: application/json, text/event-stream"]
        let initialize = try await HTTP.headers(
            [
                "-X", "POST", "--data-binary",
                #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}"#,
            ] + accept.flatMap { ["-H", $0] } + [mcp])
        let session = try #require(initialize.headers["mcp-session-id"])
        let inSession = accept + ["Mcp-Session-Id: \(session)", "Mcp-Protocol-Version: 2025-03-26"]
        _ = try await HTTP.post(mcp, #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, headers: inSession)
        let call = try await HTTP.post(
            mcp,
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"sports","arguments":\#(arguments)}}"#,
            headers: inSession)
        #expect(call.body.contains(#""isError":true"#), "\(call.body)")

        let metrics = try await HTTP.get("\(server.baseURL)/metrics").body
        #expect(metrics.contains(#"almanac_calls_total{tool="sports",via="mcp",status="unavailable"} 1"#), "\(metrics)")
        // The MCP call added the same attempts the HTTP call did: every count doubled.
        #expect(Self.attempts(metrics) == afterHTTP.mapValues { $0 * 2 }, "\(metrics)")
    }

    /// The sports tool's attempt counts by provider and outcome, from the Prometheus text.
    static func attempts(_ metrics: String) -> [String: Int] {
        let prefix = #"almanac_provider_attempts_total{tool="sports","#
        var counts: [String: Int] = [:]
        for line in metrics.split(separator: "\n") where line.hasPrefix(prefix) {
            guard let close = line.lastIndex(of: "}"),
                let count = Int(line[line.index(after: close)...].trimmingCharacters(in: .whitespaces))
            else { continue }
            counts[String(line[line.index(line.startIndex, offsetBy: prefix.count)..<close])] = count
        }
        return counts
    }
}
