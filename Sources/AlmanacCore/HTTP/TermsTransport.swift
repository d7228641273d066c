import Foundation

extension ProviderEnvironment {
    /// The transport a provider speaks through when it honours `descriptor.terms`: its User-Agent
    /// (with the contact), the minimum interval between requests across processes, and
    /// conditional requests (`Expires`, `If-Modified-Since`, 304), with state kept in ``state``.
    ///
    /// - Throws: ``ProviderFailure`` of kind `unconfigured` when the terms require a contact and
    ///   none is set (the upstream must not be called with a generic agent).
    public func transport(honouring descriptor: ProviderDescriptor) throws -> TermsTransport {
        try TermsTransport(base: transport, descriptor: descriptor, settings: settings, state: state)
    }
}

extension UpstreamTerms {
    /// The variable that holds a contact for every provider whose terms ask for one.
    static let contactVariable = "ALMANAC_CONTACT"

    /// The contact to put in the User-Agent (config path first, then `ALMANAC_CONTACT`), nil when
    /// none is set or the policy takes none.
    func contact(_ settings: Settings) -> String? {
        let path: [String]
        switch userAgent {
        case .standard: return nil
        case .contactRequired(let config), .contactWhenSet(let config): path = config
        }
        let configured = settings.config(path)?.stringValue ?? settings.env(Self.contactVariable)
        guard let configured else { return nil }
        let trimmed = configured.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// Nil when a request may be made with `settings`, else one line saying what to set.
    public func unconfiguredReason(_ settings: Settings, service: String) -> String? {
        if case .contactRequired(let path) = userAgent, contact(settings) == nil {
            let section = path.dropLast().joined(separator: ".")
            let key = path.last ?? "contact"
            return
                "\(service) needs a contact in its User-Agent: set [\(section)] \(key) = \"you@example.org\" in config.toml or \(Self.contactVariable)"
        }
        if let contact = contact(settings), !Self.isValidContact(contact) {
            return "\(service): the contact must be an e-mail address or URL on one line, got '\(contact.prefix(60))'"
        }
        return nil
    }

    /// An e-mail address or URL without control characters (it travels in a header).
    static func isValidContact(_ contact: String) -> Bool {
        guard contact.count <= 200, !contact.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else { return false }
        return contact.contains("@") || contact.hasPrefix("http://") || contact.hasPrefix("https://")
    }

    /// `almanac/0.1.0 (+tools; you@example.org)`, or without the contact part when there is none.
    public func userAgentValue(_ settings: Settings) -> String {
        let base = "almanac/\(AlmanacVersion.current) (+tools"
        guard let contact = contact(settings), Self.isValidContact(contact) else { return base + ")" }
        return base + "; \(contact))"
    }
}

/// A transport that keeps one provider's upstream terms, whatever the upstream: it knows no
/// host, header or format beyond standard HTTP (`User-Agent`, `Expires`, `Last-Modified`,
/// `If-Modified-Since`, `ETag`, `If-None-Match`, 304).
///
/// State lives in the shared ``ProviderStateStore`` (SQLite in the runtime), so the interval and
/// the stored answers hold across processes. Intervals and expiry are measured on the wall clock,
/// never on a test's fixed "now".
public struct TermsTransport: HTTPTransport {
    let base: any HTTPTransport
    let name: String
    let terms: UpstreamTerms
    let userAgent: String
    let state: any ProviderStateStore
    let clock: @Sendable () -> Date

    /// Wraps `base` for the provider `descriptor`.
    ///
    /// - Throws: ``ProviderFailure`` (`unconfigured`) when the terms cannot be kept with `settings`.
    init(
        base: any HTTPTransport, descriptor: ProviderDescriptor, settings: Settings, state: any ProviderStateStore,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        if let reason = descriptor.terms.unconfiguredReason(settings, service: descriptor.summary) {
            throw ProviderFailure(.unconfigured, reason)
        }
        self.base = base
        name = descriptor.name
        terms = descriptor.terms
        userAgent = descriptor.terms.userAgentValue(settings)
        self.state = state
        self.clock = clock
    }

    /// Sends `request` within the terms: may answer from the stored copy without a request.
    public func send(_ request: HTTPRequest, timeout: Duration) async throws -> HTTPResponse {
        var request = request
        if !request.headers.keys.contains(where: { $0.lowercased() == "user-agent" }) {
            request.headers["User-Agent"] = userAgent
        }
        let key = "terms:\(name):http:\(request.method) \(request.url.absoluteString)"
        let stored = terms.conditionalRequests && request.method == "GET" ? await storedAnswer(key) : nil
        if let stored, let expires = stored.expires, expires > clock() {
            // Still fresh by upstream's own Expires: asking again breaks the terms.
            return HTTPResponse(status: 200, headers: stored.headers, body: stored.body)
        }
        if let stored {
            if let lastModified = stored.lastModified { request.headers["If-Modified-Since"] = lastModified }
            if let etag = stored.etag { request.headers["If-None-Match"] = etag }
        }
        try await waitForInterval()
        let response = try await base.send(request, timeout: timeout)
        guard terms.conditionalRequests, request.method == "GET" else { return response }
        if response.status == 304, var stored {
            // Not modified: the stored body stands, under the new expiry.
            stored.expires = HTTPDate.parse(response.header("expires")) ?? stored.expires
            stored.lastModified = response.header("last-modified") ?? stored.lastModified
            stored.etag = response.header("etag") ?? stored.etag
            await save(stored, key)
            return HTTPResponse(status: 200, headers: stored.headers, body: stored.body)
        }
        if (200..<300).contains(response.status) {
            let expires = HTTPDate.parse(response.header("expires"))
            let lastModified = response.header("last-modified")
            let etag = response.header("etag")
            if expires != nil || lastModified != nil || etag != nil {
                let kept = response.headers.filter { $0.key == "content-type" }
                await save(
                    StoredAnswer(
                        body: response.body, headers: kept, expires: expires, lastModified: lastModified, etag: etag),
                    key)
            }
        }
        return response
    }

    /// Waits until `minimumInterval` has passed since the last request any process made to this
    /// upstream. Reserves its slot first (atomically in the store), so concurrent callers, in this
    /// process or others, queue instead of colliding.
    func waitForInterval() async throws {
        guard let interval = terms.minimumInterval else { return }
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        let now = clock()
        let slot = await state.reserveSlot("terms:\(name):last-request", interval: seconds, now: now)
        let wait = slot.timeIntervalSince(now)
        if wait > 0 { try await Task.sleep(for: .milliseconds(Int((wait * 1000).rounded(.up)))) }
    }

    struct StoredAnswer: Codable {
        var body: Data
        var headers: [String: String]
        var expires: Date?
        var lastModified: String?
        var etag: String?
    }

    func storedAnswer(_ key: String) async -> StoredAnswer? {
        guard let data = await state.value(for: key) else { return nil }
        return try? JSONDecoder().decode(StoredAnswer.self, from: data)
    }

    func save(_ answer: StoredAnswer, _ key: String) async {
        await state.setValue(try? JSONEncoder().encode(answer), for: key)
    }
}

/// HTTP dates (RFC 9110 IMF-fixdate, `Mon, 20 Jul 2020 12:16:23 GMT`).
enum HTTPDate {
    /// The date in `text`, nil when absent or not an HTTP date.
    static func parse(_ text: String?) -> Date? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}
