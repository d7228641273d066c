public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Who asked for a tool run, which decides what the run may reach (docs/security.md).
public enum CallerTrust: String, Sendable, Hashable {
    /// The operator at the command line (`tools run`): every capability, local files and any host.
    case commandLine
    /// Anyone else: `tools serve`, `tools mcp`, a model's tool call. Names configured things only.
    case untrusted
}

/// The scheme, host and port a URL reaches: what a credential is bound to.
public struct Origin: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`.
    let scheme: String
    /// The host, lowercased, IPv6 without brackets.
    public let host: String
    /// The port, the scheme's default when the URL names none.
    public let port: Int

    /// The origin of `url`, or nil when it is not an http(s) URL with a host.
    public init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host?.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]")), !host.isEmpty
        else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = url.port ?? (scheme == "https" ? 443 : 80)
    }

    /// `https://host:port`.
    public var description: String {
        "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }
}

/// An IP address and the class of network it belongs to.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 bytes (IPv4) or 16 bytes (IPv6), network order.
    let bytes: [UInt8]

    /// Parses a dotted IPv4 or an IPv6 literal (brackets allowed); nil for anything else.
    init?(_ text: String) {
        let literal = text.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        var v4 = in_addr()
        if inet_pton(AF_INET, literal, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        // A zone (fe80::1%eth0) names an interface: still link-local, so read the address part.
        let address = literal.split(separator: "%", maxSplits: 1).first.map(String.init) ?? literal
        if inet_pton(AF_INET6, address, &v6) == 1 {
            bytes = withUnsafeBytes(of: &v6) { Array($0) }
            return
        }
        return nil
    }

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// The usual text form.
    public var description: String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        var raw = in6_addr()
        withUnsafeMutableBytes(of: &raw) { $0.copyBytes(from: bytes) }
        guard inet_ntop(AF_INET6, &raw, &buffer, socklen_t(buffer.count)) != nil else { return "::" }
        let text = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: text, as: UTF8.self)
    }

    /// On this machine (127.0.0.0/8, ::1, and IPv4-mapped forms of them).
    var isLoopback: Bool {
        if let v4 = embeddedIPv4 { return v4.isLoopback }
        if bytes.count == 4 { return bytes[0] == 127 }
        return bytes == [UInt8](repeating: 0, count: 15) + [1]
    }

    /// Reachable on the public internet: not loopback, private, link-local (cloud metadata
    /// 169.254.169.254 among them), shared, documentation, benchmark, multicast or reserved space.
    var isPublic: Bool {
        if let v4 = embeddedIPv4 { return v4.isPublic }
        if bytes.count == 4 {
            let (a, b, c) = (bytes[0], bytes[1], bytes[2])
            switch a {
            case 0, 10, 127: return false  // this network, private, loopback
            case 100 where (64...127).contains(b): return false  // shared address space (CGNAT)
            case 169 where b == 254: return false  // link-local, cloud metadata
            case 172 where (16...31).contains(b): return false
            case 192 where b == 168: return false
            case 192 where b == 0 && (c == 0 || c == 2): return false  // IETF protocol, TEST-NET-1
            case 192 where b == 88 && c == 99: return false  // 6to4 relay anycast
            case 198 where b == 18 || b == 19: return false  // benchmarking
            case 198 where b == 51 && c == 100: return false  // TEST-NET-2
            case 203 where b == 0 && c == 113: return false  // TEST-NET-3
            case 224...255: return false  // multicast, reserved, broadcast
            default: return true
            }
        }
        let first = bytes[0]
        if bytes.allSatisfy({ $0 == 0 }) || isLoopback { return false }  // unspecified, loopback
        if first & 0xFE == 0xFC { return false }  // fc00::/7 unique local (fd00:ec2::254 metadata)
        if first == 0xFE && bytes[1] & 0xC0 == 0x80 { return false }  // fe80::/10 link-local
        if first == 0xFE && bytes[1] & 0xC0 == 0xC0 { return false }  // fec0::/10 site-local (deprecated)
        if first == 0xFF { return false }  // multicast
        if bytes.starts(with: [0x20, 0x01, 0x0D, 0xB8]) { return false }  // documentation
        if bytes.starts(with: [0x20, 0x01, 0x00, 0x00]) { return false }  // Teredo: tunnels to any IPv4
        if bytes.starts(with: [0x01, 0x00, 0, 0, 0, 0, 0, 0]) { return false }  // discard-only
        if first & 0xE0 != 0x20 { return false }  // only 2000::/3 is global unicast
        return true
    }

    /// The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d), NAT64 (64:ff9b::/96) or 6to4
    /// (2002:AABB:CCDD::) address: such an address reaches that IPv4 host, so it is judged by it.
    var embeddedIPv4: IPAddress? {
        guard bytes.count == 16 else { return nil }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return IPAddress(bytes: Array(bytes[12..<16]))
        }
        if bytes.starts(with: [0x00, 0x64, 0xFF, 0x9B]) && bytes[4..<12].allSatisfy({ $0 == 0 }) {
            return IPAddress(bytes: Array(bytes[12..<16]))
        }
        if bytes.starts(with: [0x20, 0x02]) { return IPAddress(bytes: Array(bytes[2..<6])) }
        return nil
    }
}

