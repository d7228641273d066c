import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCore
@testable import AlmanacCurl

/// The libcurl transport against the loopback fixture server (real sockets, real libcurl).
@Suite("Live transport over loopback", .serialized, .timeLimit(.minutes(2)))
struct LiveTransportTests {
    static let path = "/apis/site/v2/sports/basketball/nba/scoreboard?dates=20241215"

    @Test("a recorded body arrives byte for byte with its status and headers")
    func roundTrip() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let url = try #require(URL(string: server.baseURL + Self.path))
        let response = try await CurlTransport().send(HTTPRequest(url: url), timeout: .seconds(5))
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
        let response = try await CurlTransport().send(request, timeout: .seconds(3))
        #expect(response.status == 401)
        #expect(response.header("www-authenticate") == #"Basic realm="almanac""#)
    }

    @Test("a body over the limit is refused while it streams, naming the limit")
    func bodyLimit() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let url = try #require(URL(string: server.baseURL + Self.path))
        let error = await #expect(throws: ProviderFailure.self) {
            try await CurlTransport(maxBodyBytes: 4 << 10).fetch(
                HTTPRequest(url: url), timeout: .seconds(5), service: "ESPN")
        }
        #expect(error?.message == "ESPN: response larger than 4 KB refused (127.0.0.1)")
    }

    @Test("deadlines racing connection failures never hang")
    func cancelRace() async throws {
        let refused = try #require(URL(string: "http://127.0.0.1:9/x"))
        var outcomes: Set<String> = []
        for round in 0..<200 {
            // Deadlines from 0 to ~2 ms land on both sides of the refused connection's failure.
            let timeout = Duration.microseconds(round % 20 * 100)
            do {
                _ = try await Deadline.run(timeout) {
                    try await CurlTransport().send(HTTPRequest(url: refused), timeout: timeout)
                }
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

    @Test("a 200 MB body without Content-Length is refused at the limit, long before its end")
    func hugeBodyStops() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        try await server.setFault("huge:200")
        let url = try #require(URL(string: server.baseURL + Self.path))
        let started = ContinuousClock.now
        let error = await #expect(throws: ProviderFailure.self) {
            try await CurlTransport(maxBodyBytes: 1 << 20).send(HTTPRequest(url: url), timeout: .seconds(20))
        }
        #expect(error?.message == "127.0.0.1: response larger than 1 MB refused")
        // Reading all 200 MB from Python takes seconds; stopping at 1 MB takes milliseconds.
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test("a cancelled request releases its caller at once, while the server still says nothing")
    func cancellation() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        try await server.setFault("delay:10")
        let url = try #require(URL(string: server.baseURL + Self.path))
        let started = ContinuousClock.now
        let request = Task { try await CurlTransport().send(HTTPRequest(url: url), timeout: .seconds(30)) }
        try await Task.sleep(for: .milliseconds(200))
        request.cancel()
        await #expect(throws: CancellationError.self) { try await request.value }
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test("a redirect on the same scheme is followed; the answer is the final response")
    func redirect() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        try await server.setFault("redirect")
        let url = try #require(URL(string: server.baseURL + Self.path))
        let response = try await CurlTransport().send(HTTPRequest(url: url), timeout: .seconds(5))
        #expect(response.status == 200)
        #expect(response.body == (try Fixtures.data("sports/espn/nba-scoreboard-final-2024-12-15.response.json")))
        #expect(response.header("location") == nil)
    }

    @Test("a redirect from http to https is not followed, and says so")
    func schemeChange() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        try await server.setFault("redirect:https")
        let url = try #require(URL(string: server.baseURL + Self.path))
        let error = await #expect(throws: ProviderFailure.self) {
            try await CurlTransport().fetch(HTTPRequest(url: url), timeout: .seconds(5), service: "ESPN")
        }
        #expect(error?.message == "ESPN: only http and https are fetched (same scheme on redirects) (127.0.0.1)")
    }

    @Test("method, headers and body reach the server as given (REPORT with XML, as CalDAV sends)")
    func methodAndBody() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let url = try #require(URL(string: server.baseURL + "/__almanac/echo"))
        let body = Data("<calendar-query xmlns=\"urn:ietf:params:xml:ns:caldav\"/>".utf8)
        let request = HTTPRequest(
            method: "REPORT", url: url, headers: ["Depth": "1", "Content-Type": "application/xml"], body: body)
        let response = try await CurlTransport().send(request, timeout: .seconds(5))
        let echo = try JSONDecoder().decode([String: String].self, from: response.body)
        #expect(echo["method"] == "REPORT")
        #expect(echo["depth"] == "1")
        #expect(echo["content-type"] == "application/xml")
        #expect(echo["user-agent"] == "almanac/0.1 (+tools)")
        #expect(echo["expect"] == nil)
        #expect(echo["body"] == String(decoding: body, as: UTF8.self))
    }

    // MARK: Streaming (the LLM front's requests)

    @Test("a streamed body arrives as the server writes it, in pieces, and whole")
    func streamArrivesInPieces() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        // 1 KB every 20 ms for the first 64 KB, then the rest at once.
        try await server.setFault("drip:0.02")
        let url = try #require(URL(string: server.baseURL + Self.path))
        let response = try await CurlTransport().stream(HTTPRequest(url: url), idleTimeout: .seconds(10))
        #expect(response.status == 200)
        #expect(response.headers["content-type"]?.hasPrefix("application/json") == true)
        var chunks: [Data] = []
        for try await chunk in response.body { chunks.append(chunk) }
        // Buffered, the body would come as a few large pieces at the end.
        #expect(chunks.count >= 32)
        #expect(chunks[0].count <= 2048)
        #expect(
            chunks.reduce(Data(), +) == (try Fixtures.data("sports/espn/nba-scoreboard-final-2024-12-15.response.json"))
        )
    }

    @Test("streaming: nothing listening is unreachable, a cut body is broken, silence is idle")
    func streamFailures() async throws {
        let refused = try #require(URL(string: "http://127.0.0.1:9/v1/chat/completions"))
        let unreachable = await #expect(throws: HTTPStreamFailure.self) {
            _ = try await CurlTransport().stream(HTTPRequest(url: refused), idleTimeout: .seconds(5))
        }
        #expect(unreachable?.kind == .unreachable)
        #expect(unreachable?.message == "127.0.0.1: could not connect")

        let server = try FixtureServer()
        defer { server.stop() }
        let url = try #require(URL(string: server.baseURL + Self.path))
        // Half the body, then the connection closes: the head came, the body throws.
        try await server.setFault("truncate")
        let cut = try await CurlTransport().stream(HTTPRequest(url: url), idleTimeout: .seconds(5))
        #expect(cut.status == 200)
        var received = 0
        let broken = await #expect(throws: HTTPStreamFailure.self) {
            for try await chunk in cut.body { received += chunk.count }
        }
        #expect(broken?.kind == .broken)
        #expect(received > 0)

        // No byte for longer than the idle timeout.
        try await server.setFault("delay:5")
        let idle = await #expect(throws: HTTPStreamFailure.self) {
            _ = try await CurlTransport().stream(HTTPRequest(url: url), idleTimeout: .seconds(1))
        }
        #expect(idle?.kind == .idle)
    }

    @Test("streaming: a cancelled caller is released before the head arrives")
    func streamCancelled() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        try await server.setFault("delay:5")
        let url = try #require(URL(string: server.baseURL + Self.path))
        let task = Task { try await CurlTransport().stream(HTTPRequest(url: url), idleTimeout: .seconds(30)) }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
    }
}
