import Foundation
import Testing

@testable import AlmanacCalendar

/// WebDAV bodies through libxml2's pull parser: namespaces, empty elements, CDATA, entities, and
/// what must never happen (a DTD fetching or expanding a file).
@Suite("WebDAV multistatus parsing")
struct DAVXMLTests {
    static let body = """
        <?xml version="1.0" encoding="utf-8"?>
        <multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:CS="http://calendarserver.org/ns/">
          <response>
            <href>/alice/office/</href>
            <propstat>
              <prop>
                <resourcetype><collection/><C:calendar/></resourcetype>
                <displayname>Office &amp; Home</displayname>
                <CS:getctag>"ctag-1"</CS:getctag>
              </prop>
              <status>HTTP/1.1 200 OK</status>
            </propstat>
            <propstat>
              <prop><C:calendar-color/></prop>
              <status>HTTP/1.1 404 Not Found</status>
            </propstat>
          </response>
          <response>
            <href>/alice/office/event.ics</href>
            <propstat>
              <prop>
                <getetag>"e1"</getetag>
                <C:calendar-data><![CDATA[BEGIN:VCALENDAR
        END:VCALENDAR
        ]]></C:calendar-data>
              </prop>
              <status>HTTP/1.1 200 OK</status>
            </propstat>
          </response>
          <response><href>/alice/office/gone.ics</href><status>HTTP/1.1 404 Not Found</status></response>
          <sync-token>http://radicale.org/ns/sync/abc</sync-token>
        </multistatus>
        """

    @Test("responses, their 2xx properties, namespaces, entities, CDATA and the sync token")
    func multistatus() throws {
        let parsed = try #require(try DAV.multistatus(Data(Self.body.utf8)))
        #expect(parsed.syncToken == "http://radicale.org/ns/sync/abc")
        #expect(
            parsed.responses.map(\.href) == ["/alice/office/", "/alice/office/event.ics", "/alice/office/gone.ics"])

        let collection = parsed.responses[0]
        #expect(collection.status == nil)
        // `<collection/>` is empty: `<C:calendar/>` is its sibling, not its child.
        let types = try #require(collection.property("resourcetype")).children
        #expect(types.map { "\($0.namespace) \($0.name)" } == ["DAV: collection", "\(DAV.caldav) calendar"])
        #expect(types.allSatisfy { $0.children.isEmpty })
        #expect(collection.property("displayname")?.value == "Office & Home")
        #expect(collection.property("getctag", DAV.calendarServer)?.value == "\"ctag-1\"")
        // Only the 200 propstat counts.
        #expect(collection.property("calendar-color", DAV.caldav) == nil)

        let event = parsed.responses[1]
        #expect(event.property("getetag")?.value == "\"e1\"")
        #expect(event.property("calendar-data", DAV.caldav)?.text == "BEGIN:VCALENDAR\nEND:VCALENDAR\n")
        #expect(parsed.responses[2].status == 404)
    }

    @Test("other roots read as no multistatus")
    func notMultistatus() throws {
        #expect(try DAV.multistatus(Data("<error xmlns=\"DAV:\"/>".utf8)) == nil)
        #expect(try DAV.multistatus(Data("<multistatus/>".utf8)) == nil)  // not in the DAV: namespace
    }

    @Test(
        "a malformed body is one line from libxml2's first error",
        arguments: [
            ("<multistatus xmlns=\"DAV:\"><response>", "line 1: "),
            ("not xml at all", "line 1: "),
            ("<a>\n<b></a>", "line 2: Opening and ending tag mismatch"),
            ("", "the body is empty"),
        ])
    func malformed(body: String, reason: String) throws {
        let error = try #require(throws: XMLMalformed.self) { try DAV.multistatus(Data(body.utf8)) }
        #expect(error.reason.hasPrefix(reason), "\(error.reason)")
        #expect(!error.reason.contains("\n"))
    }

    @Test("an external entity in a DTD is neither fetched nor expanded")
    func externalEntity() throws {
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-xxe-\(UUID().uuidString)")
        try "TOP-SECRET-CONTENT".write(to: secret, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: secret) }
        let body = """
            <?xml version="1.0"?>
            <!DOCTYPE multistatus [<!ENTITY leak SYSTEM "\(secret.absoluteString)">]>
            <multistatus xmlns="DAV:"><response><href>/a/</href><propstat><prop>
            <displayname>&leak;</displayname></prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>
            """
        let parsed = try DAV.multistatus(Data(body.utf8))
        let name = parsed?.responses.first?.property("displayname")?.text ?? ""
        #expect(!name.contains("TOP-SECRET"))
    }
}
