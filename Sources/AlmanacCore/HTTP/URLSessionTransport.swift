import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The live transport: URLSession (libcurl on Linux).
///
/// URLSession truncates `timeoutInterval` to whole seconds on Linux, so it is set one second
/// above the deadline as a backstop while ``Deadline`` enforces the real one.
public struct URLSessionTransport: HTTPTransport {
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
        return try await Deadline.run(timeout) { [maxBodyBytes] in
            let data: Data
            let response: URLResponse
            do {
                (data, response) = try await CappedLoad.run(prepared, body: request.body, maxBodyBytes: maxBodyBytes)
            } catch is BodyTooLarge {
                throw ProviderFailure(.http, "\(service): response larger than \(maxBodyBytes >> 20) MB refused")
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
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
            }
            return HTTPResponse(status: http.statusCode, headers: headers, body: data)
        }
    }
}

/// The body went past the cap.
struct BodyTooLarge: Error {}

/// One request through a delegate that counts bytes as they arrive and cancels past the cap, so a
/// runaway upstream (a 200 MB body) never sits in memory: `data(for:)` would buffer all of it first.
final class CappedLoad: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: the mutable state is touched only on the session's serial delegate queue,
    // and the continuation is resumed exactly once (guarded by `finished`).
    private let maxBodyBytes: Int
    private var received = Data()
    private var response: URLResponse?
    private var tooLarge = false
    private var finished = false
    private var continuation: CheckedContinuation<(Data, URLResponse), any Error>?

    private init(maxBodyBytes: Int) {
        self.maxBodyBytes = maxBodyBytes
    }

    /// Loads `request`; throws ``BodyTooLarge`` once more than `maxBodyBytes` arrive (or are announced).
    static func run(_ request: URLRequest, body: Data?, maxBodyBytes: Int) async throws -> (Data, URLResponse) {
        let load = CappedLoad(maxBodyBytes: maxBodyBytes)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let session = URLSession(configuration: configuration, delegate: load, delegateQueue: queue)
        // The session retains its delegate until invalidated.
        defer { session.finishTasksAndInvalidate() }
        var prepared = request
        if let body { prepared.httpBody = body }
        let task = session.dataTask(with: prepared)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                queue.addOperation {
                    load.continuation = continuation
                    task.resume()
                }
            }
        } onCancel: {
            task.cancel()
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        self.response = response
        if response.expectedContentLength > Int64(maxBodyBytes) {
            tooLarge = true
            completionHandler(.cancel)
            finish(.failure(BodyTooLarge()))
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard !tooLarge else { return }
        if received.count + data.count > maxBodyBytes {
            tooLarge = true
            received = Data()
            dataTask.cancel()
            finish(.failure(BodyTooLarge()))
            return
        }
        received.append(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error {
            finish(.failure(error))
        } else if let response {
            finish(.success((received, response)))
        } else {
            finish(.failure(URLError(.badServerResponse)))
        }
    }

    private func finish(_ result: Result<(Data, URLResponse), any Error>) {
        guard !finished, let continuation else { return }
        finished = true
        self.continuation = nil
        continuation.resume(with: result)
    }
}
