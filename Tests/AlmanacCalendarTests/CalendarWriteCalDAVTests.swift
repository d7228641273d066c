import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

/// The built `tools` binary writing to a real Radicale 3.9.0 (`writable = true` CalDAV calendar),
/// read back by Almanac and by a second, independent client: Python's `caldav` 3.6.0 (in
/// `.venv-radicale`, from scripts/peers/radicale.sh).
final class CalDAVWriteSetup: @unchecked Sendable {
    // @unchecked: touched by the owning test only.
    let server: RadicaleServer
    let folder: URL
    let config: URL
    static let path = "/alice/work/"
    var extra: [String: String] = [:]

    init() async throws {
        server = try RadicaleServer()
        try await server.waitUntilReady()
        try await server.makeCalendar(Self.path, name: "Work")
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-davw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        config = folder.appendingPathComponent("config.toml")
        try configure(port: nil)
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    var collection: URL { URL(string: Self.path, relativeTo: server.base)!.absoluteURL }

    /// Points `[calendars.work]` at Radicale, or at a fault proxy on `port` in front of it.
    func configure(port: Int?) throws {
        let url = port.map { "http://127.0.0.1:\($0)\(Self.path)" } ?? collection.absoluteString
        try """
        [calendars.work]
        caldav = "\(url)"
        username = "\(RadicaleServer.user)"
        password_env = "WORK_DAV_PASSWORD"
        writable = true
        """.write(to: config, atomically: true, encoding: .utf8)
    }

    var environment: [String: String] {
        ToolsBinary.environment(
            cacheDirectory: folder.appendingPathComponent("cache"),
            extra: [
                "ALMANAC_CONFIG": config.path, "ALMANAC_NOW": "2026-03-26T10:00:00Z",
                "WORK_DAV_PASSWORD": RadicaleServer.password,
            ]
        ).merging(extra) { _, new in new }
    }

    func run(_ words: [String]) async throws -> CommandOutput {
        let output = try await ToolsBinary.run(
            ["run", "calendar"] + words + ["--tz", "Europe/Berlin"], environment: environment)
        #expect(!output.stdout.contains(RadicaleServer.password) && !output.stderr.contains(RadicaleServer.password))
        return output
    }

    func item(_ words: [String]) async throws -> [String: Any] {
        let output = try await run(words + ["--format", "json"])
        #expect(output.status == 0, "\(words): \(output.stderr)")
        let envelope = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let data = try #require(envelope["data"] as? [String: Any])
        return try #require(data["item"] as? [String: Any])
    }

    /// What Almanac reads back (events of a range, or `tasks`).
    func almanac(_ words: [String]) async throws -> [[String: Any]] {
        let output = try await run(words + ["--format", "json", "--calendar", "work"])
        #expect(output.status == 0, "\(output.stderr)")
        let envelope = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let data = try #require(envelope["data"] as? [String: Any])
        return try #require(data[words.first == "tasks" ? "tasks" : "events"] as? [[String: Any]])
    }

    static let readback = """
        import json, sys
        from urllib.parse import unquote
        import caldav
        url, user, password = sys.argv[1:4]
        client = caldav.DAVClient(url=url, username=user, password=password)
        cal = client.calendar(url=url)
        out = []
        for obj in list(cal.events()) + list(cal.todos(include_completed=True)):
            for c in obj.icalendar_instance.walk():
                if c.name not in ('VEVENT', 'VTODO'):
                    continue
                item = {'kind': c.name, 'uid': str(c.get('uid')), 'summary': str(c.get('summary')),
                        'status': str(c.get('status')) if c.get('status') else None,
                        'object': unquote(str(obj.url).rsplit('/', 1)[-1]),
                        'other': str(c.get('x-other-client')) if c.get('x-other-client') else None}
                for key in ('dtstart', 'dtend', 'due', 'recurrence-id'):
                    if c.get(key) is not None:
                        item[key] = c.decoded(key).isoformat()
                if c.get('rrule') is not None:
                    item['rrule'] = c.get('rrule').to_ical().decode()
                if c.get('exdate') is not None:
                    ex = c.get('exdate')
                    ex = ex if isinstance(ex, list) else [ex]
                    item['exdate'] = [d.dt.isoformat() for e in ex for d in e.dts]
                out.append(item)
        print(json.dumps(out))
        """

    /// What Python's caldav reads from the collection: one object per VEVENT/VTODO.
    func caldav() async throws -> [[String: Any]] {
        let python = Fixtures.packageRoot().appendingPathComponent(".venv-radicale/bin/python")
        let output = try await Command.run(
            python, ["-c", Self.readback, collection.absoluteString, RadicaleServer.user, RadicaleServer.password],
            environment: environment)
        #expect(output.status == 0, "caldav: \(output.stderr)")
        return (try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]]) ?? []
    }

    /// The object's bytes and ETag as Radicale serves them.
    func get(_ name: String) async throws -> (text: String, etag: String?) {
        let response = try await server.send("GET", Self.path + name)
        return (String(decoding: response.body, as: UTF8.self), response.header("etag"))
    }
}

