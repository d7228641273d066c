import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

/// The URLSession transport against the loopback fixture server (real sockets, real libcurl).
@Suite("Live transport over loopback", .serialized, .timeLimit(.minutes(2)))
struct LiveTransportTests {
    static let path = "/apis/site/v2/sports/basketball/nba/scoreboard?dates=20241215"

    @Test("a recorded body arrives byte for byte with its status and headers")
    func roundTrip() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let url = try #require(URL(string: server.baseURL + Self.path))
        let response = try await URLSessionTransport().send(HTTPRequest(url: url), timeout: .seconds(5))
        let recorded = try Fixtures.data("sports/espn/nba-scoreboard-final-2024-12-15.response.json")
        #expect(response.status == 200)
        #expect(response.header("content-type")?.hasPrefix("application/json") == true)
        #expect(response.body == recorded)
    }

    @Test("a 401 with a Basic challenge comes back as a response, promptly (no credential dance)")
    func challenge() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        try await server.setFault("401")
        let url = try #require(URL(string: server.baseURL + Self.path))
        let request = HTTPRequest(url: url, headers: ["Authorization": "Basic YWxpY2U6d3Jvbmc="])
        let response = try await URLSessionTransport().send(request, timeout: .seconds(3))
        #expect(response.status == 401)
        #expect(response.header("www-authenticate") == #"Basic realm="almanac""#)
    }

    @Test("a body over the limit is refused while it streams, naming the limit")
    func bodyLimit() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let url = try #require(URL(string: server.baseURL + Self.path))
        let error = await #expect(throws: ProviderFailure.self) {
            try await URLSessionTransport(maxBodyBytes: 4 << 10).fetch(
                HTTPRequest(url: url), timeout: .seconds(5), service: "ESPN")
        }
        #expect(error?.message == "ESPN: response larger than 4 KB refused (127.0.0.1)")
    }

    @Test("deadlines racing connection failures never hang (cancellation stays off URLSession's lock)")
    func cancelRace() async throws {
        let refused = try #require(URL(string: "http://127.0.0.1:9/x"))
        var outcomes: Set<String> = []
        for round in 0..<200 {
            // Deadlines from 0 to ~2 ms land on both sides of the refused connection's failure.
            let timeout = Duration.microseconds(round % 20 * 100)
            do {
                _ = try await URLSessionTransport().send(HTTPRequest(url: refused), timeout: timeout)
                outcomes.insert("answered")
            } catch is DeadlineExceeded {
                outcomes.insert("deadline")
            } catch let failure as ProviderFailure {
                outcomes.insert(failure.kind == .network ? "refused" : "other")
            }
        }
        #expect(outcomes.isSubset(of: ["deadline", "refused"]))
        #expect(outcomes.contains("refused"))
    }
}
