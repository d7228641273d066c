import AlmanacCore
import AlmanacRuntime
import AlmanacTesting
import Foundation
import Testing

/// `tools doctor` against loopback servers, reachable and not.
@Suite("tools doctor, end to end")
struct DoctorEndToEndTests {
    static let secret = "doctor-secret-key-0123"

    /// Every endpoint of every provider in the registry at `base` (so no check reaches outside).
    static func everyEndpoint(at base: String) -> [String: String] {
        var variables: [String: String] = [:]
        for endpoint in Runtime.defaultProviders().descriptors.flatMap(\.endpoints) { variables[endpoint.env] = base }
        return variables
    }

    func lines(_ output: CommandOutput) -> [String] {
        output.stdout.split(separator: "\n").map(String.init)
    }

    @Test(
        "everything reachable: exit 0, one line per check (one per configured provider of the registry), the key present but never shown"
    )
    func healthy() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let scratch = try Scratch()
        let base = server.baseURL
        // Every provider's every endpoint at the loopback server (any HTTP answer is "reachable").
        let providers = Runtime.defaultProviders()
        let environment = scratch.environment(
            Self.everyEndpoint(at: base).merging(["BRAVE_API_KEY": Self.secret, "ALMANAC_LLM_URL": base]) { $1 })
        let output = try await ToolsBinary.run(["doctor"], environment: environment)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        let lines = lines(output)
        let settings = Settings(environment: environment)
        // Probed when configured; one that needs a contact and has none is a warning, not probed.
        let probed = providers.descriptors.filter { $0.probe != nil }.compactMap { descriptor -> String? in
            if descriptor.terms.unconfiguredReason(settings, service: descriptor.summary) != nil {
                return "warn  \(descriptor.name)"
            }
            return descriptor.unconfiguredReason(settings) == nil ? "ok    \(descriptor.name)" : nil
        }
        #expect(probed.contains("ok    espn") && probed.contains("ok    brave") && probed.contains("warn  met-norway"))
        #expect(
            lines.map { $0.split(separator: ":").first.map(String.init) ?? "" } == [
                "ok    config", "ok    cache", "ok    libcurl", "ok    libical", "ok    libxml2", "ok    tools-mcp",
                "ok    tools-serve",
                "ok    sports setup", "ok    weather setup", "warn  calendar setup",
                "ok    search setup", "ok    read setup", "ok    news setup", "ok    brief setup",
            ] + probed + ["ok    llm"])
        #expect(lines.contains("ok    search setup: key present (not shown)"))
        // No calendar configured is a warning, not a failure: --ics/--caldav still work one-off.
        #expect(lines.contains { $0.hasPrefix("warn  calendar setup: no [calendars.NAME]") })
        #expect(lines.contains { $0.hasPrefix("ok    llm: reachable at \(base) (HTTP 200, ") })
        #expect(lines.contains { $0.hasPrefix("ok    cache: ") && $0.hasSuffix(", 0 entries, integrity ok") })
        #expect(!output.stdout.contains(Self.secret))
        #expect(!output.stderr.contains(Self.secret))
    }

    @Test(
        "probes go out with each provider's terms: MET Norway's agent carries the contact; without one it is a warning, not a probe"
    )
    func providerTerms() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let scratch = try Scratch()
        let base = server.baseURL
        let status = "GET /weatherapi/locationforecast/2.0/status"
        let environment = scratch.environment(Self.everyEndpoint(at: base).merging(["ALMANAC_LLM_URL": base]) { $1 })

        let without = try await ToolsBinary.run(["doctor"], environment: environment)
        #expect(without.status == 0, "\(without.stdout)")
        let warning = lines(without).first { $0.hasPrefix("warn  met-norway: ") }
        #expect(
            warning?.contains("set [weather] contact = \"you@example.org\" in config.toml or ALMANAC_CONTACT") == true,
            "\(without.stdout)")
        #expect(warning?.hasSuffix("; not probed") == true)
        // A generic agent is refused by MET Norway: it was never asked.
        #expect(try await server.userAgents()[status] == nil)
        // Nominatim takes a contact when set and serves without one: probed with Almanac's own agent.
        let agents = try await server.userAgents()
        let nominatim = try #require(agents["GET /status?format=json"])
        #expect(nominatim.hasPrefix("almanac/") && nominatim.hasSuffix("(+tools)"), "\(nominatim)")

        let contact = "doctor-tests@example.org"
        let with = try await ToolsBinary.run(
            ["doctor"], environment: environment.merging(["ALMANAC_CONTACT": contact]) { $1 })
        #expect(with.status == 0, "\(with.stdout)")
        #expect(lines(with).contains { $0.hasPrefix("ok    met-norway: reachable at \(base) (HTTP ") })
        let received = try await server.userAgents()
        #expect(received[status]?.hasPrefix("almanac/") == true)
        #expect(received[status]?.hasSuffix("(+tools; \(contact))") == true, "\(received)")
        #expect(received["GET /status?format=json"]?.hasSuffix("(+tools; \(contact))") == true, "\(received)")
    }

    @Test("a provider down fails the doctor (exit 69); no key and no LLM are only warnings")
    func unreachable() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let scratch = try Scratch()
        let base = server.baseURL
        let environment = scratch.environment(
            // No search provider: neither a Brave key nor a SearXNG URL.
            Self.everyEndpoint(at: base).filter { $0.key != "ALMANAC_SEARXNG_URL" }.merging([
                "ALMANAC_ESPN_URL": "http://127.0.0.1:9", "ALMANAC_LLM_URL": "http://127.0.0.1:9",
                "ALMANAC_TIMEOUT": "2",
            ]) { $1 })
        let output = try await ToolsBinary.run(["doctor"], environment: environment)
        #expect(output.status == 69)
        let lines = lines(output)
        #expect(lines.contains("fail  espn: unreachable at http://127.0.0.1:9: 127.0.0.1: could not connect"))
        #expect(lines.contains("warn  llm: unreachable at http://127.0.0.1:9: 127.0.0.1: could not connect"))
        #expect(lines.contains { $0.hasPrefix("warn  search setup: no search provider (set BRAVE_API_KEY") })
        #expect(!lines.contains { $0.hasPrefix("ok    brave") || $0.hasPrefix("fail  brave") })

        // With ESPN back, the same missing key and LLM still pass.
        let healthy = try await ToolsBinary.run(
            ["doctor"], environment: environment.merging(["ALMANAC_ESPN_URL": base]) { $1 })
        #expect(healthy.status == 0, "\(healthy.stdout)")
    }

    @Test("a bad base URL is a failed check naming the variable")
    func badURL() async throws {
        let scratch = try Scratch()
        let output = try await ToolsBinary.run(
            ["doctor"],
            environment: scratch.environment(
                Self.everyEndpoint(at: "http://127.0.0.1:9").merging([
                    "ALMANAC_ESPN_URL": "ftp://x", "ALMANAC_LLM_URL": "http://127.0.0.1:9", "ALMANAC_TIMEOUT": "1",
                ]) { $1 }))
        #expect(output.status == 69)
        #expect(lines(output).contains("fail  espn: ALMANAC_ESPN_URL is not an http(s) URL: 'ftp://x'"))
    }

    @Test("a libcurl that cannot be opened fails the doctor; a missing libical only warns (calendar only)")
    func libraries() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let scratch = try Scratch()
        let fakes = try scratch.unloadable(["libical.so.3", "libxml2.so.2"])
        let base = server.baseURL
        let environment = scratch.environment(
            Self.everyEndpoint(at: base).merging(["ALMANAC_LLM_URL": base, "LD_LIBRARY_PATH": fakes.path]) { $1 })
        let noLibical = try await ToolsBinary.run(["doctor"], environment: environment)
        #expect(noLibical.status == 0, "\(noLibical.stdout)")
        #expect(lines(noLibical).contains { $0.hasPrefix("ok    libcurl: libcurl.so.4 7.") && $0.hasSuffix(" opened") })
        #expect(
            lines(noLibical).contains {
                $0.hasPrefix("warn  libical: cannot be opened: ") && $0.hasSuffix("; install libical3 (calendar only)")
            })
        #expect(
            lines(noLibical).contains {
                $0.hasPrefix("warn  libxml2: cannot be opened: ")
                    && $0.hasSuffix("; install libxml2 (CalDAV and read and news)")
            })

        // Both sonames tried: the GnuTLS build is the fallback.
        _ = try scratch.unloadable(["libcurl.so.4", "libcurl-gnutls.so.4"])
        let noLibcurl = try await ToolsBinary.run(["doctor"], environment: environment)
        #expect(noLibcurl.status == 69)
        #expect(
            lines(noLibcurl).contains {
                $0.hasPrefix("fail  libcurl: cannot be opened: ") && $0.hasSuffix("file too short; install libcurl4")
            })
    }
}
