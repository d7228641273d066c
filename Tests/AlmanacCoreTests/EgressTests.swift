import AlmanacTesting
import Foundation
import Synchronization
import Testing

@testable import AlmanacCore
@testable import AlmanacCurl

/// The egress policy and credential binding (docs/security.md), over a recording stub transport and
/// an injected resolver: no request leaves the machine.
@Suite("Egress policy and bound credentials")
struct EgressTests {
    /// Remembers every request and answers from `answer`.
    final class Recorder: HTTPTransport, Sendable {
        let sent = Mutex<[HTTPRequest]>([])
        let answer: @Sendable (HTTPRequest) -> HTTPResponse

        init(
            _ answer: @escaping @Sendable (HTTPRequest) -> HTTPResponse = { _ in
                HTTPResponse(status: 200, body: Data("ok".utf8))
            }
        ) {
            self.answer = answer
        }

        func send(_ request: HTTPRequest, timeout: Duration) async throws -> HTTPResponse {
            sent.withLock { $0.append(request) }
            return answer(request)
        }

        var requests: [HTTPRequest] { sent.withLock { $0 } }
    }

    static let resolver = SystemResolver(fixed: [
        "loopback.test": [IPAddress("127.0.0.1")!],
        "private.test": [IPAddress("10.1.2.3")!],
        "metadata.test": [IPAddress("169.254.169.254")!],
        "mixed.test": [IPAddress("93.184.216.34")!, IPAddress("192.168.1.1")!],
        "public.test": [IPAddress("93.184.216.34")!],
        "public6.test": [IPAddress("2606:2800:220:1:248:1893:25c8:1946")!],
        "dav.lan": [IPAddress("192.168.1.5")!],
        "dav.home": [IPAddress("127.0.0.1")!],
        "nowhere.invalid": [],
    ])

    static func policy(_ trust: CallerTrust = .untrusted, allow: [String] = []) -> EgressPolicy {
        EgressPolicy(trust: trust, allowedPrefixes: allow, resolver: resolver)
    }

    static func url(_ text: String) -> URL { URL(string: text)! }

    // MARK: Addresses

    @Test(
        "addresses off the public internet are not public, in every spelling",
        arguments: [
            "127.0.0.1", "127.255.0.9", "10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.0.1", "169.254.169.254",
            "100.64.0.1", "0.0.0.0", "192.0.2.1", "198.51.100.7", "203.0.113.9", "198.18.0.1", "224.0.0.1",
            "255.255.255.255", "::1", "::", "fe80::1", "fc00::1", "fd00:ec2::254", "ff02::1", "::ffff:127.0.0.1",
            "::ffff:10.0.0.1", "64:ff9b::a9fe:a9fe", "2002:7f00:1::", "2001:db8::1", "2001:0:4136:e378::1",
            "fe80::1%eth0", "[::1]",
        ])
    func notPublic(_ text: String) throws {
        let address = try #require(IPAddress(text))
        #expect(!address.isPublic, "\(text) passed for public")
    }

    @Test(
        "public addresses are public",
        arguments: ["93.184.216.34", "1.1.1.1", "8.8.8.8", "2606:4700::1111", "172.32.0.1"])
    func publicAddresses(_ text: String) throws {
        #expect(try #require(IPAddress(text)).isPublic)
    }

    @Test("loopback is told from the rest")
    func loopback() throws {
        #expect(try #require(IPAddress("127.0.0.1")).isLoopback)
        #expect(try #require(IPAddress("::1")).isLoopback)
        #expect(try #require(IPAddress("::ffff:127.0.0.1")).isLoopback)
        #expect(try !#require(IPAddress("10.0.0.1")).isLoopback)
        #expect(IPAddress("example.com") == nil)
        #expect(IPAddress("127.1") == nil)  // not a literal: it goes through the resolver
    }

    // MARK: Allowed prefixes

    @Test("an allowed prefix matches on the parsed URL, not the text")
    func prefixes() {
        let policy = Self.policy(allow: ["https://cal.example.com/feeds/", "http://127.0.0.1:8080"])
        #expect(policy.isAllowed(Self.url("https://cal.example.com/feeds/team.ics")))
        #expect(policy.isAllowed(Self.url("https://CAL.example.com:443/feeds/x")))
        #expect(policy.isAllowed(Self.url("http://127.0.0.1:8080/anything")))
        #expect(!policy.isAllowed(Self.url("https://cal.example.com/feedsX/team.ics")))
        #expect(!policy.isAllowed(Self.url("https://cal.example.com/other.ics")))
        #expect(!policy.isAllowed(Self.url("https://cal.example.com.evil.net/feeds/x")))
        #expect(!policy.isAllowed(Self.url("https://cal.example.com@evil.net/feeds/x")))
        #expect(!policy.isAllowed(Self.url("https://x@cal.example.com/feeds/x")))
        #expect(!policy.isAllowed(Self.url("http://cal.example.com/feeds/x")))  // scheme differs
        #expect(!policy.isAllowed(Self.url("http://127.0.0.1:8081/anything")))  // port differs
    }

    // MARK: Untrusted callers

