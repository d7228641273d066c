import AlmanacCore
import AlmanacCurl
import AlmanacTesting
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real SearXNG-compatible search server for tests: Debian's `searx` 1.1 (installed by
/// scripts/peers/searx.sh) on 127.0.0.1 with `json` enabled, and two engines:
///
/// - `loopback`, a `json_engine` fed by the loopback fixture server: for each query in `feeds`
///   it answers the items given (real results copied from recordings), for any other query 404;
/// - `broken`, a `json_engine` whose every request fails (HTTP 404), so each answer lists it
///   under `unresponsive_engines`.
///
/// Both servers are stopped by pid in ``stop()``; every wait is bounded.
final class SearxServer: @unchecked Sendable {
    // @unchecked: the handles are touched only by the owning test, then stopped once.

    /// Why searx could not be started or did not answer.
    struct StartError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// One result the loopback engine hands searx for a query.
    struct FeedItem: Sendable, Codable {
        /// The result's URL (`link` in the feed).
        var link: String
        /// Its title (`name`).
        var name: String
        /// Its snippet (`text`).
        var text: String
    }

    /// The first `count` results of the recorded SearXNG answer
    /// (`Fixtures/search/searxng/web-python.response.json`) as feed items: real results to feed
    /// the real server.
    static func recordedItems(_ count: Int) throws -> [FeedItem] {
        let data = try Fixtures.data("search/searxng/web-python.response.json")
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let results = object?["results"] as? [[String: Any]] ?? []
        return results.prefix(count).compactMap { result in
            guard let url = result["url"] as? String, let title = result["title"] as? String else { return nil }
            return FeedItem(link: url, name: title, text: result["content"] as? String ?? "")
        }
    }

    /// `http://127.0.0.1:<port>`: what `ALMANAC_SEARXNG_URL` points at.
    let baseURL: String
    private let process: Process
    private let feed: FixtureServer
    private let folder: URL

    /// The server's program, from Debian's `searx` package.
    static let program = "/usr/bin/searx-run"

    /// Why the server cannot start here, or nil when searx is installed.
    static var unavailableReason: String? {
        FileManager.default.isExecutableFile(atPath: program)
            ? nil : "searx missing: run `bash scripts/peers/searx.sh` (or scripts/setup-peers)"
    }

    /// Whether searx tests may run: outside CI they are skipped (with a note) when searx is
    /// missing; in CI they run and fail with the reason.
    static var mayRun: Bool {
        if unavailableReason == nil { return true }
        let ci = ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty && $0 != "false" } ?? false
        if !ci { print("note: skipping searx tests: \(unavailableReason ?? "")") }
        return ci
    }

    /// Starts the feed and searx; call ``waitUntilReady()`` before the first search.
    init(feeds: [String: [FeedItem]]) throws {
        if let reason = Self.unavailableReason { throw SearxServer.StartError(message: reason) }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("searx-\(UUID().uuidString)")
        let feedFolder = folder.appendingPathComponent("feed")
        try FileManager.default.createDirectory(at: feedFolder, withIntermediateDirectories: true)
        for (index, (query, items)) in feeds.sorted(by: { $0.key < $1.key }).enumerated() {
            var components = URLComponents(string: "http://127.0.0.1/items")
            components?.queryItems = [URLQueryItem(name: "q", value: query)]
            let exchange: [String: Any] = [
                "request": ["method": "GET", "url": components?.url?.absoluteString ?? ""],
                "response": [
                    "status": 200, "headers": ["content-type": "application/json"], "body": "items-\(index).json",
                ],
            ]
            try JSONSerialization.data(withJSONObject: exchange)
                .write(to: feedFolder.appendingPathComponent("items-\(index).exchange.json"))
            try JSONEncoder().encode(["items": items]).write(
                to: feedFolder.appendingPathComponent("items-\(index).json"))
        }
        feed = try FixtureServer(root: feedFolder, lifetime: 600)
        let port = try LoopbackPort.free()
        baseURL = "http://127.0.0.1:\(port)"
        let settings = folder.appendingPathComponent("settings.yml")
        try Self.settings(port: port, feed: feed.baseURL).write(to: settings, atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: Self.program)
        var environment = ProcessInfo.processInfo.environment
        environment["SEARX_SETTINGS_PATH"] = settings.path
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        let log = folder.appendingPathComponent("searx.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: log.path) ?? FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            feed.stop()
            throw error
        }
    }

    /// Polls `/healthz` until searx answers (bounded: 300 tries, 100 ms apart; it starts in 2-5 s).
    func waitUntilReady() async throws {
        let transport = CurlTransport()
        guard let url = URL(string: baseURL + "/healthz") else { return }
        for _ in 0..<300 {
            if !process.isRunning {
                throw SearxServer.StartError(message: "searx exited with status \(process.terminationStatus)")
            }
            if let response = try? await transport.send(HTTPRequest(url: url), timeout: .seconds(2)),
                response.status == 200
            {
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw SearxServer.StartError(message: "searx did not answer on \(baseURL)")
    }

    /// Stops searx and the feed by pid and removes the temporary folder.
    func stop() {
        ChildProcess.stop(process)
        feed.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    deinit { stop() }

    /// A minimal searx 1.1 settings.yml: the example's required sections (searx refuses to start
    /// without `outgoing`, `locales`, `doi_resolvers`), `json` among the formats, no ban after an
    /// engine error (the broken engine must fail on every request), and the two engines.
    static func settings(port: Int, feed: String) -> String {
        func engine(_ name: String, _ path: String) -> String {
            """
              - name: \(name)
                engine: json_engine
                shortcut: \(name.prefix(2))
                enable_http: true
                categories: general
                search_url: "\(feed)/\(path)?q={query}"
                results_query: items
                url_query: link
                title_query: name
                content_query: text

            """
        }
        return """
            general:
                debug: False
                instance_name: "almanac-test"
            search:
                safe_search: 0
                autocomplete: ""
                default_lang: ""
                formats: [html, json]
                ban_time_on_fail: 0
                max_ban_time_on_fail: 0
            server:
                port: \(port)
                bind_address: "127.0.0.1"
                secret_key: "almanac-test-instance-\(UUID().uuidString)"
                base_url: False
                image_proxy: False
                http_protocol_version: "1.0"
                method: "GET"
            ui:
                static_path: "/usr/share/python3-searx/static"
                templates_path: "/usr/share/python3-searx/templates"
                default_theme: oscar
            outgoing:
                request_timeout: 2.0
                pool_connections: 10
                pool_maxsize: 10
            locales:
                en: English
            doi_resolvers:
                doi.org: 'https://doi.org/'
            default_doi_resolver: 'doi.org'
            engines:

            """ + engine("loopback", "items") + engine("broken", "broken")
    }
}
