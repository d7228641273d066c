public import AlmanacCore
import Foundation

/// How `tools serve` listens and what it lets through. Safe by default: loopback only; any other
/// address needs a bearer token.
public struct ServeConfiguration: Sendable {
    /// The address to bind.
    public var host: String
    /// The TCP port (0 picks a free one).
    var port: Int
    /// The bearer token every request but `/healthz` and CORS preflights must carry (never logged).
    var token: String?
    /// Browser origins allowed besides loopback pages (`*` allows any).
    var origins: [String]
    /// Largest request body accepted, in bytes.
    var maxBodyBytes: Int
    /// Longest time a request may take before the server answers 504.
    var requestTimeout: Duration
    /// Requests one client address may have in flight at once (more get 429).
    var maxConcurrentPerClient: Int
    /// Token budget for each answer's context text (nil: unlimited).
    var budget: Int?
    /// Time a connection has to send a complete request head, counted from its opening or from
    /// its previous answer (slow headers are cut, idle keep-alive connections closed).
    var headerTimeout: Duration
    /// Time a connection may stay silent while no request is being answered.
    var idleTimeout: Duration
    /// After SIGTERM: how long calls in flight may take to finish before every connection is closed.
    var drainTimeout: Duration
    /// MCP sessions open at once, for the whole server.
    var maxSessions: Int
    /// MCP sessions one client address may hold open at once.
    var maxSessionsPerClient: Int
    /// Largest answer a tool call sends back, in bytes (a larger one is cut, and says so).
    var maxAnswerBytes: Int

    /// Creates a configuration.
    init(
        host: String = "127.0.0.1", port: Int = 8765, token: String? = nil, origins: [String] = [],
        maxBodyBytes: Int = 64 * 1024, requestTimeout: Duration = .seconds(30), maxConcurrentPerClient: Int = 16,
        budget: Int? = nil, headerTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(60),
        drainTimeout: Duration = .seconds(10), maxSessions: Int = 256, maxSessionsPerClient: Int = 16,
        maxAnswerBytes: Int = 1_048_576
    ) {
        self.host = host
        self.port = port
        self.token = token
        self.origins = origins
        self.maxBodyBytes = maxBodyBytes
        self.requestTimeout = requestTimeout
        self.maxConcurrentPerClient = maxConcurrentPerClient
        self.budget = budget
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
        self.drainTimeout = drainTimeout
        self.maxSessions = maxSessions
        self.maxSessionsPerClient = maxSessionsPerClient
        self.maxAnswerBytes = maxAnswerBytes
    }

