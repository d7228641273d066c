import AlmanacCore
import Foundation
import Testing

@testable import AlmanacServe

@Suite("tools serve configuration")
struct ServeConfigurationTests {
    func settings(_ environment: [String: String], config: [String: ConfigValue] = [:]) -> Settings {
        Settings(environment: environment, config: config)
    }

    @Test("loopback by default, port 8765, no token needed")
    func defaults() throws {
        let configuration = try ServeConfiguration.resolve(host: nil, port: nil, budget: nil, settings: settings([:]))
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 8765)
        #expect(configuration.token == nil)
    }

    @Test("any other address without a token is refused with one line (exit 64)")
    func publicNeedsToken() throws {
        for host in ["0.0.0.0", "192.0.2.7", "::"] {
            #expect {
                try ServeConfiguration.resolve(host: host, port: nil, budget: nil, settings: settings([:]))
            } throws: { error in
                let almanac = error as? AlmanacError
                return almanac?.exitStatus == 64 && almanac?.lines.count == 1
                    && almanac?.lines.first?.contains("ALMANAC_SERVE_TOKEN") == true
            }
        }
        let token = String(repeating: "k", count: 24)
        let withEnv = try ServeConfiguration.resolve(
            host: "0.0.0.0", port: nil, budget: nil, settings: settings(["ALMANAC_SERVE_TOKEN": token]))
        #expect(withEnv.token == token)
        let withConfig = try ServeConfiguration.resolve(
            host: "0.0.0.0", port: nil, budget: nil,
            settings: settings([:], config: ["serve": .table(["token": .string(token)])]))
        #expect(withConfig.token == token)
    }

    @Test("bad limits and short tokens are usage errors naming the variable")
    func badValues() {
        for (name, value) in [
            ("ALMANAC_SERVE_PORT", "http"), ("ALMANAC_SERVE_MAX_BODY", "0"), ("ALMANAC_SERVE_TIMEOUT", "-1"),
            ("ALMANAC_SERVE_MAX_CONCURRENT", "many"), ("ALMANAC_SERVE_TOKEN", "short"),
        ] {
            #expect(throws: AlmanacError.self) {
                try ServeConfiguration.resolve(host: nil, port: nil, budget: nil, settings: settings([name: value]))
            }
        }
    }

    @Test("tokens compare whole, whatever their length")
    func tokenCompare() {
        let token = "0123456789abcdef0123"
        #expect(ServeConfiguration.tokenMatches(Substring(token), token))
        #expect(!ServeConfiguration.tokenMatches(Substring(token + "x"), token))
        #expect(!ServeConfiguration.tokenMatches(Substring(String(token.dropLast())), token))
        #expect(!ServeConfiguration.tokenMatches("", token))
        #expect(!ServeConfiguration.tokenMatches("1123456789abcdef0123", token))
    }

    @Test("loopback pages and configured origins may call; others may not")
    func origins() throws {
        let configuration = try ServeConfiguration.resolve(
            host: nil, port: nil, budget: nil,
            settings: settings(["ALMANAC_SERVE_ORIGINS": "https://chat.example.org, http://nas.local:3000"]))
        #expect(configuration.allows(origin: "http://127.0.0.1:8080"))
        #expect(configuration.allows(origin: "http://localhost:5173"))
        #expect(configuration.allows(origin: "http://[::1]:8080"))
        #expect(configuration.allows(origin: "https://chat.example.org"))
        #expect(configuration.allows(origin: "http://nas.local:3000"))
        #expect(!configuration.allows(origin: "https://evil.example"))
        #expect(!configuration.allows(origin: "http://127.0.0.1.evil.example"))
        #expect(!configuration.allows(origin: "null"))
        #expect(ServeGuard.isLoopbackHost("127.0.0.1:8765"))
        #expect(ServeGuard.isLoopbackHost("localhost:8765"))
        #expect(ServeGuard.isLoopbackHost("[::1]:8765"))
        #expect(!ServeGuard.isLoopbackHost("evil.example:8765"))
    }
}
