import AlmanacCore
import AlmanacCurl
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCalendar
@testable import AlmanacRuntime

/// CalDAV state in the real SQLite cache, across runs and processes, against a real Radicale: the
/// sync token and ETags survive, a DELETE costs one small REPORT, a failing server gives the cached
/// copy marked stale, and the password is nowhere on disk or in any output.
@Suite("CalDAV sync state, stale copies and secrets", .serialized, .enabled(if: RadicaleServer.mayRun))
struct RadicaleCacheTests {
    static let window = ["--from", "2019-01-01", "--to", "2024-12-31"]
    static let test7 = "5d4c6843-9300-4f91-8d88-6094d4b0b840"
    static let davx5 = "f0f31ddb-6918-46af-a5a1-0a7254fbce71"

    /// A private folder for a cache, removed afterwards.
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-caldav-\(UUID().uuidString)")
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }

        /// Every byte the cache left on disk (the database, its WAL and shared-memory files).
        func bytes() throws -> Data {
            var all = Data()
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path) {
                all += (try? Data(contentsOf: url.appendingPathComponent(name))) ?? Data()
            }
            return all
        }
    }

    /// One run as a fresh process would make it: its own connection to the SQLite file, its own
    /// coordinator, and a transport that records what is sent.
    func run(_ server: RadicaleServer, cache: Folder, log: RequestLog) async throws -> CalendarPayload {
        var harness = CalendarHarness(now: "2019-03-18T00:00:00Z", zone: "Europe/Berlin")
        harness.transport = RecordingTransport(inner: CurlTransport(), log: log)
        harness.settings = Settings(environment: [
            "ALMANAC_CALDAV_USER": RadicaleServer.user, "ALMANAC_CALDAV_PASSWORD": RadicaleServer.password,
        ])
        harness.state = try SQLiteCacheStore(directory: cache.url)
        return try await harness.payload(
            ["--caldav", server.base.appendingPathComponent("alice/").absoluteString] + Self.window)
    }

    /// The state the provider keeps for the Work collection, read through a new connection.
    func storedState(_ server: RadicaleServer, cache: Folder) async throws -> CalDAVState {
        let collection = server.base.appendingPathComponent("alice/office/").absoluteString
        return await CalDAVState.load(
            "caldav:" + StableHash.hex(collection + "|" + RadicaleServer.user),
            from: try SQLiteCacheStore(directory: cache.url))
    }

    @Test("after a DELETE the next run sends the stored sync token, fetches nothing, and the event is gone")
    func syncAfterDelete() async throws {
        let server = try await RadicaleTests.seeded()
        defer { server.stop() }
        let cache = try Folder()
        let log = RequestLog()

        let first = try await run(server, cache: cache, log: log)
        #expect(Set(first.events.map(\.uid)) == [Self.test7, Self.davx5])
        let before = try await storedState(server, cache: cache)
        let token = try #require(before.syncToken)
        #expect(token.hasPrefix("http://radicale.org/ns/sync/"))
        #expect(before.objects.keys.sorted() == ["/alice/office/davx5.ics", "/alice/office/test7.ics"])
        #expect(before.objects.values.allSatisfy { !$0.etag.isEmpty && $0.data.contains("BEGIN:VCALENDAR") })

        try await server.delete("/alice/office/test7.ics")
        await log.reset()
        let second = try await run(server, cache: cache, log: log)
        let reports = await log.requests.filter { $0.method == "REPORT" }.compactMap {
            $0.body.map { String(decoding: $0, as: UTF8.self) }
        }
        // One sync-collection REPORT carrying the token the first run stored, and no multiget.
        #expect(reports.count == 1)
        #expect(reports.first?.contains("<d:sync-collection") == true)
        #expect(reports.first?.contains("<d:sync-token>\(token)</d:sync-token>") == true)
        #expect(second.events.map(\.uid).allSatisfy { $0 == Self.davx5 })
        #expect(second.events == first.events.filter { $0.uid == Self.davx5 })

        let after = try await storedState(server, cache: cache)
        #expect(after.syncToken != nil && after.syncToken != token)
        #expect(after.objects.keys.sorted() == ["/alice/office/davx5.ics"])
        #expect(after.objects["/alice/office/davx5.ics"]?.etag == before.objects["/alice/office/davx5.ics"]?.etag)
    }

    // MARK: The built binary, one process per run

    /// `tools run calendar --caldav <collection>` with the cache in `cache`, credentials from the
    /// environment, the clock fixed and every run asking the server (TTL 0).
    func tools(
        _ server: RadicaleServer, cache: Folder, password: String,
        window: (from: String, to: String) = ("2019-03-18", "2019-03-20"),
        extra: [String] = [], environment: [String: String] = [:]
    ) async throws -> CommandOutput {
        var variables = ToolsBinary.environment(
            cacheDirectory: cache.url,
            extra: [
                "ALMANAC_CALDAV_USER": RadicaleServer.user, "ALMANAC_CALDAV_PASSWORD": password,
                "ALMANAC_NOW": "2019-03-18T00:00:00Z", "ALMANAC_CACHE_TTL": "0", "ALMANAC_LOG": "trace",
            ])
        variables.merge(environment) { _, new in new }
        return try await ToolsBinary.run(
            [
                "run", "calendar", "--caldav", server.base.appendingPathComponent("alice/office/").absoluteString,
                "--tz", "Europe/Berlin",
                "--from", window.from, "--to", window.to,
            ] + extra,
            environment: variables)
    }

    static func envelope(_ output: CommandOutput) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
    }

    static func events(_ envelope: [String: Any]) -> [String] {
        let events = (envelope["data"] as? [String: Any])?["events"] as? [[String: Any]] ?? []
        return events.map { "\($0["start"] as? String ?? "?") \($0["summary"] as? String ?? "?")" }
    }

    static func attempts(_ envelope: [String: Any]) -> [String] {
        (envelope["attempts"] as? [[String: Any]] ?? []).map {
            "\($0["provider"] as? String ?? "?") \($0["outcome"] as? String ?? "?"): \($0["detail"] as? String ?? "")"
        }
    }

    @Test("401, a timeout and 404 with a cached copy: exit 0 with that copy, stale in JSON and in context")
    func staleOnFailure() async throws {
        let server = try await RadicaleTests.seeded()
        defer { server.stop() }
        let cache = try Folder()
        let expected = [
            "2019-03-18T03:00:00Z test7", "2019-03-19T03:00:00Z test7 - edited", "2019-03-20T03:00:00Z test7",
        ]

        let fresh = try await tools(
            server, cache: cache, password: RadicaleServer.password, extra: ["--format", "json"])
        #expect(fresh.status == 0, "stderr: \(fresh.stderr)")
        let freshEnvelope = try Self.envelope(fresh)
        #expect(freshEnvelope["stale"] as? Bool == false)
        #expect(Self.events(freshEnvelope) == expected)

        /// `details`: what the attempt may say (a timeout is the coordinator's deadline or
        /// libcurl's, whichever fires first).
        func expectStale(
            password: String, timeout: String = "8", details: Set<String>, outcome: String = "failed"
        ) async throws {
            let environment = ["ALMANAC_TIMEOUT": timeout]
            let json = try await tools(
                server, cache: cache, password: password, extra: ["--format", "json"], environment: environment)
            #expect(json.status == 0, "stderr: \(json.stderr)")
            let envelope = try Self.envelope(json)
            #expect(envelope["stale"] as? Bool == true)
            #expect(Self.events(envelope) == expected)
            let attempts = Self.attempts(envelope)
            #expect(
                attempts.count == 1 && details.contains { attempts.first == "caldav \(outcome): \($0)" }, "\(attempts)")

            let context = try await tools(server, cache: cache, password: password, environment: environment)
            #expect(context.status == 0, "stderr: \(context.stderr)")
            let header = context.stdout.split(separator: "\n").first.map(String.init) ?? ""
            #expect(
                header.hasPrefix(
                    "[calendar] Events Mon 18 Mar 2019 (today) to Wed 20 Mar 2019 · source: caldav · STALE: fetched"))
            #expect(details.contains { header.hasSuffix("caldav failed: \($0)") }, "\(header)")
            #expect(context.stdout.contains("- 04:00–05:00: test7 - edited · at location"))
        }

        // 401: the login is refused.
        try await expectStale(
            password: "not-the-password", details: ["CalDAV: 127.0.0.1 refused the username or password (HTTP 401/403)"]
        )

        // 404: the collection is gone.
        try await server.delete("/alice/office/")
        try await expectStale(
            password: RadicaleServer.password, details: ["CalDAV: 127.0.0.1 has nothing at /alice/office (HTTP 404)"])

        // A timeout: the server is frozen (SIGSTOP), so connections open but nothing answers. Last,
        // because Radicale works through the abandoned requests after SIGCONT: one racing the DELETE
        // above left the path answering 403 instead of 404 (about one run in three).
        let pid = server.process.processIdentifier
        kill(pid, SIGSTOP)
        defer { kill(pid, SIGCONT) }
        try await expectStale(
            password: RadicaleServer.password, timeout: "1",
            details: ["no answer within 1 s", "CalDAV: 127.0.0.1 did not answer in time"], outcome: "timeout")
    }

    @Test(
        "a window never asked before is answered from the mirror when the server fails (401, timeout), labelled stale")
    func staleMirrorAnyWindow() async throws {
        let server = try await RadicaleTests.seeded()
        defer { server.stop() }
        let cache = try Folder()
        // One good run (March) mirrors the whole collection; October and November were never asked.
        let fresh = try await tools(server, cache: cache, password: RadicaleServer.password)
        #expect(fresh.status == 0, "stderr: \(fresh.stderr)")

        // 401: October's one remaining Tuesday of the weekly DAVx5 event (the 15th and 22nd are EXDATEs).
        let october = try await tools(
            server, cache: cache, password: "not-the-password", window: ("2019-10-01", "2019-10-31"),
            extra: ["--format", "json"])
        #expect(october.status == 0, "stderr: \(october.stderr)")
        let envelope = try Self.envelope(october)
        #expect(envelope["stale"] as? Bool == true)
        #expect(Self.events(envelope) == ["2019-10-29T15:15:00Z Test"])
        #expect(
            Self.attempts(envelope) == [
                "caldav failed: CalDAV: 127.0.0.1 refused the username or password (HTTP 401/403)"
            ])

        // A frozen server (timeout), in context form: November, where only the 12th is left.
        let pid = server.process.processIdentifier
        kill(pid, SIGSTOP)
        defer { kill(pid, SIGCONT) }
        let november = try await tools(
            server, cache: cache, password: RadicaleServer.password, window: ("2019-11-01", "2019-11-30"),
            environment: ["ALMANAC_TIMEOUT": "1"])
        #expect(november.status == 0, "stderr: \(november.stderr)")
        let lines = november.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("· STALE: fetched") == true, "\(lines)")
        #expect(lines.filter { $0.contains(": Test") }.count == 1, "\(lines)")
        #expect(november.stdout.contains("Tue 12 Nov"))
    }

    @Test("the CalDAV password is in no output, error, log or cache byte; the sync token and ETags are")
    func passwordNeverStored() async throws {
        let server = try await RadicaleTests.seeded()
        defer { server.stop() }
        let cache = try Folder()
        let wrong = "wrong-\(UUID().uuidString)"
        var outputs: [CommandOutput] = []

        // A refused login with nothing cached yet: exit 69 with the reason.
        let refused = try await tools(server, cache: cache, password: wrong)
        #expect(refused.status == 69)
        #expect(refused.stderr.contains("CalDAV: 127.0.0.1 refused the username or password (HTTP 401/403)"))
        outputs.append(refused)
        for format in ["context", "json", "text"] {
            let output = try await tools(
                server, cache: cache, password: RadicaleServer.password, extra: ["--format", format])
            #expect(output.status == 0, "stderr: \(output.stderr)")
            outputs.append(output)
        }
        // A second process: the stored token matches the server's, so the objects come from the cache.
        await outputs.append(
            try tools(server, cache: cache, password: RadicaleServer.password, extra: ["--format", "json"]))
        #expect(Self.events(try Self.envelope(outputs[4])).count == 3)
        await outputs.append(try tools(server, cache: cache, password: wrong, extra: ["--format", "json"]))  // stale

        let disk = try cache.bytes()
        let secrets = [
            RadicaleServer.password, wrong,
            Data("\(RadicaleServer.user):\(RadicaleServer.password)".utf8).base64EncodedString(),
            Data("\(RadicaleServer.user):\(wrong)".utf8).base64EncodedString(),
        ]
        for secret in secrets {
            #expect(disk.range(of: Data(secret.utf8)) == nil, "the cache holds '\(secret)'")
            for output in outputs {
                #expect(
                    !output.stdout.contains(secret) && !output.stderr.contains(secret), "an output holds '\(secret)'")
            }
        }
        // What the cache does hold: the calendar, the collection's sync token and the objects'
        // ETags (inside JSON, so compared without the quotes and slashes JSON escapes).
        #expect(disk.range(of: Data("test7 - edited".utf8)) != nil)
        let state = try await storedState(server, cache: cache)
        let token = try #require(state.syncToken)
        #expect(token.hasPrefix("http://radicale.org/ns/sync/"))
        #expect(disk.range(of: Data(token.split(separator: "/").last.map(String.init)?.utf8 ?? "-".utf8)) != nil)
        #expect(state.objects.count == 2)
        for object in state.objects.values {
            #expect(
                disk.range(of: Data(object.etag.trimmingCharacters(in: CharacterSet(charactersIn: "\"")).utf8)) != nil)
        }
    }
}
