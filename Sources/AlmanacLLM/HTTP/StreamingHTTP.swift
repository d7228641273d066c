import AlmanacCore
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An HTTP response whose body arrives in pieces, as the server writes it.
public struct StreamingResponse: Sendable {
    /// Status code.
    public var status: Int
    /// Headers with lowercased names.
    public var headers: [String: String]
    /// The body, chunk by chunk. Ends normally when the server closes a complete body, or throws
    /// ``LLMError/streamCut(tokens:)``-worthy transport errors when the connection breaks mid-body.
    public var body: AsyncThrowingStream<Data, any Error>

    /// Creates a response.
    public init(status: Int, headers: [String: String] = [:], body: AsyncThrowingStream<Data, any Error>) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Collects the whole body (for error responses and non-streaming calls).
    public func collect(limit: Int = 8 << 20) async throws -> Data {
        var data = Data()
        for try await chunk in body {
            data.append(chunk)
            if data.count > limit { throw LLMError.badResponse("response larger than \(limit >> 20) MB") }
        }
        return data
    }
}

/// The seam the LLM client speaks through: live (URLSession with a data delegate) or a test double.
public protocol StreamingHTTPClient: Sendable {
    /// Sends `request` and returns as soon as the status and headers arrive.
    ///
    /// - Throws: ``LLMError/serverDown(url:)`` when nothing listens, ``LLMError/network(_:)`` otherwise.
    func send(_ request: HTTPRequest) async throws -> StreamingResponse
}

/// Streaming over URLSession, which on Linux is libcurl underneath.
///
/// Why URLSession and not libcurl directly: FoundationNetworking has no `bytes(for:)`, but its
/// `URLSessionDataDelegate.didReceive(data:)` is called from libcurl's write callback, so each
/// chunk the server flushes arrives as it is written. That gives real streaming with no C module,
/// no extra system headers, and the same proxy/TLS behaviour as the providers' transport. The
/// delegate is bridged to an `AsyncThrowingStream`; cancelling the consuming task cancels the
/// data task (Ctrl-C stops the request on the wire too).
public struct URLSessionStreamingClient: StreamingHTTPClient {
    /// Seconds without progress before the request fails (a model may think for a while).
    public var idleTimeout: TimeInterval

    /// Creates a client.
    public init(idleTimeout: TimeInterval = 300) {
        self.idleTimeout = idleTimeout
    }

    /// Sends the request.
    public func send(_ request: HTTPRequest) async throws -> StreamingResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        urlRequest.timeoutInterval = idleTimeout
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.timeoutIntervalForRequest = idleTimeout
        let delegate = StreamDelegate()
        // The session keeps its delegate alive; it is invalidated when the task completes.
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        let task = session.dataTask(with: urlRequest)
        let base = "\(request.url.scheme ?? "http")://\(request.url.host ?? "")\(request.url.port.map { ":\($0)" } ?? "")"
        delegate.start(task: task, session: session, base: base)
        let response = try await withTaskCancellationHandler {
            try await delegate.response()
        } onCancel: {
            // Off the cancellation handler (which holds the task's status lock): URLSession may be
            // delivering a failure that needs the same lock (the async `data(for:)` hung that way).
            DispatchQueue.global().async { task.cancel() }
        }
        return response
    }
}

/// Bridges URLSession's delegate callbacks to a response continuation and a body stream.
final class StreamDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct State {
        var waiter: CheckedContinuation<StreamingResponse, any Error>?
        var response: Result<StreamingResponse, any Error>?
        var base = ""
    }

    private let state = Mutex(State())
    private let body: AsyncThrowingStream<Data, any Error>
    private let continuation: AsyncThrowingStream<Data, any Error>.Continuation

    override init() {
        (body, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        super.init()
    }

    func start(task: URLSessionDataTask, session: URLSession, base: String) {
        state.withLock { $0.base = base }
        continuation.onTermination = { termination in
            if case .cancelled = termination { DispatchQueue.global().async { task.cancel() } }
            session.finishTasksAndInvalidate()
        }
        task.resume()
    }

    func response() async throws -> StreamingResponse {
        try await withCheckedThrowingContinuation { waiter in
            let ready: Result<StreamingResponse, any Error>? = state.withLock { state in
                if let response = state.response { return response }
                state.waiter = waiter
                return nil
            }
            if let ready { waiter.resume(with: ready) }
        }
    }

    private func deliver(_ result: Result<StreamingResponse, any Error>) {
        let waiter: CheckedContinuation<StreamingResponse, any Error>? = state.withLock { state in
            guard state.response == nil else { return nil }
            state.response = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(with: result)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        var headers: [String: String] = [:]
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        if let http = response as? HTTPURLResponse {
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
            }
        }
        deliver(.success(StreamingResponse(status: status, headers: headers, body: body)))
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        continuation.yield(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let base = state.withLock { $0.base }
        guard let error else {
            // A complete body with no headers callback cannot happen; be safe anyway.
            deliver(.failure(LLMError.badResponse("no response from \(base)")))
            continuation.finish()
            return
        }
        let mapped: any Error
        if let urlError = error as? URLError {
            switch urlError.code {
            case .cannotConnectToHost, .cannotFindHost, .notConnectedToInternet, .dnsLookupFailed:
                mapped = LLMError.serverDown(url: base)
            case .cancelled:
                mapped = CancellationError()
            case .timedOut:
                mapped = LLMError.network("\(base): no data for too long (timed out)")
            default:
                // libcurl reports a body cut short as URLError -1.
                mapped = LLMError.network("\(base): connection broke (\(urlError.code.rawValue))")
            }
        } else {
            mapped = LLMError.network("\(base): \(error.localizedDescription)")
        }
        deliver(.failure(mapped))
        continuation.finish(throwing: mapped)
    }
}
