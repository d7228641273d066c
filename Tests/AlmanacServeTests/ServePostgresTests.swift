import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacServe

/// Two `tools serve` hosts sharing the cache in a real PostgreSQL (Debian's, started on loopback
/// by the test, stopped by pg_ctl), with the upstream a loopback fixture server that counts calls.
@Suite("tools serve with a shared PostgreSQL cache", .serialized, .enabled(if: ServePeers.runPostgres))
struct ServePostgresTests {
    /// Connecting is not what these tests measure: on a loaded machine (a CI run beside a build) a
    /// fresh cluster's first connection and migration took longer than the server's 10 s default.
    static let connectTimeout: Duration = .seconds(60)

    func environment(_ directory: URL, database: String, upstream: String) -> [String: String] {
        ToolsBinary.environment(
            cacheDirectory: directory,
            extra: [
                "ALMANAC_ESPN_URL": upstream, "ALMANAC_NOW": fixedNow, "ALMANAC_TZ": "America/New_York",
                "ALMANAC_CACHE_URL": database,
            ])
    }

    @Test("a second host answers from the first host's cache; a host killed mid-write leaves it valid")
    func sharedCache() async throws {
        let cluster = try await PostgresCluster()
        defer { cluster.stop() }
        let upstream = try FixtureServer()
        defer { upstream.stop() }
        let one = try TempDirectory()
        let two = try TempDirectory()
        let hostA = try ServeProcess(
            environment: environment(one.url, database: cluster.url, upstream: upstream.baseURL))
        defer { hostA.stop() }
        let hostB = try ServeProcess(
            environment: environment(two.url, database: cluster.url, upstream: upstream.baseURL))
        defer { hostB.stop() }
        #expect(hostA.firstLine.contains("(cache: postgres 127.0.0.1:\(cluster.port)/almanac)"))
        #expect(!hostA.firstLine.contains("almanac@"))

        let body = #"{"league": "nba", "date": "2024-12-15"}"#
        let first = try await HTTP.post("\(hostA.baseURL)/tools/sports", body)
        #expect(first.status == 200)
        #expect(try await upstream.requestCount() == 1)
        let second = try await HTTP.post("\(hostB.baseURL)/tools/sports", body)
        #expect(second.status == 200)
        // Host B never asked upstream: its answer came from the shared cache.
        #expect(try await upstream.requestCount() == 1)
        let attempts = second.json?["attempts"] as? [[String: Any]]
        #expect(attempts?.first?["outcome"] as? String == "cached")
        #expect(first.json?["context"] as? String == second.json?["context"] as? String)
        await #expect(try cluster.psql("SELECT count(*) FROM almanac_entry") == "1")

        // Host A dies (SIGKILL) with writes in flight: another team's answer is being fetched and
        // stored. Every row left is whole (PostgreSQL commits a statement or nothing), and host B
        // reads them all.
        try await upstream.setFault("delay:0.3")
        let teams = ["lakers", "celtics", "knicks", "warriors", "bulls", "heat"]
        let url = "\(hostA.baseURL)/tools/sports"
        let inFlight = Task.detached {
            await withTaskGroup(of: Void.self) { group in
                for team in teams {
                    group.addTask {
                        _ = try? await HTTP.post(url, #"{"league": "nba", "team": "\#(team)", "date": "2024-12-15"}"#)
                    }
                }
            }
        }
        try await Task.sleep(for: .milliseconds(450))
        hostA.kill9()
        await inFlight.value
        try await upstream.setFault("none")
        await #expect(
            try cluster.psql("SELECT count(*) FROM almanac_entry WHERE length(payload) = 0 OR fetched_at <= 0") == "0")
        await #expect(
            try cluster.psql("SELECT count(*) FROM almanac_entry WHERE convert_from(payload, 'UTF8')::jsonb IS NULL")
                == "0")
        let again = try await HTTP.post("\(hostB.baseURL)/tools/sports", body)
        #expect(again.status == 200)
        #expect((again.json?["attempts"] as? [[String: Any]])?.first?["outcome"] as? String == "cached")
        let health = try await HTTP.get("\(hostB.baseURL)/healthz")
        #expect(health.status == 200)
    }

    @Test("request intervals are one queue for every host: concurrent reservations get distinct slots")
    func sharedRequestSlots() async throws {
        let cluster = try await PostgresCluster()
        defer { cluster.stop() }
        // Two stores (two connection pools) stand for two hosts.
        let hostA = try await PostgresCacheStore.connect(url: cluster.url, timeout: Self.connectTimeout)
        defer { hostA.close() }
        let hostB = try await PostgresCacheStore.connect(url: cluster.url, timeout: Self.connectTimeout)
        defer { hostB.close() }
        let stores: [any ProviderStateStore] = [hostA, hostB]
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let slots = await RequestSlots.reserveAtOnce(
            stores, count: 10, key: "terms:nominatim:last-request", interval: 1, now: now)
        #expect(slots == (0..<10).map { now.addingTimeInterval(Double($0)) })
        #expect(RequestSlot.decode(await hostB.value(for: "terms:nominatim:last-request")) == now.addingTimeInterval(9))
    }

    @Test("a bad cache URL is one line, exit 64, without the password")
    func badURL() async throws {
        let directory = try TempDirectory()
        let output = try await ToolsBinary.run(
            ["serve", "--port", "0"],
            environment: environment(directory.url, database: "mysql://u:hunter2@db/x", upstream: "http://127.0.0.1:9"),
            timeout: 30)
        #expect(output.status == 64)
        #expect(output.stderr.hasPrefix("error: ALMANAC_CACHE_URL is not a postgres:// URL"))
        #expect(!output.stderr.contains("hunter2"))
        // A server that is not there: a configuration error naming host and port, not the password.
        let unreachable = try await ToolsBinary.run(
            ["serve", "--port", "0"],
            environment: environment(
                directory.url, database: "postgres://almanac:hunter2@127.0.0.1:9/almanac",
                upstream: "http://127.0.0.1:9"),
            timeout: 60)
        #expect(unreachable.status == 64)
        #expect(unreachable.stderr.hasPrefix("error: cannot use the PostgreSQL cache at 127.0.0.1:9/almanac"))
        #expect(!unreachable.stderr.contains("hunter2"))
    }
}
