import AlmanacTesting
import Foundation
import Testing

/// A library must never write to stderr on its own: libxml2's default handler printed "parser
/// error" lines for every malformed WebDAV body. Almanac's own single error line is all there is.
@Suite("the lazily opened libraries print nothing")
struct QuietLibrariesEndToEnd {
    @Test("a malformed CalDAV body is one clear line on stderr and nothing from libxml2")
    func malformedCalDAVBody() async throws {
        let scratch = try Scratch()
        let root = scratch.url.appendingPathComponent("fixtures")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        // Every request the client may start with gets the same truncated multistatus.
        for method in ["PROPFIND", "REPORT"] {
            let exchange = """
                {"request":{"method":"\(method)","url":"http://127.0.0.1/dav/"},
                 "response":{"status":207,"headers":{"content-type":"application/xml; charset=utf-8"},"body":"broken.xml"}}
                """
            try exchange.write(
                to: root.appendingPathComponent("\(method).exchange.json"), atomically: true, encoding: .utf8)
        }
        try
            "<?xml version=\"1.0\"?>\n<d:multistatus xmlns:d=\"DAV:\">\n<d:response><d:href>/dav/</d:href>\n</d:multistatus>"
            .write(to: root.appendingPathComponent("broken.xml"), atomically: true, encoding: .utf8)
        let server = try FixtureServer(root: root)
        defer { server.stop() }

        let output = try await ToolsBinary.run(
            ["run", "calendar", "--caldav", "\(server.baseURL)/dav/", "--from", "2024-01-01", "--to", "2024-01-02"],
            environment: scratch.environment(["ALMANAC_CACHE_TTL": "0"]))
        #expect(output.status != 0)
        // The calendar's failure line and the provider's detail: libxml2's message folded into one.
        let lines = output.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(output.stderr)")
        #expect(lines.first == "error: calendar: every provider failed")
        #expect(
            lines.last?.contains(
                "caldav: CalDAV: unreadable XML from 127.0.0.1 for PROPFIND /dav: line 4: Opening and ending tag mismatch"
            ) == true, "\(output.stderr)")
        #expect(!output.stderr.contains("parser error"))
    }
}
