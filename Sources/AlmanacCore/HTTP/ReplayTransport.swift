public import Foundation

/// One recorded exchange on disk: `<case>.exchange.json` beside its body file.
///
/// ```json
/// {"request": {"method": "GET", "url": "https://site.api.espn.com/apis/site/v2/sports/basketball/nba/scoreboard?dates=20241215"},
///  "response": {"status": 200, "headers": {"content-type": "application/json"}, "body": "nba-scoreboard.response.json"}}
/// ```
/// Secrets are never part of an exchange: request headers are not recorded at all.
public struct RecordedExchange: Sendable, Codable {
    /// The recorded request (method and URL only).
    public struct Request: Sendable, Codable {
        /// Method.
        public var method: String
        /// Full URL as sent (keys never go in URLs; Brave's key is a header).
        public var url: String

        /// A recorded request.
        public init(method: String, url: String) {
            self.method = method
            self.url = url
        }
    }

    /// The recorded response; `body` names a file next to the exchange.
    public struct Response: Sendable, Codable {
        /// Status code.
        public var status: Int
        /// Headers worth keeping (content type, rate-limit headers).
        var headers: [String: String]?
        /// Body file name, relative to the exchange file.
        public var body: String?

        /// A recorded response.
        public init(status: Int, headers: [String: String]?, body: String?) {
            self.status = status
            self.headers = headers
            self.body = body
        }
    }

    /// Request.
    public var request: Request
    /// Response.
    public var response: Response

    /// An exchange.
    public init(request: Request, response: Response) {
        self.request = request
        self.response = response
    }
}

/// Serves recorded exchanges from a Fixtures directory and touches no network.
///
/// Requests match on method, path and the sorted query (not the host, so base-URL overrides
/// still replay). An unrecorded request fails loudly, naming what was asked.
public struct ReplayTransport: HTTPTransport {
    private struct Recorded: Sendable {
        var status: Int
        var headers: [String: String]
        var bodyFile: URL?
    }

    private let exchanges: [String: Recorded]
    let directory: URL

    /// Loads every `*.exchange.json` under `directory`.
    public init(directory: URL) throws {
        self.directory = directory
        var exchanges: [String: Recorded] = [:]
        let fileManager = FileManager.default
        guard let walker = fileManager.enumerator(at: directory, includingPropertiesForKeys: nil) else {
            throw AlmanacError.usage(
                "replay directory \(directory.path) cannot be read",
                suggestion: "set ALMANAC_REPLAY to a Fixtures folder")
        }
        for case let file as URL in walker where file.lastPathComponent.hasSuffix(".exchange.json") {
            let exchange: RecordedExchange
            do {
                exchange = try JSONDecoder().decode(RecordedExchange.self, from: Data(contentsOf: file))
            } catch {
                throw AlmanacError.internal("fixture \(file.lastPathComponent) is not a valid exchange: \(error)")
            }
            guard let url = URL(string: exchange.request.url) else { continue }
            let key = Self.matchKey(method: exchange.request.method, url: url)
            exchanges[key] = Recorded(
                status: exchange.response.status, headers: exchange.response.headers ?? [:],
                bodyFile: exchange.response.body.map { file.deletingLastPathComponent().appendingPathComponent($0) })
        }
        self.exchanges = exchanges
    }

    /// How many exchanges were loaded.
    var count: Int { exchanges.count }

    /// Serves the recorded response for `request`.
    public func send(_ request: HTTPRequest, timeout: Duration) async throws -> HTTPResponse {
        let key = Self.matchKey(method: request.method, url: request.url)
        guard let recorded = exchanges[key] else {
            throw ProviderFailure(
                .notFound,
                "replay: no recorded exchange for \(request.method) \(Self.pathAndQuery(request.url)) in \(directory.lastPathComponent)/"
            )
        }
        let body = try recorded.bodyFile.map { try Data(contentsOf: $0) } ?? Data()
        return HTTPResponse(status: recorded.status, headers: recorded.headers, body: body)
    }

    /// `GET /path?a=1&b=2` with query items sorted.
    static func matchKey(method: String, url: URL) -> String {
        "\(method.uppercased()) \(pathAndQuery(url))"
    }

    static func pathAndQuery(_ url: URL) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let items = (components?.queryItems ?? [])
            .sorted { ($0.name, $0.value ?? "") < ($1.name, $1.value ?? "") }
            .map { "\($0.name)=\($0.value ?? "")" }
        let path = components?.path ?? url.path
        return items.isEmpty ? path : "\(path)?\(items.joined(separator: "&"))"
    }
}
