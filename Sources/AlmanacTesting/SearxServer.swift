import AlmanacCore
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
public final class SearxServer: @unchecked Sendable {
    // @unchecked: the handles are touched only by the owning test, then stopped once.

    /// One result the loopback engine hands searx for a query.
    public struct FeedItem: Sendable, Codable {
        /// The result's URL (`link` in the feed).
        public var link: String
        /// Its title (`name`).
        public var name: String
        /// Its snippet (`text`).
        public var text: String

        /// Creates an item.
        public init(link: String, name: String, text: String) {
            self.link = link
            self.name = name
            self.text = text
        }
    }

    /// The first `count` results of the recorded SearXNG answer
    /// (`Fixtures/search/searxng/web-python.response.json`) as feed items: real results to feed
    /// the real server.
    public static func recordedItems(_ count: Int) throws -> [FeedItem] {
        let data = try Fixtures.data("search/searxng/web-python.response.json")
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let results = object?["results"] as? [[String: Any]] ?? []
        return results.prefix(count).compactMap { result in
            guard let url = result["url"] as? String, let title = result["title"] as? String else { return nil }
            return FeedItem(link: url, name: title, text: result["content"] as? String ?? "")
        }
    }

    /// `http://127.0.0.1:<port>`: what `ALMANAC_SEARXNG_URL` points at.
    public let baseURL: String
    private let process: Process
    private let feed: FixtureServer
    private let folder: URL

    /// The server's program, from Debian's `searx` package.
    static let program = "/usr/bin/searx-run"

    /// Why the server cannot start here, or nil when searx is installed.
    public static var unavailableReason: String? {
        FileManager.default.isExecutableFile(atPath: program)
            ? nil : "searx missing: run `bash scripts/peers/searx.sh` (or scripts/setup)"
    }

    /// Whether searx tests may run: outside CI they are skipped (with a note) when searx is
    /// missing; in CI they run and fail with the reason.
    public static var mayRun: Bool {
        if unavailableReason == nil { return true }
        let ci = ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty && $0 != "false" } ?? false
        if !ci { print("note: skipping searx tests: \(unavailableReason ?? "")") }
        return ci
    }

    /// Starts the feed and searx; call ``waitUntilReady()`` before the first search.
    public init(feeds: [String: [FeedItem]]) throws {
        if let reason = Self.unavailableReason { throw FixtureServer.ServerError(message: reason) }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("searx-\(UUID().uuidString)")
        let feedFolder = folder.appendingPathComponent("feed")
        try FileManager.default.createDirectory(at: feedFolder, withIntermediateDirectories: true)
        for (index, (query, items)) in feeds.sorted(by: { $0.key < $1.key }).enumerated() {
            var components = URLComponents(string: "http://127.0.0.1/items")
            components?.queryItems = [URLQueryItem(name: "q", value: query)]
            let exchange: [String: Any] = [
                "request": ["method": "GET", "url": components?.url?.absoluteString ?? ""],
                "response": ["status": 200, "headers": ["content-type": "application/json"], "body": "items-\(index).json"],
            ]
            try JSONSerialization.data(withJSONObject: exchange)
                .write(to: feedFolder.appendingPathComponent("items-\(index).exchange.json"))
            try JSONEncoder().encode(["items": items]).write(to: feedFolder.appendingPathComponent("items-\(index).json"))
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
    public func waitUntilReady() async throws {
        let transport = CurlTransport()
        guard let url = URL(string: baseURL + "/healthz") else { return }
        for _ in 0..<300 {
            if !process.isRunning {
                throw FixtureServer.ServerError(message: "searx exited with status \(process.terminationStatus)")
            }
            if let response = try? await transport.send(HTTPRequest(url: url), timeout: .seconds(2)), response.status == 200 {
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw FixtureServer.ServerError(message: "searx did not answer on \(baseURL)")
    }

    /// Stops searx and the feed by pid and removes the temporary folder.
    public func stop() {
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

/// Free TCP ports on the loopback interface.
public enum LoopbackPort {
    /// A port on 127.0.0.1 nobody listens on now (asked from the kernel with port 0).
    public static func free() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw FixtureServer.ServerError(message: "socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard bound else { throw FixtureServer.ServerError(message: "bind() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
