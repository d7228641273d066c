import AlmanacTesting
import Foundation
import Testing

/// `tools ask` with a request to write (#33 point 8): routed to the calendar's write command,
/// which asks on the terminal; without one, or without a yes, nothing is written.
@Suite("tools ask: a routed write is confirmed on the terminal")
struct AskWritesEndToEndTests {
    final class Setup: @unchecked Sendable {
        let folder: URL
        let file: URL
        let empty = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//EN\r\nEND:VCALENDAR\r\n"

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-ask-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            file = folder.appendingPathComponent("home.ics")
            try Data(empty.utf8).write(to: file)
            try "[calendars.home]\nics = \"\(file.path)\"\nwritable = true\n".write(
                to: folder.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        /// No LLM listens on port 9: ask prints the facts it gathered (exit 75).
        var environment: [String: String] {
            ToolsBinary.environment(
                cacheDirectory: folder.appendingPathComponent("cache"),
                extra: [
                    "ALMANAC_CONFIG": folder.appendingPathComponent("config.toml").path,
                    "ALMANAC_NOW": "2026-03-26T10:00:00Z", "ALMANAC_TZ": "Europe/Berlin",
                    "ALMANAC_LLM_URL": "http://127.0.0.1:9",
                ])
        }

        var calendar: String { (try? String(contentsOf: file, encoding: .utf8)) ?? "" }
    }

    static let question = "remind me to call mom tomorrow at 6"

    @Test("no terminal: the preview, not written")
    func noTerminal() async throws {
        let setup = try Setup()
        let output = try await ToolsBinary.run(["ask", Self.question], environment: setup.environment)
        #expect(output.status == 75, "\(output.stderr)")
        #expect(
            output.stdout.contains(
                "add task \"call mom\" to home, due Fri 27 Mar 2026 18:00 Europe/Berlin (UTC+01:00), alarm at the due "
                    + "time: not written (no terminal to ask on)"), "\(output.stdout)")
        #expect(setup.calendar == setup.empty)
    }

    @Test("on a terminal (script(1) gives it one): n writes nothing, y writes the task once")
    func terminal() async throws {
        let setup = try Setup()
        let script = URL(fileURLWithPath: "/usr/bin/script")
        try #require(FileManager.default.isExecutableFile(atPath: script.path), "util-linux script(1) missing")
        func ask(_ answer: String) async throws -> CommandOutput {
            let command = "'\(ToolsBinary.url.path)' ask '\(Self.question)'"
            return try await Command.run(
                script, ["-qec", command, "/dev/null"], environment: setup.environment,
                stdin: Data("\(answer)\n".utf8), timeout: 60)
        }
        let no = try await ask("n")
        #expect(no.stdout.contains("Write it? [y/N]"), "\(no.stdout)")
        #expect(no.stdout.contains("not written (not confirmed)"), "\(no.stdout)")
        #expect(setup.calendar == setup.empty)
        let yes = try await ask("y")
        #expect(yes.stdout.contains("Added task \"call mom\" due Fri 27 Mar 2026 18:00 Europe/Berlin"), "\(yes.stdout)")
        #expect(setup.calendar.components(separatedBy: "SUMMARY:call mom").count == 2)
        #expect(setup.calendar.contains("DUE;TZID=Europe/Berlin:20260327T180000"), "\(setup.calendar)")
    }
}