/// Turns a host name into addresses. Injected so tests can make names resolve to loopback or
/// private addresses without editing /etc/hosts.
public protocol HostResolving: Sendable {
    /// Every address `host` resolves to (empty or a throw: it does not resolve).
    func addresses(of host: String) async throws -> [IPAddress]
}

/// The system resolver (getaddrinfo), with an optional fixed table in front of it
/// (`ALMANAC_RESOLVE="name=address,name=address"`, as curl's `--resolve`).
public struct SystemResolver: HostResolving {
    /// Names answered from the table, lowercased.
    let fixed: [String: [IPAddress]]

    /// Creates a resolver; `fixed` names never reach DNS.
    public init(fixed: [String: [IPAddress]] = [:]) {
        self.fixed = fixed
    }

    /// Reads `name=address` pairs separated by commas or spaces; nil when one is malformed.
    public static func table(_ text: String) -> [String: [IPAddress]]? {
        var table: [String: [IPAddress]] = [:]
        for pair in text.split(whereSeparator: { $0 == "," || $0 == " " }) {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, let address = IPAddress(parts[1]) else { return nil }
            table[parts[0].lowercased(), default: []].append(address)
        }
        return table
    }

    /// The table's addresses, an IP literal itself, else getaddrinfo's answer (off the
    /// cooperative pool: it blocks).
    public func addresses(of host: String) async throws -> [IPAddress] {
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if let known = fixed[name] { return known }
        if let literal = IPAddress(name) { return [literal] }
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: Self.getaddrinfo(name)) }
        }
    }

    private static func getaddrinfo(_ host: String) -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard Glibc.getaddrinfo(host, nil, &hints, &list) == 0 else { return [] }
        defer { freeaddrinfo(list) }
        var addresses: [IPAddress] = []
        var cursor = list
        while let entry = cursor?.pointee {
            if let socket = entry.ai_addr {
                switch Int32(entry.ai_family) {
                case AF_INET:
                    socket.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                        var address = v4.pointee.sin_addr
                        addresses.append(IPAddress(bytes: withUnsafeBytes(of: &address) { Array($0) }))
                    }
                case AF_INET6:
                    socket.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                        var address = v6.pointee.sin6_addr
                        addresses.append(IPAddress(bytes: withUnsafeBytes(of: &address) { Array($0) }))
                    }
                default: break
                }
            }
            cursor = entry.ai_next
        }
        var seen = Set<IPAddress>()
        return addresses.filter { seen.insert($0).inserted }
    }
}

/// A secret bound to the one origin it was configured for. It travels in one header, only to that
/// origin, never on a redirect to another, never over plain http to a host off this machine unless
/// the operator opted in, and (for HTTP authentication) only once that origin has asked for it.
public struct BoundCredential: Sendable, CustomStringConvertible {
    /// When the header is sent.
    public enum Timing: Sendable {
        /// Only after the origin answered 401 (then on every request to it, as browsers do).
        case afterChallenge
        /// On every request to the origin (API keys: the protocol has no challenge).
        case always
    }

    /// Where it may go.
    public let origin: Origin
    /// The header that carries it.
    let headerName: String
    let headerValue: String
    /// When it is sent.
    let timing: Timing
    /// Whether plain http to a host off this machine is allowed (the operator said so).
    let allowsPlainHTTP: Bool

    /// A credential for `url`'s origin; nil when `url` has no http(s) origin.
    public init?(header: String, value: String, for url: URL, timing: Timing, allowsPlainHTTP: Bool = false) {
        guard let origin = Origin(url) else { return nil }
        self.origin = origin
        self.headerName = header
        self.headerValue = value
        self.timing = timing
        self.allowsPlainHTTP = allowsPlainHTTP
    }

    /// HTTP Basic authentication for `url`'s origin, sent after a 401 challenge.
    public static func basic(
        username: String, password: String, for url: URL, allowsPlainHTTP: Bool = false
    )
        -> BoundCredential?
    {
        BoundCredential(
            header: "Authorization", value: "Basic " + Data("\(username):\(password)".utf8).base64EncodedString(),
            for: url, timing: .afterChallenge, allowsPlainHTTP: allowsPlainHTTP)
    }

