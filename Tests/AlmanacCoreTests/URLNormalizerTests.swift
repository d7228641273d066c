import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCore

/// The URL normaliser and what the egress policy does with it (issue #31 points 1-3,
/// docs/security.md §3): prefixes are checked on the normal form, the URL sent is the one checked,
/// answers are kept apart by the caller's policy, a switched-off tool is off everywhere.
@Suite("URL normal form and the policy around it")
struct URLNormalizerTests {
    static let prefix = "http://127.0.0.1:9101/feeds/"
    static let allowing = EgressPolicy(trust: .untrusted, allowedPrefixes: [prefix], resolver: EgressTests.resolver)

    @Test(
        "remove_dot_segments and unreserved escapes, as RFC 3986 §5.2.4 and §6.2.2 spell them",
        arguments: [
            ("/a/b/c/./../../g", "/a/g"), ("mid/content=5/../6", "mid/6"),
            ("/feeds/../private/x.ics", "/private/x.ics"),
            ("/feeds/%2e%2e/private/x.ics", "/private/x.ics"), ("/feeds/%2E%2e/%2e/x", "/x"), ("/..", "/"),
            ("/../../../../secret-admin", "/secret-admin"), ("/a/.", "/a/"), ("/%7euser/%41b", "/~user/Ab"),
            ("/a%2fb/%3f", "/a%2Fb/%3F"), ("/feeds//../x", "/feeds/x"), ("", ""), ("/", "/"),
            ("/web/1id_/https://example.org/a", "/web/1id_/https://example.org/a"),
            // Found by the fuzz target: a stray % must not join a decoded character into a new escape.
            ("%e%352fe2/5%%/", "%25e52fe2/5%25%25/"),
        ])
    func path(input: String, expected: String) {
        #expect(URLNormalizer.path(input) == expected)
        #expect(URLNormalizer.path(expected) == expected)
    }

    @Test("the URL keeps everything but its path as it came")
    func url() throws {
        let url = try #require(URL(string: "http://127.0.0.1:9101/feeds/%2e%2e/private/secret.ics?a=/../b#x"))
        let normal = try #require(URLNormalizer.normalize(url))
        #expect(normal.absoluteString == "http://127.0.0.1:9101/private/secret.ics?a=/../b#x")
        let plain = try #require(URL(string: "https://example.org/a/b?c=d"))
        #expect(URLNormalizer.normalize(plain)?.absoluteString == plain.absoluteString)
        #expect(URLNormalizer.normalize(try #require(URL(string: "file:///etc/passwd"))) == nil)
    }

    @Test(
        "a dot segment, escaped or not, never passes an allowed prefix; every refusal reads the same",
        arguments: [
            "http://127.0.0.1:9101/feeds/../private/secret.ics",
            "http://127.0.0.1:9101/feeds/%2e%2e/private/secret.ics",
            "http://127.0.0.1:9101/feeds/%2E%2E/private/secret.ics",
            "http://127.0.0.1:9101/feeds/..%2fprivate/secret.ics",
            "http://127.0.0.1:9101/feeds/..%2Fprivate/secret.ics",
            "http://127.0.0.1:9101/feeds/%2e%2e%2fprivate/secret.ics",
            "http://127.0.0.1:9101/feeds/..%5cprivate/secret.ics", "http://127.0.0.1:9101/feeds/..;/private/secret.ics",
            "http://127.0.0.1:9101/feeds/%252e%252e%252fprivate/secret.ics", "http://127.0.0.1:9101/feeds/a/../../x",
            "http://127.0.0.1:9101/private/secret.ics", "http://127.0.0.1:9101/feedsx/a.ics",
        ])
    func escapes(text: String) throws {
        let url = try #require(URL(string: text))
        #expect(!Self.allowing.isAllowed(url))
        var message: String?
        do {
            try Self.allowing.checkCallerURL(url, argument: "ics")
        } catch let error as AlmanacError {
            message = error.message
        }
        #expect(message == "ics: this URL is not one the operator allowed for callers of tools serve or mcp")
    }

    @Test("what passes is sent in the form that was checked")
    func checkedIsSent() throws {
        let inside = try #require(URL(string: "http://127.0.0.1:9101/feeds/a/../%7Eb.ics"))
        let checked = try Self.allowing.checkCallerURL(inside, argument: "ics")
        #expect(checked.absoluteString == "http://127.0.0.1:9101/feeds/~b.ics")
        #expect(Self.allowing.isAllowed(try #require(URL(string: "http://127.0.0.1:9101/feeds/x/y.ics"))))
    }

