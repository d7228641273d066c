public import Foundation

/// An HTTP request as providers build it.
public struct HTTPRequest: Sendable, Hashable {
    /// `GET`, `REPORT`, `PROPFIND`, ...
    public var method: String
    /// The full URL.
    public var url: URL
    /// Request headers. Values of ``sensitiveHeaders`` are never recorded or printed.
    public var headers: [String: String]
    /// Optional body.
    public var body: Data?
    /// Whether the transport follows redirects itself (``EgressPolicy`` turns it off to vet each hop).
    public var followRedirects = true
    /// The address to connect to for the URL's host, already vetted (no second DNS answer is used).
    public var pinnedAddress: String?
    /// The largest answer body this request accepts, below the transport's own limit (nil: the
    /// transport's); a longer one fails as too large without being held whole.
    public var maxBodyBytes: Int?

    /// Header names whose values are secrets in any API (providers declare their own too, in
    /// ``ProviderDescriptor/secrets``).
    static let sensitiveHeaders: Set<String> = ["authorization", "cookie", "proxy-authorization", "x-api-key"]

    /// Creates a request.
    public init(method: String = "GET", url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// `METHOD host/path?query`, safe to show (no headers, so no keys).
    var summary: String {
        "\(method) \(url.host ?? "")\(url.path)"
    }
}

/// An HTTP response. A non-2xx status is a response, not an error.
public struct HTTPResponse: Sendable {
    /// Status code.
    public var status: Int
    /// Headers with lowercased names.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// Creates a response (header names are lowercased).
    public init(status: Int, headers: [String: String] = [:], body: Data) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
        self.body = body
    }

    /// A header by case-insensitive name.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// The seam every provider speaks through: live (libcurl), replay (Fixtures/) or a test double.
public protocol HTTPTransport: Sendable {
    /// Sends `request`; gives up after `timeout` (callers also enforce their own deadline).
    func send(_ request: HTTPRequest, timeout: Duration) async throws -> HTTPResponse
}

extension HTTPTransport {
    /// Sends `request` with any status; transport failures become ``ProviderFailure``s that name
    /// `service` (the transports themselves only know the host).
    public func send(_ request: HTTPRequest, timeout: Duration, service: String) async throws -> HTTPResponse {
        let host = request.url.host ?? "server"
        do {
            return try await send(request, timeout: timeout)
        } catch let failure as ProviderFailure {
            guard failure.message.hasPrefix("\(host): ") else { throw failure }
            var named = failure
            named.message = "\(service): \(failure.message.dropFirst(host.count + 2)) (\(host))"
            throw named
        } catch is CancellationError {
            throw CancellationError()
        } catch is DeadlineExceeded {
            throw ProviderFailure(.timeout, "\(service): no answer from \(host) in time")
        } catch {
            throw ProviderFailure(.network, "\(service): could not connect to \(host)")
        }
    }

    /// Sends `request` and requires a 2xx status; maps statuses to ``ProviderFailure``s.
    ///
    /// - Parameter service: A short name for messages ("ESPN"), never the URL's query (it may hold keys).
    public func fetch(_ request: HTTPRequest, timeout: Duration, service: String) async throws -> HTTPResponse {
        let response = try await send(request, timeout: timeout, service: service)
        return try HTTPStatus.require2xx(response, for: request, service: service)
    }

    /// Fetches and decodes JSON, mapping malformed bodies to a ``ProviderFailure`` of kind `decoding`.
    public func fetchJSON<T: Decodable>(
        _ type: T.Type, _ request: HTTPRequest, timeout: Duration, service: String,
        decoder: JSONDecoder = JSONDecoder()
    ) async throws -> T {
        let response = try await fetch(request, timeout: timeout, service: service)
        return try UpstreamJSON.decode(type, from: response.body, service: service, decoder: decoder)
    }
}

/// Decoding an upstream's JSON body, the one way every provider does it.
public enum UpstreamJSON {
    /// Decodes `data` as `type`; any failure becomes a ``ProviderFailure`` of kind `decoding` whose
    /// message names `service` and the failing path, never the body.
    public static func decode<T: Decodable>(
        _ type: T.Type, from data: Data, service: String, decoder: JSONDecoder = JSONDecoder()
    ) throws -> T {
        do {
            return try decoder.decode(type, from: data)
        } catch {
            throw ProviderFailure(.decoding, "\(service): unreadable response (\(DecodingDescription.describe(error)))")
        }
    }
}

/// Reads the standard `Retry-After` header (seconds or HTTP date); providers read their own
/// upstream's rate-limit headers.
public enum RetryAfter {
    /// When the server says to retry, if it says.
    public static func date(from response: HTTPResponse, now: Date = Date()) -> Date? {
        if let value = response.header("retry-after")?.trimmingCharacters(in: .whitespaces) {
            if let seconds = Double(value) { return now.addingTimeInterval(seconds) }
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
            if let date = formatter.date(from: value) { return date }
        }
        return nil
    }
}

/// Short, safe descriptions of decoding errors (a path, not the body).
enum DecodingDescription {
    /// "missing key 'events'", "wrong type at events[0].date", ...
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "not JSON" }
        func path(_ context: DecodingError.Context) -> String {
            let text = context.codingPath.map { key in
                key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)"
            }.joined()
            return text.hasPrefix(".") ? String(text.dropFirst()) : text
        }
        switch error {
        case .keyNotFound(let key, let context):
            let prefix = path(context)
            return "missing key '\(prefix.isEmpty ? "" : prefix + ".")\(key.stringValue)'"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "wrong type at \(path(context).isEmpty ? "top level" : path(context))"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "malformed JSON" : "bad value at \(path(context))"
        @unknown default:
            return "not JSON"
        }
    }
}
