import Foundation
import Synchronization
import Testing

@testable import AlmanacCore

/// A transport double that records what it was sent and answers from a script (synthetic
/// statuses; the header values come from MET Norway's recorded London answer).
final class ScriptedTransport: HTTPTransport, Sendable {
    private let sent = Mutex<[HTTPRequest]>([])
    private let answers: Mutex<[HTTPResponse]>

    init(_ answers: [HTTPResponse]) { self.answers = Mutex(answers) }

    var requests: [HTTPRequest] { sent.withLock { $0 } }

    func send(_ request: HTTPRequest, timeout: Duration) async throws -> HTTPResponse {
        sent.withLock { $0.append(request) }
        return answers.withLock { $0.isEmpty ? HTTPResponse(status: 500, body: Data()) : $0.removeFirst() }
    }
}

/// A wall clock the test moves by hand.
final class HandClock: Sendable {
    private let value: Mutex<Date>
    init(_ start: Date) { value = Mutex(start) }
    var now: Date { value.withLock { $0 } }
    func set(_ date: Date) { value.withLock { $0 = date } }
}

@Suite("upstream terms: User-Agent, interval, conditional requests")
struct TermsTransportTests {
    static func descriptor(_ terms: UpstreamTerms) -> ProviderDescriptor {
        ProviderDescriptor(name: "termed", tool: "test", priority: 0, summary: "Termed API", terms: terms)
    }

    static let contactTerms = UpstreamTerms(
        userAgent: .contactRequired(config: ["weather", "contact"]), conditionalRequests: true)
    static let request = HTTPRequest(url: URL(string: "http://127.0.0.1:9/forecast?lat=51.5&lon=-0.1")!)
    // MET Norway's recorded London answer (Fixtures/weather/met-norway/complete-london-2020.exchange.json).
    static let expires = "Mon, 20 Jul 2020 12:16:23 GMT"
    static let lastModified = "Mon, 20 Jul 2020 11:44:31 GMT"

    func date(_ text: String) throws -> Date { try #require(TimeText.parseInstant(text)) }

    @Test("without a contact the upstream is never called, and the failure says how to set one")
    func contactRequired() throws {
        let base = ScriptedTransport([])
        #expect(throws: ProviderFailure.self) {
            _ = try TermsTransport(
                base: base, descriptor: Self.descriptor(Self.contactTerms), settings: Settings(),
                state: MemoryStateStore())
        }
        do {
            _ = try TermsTransport(
                base: base, descriptor: Self.descriptor(Self.contactTerms), settings: Settings(),
                state: MemoryStateStore())
        } catch let failure as ProviderFailure {
            #expect(failure.kind == .unconfigured)
            #expect(failure.message.contains("[weather] contact = \"you@example.org\""))
            #expect(failure.message.contains("ALMANAC_CONTACT"))
            #expect(!failure.message.contains("\n"))
        }
        #expect(base.requests.isEmpty)
        // A contact that would break the header is refused too.
        let bad = Settings(environment: ["ALMANAC_CONTACT": "me@example.org\r\nX-Evil: 1"])
        #expect(Self.contactTerms.unconfiguredReason(bad, service: "Termed API") != nil)
    }