    @Test("a redirect's dot segments are resolved before the hop is judged, and the resolved URL is what goes out")
    func redirectHop() async throws {
        // An allowed feed redirects to ../private: the hop is outside the prefix, so it is vetted (loopback: refused).
        let transport = EgressTests.Recorder { request in
            request.url.path.hasPrefix("/feeds/")
                ? HTTPResponse(
                    status: 302, headers: ["Location": "http://127.0.0.1:9101/feeds/../private/s.ics"], body: Data())
                : HTTPResponse(status: 200, body: Data("secret".utf8))
        }
        let request = HTTPRequest(url: try #require(URL(string: Self.prefix + "a.ics")))
        await #expect(throws: ProviderFailure.self) {
            _ = try await Self.allowing.send(request, via: transport, timeout: .seconds(5), service: "ics-url")
        }
        #expect(transport.requests.map(\.url.path) == ["/feeds/a.ics"])
        // The command line follows it, to the resolved path: no dot segment leaves the machine.
        _ = try await Self.allowing.with(trust: .commandLine).send(
            request, via: transport, timeout: .seconds(5), service: "ics-url")
        #expect(transport.requests.map(\.url.absoluteString).last == "http://127.0.0.1:9101/private/s.ics")
    }

    @Test("the caller's policy comes before any read: a private address is refused at admission, in the usual line")
    func admission() async throws {
        let untrusted = EgressTests.policy()
        let refused = ["http://127.0.0.1:9101/secret", "http://private.test/x", "http://nowhere.invalid/"]
        var lines = Set<String>()
        for text in refused {
            do {
                _ = try await untrusted.admit(try #require(URL(string: text)), service: "site")
                Issue.record("\(text) was admitted")
            } catch let failure as ProviderFailure {
                lines.insert(failure.message.replacingOccurrences(of: try #require(URL(string: text)?.host), with: "H"))
            }
        }
        #expect(lines == ["site: H could not be reached"])
        let admitted = try await untrusted.admit(
            try #require(URL(string: "http://public.test/a/../b")), service: "site")
        #expect(admitted.absoluteString == "http://public.test/b")
        // Under an allowed prefix (reached as the operator's own) and on the command line: admitted.
        _ = try await Self.allowing.admit(try #require(URL(string: Self.prefix + "x")), service: "site")
        _ = try await EgressTests.policy(.commandLine).admit(
            try #require(URL(string: "http://127.0.0.1:9101/secret")), service: "site")
    }

    @Test("answers are scoped by the policy they were fetched under")
    func scopes() {
        let commandLine = EgressTests.policy(.commandLine)
        #expect(commandLine.cacheScope.isEmpty)
        let caller = EgressTests.policy()
        #expect(!caller.cacheScope.isEmpty)
        #expect(caller.cacheScope != Self.allowing.cacheScope)
        #expect(caller.cacheScope == EgressTests.policy().cacheScope)
        let wider = EgressPolicy(
            trust: .untrusted, allowedPrefixes: [Self.prefix, "http://127.0.0.1:9101/"], resolver: EgressTests.resolver)
        #expect(wider.cacheScope != Self.allowing.cacheScope)
    }

    @Test("robots.txt of an allowed page's origin, and nothing else outside the prefix")
    func robots() throws {
        let page = try #require(URL(string: Self.prefix + "page.html"))
        let robots = Self.allowing.allowingRobots(of: page)
        #expect(robots.isAllowed(try #require(URL(string: "http://127.0.0.1:9101/robots.txt"))))
        for other in [
            "http://127.0.0.1:9101/robots.txt?x=1", "http://127.0.0.1:9101/robots.txt/x",
            "http://127.0.0.1:9101/private/robots.txt", "http://127.0.0.1:9102/robots.txt",
            "http://127.0.0.1:9101/x/../robots.txt/../private",
        ] {
            #expect(!robots.isAllowed(try #require(URL(string: other))), "\(other)")
        }
        // A page outside every prefix earns nothing.
        let outside = Self.allowing.allowingRobots(of: try #require(URL(string: "http://127.0.0.1:9101/private/a")))
        #expect(!outside.isAllowed(try #require(URL(string: "http://127.0.0.1:9101/robots.txt"))))
    }

    @Test("a parameter that hands its value to a switched-off tool is not published, and refused in one line")
    func withTool() throws {
        let schema = ToolSchema([
            ToolParameter("query", .string, help: "q"),
            ToolParameter("read", .integer, help: "r", access: .withTool("read")),
        ])
        var policy = EgressTests.policy()
        #expect(schema.visible(to: policy).parameters.map(\.name) == ["query", "read"])
        policy.switchedOffTools = ["read"]
        #expect(!policy.offers("read") && policy.offers("search"))
        #expect(schema.visible(to: policy).parameters.map(\.name) == ["query"])
        #expect(schema.visible(to: policy.with(trust: .commandLine)).parameters.count == 2)
        #expect(throws: AlmanacError.self) {
            try schema.checkAccess(["query", "read"], policy: policy, tool: "search")
        }
    }
}
