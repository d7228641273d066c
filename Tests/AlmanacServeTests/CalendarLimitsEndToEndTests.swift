import AlmanacTesting
import Foundation
import Testing

/// Issue 21, point 5: bounded calendar answers. Runs the built `tools` on generated input.
@Suite("calendar limits")
struct CalendarLimitsEndToEndTests {
    /// An .ics with `count` one-off events on 3 Feb 2024 (each ~120 bytes), padded with a
    /// description of `padding` characters.
    static func calendar(events count: Int, padding: Int = 0) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//almanac//test//EN"]
        for index in 0..<count {
            lines += [
                "BEGIN:VEVENT", "UID:e\(index)", "DTSTAMP:20240101T000000Z",
                String(format: "DTSTART:20240203T%02d%02d00Z", index % 24, index % 60), "SUMMARY:E\(index)",
            ]
            if padding > 0 { lines.append("DESCRIPTION:" + String(repeating: "x", count: padding)) }
            lines.append("END:VEVENT")
        }
        lines.append("END:VCALENDAR")
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    func run(_ source: String, _ directory: TempDirectory, extra: [String: String] = [:]) async throws -> CommandOutput
    {
        try await ToolsBinary.run(
            [
                "run", "calendar", "--ics", source, "--from", "2024-02-03", "--to", "2024-02-03", "--tz", "UTC",
                "--format", "json",
            ],
            environment: ToolsBinary.environment(cacheDirectory: directory.url, extra: extra), timeout: 60)
    }

    @Test("1,500 events: the answer lists 1,000, counts the other 500 in data.omitted and says so in context")
    func occurrencesCapped() async throws {
        let directory = try TempDirectory()
        let file = directory.url.appendingPathComponent("many.ics")
        try Data(Self.calendar(events: 1_500).utf8).write(to: file)
        let output = try await run(file.path, directory)
        #expect(output.status == 0, "\(output.stderr)")
        let envelope = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let data = try #require(envelope["data"] as? [String: Any])
        #expect((data["events"] as? [Any])?.count == 1_000)
        #expect(data["omitted"] as? Int == 500)
        let text = try await ToolsBinary.run(
            ["run", "calendar", "--ics", file.path, "--from", "2024-02-03", "--to", "2024-02-03", "--tz", "UTC"],
            environment: ToolsBinary.environment(cacheDirectory: directory.url), timeout: 60)
        #expect(
            text.stdout.contains("1000 events; times in GMT (UTC). 500 more events left out (over 1000 per answer)"))
        // Configurable.
        let raised = try await run(file.path, directory, extra: ["ALMANAC_CALENDAR_MAX_OCCURRENCES": "2000"])
        #expect(!raised.stdout.contains(#""omitted""#))
    }

    @Test("a feed over max_source_bytes is refused, named with the limit; under a raised limit it is read")
    func feedSizeLimit() async throws {
        let directory = try TempDirectory()
        let feeds = directory.url.appendingPathComponent("feeds")
        try FileManager.default.createDirectory(at: feeds, withIntermediateDirectories: true)
        // ~2.3 MB, and a limit of 1 MB.
        try Data(Self.calendar(events: 10_000, padding: 120).utf8).write(to: feeds.appendingPathComponent("big.ics"))
        let port = try LoopbackPort.free()
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        server.arguments = ["-m", "http.server", "--bind", "127.0.0.1", "--directory", feeds.path, String(port)]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { ChildProcess.stop(server) }
        let url = "http://127.0.0.1:\(port)/big.ics"
        var ready = false
        for _ in 0..<50 where !ready {
            ready = await (try? HTTP.get(url).status) == 200
            if !ready { usleep(100_000) }
        }
        #expect(ready)
        let refused = try await run(url, directory, extra: ["ALMANAC_CALENDAR_MAX_SOURCE_BYTES": String(1 << 20)])
        #expect(refused.status == 69, "\(refused.stdout)")
        // The transport stopped reading at the limit (the feed was never held whole).
        #expect(refused.stderr.contains("response larger than 1 MB refused"), "\(refused.stderr)")
        let read = try await run(url, directory, extra: ["ALMANAC_CALENDAR_MAX_SOURCE_BYTES": String(8 << 20)])
        #expect(read.status == 0, "\(read.stderr)")
    }
}
