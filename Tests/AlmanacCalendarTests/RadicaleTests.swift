import AlmanacCore
import AlmanacCurl
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCalendar

/// The CalDAV provider against a real Radicale, populated over CalDAV with corpus files.
@Suite("CalDAV against Radicale", .serialized, .enabled(if: RadicaleServer.mayRun))
struct RadicaleTests {
    static func corpus(_ file: String) throws -> String {
        try String(contentsOf: Fixtures.url("calendar/ics/\(file)"), encoding: .utf8)
    }

    /// A server with calendar "Work" holding two real single-UID objects.
    static func seeded() async throws -> RadicaleServer {
        let server = try RadicaleServer()
        try await server.waitUntilReady()
        try await server.makeCalendar("/alice/office/", name: "Work")
        try await server.put("/alice/office/test7.ics", try corpus("nextcloud-sabredav-three-events-one-edited.ics"))
        try await server.put("/alice/office/davx5.ics", try corpus("davx5-ical4j-exdate-berlin.ics"))
        return server
    }

    func harness(
        _ server: RadicaleServer, log: RequestLog, password: String = RadicaleServer.password,
        state: any ProviderStateStore
    )
        -> CalendarHarness
    {
        var harness = CalendarHarness(now: "2019-03-18T00:00:00Z", zone: "Europe/Berlin")
        harness.transport = RecordingTransport(inner: CurlTransport(), log: log)
        harness.settings = Settings(environment: [
            "ALMANAC_CALDAV_USER": RadicaleServer.user, "ALMANAC_CALDAV_PASSWORD": password,
        ])
        harness.state = state
        return harness
    }

