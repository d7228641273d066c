import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The live transport: URLSession (libcurl on Linux).
///
/// URLSession truncates `timeoutInterval` to whole seconds on Linux, so it is set one second
/// above the deadline as a backstop while ``Deadline`` enforces the real one.
public struct URLSessionTransport: HTTPTransport {
    /// Created on first use (Swift globals are lazy): a cache hit never pays for libcurl set-up.
    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration)
    }()

    /// Bodies larger than this are refused, so a runaway upstream cannot exhaust memory.
    public let maxBodyBytes: Int

    /// Creates a live transport with an ephemeral session (no cookies, no URL cache).
    public init(maxBodyBytes: Int = 32 << 20) {
        self.maxBodyBytes = maxBodyBytes
    }

    /// Sends the request.
    public func send(_ request: HTTPRequest, timeout: Duration) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.timeoutInterval = Double(timeout.components.seconds) + 1
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        if urlRequest.value(forHTTPHeaderField: "User-Agent") == nil {
            urlRequest.setValue("almanac/0.1 (+tools)", forHTTPHeaderField: "User-Agent")
        }
        let service = request.url.host ?? "server"
        let prepared = urlRequest
        let session = Self.session
        return try await Deadline.run(timeout) { [maxBodyBytes] in
            let data: Data
            let response: URLResponse
            do {
                if let body = request.body {
                    (data, response) = try await session.upload(for: prepared, from: body)
                } else {
                    (data, response) = try await session.data(for: prepared)
                }
            } catch let error as URLError {
                switch error.code {
                case .timedOut: throw ProviderFailure(.timeout, "\(service): timed out")
                case .cannotConnectToHost, .cannotFindHost, .networkConnectionLost, .notConnectedToInternet:
                    throw ProviderFailure(.network, "\(service): could not connect")
                default:
                    // libcurl reports truncated bodies as URLError -1 (unknown).
                    throw ProviderFailure(.network, "\(service): connection failed or body cut short")
                }
            }
            guard let http = response as? HTTPURLResponse else {
                throw ProviderFailure(.network, "\(service): not an HTTP response")
            }
            guard data.count <= maxBodyBytes else {
                throw ProviderFailure(.http, "\(service): response larger than \(maxBodyBytes >> 20) MB refused")
            }
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
            }
            return HTTPResponse(status: http.statusCode, headers: headers, body: data)
        }
    }
}