    /// Names the origin, never the secret.
    public var description: String { "credential for \(origin) (hidden)" }
}

/// Origins that asked for credentials (a 401) in this process: later requests send them at once
/// instead of paying a refused round trip each time.
actor ChallengedOrigins {
    static let shared = ChallengedOrigins()
    private var origins = Set<Origin>()

    func contains(_ origin: Origin) -> Bool { origins.contains(origin) }
    func insert(_ origin: Origin) { origins.insert(origin) }
}

/// The one way a URL that comes from a caller or from data is fetched (docs/security.md).
///
/// Untrusted callers (``CallerTrust/untrusted``) reach only public addresses, unless the URL is
/// under a prefix the operator allowed or its origin is one the operator configured. The name is
/// resolved once and the connection pinned to the vetted address (no DNS rebinding between check and
/// connect). Redirects are followed here, hop by hop, each vetted again. Every refused or unreachable
/// address gives the same line, so errors cannot map a network. Credentials are handled here for every
/// caller: see ``BoundCredential``.
public struct EgressPolicy: Sendable {
    /// Who is asking.
    public var trust: CallerTrust
    /// URL prefixes untrusted callers may name and reach, private addresses included
    /// (`[serve] allow_urls`, `ALMANAC_ALLOW_URLS`).
    var allowedPrefixes: [String]
    /// Name resolution (injectable).
    var resolver: any HostResolving
    /// Redirects followed before giving up.
    var maxRedirects = 5
    /// Tools the operator switched off for untrusted callers (`[serve] tools`, `deny_tools`): off
    /// everywhere for them, also where another tool would use one (search's `read`).
    public var switchedOffTools: Set<String> = []
    /// Writes for an untrusted caller on a front where the operator allowed them (`[serve]
    /// allow_writes`); nil: writes are refused and absent from the published schemas.
    public var writes: CallerWrites?
    /// Origins whose `/robots.txt` alone may be fetched although it is outside every allowed prefix:
    /// a page under a path-scoped prefix is read only as its robots.txt permits (docs/security.md).
    var robotsOrigins: Set<Origin> = []

    /// Creates a policy.
    public init(trust: CallerTrust, allowedPrefixes: [String] = [], resolver: any HostResolving = SystemResolver()) {
        self.trust = trust
        self.allowedPrefixes = allowedPrefixes
        self.resolver = resolver
    }

    /// The command line's policy: everything reachable, credentials still bound to their origin.
    public static let commandLine = EgressPolicy(trust: .commandLine)

    /// The same policy for another caller.
    public func with(trust: CallerTrust) -> EgressPolicy {
        var copy = self
        copy.trust = trust
        return copy
    }

    /// Whether an untrusted caller may name URLs at all (some prefix is allowed).
    var callersMayNameURLs: Bool { trust == .commandLine || !allowedPrefixes.isEmpty }

    /// Whether this policy's caller may use `tool` (the command line may use every tool).
    public func offers(_ tool: String) -> Bool { trust == .commandLine || !switchedOffTools.contains(tool) }

    /// Whether this policy's caller may ask for writes (the command line may, with confirmation).
    var mayWrite: Bool { trust == .commandLine || writes != nil }

    /// Whether `url` is under an allowed prefix: compared on the parsed URL (so `https://a.example@b/`
    /// cannot pass for `https://a.example`) and on the normal form of both paths
    /// (``URLNormalizer``), refusing a path a server could still read as leaving the prefix
    /// (`..%2f`, `..;`, double escapes: ``URLNormalizer/isPlain(_:)``).
    func isAllowed(_ url: URL) -> Bool {
        guard let origin = Origin(url), url.user == nil, url.password == nil,
            let asked = Self.normalPath(url), URLNormalizer.isPlain(asked)
        else { return false }
        if robotsOrigins.contains(origin), asked == "/robots.txt",
            URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedQuery == nil
        {
            return true
        }
        for prefix in allowedPrefixes {
            guard let allowed = URL(string: prefix), let allowedOrigin = Origin(allowed), allowedOrigin == origin,
                let path = Self.normalPath(allowed)
            else { continue }
            if path == "/" || asked == path || asked.hasPrefix(path.hasSuffix("/") ? path : path + "/") { return true }
        }
        return false
    }

    /// The percent-encoded path of `url` in normal form, `/` when empty.
    static func normalPath(_ url: URL) -> String? {
        guard let components = URLComponents(url: url.absoluteURL, resolvingAgainstBaseURL: false) else { return nil }
        let path = URLNormalizer.path(components.percentEncodedPath)
        return path.isEmpty ? "/" : path
    }