    @Test("discovery from the bare host, then events with the edited instance")
    func discovery() async throws {
        let server = try await Self.seeded()
        defer { server.stop() }
        let log = RequestLog()
        let payload = try await harness(server, log: log, state: MemoryStateStore())
            .payload(["--caldav", server.base.absoluteString, "--from", "2019-03-18", "--to", "2019-03-20"])
        #expect(
            payload.starts == [
                "2019-03-18T03:00:00Z test7", "2019-03-19T03:00:00Z test7 - edited", "2019-03-20T03:00:00Z test7",
            ])
        #expect(payload.events.map(\.calendar) == ["Work", "Work", "Work"])
        #expect(payload.events[1].recurrenceId?.json == "2019-03-19T03:00:00Z")
        let requests = await log.requests.map { "\($0.method) \($0.url.path(percentEncoded: true))" }
        #expect(requests.first == "PROPFIND /.well-known/caldav")
        #expect(requests.contains("PROPFIND /alice/"))
        #expect(requests.contains("REPORT /alice/office/"))
    }

    @Test("sync-collection: a repeat run transfers only the added and changed objects")
    func incrementalSync() async throws {
        let server = try await Self.seeded()
        defer { server.stop() }
        let state = MemoryStateStore()
        let log = RequestLog()
        let words = [
            "--caldav", server.base.appendingPathComponent("alice/").absoluteString, "--from", "2019-01-01", "--to",
            "2024-12-31",
        ]

        let first = try await harness(server, log: log, state: state).payload(words)
        #expect(
            Set(first.events.map(\.uid)) == [
                "5d4c6843-9300-4f91-8d88-6094d4b0b840", "f0f31ddb-6918-46af-a5a1-0a7254fbce71",
            ])
        #expect(await multigetHrefs(log) == ["/alice/office/davx5.ics", "/alice/office/test7.ics"])

        // Add one object, change one, delete one.
        try await server.put("/alice/office/eastern.ics", try Self.corpus("exchange2010-eastern-standard-time.ics"))
        let changed = try Self.corpus("davx5-ical4j-exdate-berlin.ics").replacingOccurrences(
            of: "SUMMARY:Test", with: "SUMMARY:Test (room 2)")
        try await server.put("/alice/office/davx5.ics", changed)
        try await server.delete("/alice/office/test7.ics")

        await log.reset()
        let second = try await harness(server, log: log, state: state).payload(words)
        #expect(await multigetHrefs(log) == ["/alice/office/davx5.ics", "/alice/office/eastern.ics"])
        let syncBodies = await log.requests.compactMap { $0.body.map { String(decoding: $0, as: UTF8.self) } }
            .filter { $0.contains("sync-collection") }
        #expect(syncBodies.count == 1)
        #expect(syncBodies.first?.contains("<d:sync-token></d:sync-token>") == false)
        #expect(!second.events.contains { $0.uid == "5d4c6843-9300-4f91-8d88-6094d4b0b840" })
        #expect(
            second.events.filter { $0.uid == "f0f31ddb-6918-46af-a5a1-0a7254fbce71" }.allSatisfy {
                $0.summary == "Test (room 2)"
            })
        #expect(second.starts.contains("2024-10-28T21:00:00Z Anonymous Test Event for TZID"))

        // Nothing changed: the collection's sync-token matches, so no REPORT at all.
        await log.reset()
        let third = try await harness(server, log: log, state: state).payload(words)
        #expect(third.events == second.events)
        #expect(await log.requests.allSatisfy { $0.method == "PROPFIND" })
    }

    @Test("calendar-query with a time-range when sync is not used")
    func calendarQuery() async throws {
        let server = try await Self.seeded()
        defer { server.stop() }
        let log = RequestLog()
        var tool = CalendarTool()
        tool.useCalDAVSync = false
        let harness = harness(server, log: log, state: MemoryStateStore())
        let arguments = try ToolArguments.parse(
            cli: ["--caldav", server.base.absoluteString, "--from", "2019-03-18", "--to", "2019-03-20"],
            schema: tool.schema,
            tool: "calendar")
        let result = try await tool.run(arguments, context: harness.context)
        let payload = try #require(result.payload as? CalendarPayload)
        #expect(
            payload.starts == [
                "2019-03-18T03:00:00Z test7", "2019-03-19T03:00:00Z test7 - edited", "2019-03-20T03:00:00Z test7",
            ])
        let bodies = await log.requests.compactMap { $0.body.map { String(decoding: $0, as: UTF8.self) } }
        #expect(bodies.contains { $0.contains(#"<c:time-range start="20190316T230000Z" end="20190321T230000Z"/>"#) })
        // Only the object in the window was fetched.
        #expect(await multigetHrefs(log) == ["/alice/office/test7.ics"])
    }

    @Test("a wrong password is a clear error that never shows the password")
    func wrongPassword() async throws {
        let server = try await Self.seeded()
        defer { server.stop() }
        let secret = "wrong-password-\(UUID().uuidString)"
        let harness = harness(server, log: RequestLog(), password: secret, state: MemoryStateStore())
        do {
            _ = try await harness.run(["--caldav", server.base.absoluteString])
            Issue.record("expected a failure")
        } catch let error as AlmanacError {
            #expect(error.kind == .unavailable)
            #expect(error.description.contains("CalDAV: 127.0.0.1 refused the username or password (HTTP 401/403)"))
            #expect(!error.description.contains(secret))
        }
    }

    @Test("a missing collection is a clear 404 error")
    func missingCollection() async throws {
        let server = try await Self.seeded()
        defer { server.stop() }
        let harness = harness(server, log: RequestLog(), state: MemoryStateStore())
        do {
            _ = try await harness.run(["--caldav", server.base.appendingPathComponent("alice/nope/").absoluteString])
            Issue.record("expected a failure")
        } catch let error as AlmanacError {
            #expect(error.description.contains("CalDAV: 127.0.0.1 has nothing at /alice/nope (HTTP 404)"))
        }
    }

    func multigetHrefs(_ log: RequestLog) async -> [String] {
        await log.requests.compactMap { request -> [String]? in
            guard let body = request.body.map({ String(decoding: $0, as: UTF8.self) }),
                body.contains("calendar-multiget")
            else {
                return nil
            }
            return body.components(separatedBy: "<d:href>").dropFirst().compactMap {
                $0.components(separatedBy: "</d:href>").first
            }
        }.flatMap { $0 }.sorted()
    }
}