    @Test("the User-Agent carries the contact from config, else from ALMANAC_CONTACT")
    func userAgent() async throws {
        let config = Settings(
            environment: ["ALMANAC_CONTACT": "env@example.org"],
            config: ["weather": .table(["contact": .string("ops@example.org")])])
        let base = ScriptedTransport([HTTPResponse(status: 200, body: Data("{}".utf8))])
        let transport = try TermsTransport(
            base: base, descriptor: Self.descriptor(Self.contactTerms), settings: config, state: MemoryStateStore())
        _ = try await transport.send(Self.request, timeout: .seconds(1))
        #expect(
            base.requests.first?.headers["User-Agent"] == "almanac/\(AlmanacVersion.current) (+tools; ops@example.org)")
        let fromEnvironment = Self.contactTerms.userAgentValue(
            Settings(environment: ["ALMANAC_CONTACT": "env@example.org"]))
        #expect(fromEnvironment.hasSuffix("; env@example.org)"))
    }

    @Test("Expires is honoured, If-Modified-Since is sent, a 304 keeps the body and extends it")
    func conditional() async throws {
        let clock = HandClock(try date("2020-07-20T11:50:00Z"))
        let state = MemoryStateStore()
        let settings = Settings(environment: ["ALMANAC_CONTACT": "ops@example.org"])
        let body = Data(#"{"recorded":true}"#.utf8)
        let base = ScriptedTransport([
            HTTPResponse(
                status: 200, headers: ["Expires": Self.expires, "Last-Modified": Self.lastModified], body: body),
            HTTPResponse(status: 304, headers: ["Expires": "Mon, 20 Jul 2020 12:46:23 GMT"], body: Data()),
        ])
        // Two transports over one store: two processes sharing the SQLite state.
        func transport() throws -> TermsTransport {
            try TermsTransport(
                base: base, descriptor: Self.descriptor(Self.contactTerms), settings: settings, state: state,
                clock: { clock.now })
        }
        let first = try await transport().send(Self.request, timeout: .seconds(1))
        #expect(first.body == body)
        #expect(base.requests.count == 1)

        // Before Expires: no request at all, the stored body.
        clock.set(try date("2020-07-20T12:10:00Z"))
        let fresh = try await transport().send(Self.request, timeout: .seconds(1))
        #expect(fresh.status == 200 && fresh.body == body)
        #expect(base.requests.count == 1)

        // After Expires: a conditional request; the 304 serves the stored body.
        clock.set(try date("2020-07-20T12:20:00Z"))
        let revalidated = try await transport().send(Self.request, timeout: .seconds(1))
        #expect(base.requests.count == 2)
        #expect(base.requests.last?.headers["If-Modified-Since"] == Self.lastModified)
        #expect(revalidated.status == 200 && revalidated.body == body)

        // The 304's Expires now holds: no request until 12:46:23.
        clock.set(try date("2020-07-20T12:40:00Z"))
        _ = try await transport().send(Self.request, timeout: .seconds(1))
        #expect(base.requests.count == 2)
    }

    @Test("the minimum interval holds across transports sharing the state store")
    func interval() async throws {
        let terms = UpstreamTerms(minimumInterval: .milliseconds(400))
        let state = MemoryStateStore()
        let base = ScriptedTransport((0..<2).map { _ in HTTPResponse(status: 200, body: Data("[]".utf8)) })
        let started = ContinuousClock.now
        for _ in 0..<2 {
            let transport = try TermsTransport(
                base: base, descriptor: Self.descriptor(terms), settings: Settings(), state: state)
            _ = try await transport.send(Self.request, timeout: .seconds(1))
        }
        #expect(ContinuousClock.now - started >= .milliseconds(350))
        #expect(base.requests.count == 2)
        // The standard agent identifies Almanac even without a contact.
        #expect(base.requests.first?.headers["User-Agent"]?.hasPrefix("almanac/") == true)
    }

    @Test("request slots queue concurrent callers one interval apart; a clock stepped back waits one interval")
    func requestSlots() async {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let state = MemoryStateStore()
        var slots: [Date] = []
        for _ in 0..<3 { slots.append(await state.reserveSlot("k", interval: 1, now: now)) }
        #expect(slots == [now, now.addingTimeInterval(1), now.addingTimeInterval(2)])
        // A slot stored an hour ahead (the clock went back since) is not waited for.
        let stepped = RequestSlot.next(after: now.addingTimeInterval(3_600), interval: 1, now: now)
        #expect(stepped == now.addingTimeInterval(1))
        #expect(RequestSlot.next(after: nil, interval: 1, now: now) == now)
    }
}