    @Test(
        "untrusted callers reach no loopback, private, metadata or unresolvable host, with one error text and no request"
    )
    func refused() async throws {
        let recorder = Recorder()
        var messages = Set<String>()
        for host in [
            "loopback.test", "private.test", "metadata.test", "mixed.test", "nowhere.invalid", "127.0.0.1", "[::1]",
        ] {
            let request = HTTPRequest(url: Self.url("http://\(host):9/x"))
            let error = await #expect(throws: ProviderFailure.self) {
                _ = try await Self.policy().fetch(request, via: recorder, timeout: .seconds(2), service: "read")
            }
            let message = try #require(error?.message)
            messages.insert(
                message.replacingOccurrences(
                    of: host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")), with: "HOST"))
        }
        #expect(recorder.requests.isEmpty)
        #expect(messages == ["read: HOST could not be reached"])
    }

    @Test("a public host is reached pinned to the vetted address, redirects off")
    func pinned() async throws {
        let recorder = Recorder()
        _ = try await Self.policy().fetch(
            HTTPRequest(url: Self.url("https://public.test/page")), via: recorder, timeout: .seconds(2), service: "read"
        )
        let sent = try #require(recorder.requests.first)
        #expect(sent.pinnedAddress == "93.184.216.34")
        #expect(sent.followRedirects == false)
        _ = try await Self.policy().fetch(
            HTTPRequest(url: Self.url("https://public6.test/page")), via: recorder, timeout: .seconds(2),
            service: "read")
        #expect(recorder.requests.last?.pinnedAddress == "2606:2800:220:1:248:1893:25c8:1946")
    }

    @Test("a public host that redirects inside the network is stopped at the hop")
    func redirectInside() async throws {
        let recorder = Recorder { request in
            request.url.host == "public.test"
                ? HTTPResponse(status: 302, headers: ["Location": "http://loopback.test:8080/admin"], body: Data())
                : HTTPResponse(status: 200, body: Data("secret".utf8))
        }
        let error = await #expect(throws: ProviderFailure.self) {
            _ = try await Self.policy().fetch(
                HTTPRequest(url: Self.url("http://public.test/")), via: recorder, timeout: .seconds(2),
                service: "ics-url")
        }
        #expect(error?.message == "ics-url: loopback.test could not be reached")
        #expect(recorder.requests.map { $0.url.host ?? "" } == ["public.test"])
    }

    @Test("the operator's own origins and allowed prefixes are reached whoever asks; the command line reaches all")
    func configured() async throws {
        let recorder = Recorder()
        let dav = Self.url("http://dav.lan:5232/cal/")
        _ = try await Self.policy().fetch(
            HTTPRequest(url: dav), via: recorder, timeout: .seconds(2), service: "caldav", configured: [Origin(dav)!])
        _ = try await Self.policy(allow: ["http://private.test/feeds/"]).fetch(
            HTTPRequest(url: Self.url("http://private.test/feeds/a.ics")), via: recorder, timeout: .seconds(2),
            service: "ics-url")
        _ = try await Self.policy(.commandLine).fetch(
            HTTPRequest(url: Self.url("http://loopback.test:9/x")), via: recorder, timeout: .seconds(2),
            service: "ics-url")
        #expect(recorder.requests.count == 3)
        #expect(recorder.requests.allSatisfy { $0.pinnedAddress == nil })
    }