    /// Checks that an untrusted caller may name `url`, and returns the URL to fetch: its normal
    /// form, the very text that was checked. Every refusal reads the same, whatever the reason.
    @discardableResult
    public func checkCallerURL(_ url: URL, argument: String) throws -> URL {
        let normal = URLNormalizer.normalize(url)
        guard trust == .untrusted else { return normal ?? url }
        guard let normal, isAllowed(normal) else {
            throw AlmanacError.usage(
                "\(argument): this URL is not one the operator allowed for callers of tools serve or mcp",
                suggestion: allowedPrefixes.isEmpty
                    ? "name a configured source instead (docs/security.md)"
                    : "allowed: \(allowedPrefixes.joined(separator: ", "))")
        }
        return normal
    }

    /// Applies this policy to `url` before anything is read for it, a cache entry or a stale copy
    /// included, and returns its normal form. For an untrusted caller a URL outside the allowed
    /// prefixes and `configured` origins must resolve to public addresses only; otherwise this
    /// throws the line a refused fetch gives (``unreachable(service:host:)``).
    public func admit(_ url: URL, service: String, configured: Set<Origin> = []) async throws -> URL {
        guard let normal = URLNormalizer.normalize(url), let origin = Origin(normal) else {
            throw ProviderFailure(.network, "\(service): only http and https addresses can be fetched")
        }
        if trust == .untrusted, !configured.contains(origin), !isAllowed(normal) {
            _ = try await publicAddress(origin, service: service)
        }
        return normal
    }

    /// The same policy, also letting an untrusted caller's run fetch the robots.txt of `page`'s
    /// origin when `page` is under an allowed prefix (to obey it), and nothing else outside it.
    public func allowingRobots(of page: URL) -> EgressPolicy {
        guard trust == .untrusted, isAllowed(page), let origin = Origin(page) else { return self }
        var copy = self
        copy.robotsOrigins.insert(origin)
        return copy
    }

    /// Part of a cache or state key that keeps apart answers fetched under different policies: an
    /// answer the command line fetched (any address) never reaches an untrusted caller, nor one
    /// fetched under a wider allow-list a caller under a narrower one. Empty for the command line.
    public var cacheScope: String {
        guard trust == .untrusted else { return "" }
        var parts = allowedPrefixes.sorted()
        if let fixed = (resolver as? SystemResolver)?.fixed {
            parts += fixed.keys.sorted().map { name in
                "\(name)=" + (fixed[name] ?? []).map(\.description).joined(separator: ",")
            }
        }
        // FNV-1a 64: short, stable across processes (the SQLite and PostgreSQL caches outlive one).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in parts.joined(separator: "\n").utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return "untrusted \(String(hash, radix: 16))|"
    }

    /// Sends `request` under this policy and requires a 2xx status (statuses map to
    /// ``ProviderFailure``s as ``HTTPTransport/fetch(_:timeout:service:)`` does).
    ///
    /// - Parameters:
    ///   - configured: Origins the operator configured (a calendar's server, an API's base URL):
    ///     reached whoever asks. Others are vetted for untrusted callers.
    ///   - credential: Sent only as ``BoundCredential`` says.
    func fetch(
        _ request: HTTPRequest, via transport: any HTTPTransport, timeout: Duration, service: String,
        configured: Set<Origin> = [], credential: BoundCredential? = nil
    ) async throws -> HTTPResponse {
        let (response, final) = try await send(
            request, via: transport, timeout: timeout, service: service, configured: configured, credential: credential)
        return try HTTPStatus.require2xx(response, for: final, service: service)
    }