/// A fault injector in front of Radicale on 127.0.0.1 (bounded: 200 requests, stopped by pid):
/// it forwards every request and, for the first PUT or DELETE only, `500` answers HTTP 500
/// without forwarding; `hang` forwards it (the server saves it) and never answers; `race` first
/// changes the object as another client would (GET, then PUT with its ETag), so Radicale itself
/// answers the write 412. `blind` also empties every REPORT answer (a server whose query misses);
/// `noetag` drops the ETag header from every PUT answer.
final class CalDAVFaultProxy: @unchecked Sendable {
    // @unchecked: the process handle is touched by the owning test only, and stopped once.
    private let process: Process
    let port: Int

    static let script = #"""
        import http.client, http.server, re, socketserver, sys, threading, time
        modes, upstream = set(sys.argv[1].split(',')), int(sys.argv[2])
        lock = threading.Lock()
        writes = [0]
        def forward(method, path, headers, body):
            conn = http.client.HTTPConnection('127.0.0.1', upstream, timeout=10)
            sent = {k: v for k, v in headers.items() if k.lower() not in ('host', 'connection', 'content-length')}
            conn.request(method, path, body=body, headers=sent)
            r = conn.getresponse()
            return r.status, r.getheaders(), r.read()
        class H(http.server.BaseHTTPRequestHandler):
            def log_message(self, *a): pass
            def reply(self, status, headers, data):
                self.send_response(status)
                for k, v in headers:
                    if k.lower() not in ('connection', 'transfer-encoding', 'content-length', 'server', 'date'):
                        self.send_header(k, v)
                self.send_header('Content-Length', str(len(data)))
                self.send_header('Connection', 'close')
                self.end_headers()
                self.wfile.write(data)
            def any(self):
                n = int(self.headers.get('Content-Length') or 0)
                body = self.rfile.read(n) if n else None
                headers = dict(self.headers.items())
                first = False
                if self.command in ('PUT', 'DELETE'):
                    with lock:
                        writes[0] += 1
                        first = writes[0] == 1
                if first and '500' in modes:
                    self.reply(500, [('Content-Type', 'text/plain')], b'Internal Server Error')
                    return
                if first and 'hang' in modes:
                    forward(self.command, self.path, headers, body)
                    time.sleep(30)
                    return
                if first and 'race' in modes and 'If-Match' in headers:
                    auth = {'Authorization': headers.get('Authorization', '')}
                    _, got, data = forward('GET', self.path, auth, None)
                    etag = dict((k.lower(), v) for k, v in got).get('etag', '')
                    other = re.sub(rb'(\r?\n)END:(VEVENT|VTODO)', rb'\1X-OTHER-CLIENT:was here\1END:\2', data, count=1)
                    forward('PUT', self.path, dict(auth, **{'If-Match': etag, 'Content-Type': 'text/calendar'}), other)
                status, got, data = forward(self.command, self.path, headers, body)
                if self.command == 'PUT' and 'noetag' in modes:
                    got = [(k, v) for k, v in got if k.lower() != 'etag']
                if self.command == 'REPORT' and 'blind' in modes:
                    data = re.sub(rb'<(\w+:)?response>.*?</(\w+:)?response>', b'', data, flags=re.S)
                self.reply(status, got, data)
            do_GET = do_PUT = do_DELETE = do_PROPFIND = do_REPORT = do_OPTIONS = any
        class S(socketserver.ThreadingMixIn, socketserver.TCPServer):
            daemon_threads = True
        s = S(('127.0.0.1', 0), H)
        s.timeout = 60
        print('PORT', s.server_address[1], flush=True)
        for _ in range(200):
            s.handle_request()
        """#

    init(_ modes: String, upstream: URL) throws {
        (process, port) = try LoopbackScript.start(
            python: ["-c", Self.script, modes, String(upstream.port ?? 0)], name: "CalDAV fault proxy")
    }

    func stop() { ChildProcess.stop(process, grace: 0) }

    deinit { stop() }
}

@Suite("tools run calendar writes to CalDAV (Radicale), end to end", .serialized, .enabled(if: RadicaleServer.mayRun))
struct CalendarWriteCalDAVTests {
    /// An event another app wrote, in an object of its own: never touched by Almanac's writes.
    static let foreign = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Other App//EN", "BEGIN:VEVENT", "UID:foreign-1@other",
        "DTSTAMP:20260301T000000Z", "DTSTART:20260326T060000Z", "DTEND:20260326T070000Z", "SUMMARY:Breakfast",
        "END:VEVENT", "END:VCALENDAR", "",
    ].joined(separator: "\r\n")

    @Test("add, remind, done, reopen, move, delete: written with If-None-Match/If-Match, read back by caldav")
    func commands() async throws {
        let setup = try await CalDAVWriteSetup()
        try await setup.server.put(CalDAVWriteSetup.path + "foreign.ics", Self.foreign)
        let foreignBefore = try await setup.get("foreign.ics")

        let added = try await setup.item(["add", "Dentist", "--at", "thursday 15:00", "--for", "45m", "--yes"])
        #expect(added["action"] as? String == "added")
        #expect(added["start"] as? String == "2026-03-26T15:00:00+01:00")
        #expect(added["calendar"] as? String == "work")
        let uid = try #require(added["uid"] as? String)
        let stored = try await setup.get("\(uid).ics")
        #expect(added["etag"] as? String == stored.etag)
        #expect(stored.etag != nil)
        var read = try await setup.caldav()
        let dentist = try #require(read.first { $0["uid"] as? String == uid })
        #expect(dentist["summary"] as? String == "Dentist")
        #expect(dentist["dtstart"] as? String == "2026-03-26T15:00:00+01:00")
        #expect(dentist["object"] as? String == "\(uid).ics")
        await #expect(
            try setup.almanac(["today"]).compactMap { $0["summary"] as? String } == ["Breakfast", "Dentist"])

        let context = try await setup.run(["remind", "call mom", "--due", "tomorrow 6pm", "--yes"])
        #expect(context.status == 0, "\(context.stderr)")
        #expect(context.stdout.contains("Added task \"call mom\" due Fri 27 Mar 2026 18:00 Europe/Berlin"))
        #expect(context.stdout.contains("source: caldav"))
        await #expect(try setup.almanac(["tasks"]).compactMap { $0["summary"] as? String } == ["call mom"])

        let done = try await setup.item(["done", "mom", "--yes"])
        #expect(done["action"] as? String == "done")
        read = try await setup.caldav()
        #expect(read.first { $0["summary"] as? String == "call mom" }?["status"] as? String == "COMPLETED")
        await #expect(try setup.almanac(["tasks"]).isEmpty)
        let again = try await setup.item(["done", "call mom", "--yes"])
        #expect(again["action"] as? String == "unchanged")
        #expect(again["etag"] as? String == done["etag"] as? String)
        let reopened = try await setup.item(["reopen", "call mom", "--yes"])
        #expect(reopened["action"] as? String == "reopened")
        await #expect(
            try setup.caldav().first { $0["summary"] as? String == "call mom" }?["status"] as? String == "NEEDS-ACTION")

        let moved = try await setup.item(["move", "dentist", "--to", "next tuesday", "--yes"])
        #expect(moved["start"] as? String == "2026-03-31T15:00:00+02:00")
        #expect(moved["etag"] as? String == (try await setup.get("\(uid).ics")).etag)
        read = try await setup.caldav()
        #expect(read.first { $0["uid"] as? String == uid }?["dtstart"] as? String == "2026-03-31T15:00:00+02:00")
        #expect(read.filter { $0["uid"] as? String == uid }.count == 1)

        let deleted = try await setup.run(["delete", "dentist", "--yes"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout.contains("Deleted event \"Dentist\" from work."))
        read = try await setup.caldav()
        #expect(!read.contains { $0["uid"] as? String == uid })
        #expect(Set(read.compactMap { $0["summary"] as? String }) == ["Breakfast", "call mom"])
        let foreignAfter = try await setup.get("foreign.ics")
        #expect(foreignAfter.text == foreignBefore.text)
        #expect(foreignAfter.etag == foreignBefore.etag)
    }

    @Test("a series: one occurrence moved (an override in the same object), one cancelled, then all of it")
    func series() async throws {
        let setup = try await CalDAVWriteSetup()
        let item = try await setup.item([
            "add", "Standup", "--at", "monday 9:00", "--for", "15m", "--repeat", "weekly", "--count", "4", "--yes",
        ])
        let uid = try #require(item["uid"] as? String)
        _ = try await setup.item(["move", "standup", "--date", "2026-04-06", "--to", "2026-04-06 10:30", "--yes"])
        let cancelled = try await setup.run(["cancel", "standup", "--date", "2026-04-13", "--yes"])
        #expect(cancelled.status == 0, "\(cancelled.stderr)")
        let range = ["--from", "2026-03-30", "--to", "2026-04-30"]
        await #expect(
            try setup.almanac(range).compactMap { $0["start"] as? String }
                == ["2026-03-30T07:00:00Z", "2026-04-06T08:30:00Z", "2026-04-20T07:00:00Z"])
        let read = try await setup.caldav().filter { $0["uid"] as? String == uid }
        #expect(Set(read.compactMap { $0["object"] as? String }) == ["\(uid).ics"])
        let override = try #require(read.first { $0["recurrence-id"] != nil })
        #expect(override["recurrence-id"] as? String == "2026-04-06T09:00:00+02:00")
        #expect(override["dtstart"] as? String == "2026-04-06T10:30:00+02:00")
        let master = try #require(read.first { $0["rrule"] != nil })
        #expect(master["exdate"] as? [String] == ["2026-04-13T09:00:00+02:00"])
        let whole = try await setup.run(["cancel", uid, "--series", "--yes"])
        #expect(whole.status == 0, "\(whole.stderr)")
        await #expect(try setup.almanac(range).isEmpty)
    }

    @Test("412: another client changed the item between read and write; one line, nothing overwritten")
    func conflict() async throws {
        let setup = try await CalDAVWriteSetup()
        let added = try await setup.item(["add", "Dentist", "--at", "thursday 15:00", "--yes"])
        let uid = try #require(added["uid"] as? String)
        let proxy = try CalDAVFaultProxy("race", upstream: setup.server.base)
        defer { proxy.stop() }
        try setup.configure(port: proxy.port)
        let refused = try await setup.run(["move", "dentist", "--to", "16:00", "--yes"])
        #expect(refused.status == 69)
        #expect(
            refused.stderr
                == "error: calendar 'work': the item changed on the server since it was read; nothing was written "
                + "— run again\n")
        var read = try await setup.caldav().first { $0["uid"] as? String == uid }
        #expect(read?["other"] as? String == "was here")  // the other client's change stands
        #expect(read?["dtstart"] as? String == "2026-03-26T15:00:00+01:00")  // ours was not written
        let again = try await setup.item(["move", "dentist", "--to", "16:00", "--yes"])
        #expect(again["start"] as? String == "2026-03-26T16:00:00+01:00")
        read = try await setup.caldav().first { $0["uid"] as? String == uid }
        #expect(read?["other"] as? String == "was here")  // both changes now
        #expect(read?["dtstart"] as? String == "2026-03-26T16:00:00+01:00")
    }

    @Test("HTTP 500 on the write: one line naming calendar and host, exit 69, nothing written; a retry writes once")
    func serverError() async throws {
        let setup = try await CalDAVWriteSetup()
        let proxy = try CalDAVFaultProxy("500", upstream: setup.server.base)
        defer { proxy.stop() }
        try setup.configure(port: proxy.port)
        let failed = try await setup.run(["add", "Dentist", "--at", "thursday 15:00", "--yes"])
        #expect(failed.status == 69)
        #expect(
            failed.stderr
                == "error: calendar 'work': 127.0.0.1 failed the write (HTTP 500); run again — a retry does not "
                + "write the item twice\n")
        await #expect(try setup.caldav().isEmpty)
        let retried = try await setup.item(["add", "Dentist", "--at", "thursday 15:00", "--yes"])
        #expect(retried["action"] as? String == "added")
        await #expect(try setup.caldav().count == 1)
    }

    @Test("no answer to the write (saved, answer lost): exit 69; a retry finds it, by time or by request id")
    func timeout() async throws {
        let setup = try await CalDAVWriteSetup()
        setup.extra["ALMANAC_TIMEOUT"] = "4"  // margin for a loaded machine; the proxy holds the answer 30 s
        for (modes, request) in [("hang", [String]()), ("hang,blind", ["--request-id", "req-7"])] {
            let proxy = try CalDAVFaultProxy(modes, upstream: setup.server.base)
            defer { proxy.stop() }
            try setup.configure(port: proxy.port)
            let title = "Call \(modes)"
            let lost = try await setup.run(["add", title, "--at", "friday 9:00", "--yes"] + request)
            #expect(lost.status == 69, "\(lost.stdout)")
            #expect(
                lost.stderr
                    == "error: calendar 'work': 127.0.0.1 did not answer the write in time; it may have been saved "
                    + "— run again, a retry does not write it twice\n")
            await #expect(try setup.caldav().filter { $0["summary"] as? String == title }.count == 1)
            // `blind` hides it from the REPORT: the PUT's 412 finds it under its request id's UID.
            let retried = try await setup.item(["add", title, "--at", "friday 9:00", "--yes"] + request)
            #expect(retried["action"] as? String == "unchanged")
            await #expect(try setup.caldav().filter { $0["summary"] as? String == title }.count == 1)
        }
    }

    @Test("two processes change one item at once: both changes land, or one gets the conflict and nothing is lost")
    func concurrentWriters() async throws {
        let setup = try await CalDAVWriteSetup()
        let added = try await setup.item(["add", "Dentist", "--at", "thursday 15:00", "--yes"])
        let uid = try #require(added["uid"] as? String)
        let base = ["run", "calendar"]
        let tail = ["--yes", "--tz", "Europe/Berlin"]
        let outputs = await ToolsBinary.runAtOnce(
            [base + ["move", uid, "--to", "16:00"] + tail, base + ["cancel", uid] + tail],
            environment: setup.environment)
        let read = try await #require(try setup.caldav().first { $0["uid"] as? String == uid })
        let moved = try #require(outputs[0])
        let cancelled = try #require(outputs[1])
        for output in [moved, cancelled] where output.status != 0 {
            #expect(output.status == 69)
            #expect(output.stderr.contains("the item changed on the server since it was read; nothing was written"))
        }
        #expect(moved.status == 0 || cancelled.status == 0)
        if moved.status == 0 { #expect(read["dtstart"] as? String == "2026-03-26T16:00:00+01:00") }
        if cancelled.status == 0 { #expect(read["status"] as? String == "CANCELLED") }

        // The same add with one request id from two processes: one item, and both say so.
        let adds = await ToolsBinary.runAtOnce(
            Array(repeating: base + ["remind", "pay rent", "--request-id", "r-1"] + tail, count: 2),
            environment: setup.environment)
        for output in adds { #expect(output?.status == 0, "\(output?.stderr ?? "did not run")") }
        await #expect(try setup.caldav().filter { $0["summary"] as? String == "pay rent" }.count == 1)
    }

    @Test("no ETag in the PUT answer; a wrong password and two calendars are one line; an event named by its time")
    func edges() async throws {
        let setup = try await CalDAVWriteSetup()
        let proxy = try CalDAVFaultProxy("noetag", upstream: setup.server.base)
        defer { proxy.stop() }
        try setup.configure(port: proxy.port)
        let added = try await setup.item(["add", "Dentist", "--at", "thursday 15:00", "--yes"])
        let uid = try #require(added["uid"] as? String)
        let etag = try #require(added["etag"] as? String)
        #expect(etag == (try await setup.get("\(uid).ics")).etag)

        setup.extra["WORK_DAV_PASSWORD"] = "not the password"
        let refused = try await setup.run(["add", "Call", "--at", "friday 9:00", "--yes"])
        #expect(refused.status == 64)
        #expect(refused.stderr.hasPrefix("error: calendar 'work': CalDAV: 127.0.0.1 refused the username or password"))
        #expect(refused.stderr.split(separator: "\n").count == 2)  // the line and its suggestion
        #expect(!refused.stderr.contains("not the password"))
        setup.extra = [:]

        try await setup.server.makeCalendar("/alice/home/", name: "Home")
        try """
        [calendars.work]
        caldav = "\(setup.server.base.absoluteString)alice/"
        username = "\(RadicaleServer.user)"
        password_env = "WORK_DAV_PASSWORD"
        writable = true
        """.write(to: setup.config, atomically: true, encoding: .utf8)
        let which = try await setup.run(["add", "Call", "--at", "friday 9:00", "--yes"])
        #expect(which.status == 64)
        #expect(which.stderr.hasPrefix("error: calendar 'work': 127.0.0.1 has 2 calendars (Home, Work); Almanac adds"))
        // "move my 3pm to 4": an event named by its start time is found on the server too, in
        // whichever calendar holds it.
        let byTime = try await setup.item(["move", "15:00", "--to", "16:00", "--yes"])
        #expect(byTime["uid"] as? String == uid)
        #expect(byTime["start"] as? String == "2026-03-26T16:00:00+01:00")
        let moved = try await setup.item(["move", "dentist", "--to", "17:00", "--yes"])
        #expect(moved["start"] as? String == "2026-03-26T17:00:00+01:00")
        await #expect(try setup.caldav().count == 1)
    }
}
