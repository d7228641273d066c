import AlmanacTesting
import Foundation
import Testing

/// The built `tools` binary writing to a local .ics calendar (`writable = true`), read back by
/// Almanac and by Python's `icalendar` (7.3.0, in `.venv-rie` from
/// scripts/peers/recurring-ical-events.sh).
@Suite("tools run calendar writes to a local .ics file, end to end")
struct CalendarWriteEndToEndTests {
    static var python: URL { Fixtures.packageRoot().appendingPathComponent(".venv-rie/bin/python") }

    static var hasPython: Bool {
        if FileManager.default.isExecutableFile(atPath: python.path) { return true }
        // In CI the venv is there (scripts/setup-peers); a missing one fails there instead of skipping.
        return ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty && $0 != "false" } ?? false
    }

    /// An event another program wrote: folded lines, an X- property, an alarm. Its bytes must
    /// survive every write to the file.
    static let foreign = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Other App//EN", "X-WR-CALNAME:Home",
        "BEGIN:VEVENT", "UID:foreign-1@other", "DTSTAMP:20260301T000000Z", "DTSTART:20260327T080000Z",
        "DTEND:20260327T090000Z", "SUMMARY:Breakfast with a very long title that the other app folded at seventy",
        " -five octets as it should",
        "X-OTHER-APP-COLOR:#ff0000", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT10M", "DESCRIPTION:x",
        "END:VALARM", "END:VEVENT", "END:VCALENDAR", "",
    ].joined(separator: "\r\n")

    static var foreignEvent: String {
        let start = foreign.range(of: "BEGIN:VEVENT")!.lowerBound
        let end = foreign.range(of: "END:VEVENT\r\n")!.upperBound
        return String(foreign[start..<end])
    }

    /// A scratch folder with config.toml: `home` (writable .ics), `feed` (a URL, read-only).
    final class Setup: @unchecked Sendable {
        let folder: URL
        let file: URL
        let config: URL

        init(writableFeed: Bool = false, existing: String? = CalendarWriteEndToEndTests.foreign) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-write-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            file = folder.appendingPathComponent("home.ics")
            if let existing { try Data(existing.utf8).write(to: file) }
            config = folder.appendingPathComponent("config.toml")
            try """
            [calendars.home]
            ics = "\(file.path)"
            writable = true

            [calendars.feed]
            ics = "https://calendar.example.com/feed.ics"
            \(writableFeed ? "writable = true" : "")
            """.write(to: config, atomically: true, encoding: .utf8)
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        var environment: [String: String] {
            ToolsBinary.environment(
                cacheDirectory: folder.appendingPathComponent("cache"),
                extra: ["ALMANAC_CONFIG": config.path, "ALMANAC_NOW": "2026-03-26T10:00:00Z"])
        }

        func run(_ words: [String]) async throws -> CommandOutput {
            try await ToolsBinary.run(
                ["run", "calendar"] + words + ["--tz", "Europe/Berlin"], environment: environment)
        }

        func item(_ words: [String]) async throws -> [String: Any] {
            let output = try await run(words + ["--format", "json"])
            #expect(output.status == 0, "\(words): \(output.stderr)")
            let envelope = try #require(
                try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
            let data = try #require(envelope["data"] as? [String: Any])
            return try #require(data["item"] as? [String: Any])
        }

        func events(_ words: [String]) async throws -> [[String: Any]] {
            let output = try await run(words + ["--format", "json", "--calendar", "home"])
            #expect(output.status == 0, "\(output.stderr)")
            let envelope = try #require(
                try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
            let data = try #require(envelope["data"] as? [String: Any])
            return try #require(data[words.first == "tasks" ? "tasks" : "events"] as? [[String: Any]])
        }

        var text: String { (try? String(contentsOf: file, encoding: .utf8)) ?? "" }

        /// What Python's icalendar reads from the file: one JSON object per VEVENT/VTODO.
        func icalendar() async throws -> [[String: Any]] {
            let script = """
                import json, sys
                from icalendar import Calendar
                cal = Calendar.from_ical(open(sys.argv[1], 'rb').read())
                out = []
                for c in cal.walk():
                    if c.name not in ('VEVENT', 'VTODO'):
                        continue
                    item = {'kind': c.name, 'uid': str(c.get('uid')), 'summary': str(c.get('summary')),
                            'status': str(c.get('status')) if c.get('status') else None,
                            'alarms': [int(a.decoded('trigger').total_seconds()) for a in c.walk('VALARM')]}
                    for key in ('dtstart', 'dtend', 'due', 'recurrence-id'):
                        if c.get(key) is not None:
                            value = c.decoded(key)
                            item[key] = value.isoformat()
                            if getattr(value, 'tzinfo', None) is not None:
                                item[key + '-zone'] = str(value.tzinfo)
                    if c.get('rrule') is not None:
                        item['rrule'] = str(c.get('rrule').to_ical(), 'ascii')
                    if c.get('exdate') is not None:
                        ex = c.get('exdate')
                        ex = ex if isinstance(ex, list) else [ex]
                        item['exdate'] = [d.dt.isoformat() for e in ex for d in e.dts]
                    out.append(item)
                zones = [str(z.get('tzid')) for z in cal.walk('VTIMEZONE')]
                print(json.dumps({'items': out, 'zones': zones}))
                """
            let output = try await Command.run(
                CalendarWriteEndToEndTests.python, ["-c", script, file.path], environment: environment)
            #expect(output.status == 0, "icalendar: \(output.stderr)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
            zones = (object["zones"] as? [String]) ?? []
            return (object["items"] as? [[String: Any]]) ?? []
        }

        var zones: [String] = []
    }

    @Test("no terminal and no --yes: one line, nothing written; a read-only calendar and a feed say so")
    func refusals() async throws {
        let setup = try Setup(existing: nil)
        let asked = try await setup.run(["add", "Dentist", "--at", "thursday 15:00"])
        #expect(asked.status == 64)
        #expect(asked.stderr.hasPrefix("error: calendar: add event \"Dentist\" to home: Thu 26 Mar 2026 15:00–16:00"))
        #expect(asked.stderr.contains("not written (no terminal to ask on)"))
        #expect(asked.stderr.contains("--yes"))
        #expect(!FileManager.default.fileExists(atPath: setup.file.path))

        let readOnly = try await setup.run(["add", "Dentist", "--at", "thursday 15:00", "--calendar", "feed", "--yes"])
        #expect(readOnly.status == 64)
        #expect(readOnly.stderr.hasPrefix("error: calendar 'feed' is read-only"))
        let oneOff = try await setup.run(["add", "Dentist", "--at", "15:00", "--ics", setup.file.path, "--yes"])
        #expect(oneOff.status == 64)
        #expect(oneOff.stderr.contains("--ics and --caldav are read-only"))

        let feed = try Setup(writableFeed: true, existing: nil)
        let refused = try await feed.run(["add", "Dentist", "--at", "15:00", "--calendar", "feed", "--yes"])
        #expect(refused.status == 64)
        #expect(refused.stderr.hasPrefix("error: calendar 'feed' is a feed by URL: feeds are read-only"))
        let badTime = try await setup.run(["add", "Dentist", "--at", "someday", "--yes"])
        #expect(badTime.status == 64)
        #expect(badTime.stderr.hasPrefix("error: --at: could not read 'someday' as a day or time"))
    }

    @Test("add: the answer repeats local time, zone and UID; Almanac and icalendar read it back; other bytes kept")
    func add() async throws {
        let setup = try Setup()
        let item = try await setup.item([
            "add", "Dentist, Dr. Ng; room 2", "--at", "thursday 15:00", "--for", "45m",
            "--location", "Main St 5", "--yes",
        ])
        #expect(item["start"] as? String == "2026-03-26T15:00:00+01:00")
        #expect(item["end"] as? String == "2026-03-26T15:45:00+01:00")
        #expect(item["timeZone"] as? String == "Europe/Berlin")
        #expect(item["action"] as? String == "added")
        #expect(item["calendar"] as? String == "home")
        let uid = try #require(item["uid"] as? String)
        #expect(setup.text.hasPrefix(Self.foreign.replacingOccurrences(of: "END:VCALENDAR\r\n", with: "")))
        #expect(setup.text.contains(Self.foreignEvent))
        #expect(setup.text.contains("SUMMARY:Dentist\\, Dr. Ng\\; room 2\r\n"))

        let context = try await setup.run(["add", "Call with Ana", "--at", "thursday 15:30", "--yes"])
        #expect(context.status == 0, "\(context.stderr)")
        #expect(
            context.stdout.contains(
                "Added event \"Call with Ana\" to Thu 26 Mar 2026 15:30–16:30 Europe/Berlin (UTC+01:00) in home. uid "))
        #expect(context.stdout.contains("Overlaps 1 other event (written anyway)"))
        #expect(context.stdout.contains("Dentist, Dr. Ng; room 2 · 2026-03-26T15:00:00+01:00"))

        let today = try await setup.events(["today"])
        #expect(today.map { $0["summary"] as? String } == ["Dentist, Dr. Ng; room 2", "Call with Ana"])
        #expect(today.first?["start"] as? String == "2026-03-26T14:00:00Z")
        #expect(today.first?["uid"] as? String == uid)

        guard Self.hasPython else { return }
        let read = try await setup.icalendar()
        let dentist = try #require(read.first { $0["uid"] as? String == uid })
        #expect(dentist["summary"] as? String == "Dentist, Dr. Ng; room 2")
        #expect(dentist["dtstart"] as? String == "2026-03-26T15:00:00+01:00")
        #expect(dentist["dtstart-zone"] as? String == "Europe/Berlin")
        #expect(setup.zones == ["Europe/Berlin"])  // one VTIMEZONE, not one per item
        #expect(read.contains { $0["uid"] as? String == "foreign-1@other" })
    }

    @Test("remind, done, reopen: a VTODO with a VALARM at the due time; tasks lists it while open")
    func tasks() async throws {
        let setup = try Setup()
        let item = try await setup.item(["remind", "call mom", "--due", "tomorrow 6pm", "--yes"])
        #expect(item["due"] as? String == "2026-03-27T18:00:00+01:00")
        #expect(item["kind"] as? String == "task")
        #expect(setup.text.contains("DUE;TZID=Europe/Berlin:20260327T180000\r\n"))
        #expect(setup.text.contains("TRIGGER;RELATED=END:-PT0S\r\n"))
        await #expect(try setup.events(["tasks"]).map { $0["summary"] as? String } == ["call mom"])

        let done = try await setup.run(["done", "mom", "--yes"])
        #expect(done.status == 0, "\(done.stderr)")
        #expect(done.stdout.contains("Marked task \"call mom\" done in home."))
        await #expect(try setup.events(["tasks"]).isEmpty)
        #expect(setup.text.contains("STATUS:COMPLETED\r\n"))
        #expect(setup.text.contains("SEQUENCE:1\r\n"))
        let again = try await setup.run(["done", "call mom", "--yes"])
        #expect(again.stdout.contains("was already done; nothing written"))

        let reopened = try await setup.run(["reopen", "call mom", "--yes"])
        #expect(reopened.stdout.contains("Reopened task \"call mom\""))
        await #expect(try setup.events(["tasks"]).map { $0["summary"] as? String } == ["call mom"])
        #expect(setup.text.contains(Self.foreignEvent))

        let alarm = try await setup.item(["remind", "pay rent", "--due", "2026-04-01 09:00", "--alarm", "1h", "--yes"])
        #expect(alarm["due"] as? String == "2026-04-01T09:00:00+02:00")  // CEST by then
        guard Self.hasPython else { return }
        let read = try await setup.icalendar()
        let mom = try #require(read.first { $0["summary"] as? String == "call mom" })
        #expect(mom["due"] as? String == "2026-03-27T18:00:00+01:00")
        #expect(mom["status"] as? String == "NEEDS-ACTION")
        #expect(mom["alarms"] as? [Int] == [0])
        let rent = try #require(read.first { $0["summary"] as? String == "pay rent" })
        #expect(rent["alarms"] as? [Int] == [-3600])
    }

    @Test("a series: one occurrence moved, one cancelled, then the whole series cancelled; WORDS that match twice ask")
    func series() async throws {
        let setup = try Setup()
        let item = try await setup.item([
            "add", "Standup", "--at", "monday 9:00", "--for", "15m", "--repeat", "weekly",
            "--count", "4", "--yes",
        ])
        #expect(item["start"] as? String == "2026-03-30T09:00:00+02:00")
        #expect(item["rule"] as? String == "FREQ=WEEKLY;COUNT=4")
        let range = ["--from", "2026-03-30", "--to", "2026-04-30"]
        await #expect(
            try setup.events(range).compactMap { $0["start"] as? String }
                == ["2026-03-30T07:00:00Z", "2026-04-06T07:00:00Z", "2026-04-13T07:00:00Z", "2026-04-20T07:00:00Z"])

        let which = try await setup.run(["move", "standup", "--to", "10:00", "--yes"])
        #expect(which.status == 64)
        #expect(which.stderr.contains("\"Standup\" repeats (FREQ=WEEKLY;COUNT=4): which occurrence?"))
        #expect(which.stderr.contains("--date DAY"))

        let moved = try await setup.item([
            "move", "standup", "--date", "2026-04-06", "--to", "2026-04-06 10:30", "--yes",
        ])
        #expect(moved["start"] as? String == "2026-04-06T10:30:00+02:00")
        #expect(moved["end"] as? String == "2026-04-06T10:45:00+02:00")
        #expect(moved["occurrence"] as? String == "2026-04-06T09:00:00+02:00")
        let cancelled = try await setup.run(["cancel", "standup", "--date", "2026-04-13", "--yes"])
        #expect(cancelled.status == 0, "\(cancelled.stderr)")
        await #expect(
            try setup.events(range).compactMap { $0["start"] as? String }
                == ["2026-03-30T07:00:00Z", "2026-04-06T08:30:00Z", "2026-04-20T07:00:00Z"])
        #expect(setup.text.contains("EXDATE;TZID=Europe/Berlin:20260413T090000\r\n"))
        #expect(setup.text.contains("RECURRENCE-ID;TZID=Europe/Berlin:20260406T090000\r\n"))

        if Self.hasPython {
            let read = try await setup.icalendar()
            let override = try #require(read.first { $0["recurrence-id"] != nil })
            #expect(override["recurrence-id"] as? String == "2026-04-06T09:00:00+02:00")
            #expect(override["dtstart"] as? String == "2026-04-06T10:30:00+02:00")
            let master = try #require(read.first { $0["rrule"] != nil })
            #expect(master["exdate"] as? [String] == ["2026-04-13T09:00:00+02:00"])
        }

        _ = try await setup.item(["add", "Standup notes", "--at", "friday 9:00", "--yes"])
        let twice = try await setup.run(["cancel", "standup", "--series", "--yes"])
        #expect(twice.status == 64)
        #expect(twice.stderr.contains("2 items match 'standup': \"Standup\" Mon 30 Mar 2026 09:00"))
        #expect(twice.stderr.contains("which one?"))
        let whole = try await setup.run(["cancel", item["uid"] as? String ?? "", "--series", "--yes"])
        #expect(whole.status == 0, "\(whole.stderr)")
        await #expect(try setup.events(range).isEmpty)
    }

    @Test("move a one-off event to a day keeps its time; delete removes it; the foreign event stays byte for byte")
    func moveAndDelete() async throws {
        let setup = try Setup()
        _ = try await setup.item(["add", "Dentist", "--at", "thursday 15:00", "--yes"])
        let moved = try await setup.item(["move", "dentist", "--to", "next tuesday", "--yes"])
        #expect(moved["start"] as? String == "2026-03-31T15:00:00+02:00")  // 15:00 kept, now in CEST
        #expect(moved["end"] as? String == "2026-03-31T16:00:00+02:00")
        #expect(setup.text.contains("SEQUENCE:1\r\n"))
        let deleted = try await setup.run(["delete", "dentist", "--yes"])
        #expect(deleted.stdout.contains("Deleted event \"Dentist\" from home."))
        #expect(!setup.text.contains("Dentist"))
        #expect(setup.text.contains(Self.foreignEvent))
        let none = try await setup.run(["delete", "dentist", "--yes"])
        #expect(none.status == 64)
        #expect(none.stderr.hasPrefix("error: calendar: no event or task matches 'dentist' in home"))
    }

    @Test("a retried add (same item minutes later, or the same --request-id) writes one item")
    func idempotent() async throws {
        let setup = try Setup(existing: nil)
        let first = try await setup.item(["add", "Dentist", "--at", "thursday 15:00", "--yes"])
        let second = try await setup.item(["add", "Dentist", "--at", "thursday 15:00", "--yes"])
        #expect(second["action"] as? String == "unchanged")
        #expect(second["uid"] as? String == first["uid"] as? String)
        let a = try await setup.item(["remind", "buy milk", "--request-id", "req-42", "--yes"])
        let b = try await setup.item(["remind", "buy milk", "--request-id", "req-42", "--yes"])
        #expect(a["uid"] as? String == b["uid"] as? String)
        #expect(b["action"] as? String == "unchanged")
        #expect(setup.text.components(separatedBy: "BEGIN:VEVENT").count == 2)
        #expect(setup.text.components(separatedBy: "BEGIN:VTODO").count == 2)
    }

    @Test("eight writers at once: the lock makes them take turns and every item is there")
    func concurrentWriters() async throws {
        let setup = try Setup()
        let lists = (0..<8).map {
            [
                "run", "calendar", "add", "Writer \($0)", "--at", "friday \(8 + $0):00", "--yes", "--tz",
                "Europe/Berlin",
            ]
        }
        let outputs = await ToolsBinary.runAtOnce(lists, environment: setup.environment)
        for output in outputs { #expect(output?.status == 0, "\(output?.stderr ?? "did not run")") }
        let friday = try await setup.events(["--from", "2026-03-27", "--to", "2026-03-27"])
        #expect(
            Set(friday.compactMap { $0["summary"] as? String })
                == Set((0..<8).map { "Writer \($0)" }).union(
                    ["Breakfast with a very long title that the other app folded at seventy-five octets as it should"]))
        #expect(setup.text.contains(Self.foreignEvent))
    }

    @Test("a write the disk refuses, or a writer killed before its rename, leaves the calendar as it was")
    func faults() async throws {
        let setup = try Setup()
        let before = setup.text
        let big = String(repeating: "long title ", count: 300)
        // No cache on disk (its folder cannot be made): the calendar's new file is the only file written.
        var environment = setup.environment
        environment["ALMANAC_CACHE_DIR"] = setup.config.path + "/cache"
        // A file size limit refuses the write (EFBIG, or SIGXFSZ where the signal is not ignored): as on
        // a full disk, the temporary file goes and the calendar is as it was.
        // SIGXFSZ ignored (inherited across exec), so write() fails with EFBIG as on a full disk.
        let bytes = try Data(contentsOf: setup.file)
        let refused = try await Command.run(
            URL(fileURLWithPath: "/bin/bash"),
            [
                "-c", "trap '' XFSZ; ulimit -f 1; exec \"$0\" \"$@\"", ToolsBinary.url.path, "run", "calendar", "add",
                big, "--at", "friday 9:00", "--yes", "--tz", "Europe/Berlin",
            ],
            environment: environment)
        #expect(refused.status == 64)
        #expect(
            refused.stderr.contains(
                "\nerror: calendar 'home': could not write the new file (File too large); the calendar is unchanged\n"))
        #expect(try Data(contentsOf: setup.file) == bytes)
        #expect(
            (try? FileManager.default.contentsOfDirectory(atPath: setup.folder.path))?.contains {
                $0.hasSuffix(".tmp")
            } == false)
        #expect(setup.text == before)
        // A writer killed after writing its temporary file and before the rename left it behind: readers
        // never see it, and the next writer (holding the lock, so no writer is mid-write) removes it.
        let stale = setup.folder.appendingPathComponent(".home.ics.almanac-99999-1.tmp")
        try Data("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:half".utf8).write(to: stale)
        let leftovers = {
            (try? FileManager.default.contentsOfDirectory(atPath: setup.folder.path))?.filter { $0.hasSuffix(".tmp") }
                ?? []
        }
        await #expect(try setup.events(["--from", "2026-03-27", "--to", "2026-03-27"]).count == 1)
        #expect(!leftovers().isEmpty)
        _ = try await setup.item(["add", "Dentist", "--at", "friday 9:00", "--yes"])
        #expect(leftovers().isEmpty)
        #expect(setup.text.contains(Self.foreignEvent))
    }

    @Test("a writer killed (SIGKILL) after writing its new file and before the rename: the file is byte-identical")
    func killedBeforeRename() async throws {
        let setup = try Setup()
        let bytes = try Data(contentsOf: setup.file)
        let marker = setup.folder.appendingPathComponent("paused")
        var environment = setup.environment
        environment["ALMANAC_TEST_PAUSE_BEFORE_RENAME"] = marker.path
        let process = Process()
        process.executableURL = ToolsBinary.url
        process.arguments = [
            "run", "calendar", "add", "Dentist", "--at", "friday 9:00", "--yes", "--tz", "Europe/Berlin",
        ]
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Bounded: the writer says when its new file is complete (at most 30 s).
        for _ in 0..<300 where !FileManager.default.fileExists(atPath: marker.path) && process.isRunning {
            usleep(100_000)
        }
        let temporary = try String(contentsOf: marker, encoding: .utf8)
        #expect(FileManager.default.fileExists(atPath: temporary))
        #expect((try? String(contentsOfFile: temporary, encoding: .utf8))?.contains("SUMMARY:Dentist") == true)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(try Data(contentsOf: setup.file) == bytes)
        // Readers see the old calendar only, the file itself or the folder it is in.
        await #expect(try setup.events(["--from", "2026-03-27", "--to", "2026-03-27"]).count == 1)
        let folder = try await ToolsBinary.run(
            [
                "run", "calendar", "--from", "2026-03-27", "--to", "2026-03-27", "--ics", setup.folder.path, "--format",
                "json",
            ], environment: setup.environment)
        #expect(folder.status == 0, "\(folder.stderr)")
        #expect(!folder.stdout.contains("Dentist"))
        // The next writer removes the leftover and writes; the item is there once.
        _ = try await setup.item(["add", "Dentist", "--at", "friday 9:00", "--yes"])
        #expect(!FileManager.default.fileExists(atPath: temporary))
        #expect(setup.text.components(separatedBy: "SUMMARY:Dentist").count == 2)
        #expect(setup.text.contains(Self.foreignEvent))
    }

    @Test("two processes change one item at once: the lock makes them take turns and both changes are there")
    func concurrentChanges() async throws {
        let setup = try Setup()
        let added = try await setup.item(["add", "Dentist", "--at", "thursday 15:00", "--yes"])
        let uid = try #require(added["uid"] as? String)
        let tail = ["--yes", "--tz", "Europe/Berlin"]
        let outputs = await ToolsBinary.runAtOnce(
            [["run", "calendar", "move", uid, "--to", "16:00"] + tail, ["run", "calendar", "cancel", uid] + tail],
            environment: setup.environment)
        for output in outputs { #expect(output?.status == 0, "\(output?.stderr ?? "did not run")") }
        #expect(setup.text.contains("DTSTART;TZID=Europe/Berlin:20260326T160000\r\n"))
        #expect(setup.text.contains("STATUS:CANCELLED\r\n"))
        #expect(setup.text.contains("SEQUENCE:2\r\n"))
        #expect(setup.text.contains(Self.foreignEvent))
    }
}