    /// Whether `host` is a loopback address (only this machine can connect).
    static func isLoopback(_ host: String) -> Bool {
        // Host names are case-insensitive (RFC 9110 4.2.3): `LOCALHOST` is `localhost`.
        let host = host.lowercased()
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if bare == "localhost" || bare == "::1" { return true }
        // 127.0.0.0/8, written as four numbers (not a name such as 127.0.0.1.example.org).
        let parts = bare.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// Reads `[serve]` from the config file and `ALMANAC_SERVE_*` from the environment (which wins),
    /// then the command line's host and port.
    ///
    /// - Throws: ``AlmanacError`` (usage, exit 64) for a bad value, or a non-loopback address
    ///   without a token.
    public static func resolve(host: String?, port: Int?, budget: Int?, settings: Settings) throws -> ServeConfiguration
    {
        var configuration = ServeConfiguration(budget: budget)
        configuration.host = host ?? settings.value(env: "ALMANAC_SERVE_HOST", config: "serve", "host") ?? "127.0.0.1"
        if let port {
            configuration.port = port
        } else if let raw = settings.value(env: "ALMANAC_SERVE_PORT", config: "serve", "port") {
            configuration.port = try integer(raw, name: "ALMANAC_SERVE_PORT", range: 0...65535, example: "8765")
        }
        guard (0...65535).contains(configuration.port) else {
            throw AlmanacError.usage(
                "port must be 0...65535, got \(configuration.port)", suggestion: "e.g. --port 8765")
        }
        if let token = settings.value(env: "ALMANAC_SERVE_TOKEN", config: "serve", "token"), !token.isEmpty {
            guard token.count >= 16 else {
                throw AlmanacError.usage(
                    "the serve token is too short (at least 16 characters)",
                    suggestion: "e.g. ALMANAC_SERVE_TOKEN=$(openssl rand -hex 24)")
            }
            configuration.token = token
        }
        if let raw = settings.env("ALMANAC_SERVE_ORIGINS") {
            configuration.origins = raw.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
        } else if let value = settings.config("serve", "origins") {
            switch value {
            case .array(let items): configuration.origins = items.compactMap(\.stringValue)
            default: configuration.origins = (value.stringValue ?? "").split(separator: ",").map(String.init)
            }
        }
        if let raw = settings.value(env: "ALMANAC_SERVE_MAX_BODY", config: "serve", "max_body") {
            configuration.maxBodyBytes = try integer(
                raw, name: "ALMANAC_SERVE_MAX_BODY", range: 1...16_777_216, example: "65536")
        }
        if let raw = settings.value(env: "ALMANAC_SERVE_TIMEOUT", config: "serve", "timeout") {
            configuration.requestTimeout = .seconds(
                try integer(raw, name: "ALMANAC_SERVE_TIMEOUT", range: 1...3600, example: "30"))
        }
        if let raw = settings.value(env: "ALMANAC_SERVE_MAX_CONCURRENT", config: "serve", "max_concurrent") {
            configuration.maxConcurrentPerClient = try integer(
                raw, name: "ALMANAC_SERVE_MAX_CONCURRENT", range: 1...10_000, example: "16")
        }
        if let raw = settings.value(env: "ALMANAC_SERVE_HEADER_TIMEOUT", config: "serve", "header_timeout") {
            configuration.headerTimeout = .seconds(
                try integer(raw, name: "ALMANAC_SERVE_HEADER_TIMEOUT", range: 1...600, example: "10"))
        }
        if let raw = settings.value(env: "ALMANAC_SERVE_IDLE_TIMEOUT", config: "serve", "idle_timeout") {
            configuration.idleTimeout = .seconds(
                try integer(raw, name: "ALMANAC_SERVE_IDLE_TIMEOUT", range: 1...3600, example: "60"))
        }
        if let raw = settings.value(env: "ALMANAC_SERVE_DRAIN_TIMEOUT", config: "serve", "drain_timeout") {
            configuration.drainTimeout = .seconds(
                try integer(raw, name: "ALMANAC_SERVE_DRAIN_TIMEOUT", range: 0...600, example: "10"))
        }
        if let raw = settings.value(env: "ALMANAC_SERVE_MAX_SESSIONS", config: "serve", "max_sessions") {
            configuration.maxSessions = try integer(
                raw, name: "ALMANAC_SERVE_MAX_SESSIONS", range: 1...100_000, example: "256")
        }
        if let raw = settings.value(
            env: "ALMANAC_SERVE_MAX_SESSIONS_PER_CLIENT", config: "serve", "max_sessions_per_client")
        {
            configuration.maxSessionsPerClient = try integer(
                raw, name: "ALMANAC_SERVE_MAX_SESSIONS_PER_CLIENT", range: 1...100_000, example: "16")
        }
        if let raw = settings.value(env: "ALMANAC_SERVE_MAX_ANSWER", config: "serve", "max_answer") {
            configuration.maxAnswerBytes = try integer(
                raw, name: "ALMANAC_SERVE_MAX_ANSWER", range: 1024...1_073_741_824, example: "1048576")
        }
        if !isLoopback(configuration.host), configuration.token == nil {
            throw AlmanacError.usage(
                "serving on \(configuration.host) needs a token: set ALMANAC_SERVE_TOKEN or [serve] token in a 0600 config",
                suggestion: nil)
        }
        return configuration
    }

    private static func integer(_ raw: String, name: String, range: ClosedRange<Int>, example: String) throws -> Int {
        guard let value = Int(raw.trimmingCharacters(in: .whitespaces)), range.contains(value) else {
            throw AlmanacError.usage(
                "\(name) must be a whole number in \(range.lowerBound)...\(range.upperBound), got '\(raw)'",
                suggestion: "e.g. \(name)=\(example)")
        }
        return value
    }

    /// Whether a browser page from `origin` may call the server: loopback pages (any port, e.g.
    /// llama-server's web UI on 127.0.0.1:8080) and the configured origins.
    func allows(origin: String) -> Bool {
        if origins.contains("*") || origins.contains(origin) { return true }
        // An origin is `scheme://host[:port]` and nothing more (RFC 6454): read it as exactly
        // that, not with a URL parser, which took `http://evil.com\@127.0.0.1` (evil.com to a
        // browser) for a page on 127.0.0.1.
        let lowered = origin.lowercased()
        for scheme in ["http://", "https://"] where lowered.hasPrefix(scheme) {
            return Self.isLoopbackAuthority(String(origin.dropFirst(scheme.count)))
        }
        return false
    }

    /// Whether `authority` is exactly a loopback host with an optional port: `127.0.0.1`,
    /// `localhost:8765`, `[::1]:8765`; not `[::1]evil.com`, `localhost@evil.com`, `127.0.0.1/x`.
    static func isLoopbackAuthority(_ authority: String) -> Bool {
        let host: Substring
        let rest: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return false }
            host = authority[...close]
            rest = authority[authority.index(after: close)...]
        } else if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
            rest = authority[colon...]
        } else {
            host = Substring(authority)
            rest = ""
        }
        // Nothing may follow the host but `:` and digits (RFC 9110 7.2: uri-host [":" port]).
        if !rest.isEmpty {
            guard rest.first == ":", rest.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
        }
        return isLoopback(String(host))
    }

    /// Compares a presented token with the configured one in time independent of where they differ.
    static func tokenMatches(_ presented: Substring, _ expected: String) -> Bool {
        let a = Array(presented.utf8)
        let b = Array(expected.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<b.count {
            difference |= b[index] ^ (index < a.count ? a[index] : 0)
        }
        return difference == 0
    }
}
