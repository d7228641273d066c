import AlmanacTesting
import Foundation
import Testing

/// Calendar writes by callers of the built `tools serve` (docs/security.md, "Writes"): off by
/// default (refused in one line, absent from /openapi.json); with `[serve] allow_writes =
/// ["serve"]` a write answers 202 with a preview and a single-use token, and only the same call
/// with that token writes, once.
@Suite("tools serve: calendar writes by callers, switched and confirmed")
struct CallerWritesEndToEndTests {
    /// A scratch folder with a writable local calendar and config.toml.
    final class Setup: @unchecked Sendable {
        let folder: URL
        let file: URL
        let config: URL

        init(allowWrites: [String]?) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-cw-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            file = folder.appendingPathComponent("home.ics")
            try Data(
                [
                    "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Other App//EN", "BEGIN:VEVENT", "UID:dentist-1@other",
                    "DTSTAMP:20260301T000000Z", "DTSTART:20260327T140000Z", "DTEND:20260327T150000Z",
                    "SUMMARY:Dentist", "END:VEVENT", "END:VCALENDAR", "",
                ].joined(separator: "\r\n").utf8
            ).write(to: file)
            config = folder.appendingPathComponent("config.toml")
            let allow = allowWrites.map {
                "[serve]\nallow_writes = [\($0.map { "\"\($0)\"" }.joined(separator: ", "))]\n"
            }
            try """
            \(allow ?? "")
            [calendars.home]
            ics = "\(file.path)"
            writable = true
            """.write(to: config, atomically: true, encoding: .utf8)
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        var environment: [String: String] {
            ToolsBinary.environment(
                cacheDirectory: folder.appendingPathComponent("cache"),
                extra: [
                    "ALMANAC_CONFIG": config.path, "ALMANAC_NOW": "2026-03-26T10:00:00Z", "ALMANAC_TZ": "Europe/Berlin",
                ])
        }

        var calendar: String { (try? String(contentsOf: file, encoding: .utf8)) ?? "" }
    }

    static let add = #"{"range": "add", "title": "call mom", "at": "tomorrow 18:00", "calendar": "home""#

    func calendarSchema(_ server: ServeProcess) async throws -> [String: Any] {
        let document = try await #require(try HTTP.get(server.baseURL + "/openapi.json").json)
        let operation = (document["paths"] as? [String: Any])?["/tools/calendar"] as? [String: Any]
        let body = (operation?["post"] as? [String: Any])?["requestBody"] as? [String: Any]
        let json = (body?["content"] as? [String: Any])?["application/json"] as? [String: Any]
        return try #require((json?["schema"] as? [String: Any])?["properties"] as? [String: Any])
    }

    @Test("off by default: a write is refused in one line, nothing written; no write options in /openapi.json")
    func offByDefault() async throws {
        let setup = try Setup(allowWrites: nil)
        let before = setup.calendar
        let server = try ServeProcess(environment: setup.environment)
        defer { server.stop() }
        let properties = try await calendarSchema(server)
        let ranges = (properties["range"] as? [String: Any])?["enum"] as? [String]
        #expect(ranges?.contains("today") == true)
        #expect(ranges?.contains("add") == false && ranges?.contains("delete") == false, "\(ranges ?? [])")
        for option in ["title", "at", "due", "confirm", "yes", "series"] {
            #expect(properties[option] == nil, "\(option) published")
        }
        let reply = try await HTTP.post(server.baseURL + "/tools/calendar", Self.add + "}")
        #expect(reply.status == 400)
        let line = try #require(reply.json?["error"] as? String)
        #expect(line.hasPrefix("error: calendar: 'add' writes, and writing is off for callers"), "\(line)")
        #expect(line.contains("[serve] allow_writes") && !line.contains("\n"))
        // A write option alone is refused too, and says why.
        let option = try await HTTP.post(server.baseURL + "/tools/calendar", #"{"at": "tomorrow 18:00"}"#)
        #expect(option.status == 400)
        #expect((option.json?["error"] as? String)?.contains("argument 'at' writes") == true, "\(option.body)")
        #expect(setup.calendar == before)
    }

    @Test("a misspelt front stops every command in one line, so a switch is never silently off or on")
    func unknownFront() async throws {
        let setup = try Setup(allowWrites: ["mpc"])
        let output = try await ToolsBinary.run(["run", "calendar", "today"], environment: setup.environment)
        #expect(output.status == 64)
        #expect(output.stderr.hasPrefix("error: [serve] allow_writes: unknown front 'mpc'"), "\(output.stderr)")
        #expect(output.stderr.contains("fronts: serve, mcp, ask"))
    }

    @Test("on: preview and token; the token writes exactly once; replay, other write and wrong caller refused")
    func confirmed() async throws {
        let setup = try Setup(allowWrites: ["serve"])
        let before = setup.calendar
        let server = try ServeProcess(environment: setup.environment)
        defer { server.stop() }
        let properties = try await calendarSchema(server)
        #expect(((properties["range"] as? [String: Any])?["enum"] as? [String])?.contains("add") == true)
        #expect(properties["confirm"] != nil && properties["at"] != nil)
        #expect(properties["yes"] == nil, "--yes is the command line's")
        let skipping = try await HTTP.post(server.baseURL + "/tools/calendar", Self.add + #", "yes": true}"#)
        #expect(skipping.status == 400, "\(skipping.body)")
        #expect((skipping.json?["error"] as? String)?.contains("skips the confirmation") == true, "\(skipping.body)")
        #expect(setup.calendar == before)

        // First call: 202, a preview (title, calendar, local time and zone, UID) and a token; nothing written.
        let first = try await HTTP.post(server.baseURL + "/tools/calendar", Self.add + "}")
        #expect(first.status == 202, "\(first.body)")
        let confirm = try #require(first.json?["confirm"] as? [String: Any])
        let token = try #require(confirm["token"] as? String)
        let preview = try #require(confirm["preview"] as? String)
        #expect(token.count == 32)
        #expect(preview.contains("call mom") && preview.contains("home"), "\(preview)")
        #expect(preview.contains("18:00") && preview.contains("Europe/Berlin"), "\(preview)")
        let uid = try #require(preview.range(of: "uid ").map { String(preview[$0.upperBound...].prefix { $0 != ")" }) })
        #expect(setup.calendar == before)

        // A token for another write, or from another caller, writes nothing and keeps the token.
        let other = try await HTTP.post(
            server.baseURL + "/tools/calendar",
            #"{"range": "add", "title": "call dad", "at": "tomorrow 18:00", "calendar": "home", "confirm": "\#(token)"}"#
        )
        #expect(other.status == 400)
        #expect((other.json?["error"] as? String)?.contains("issued for a different write") == true, "\(other.body)")
        let stranger = try await HTTP.post(
            server.baseURL + "/tools/calendar", Self.add + #", "confirm": "\#(token)"}"#,
            headers: ["Authorization: Bearer someone-else"])
        #expect(stranger.status == 400, "\(stranger.body)")
        #expect((stranger.json?["error"] as? String)?.contains("unknown or was used") == true)
        #expect(setup.calendar == before)

        // The same call with the token writes that item, with the UID the preview named.
        let second = try await HTTP.post(server.baseURL + "/tools/calendar", Self.add + #", "confirm": "\#(token)"}"#)
        #expect(second.status == 200, "\(second.body)")
        let item = ((second.json?["data"] as? [String: Any])?["item"] as? [String: Any])
        #expect(item?["uid"] as? String == uid)
        let written = setup.calendar
        #expect(written.components(separatedBy: "SUMMARY:call mom").count == 2)
        #expect(written.contains("UID:\(uid)"))
        #expect(written.contains("DTSTART;TZID=Europe/Berlin:20260327T180000"), "\(written)")

        // Replay: refused, nothing changes.
        let replay = try await HTTP.post(server.baseURL + "/tools/calendar", Self.add + #", "confirm": "\#(token)"}"#)
        #expect(replay.status == 400)
        #expect((replay.json?["error"] as? String)?.contains("unknown or was used already") == true)
        #expect(setup.calendar == written)

        // A destructive write goes the same way: preview first, nothing deleted.
        let delete = try await HTTP.post(
            server.baseURL + "/tools/calendar", #"{"range": "delete", "title": "dentist"}"#)
        #expect(delete.status == 202, "\(delete.body)")
        #expect(((delete.json?["confirm"] as? [String: Any])?["preview"] as? String)?.contains("delete event") == true)
        #expect(setup.calendar == written)
    }
}
