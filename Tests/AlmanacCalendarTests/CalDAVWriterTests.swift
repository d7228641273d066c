import AlmanacCore
import AlmanacCurl
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCalendar

/// ``CalDAVWriter``'s requests against a real Radicale: which conditional header each write
/// sends, and that the server's 412 comes back as a failed precondition, never as a write.
@Suite("CalDAV writer: conditional requests against Radicale", .serialized, .enabled(if: RadicaleServer.mayRun))
struct CalDAVWriterTests {
    static let event = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Almanac test//EN", "BEGIN:VEVENT", "UID:w-1@test",
        "DTSTAMP:20260301T000000Z", "DTSTART:20260327T080000Z", "DTEND:20260327T090000Z", "SUMMARY:First",
        "END:VEVENT", "END:VCALENDAR", "",
    ].joined(separator: "\r\n")

    @Test("If-None-Match: * creates once; If-Match with a stale ETag neither writes nor deletes")
    func conditional() async throws {
        let server = try RadicaleServer()
        defer { server.stop() }
        try await server.waitUntilReady()
        try await server.makeCalendar("/alice/work/", name: "Work")
        let collection = try #require(URL(string: "/alice/work/", relativeTo: server.base)?.absoluteURL)
        let log = RequestLog()
        let environment = testEnvironment(
            transport: RecordingTransport(inner: CurlTransport(), log: log), now: Date(), timeout: .seconds(30))
        let source = CalendarSource(
            name: "work", location: .caldav(collection),
            credentials: Credentials(username: RadicaleServer.user, password: RadicaleServer.password),
            configured: true)
        let writer = try CalDAVWriter(source: source, environment: environment)
        let url = CalDAVWriter.objectURL(uid: "w-1@test", in: collection)
        #expect(url.path == "/alice/work/w-1@test.ics")

        guard case .written(let first?) = try await writer.put(Self.event, to: url, ifMatch: nil) else {
            Issue.record("the first PUT did not write")
            return
        }
        let puts = await log.requests.filter { $0.method == "PUT" }
        #expect(puts.last?.headers["If-None-Match"] == "*")
        #expect(puts.last?.headers["If-Match"] == nil)
        // The same PUT again (a retry whose first answer was lost): 412, the object unchanged.
        guard case .preconditionFailed = try await writer.put(Self.event, to: url, ifMatch: nil) else {
            Issue.record("a second create was not refused")
            return
        }
        let changed = Self.event.replacingOccurrences(of: "SUMMARY:First", with: "SUMMARY:Second")
        guard case .written(let second?) = try await writer.put(changed, to: url, ifMatch: first) else {
            Issue.record("the change with the current ETag did not write")
            return
        }
        #expect(second != first)
        #expect(await log.requests.last { $0.method == "PUT" }?.headers["If-Match"] == first)
        // With the old ETag: another client's change (ours, here) is not overwritten, nor deleted.
        let stale = Self.event.replacingOccurrences(of: "SUMMARY:First", with: "SUMMARY:Stale")
        guard case .preconditionFailed = try await writer.put(stale, to: url, ifMatch: first),
            case .preconditionFailed = try await writer.delete(url, ifMatch: first)
        else {
            Issue.record("a stale ETag was not refused")
            return
        }
        let now = try #require(try await writer.get(url))
        #expect(now.text.contains("SUMMARY:Second"))
        #expect(now.etag == second)
        guard case .written = try await writer.delete(url, ifMatch: second) else {
            Issue.record("the delete with the current ETag failed")
            return
        }
        #expect(try await writer.get(url) == nil)
        #expect(writer.conflict.exitStatus == 69)
        for request in await log.requests {
            #expect(!String(decoding: request.body ?? Data(), as: UTF8.self).contains(RadicaleServer.password))
        }
    }
}