    @Test("https is never downgraded on a redirect, and redirects are bounded")
    func redirects() async throws {
        let downgrade = Recorder { _ in
            HTTPResponse(status: 301, headers: ["Location": "http://public.test/"], body: Data())
        }
        await #expect(throws: ProviderFailure.self) {
            _ = try await Self.policy(.commandLine).fetch(
                HTTPRequest(url: Self.url("https://public.test/")), via: downgrade, timeout: .seconds(2),
                service: "read")
        }
        #expect(downgrade.requests.count == 1)
        let loop = Recorder { _ in HTTPResponse(status: 302, headers: ["Location": "/again"], body: Data()) }
        let error = await #expect(throws: ProviderFailure.self) {
            _ = try await Self.policy(.commandLine).fetch(
                HTTPRequest(url: Self.url("https://public.test/")), via: loop, timeout: .seconds(2), service: "read")
        }
        #expect(error?.message == "read: more than 5 redirects")
        #expect(loop.requests.count == 6)
    }

    // MARK: Credentials

    static func challenge(_ request: HTTPRequest) -> HTTPResponse {
        request.headers["Authorization"] == nil
            ? HTTPResponse(status: 401, headers: ["WWW-Authenticate": #"Basic realm="dav""#], body: Data())
            : HTTPResponse(status: 207, body: Data("<multistatus/>".utf8))
    }

    @Test("Basic credentials go only after the origin's 401, then at once on later requests")
    func afterChallenge() async throws {
        let recorder = Recorder(Self.challenge)
        let url = Self.url("http://dav.home:5232/cal/")
        let credential = try #require(BoundCredential.basic(username: "alice", password: "s3cret", for: url))
        let policy = Self.policy(.commandLine)
        let response = try await policy.fetch(
            HTTPRequest(method: "PROPFIND", url: url), via: recorder, timeout: .seconds(2), service: "caldav",
            credential: credential)
        #expect(response.status == 207)
        #expect(recorder.requests.map { $0.headers["Authorization"] != nil } == [false, true])
        _ = try await policy.fetch(
            HTTPRequest(method: "REPORT", url: url), via: recorder, timeout: .seconds(2), service: "caldav",
            credential: credential)
        #expect(recorder.requests.count == 3)
        #expect(
            recorder.requests.last?.headers["Authorization"] == "Basic "
                + Data("alice:s3cret".utf8).base64EncodedString())
        #expect(!String(describing: credential).contains("s3cret"))
    }

    @Test("credentials never reach another origin: not another port, host or scheme, not on a redirect")
    func otherOrigins() async throws {
        // An origin no other test challenges (the challenge memo is per process).
        let url = Self.url("http://dav.home:5300/cal/")
        let credential = try #require(BoundCredential.basic(username: "alice", password: "s3cret", for: url))
        for target in ["http://dav.home:5301/cal/", "http://loopback.test:5300/cal/", "https://dav.home:5300/cal/"] {
            let recorder = Recorder(Self.challenge)
            let response = try await Self.policy(.commandLine).send(
                HTTPRequest(url: Self.url(target)), via: recorder, timeout: .seconds(2), service: "caldav",
                credential: credential
            ).0
            #expect(response.status == 401)
            #expect(recorder.requests.allSatisfy { $0.headers["Authorization"] == nil }, "sent to \(target)")
        }
        let redirecting = Recorder { request in
            request.url.port == 5300
                ? HTTPResponse(status: 307, headers: ["Location": "http://dav.home:6000/steal"], body: Data())
                : Self.challenge(request)
        }
        _ = try await Self.policy(.commandLine).send(
            HTTPRequest(method: "PROPFIND", url: url, headers: ["Authorization": "Basic planted"]), via: redirecting,
            timeout: .seconds(2), service: "caldav", credential: credential)
        #expect(redirecting.requests.map { $0.url.port } == [5300, 6000])
        #expect(redirecting.requests.allSatisfy { $0.headers["Authorization"] == nil })
    }

    @Test("credentials never go over plain http off this machine without the operator's opt-in")
    func plainHTTP() async throws {
        let url = Self.url("http://dav.lan:5232/cal/")
        let recorder = Recorder(Self.challenge)
        let refused = try #require(BoundCredential.basic(username: "alice", password: "s3cret", for: url))
        let error = await #expect(throws: ProviderFailure.self) {
            _ = try await Self.policy(.commandLine).fetch(
                HTTPRequest(url: url), via: recorder, timeout: .seconds(2), service: "caldav", credential: refused)
        }
        #expect(error?.kind == .unauthorized)
        #expect(error?.message.contains("over plain http") == true)
        #expect(recorder.requests.allSatisfy { $0.headers["Authorization"] == nil })
        let allowed = try #require(
            BoundCredential.basic(username: "alice", password: "s3cret", for: url, allowsPlainHTTP: true))
        _ = try await Self.policy(.commandLine).fetch(
            HTTPRequest(url: url), via: recorder, timeout: .seconds(2), service: "caldav", credential: allowed)
        #expect(recorder.requests.last?.headers["Authorization"] != nil)
    }

    @Test("an API key bound to its origin goes on every request there and nowhere else")
    func apiKey() async throws {
        let base = Self.url("http://127.0.0.1:7000/res/v1/web/search")
        let key = try #require(
            BoundCredential(header: "X-Subscription-Token", value: "k3y", for: base, timing: .always))
        let recorder = Recorder { request in
            request.url.port == 7000
                ? HTTPResponse(status: 302, headers: ["Location": "http://127.0.0.1:7001/collect"], body: Data())
                : HTTPResponse(status: 200, body: Data())
        }
        _ = try await Self.policy(.commandLine).fetch(
            HTTPRequest(url: base), via: recorder, timeout: .seconds(2), service: "brave", credential: key)
        #expect(recorder.requests.map { $0.headers["X-Subscription-Token"] } == ["k3y", nil])
    }
}

/// Pinning through real libcurl: the name resolves nowhere, so an answer proves the pinned address
/// was used, and the handle that held the pin is not handed to the next request.
@Suite("Pinned connections over loopback", .serialized, .timeLimit(.minutes(2)))
struct PinnedTransportTests {
    @Test("a pinned request connects to the vetted address, not to what DNS says")
    func pinned() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let path = "/apis/site/v2/sports/basketball/nba/scoreboard?dates=20241215"
        var request = HTTPRequest(url: try #require(URL(string: "http://rebind.invalid:\(server.port)\(path)")))
        request.pinnedAddress = "127.0.0.1"
        request.followRedirects = false
        let response = try await CurlTransport().send(request, timeout: .seconds(5))
        #expect(response.status == 200)
        // The next request without a pin must not inherit it from a pooled handle.
        var unpinned = request
        unpinned.pinnedAddress = nil
        await #expect(throws: (any Error).self) {
            _ = try await CurlTransport().send(unpinned, timeout: .seconds(5))
        }
    }
}
