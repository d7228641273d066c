import AlmanacCore
import AlmanacCurl
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCalendar

/// The calendar's network providers against the provider contract kit. `ics-file` reads the local
/// disk, not the HTTP seam, so the kit's bent answers cannot reach it; its bad-file cases (cut-off,
/// too large, unreadable) are in CalendarSourceTests and CalendarBadInputEndToEnd.
@Suite("provider contract: calendar", .serialized)
struct CalendarContractTests {
    // 18-25 March 2019 in Berlin: the recorded DAVx5 series has instances in it.
    static let now = Date(timeIntervalSince1970: 1_552_867_200)
    static let window = ExpansionWindow(
        start: now, end: now.addingTimeInterval(7 * 86_400), zone: TimeZone(identifier: "Europe/Berlin") ?? TimeText.utc
    )

    @Test("ics-url keeps the provider contract on a real producer's feed (a feed cut short is no answer)")
    func feed() async throws {
        let body = try Data(contentsOf: Fixtures.url("calendar/ics/davx5-ical4j-exdate-berlin.ics"))
        let recorded = StubTransport { _ in
            HTTPResponse(status: 200, headers: ["Content-Type": "text/calendar"], body: body)
        }
        let source = CalendarSource(
            name: "feed", location: .feed(try #require(URL(string: "https://calendar.example.org/team.ics"))),
            credentials: nil, configured: false)
        let violations = await ProviderContract.check(
            ICSFeedProvider(), query: CalendarFetch(source: source, window: Self.window, wantsTasks: false),
            recorded: recorded, now: Self.now)
        #expect(violations.isEmpty, "\(violations)")
    }

    @Test(
        "caldav keeps the provider contract against a real Radicale (the password is the kit's sentinel)",
        .enabled(if: RadicaleServer.mayRun))
    func caldav() async throws {
        let server = try RadicaleServer(password: ProviderContract.sentinelSecret)
        defer { server.stop() }
        try await server.waitUntilReady()
        try await server.makeCalendar("/alice/office/", name: "Work")
        try await server.put(
            "/alice/office/davx5.ics",
            String(contentsOf: Fixtures.url("calendar/ics/davx5-ical4j-exdate-berlin.ics"), encoding: .utf8))
        let source = CalendarSource(
            name: "work", location: .caldav(server.base),
            credentials: Credentials(username: RadicaleServer.user, password: ProviderContract.sentinelSecret),
            configured: true)
        let violations = await ProviderContract.check(
            CalDAVProvider(), query: CalendarFetch(source: source, window: Self.window, wantsTasks: false),
            recorded: CurlTransport(), now: Self.now)
        #expect(violations.isEmpty, "\(violations)")
    }
}