    /// Sends `request` under this policy, following redirects; any status is an answer. Returns the
    /// answer and the request that got it (after redirects).
    public func send(
        _ request: HTTPRequest, via transport: any HTTPTransport, timeout: Duration, service: String,
        configured: Set<Origin> = [], credential: BoundCredential? = nil
    ) async throws -> (HTTPResponse, HTTPRequest) {
        var current = request
        current.followRedirects = false
        // Only the binding below may set it: a provider's own copy would travel to any origin.
        for name in current.headers.keys where name.lowercased() == credential?.headerName.lowercased() {
            current.headers[name] = nil
        }
        for hop in 0...maxRedirects {
            // The URL checked below is the URL sent: its normal form, dot segments resolved.
            guard let normal = URLNormalizer.normalize(current.url), let origin = Origin(normal) else {
                throw ProviderFailure(.network, "\(service): only http and https addresses can be fetched")
            }
            current.url = normal
            let vetted = !configured.contains(origin) && trust == .untrusted && !isAllowed(current.url)
            if vetted { current.pinnedAddress = try await publicAddress(origin, service: service) }

            var attached = false
            if let credential, credential.origin == origin {
                var due = credential.timing == .always
                if !due { due = await ChallengedOrigins.shared.contains(origin) }
                if due {
                    try await checkPlainHTTP(credential, service: service)
                    current.headers[credential.headerName] = credential.headerValue
                    attached = true
                }
            }
            var response = try await exchange(
                current, via: transport, timeout: timeout, service: service, vetted: vetted)
            if response.status == 401, let credential, credential.origin == origin, !attached,
                response.header("www-authenticate") != nil
            {
                try await checkPlainHTTP(credential, service: service)
                await ChallengedOrigins.shared.insert(origin)
                current.headers[credential.headerName] = credential.headerValue
                response = try await exchange(
                    current, via: transport, timeout: timeout, service: service, vetted: vetted)
            }
            guard (300..<400).contains(response.status), response.status != 304,
                let location = response.header("location"),
                let next = URL(string: location, relativeTo: current.url)?.absoluteURL
            else { return (response, current) }
            guard hop < maxRedirects else { break }
            guard Origin(next) != nil else {
                throw ProviderFailure(.network, "\(service): only http and https addresses can be fetched")
            }
            // https is never downgraded to http on a redirect.
            if current.url.scheme?.lowercased() == "https" && next.scheme?.lowercased() != "https" {
                throw ProviderFailure(
                    .network, "\(service): \(origin.host) redirected from https to plain http; not followed")
            }
            if let credential { current.headers[credential.headerName] = nil }
            current.url = next
            current.pinnedAddress = nil
            if response.status == 303
                || ((response.status == 301 || response.status == 302) && current.method == "POST")
            {
                current.method = "GET"
                current.body = nil
            }
        }
        throw ProviderFailure(.http, "\(service): more than \(maxRedirects) redirects")
    }

    /// One request; failures to reach a vetted address all read the same.
    private func exchange(
        _ request: HTTPRequest, via transport: any HTTPTransport, timeout: Duration, service: String, vetted: Bool
    ) async throws -> HTTPResponse {
        do {
            return try await transport.send(request, timeout: timeout, service: service)
        } catch let failure as ProviderFailure where vetted && (failure.kind == .network || failure.kind == .timeout) {
            throw Self.unreachable(service: service, host: request.url.host ?? "server")
        }
    }

    /// The address to pin `origin` to, when every address it resolves to is public.
    func publicAddress(_ origin: Origin, service: String) async throws -> String {
        let addresses = (try? await resolver.addresses(of: origin.host)) ?? []
        guard let first = addresses.first, addresses.allSatisfy(\.isPublic) else {
            throw Self.unreachable(service: service, host: origin.host)
        }
        return first.description
    }

    /// A credential goes over plain http only to this machine, unless the operator opted in.
    private func checkPlainHTTP(_ credential: BoundCredential, service: String) async throws {
        guard credential.origin.scheme == "http", !credential.allowsPlainHTTP else { return }
        let addresses = (try? await resolver.addresses(of: credential.origin.host)) ?? []
        if !addresses.isEmpty && addresses.allSatisfy(\.isLoopback) { return }
        throw ProviderFailure(
            .unauthorized,
            "\(service): not sending credentials to \(credential.origin.host) over plain http; use https, or allow it with allow_insecure_auth = true"
        )
    }

    /// The one line for any address an untrusted caller may not reach or that did not answer.
    static func unreachable(service: String, host: String) -> ProviderFailure {
        ProviderFailure(.network, "\(service): \(host) could not be reached")
    }
}

/// Status handling shared by every fetch.
enum HTTPStatus {
    /// `response` when 2xx, else the ``ProviderFailure`` its status means.
    static func require2xx(
        _ response: HTTPResponse, for request: HTTPRequest, service: String
    ) throws
        -> HTTPResponse
    {
        switch response.status {
        case 200..<300:
            return response
        case 401, 403:
            throw ProviderFailure(.unauthorized, "\(service): HTTP \(response.status), credentials refused")
        case 404:
            throw ProviderFailure(.notFound, "\(service): HTTP 404 for \(request.url.path)")
        case 429:
            throw ProviderFailure(
                .rateLimited, "\(service): HTTP 429, rate limited", retryAfter: RetryAfter.date(from: response))
        default:
            throw ProviderFailure(.http, "\(service): HTTP \(response.status) from \(request.url.host ?? "server")")
        }
    }
}
