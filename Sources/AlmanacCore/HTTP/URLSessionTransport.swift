import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The live transport: URLSession (libcurl on Linux).
///
/// URLSession truncates `timeoutInterval` to whole seconds on Linux, so it is set one second
/// above the deadline as a backstop while ``Deadline`` enforces the real one.
///
/// Requests run as delegate-driven data tasks rather than `data(for:)`, for two reasons:
/// the body limit is enforced while bytes arrive (a 200 MB answer is cut at the limit, not held
/// in memory first), and cancellation reaches URLSession from another queue. The async
/// `data(for:)` cancels the URLSession task inside Swift's cancellation handler, which holds the
/// task's status lock; when libcurl delivers a failure at that moment, the delivery waits for the
/// same lock and the process hangs.
public struct URLSessionTransport: HTTPTransport {
    /// Created on first use (Swift globals are lazy): a cache hit never pays for libcurl set-up.
    private static let shared: (session: URLSession, router: TaskRouter) = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let router = TaskRouter()
        return (URLSession(configuration: configuration, delegate: router, delegateQueue: nil), router)
    }()

    /// Bodies larger than this are refused, so a runaway upstream cannot exhaust memory.
    public let maxBodyBytes: Int

    /// Creates a live transport with an ephemeral session (no cookies, no URL cache).
    public init(maxBodyBytes: Int = 32 << 20) {
        self.maxBodyBytes = maxBodyBytes
    }

    /// How much longer than `timeout` this transport waits itself (it is a backstop for callers
    /// without a deadline of their own).
    static let deadlineGrace: Duration = .milliseconds(250)

    /// Sends the request.
    public func send(_ request: HTTPRequest, timeout: Duration) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.timeoutInterval = Double(timeout.components.seconds) + 1
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        if urlRequest.value(forHTTPHeaderField: "User-Agent") == nil {
            urlRequest.setValue("almanac/0.1 (+tools)", forHTTPHeaderField: "User-Agent")
        }
        urlRequest.httpBody = request.body
        let service = request.url.host ?? "server"
        let prepared = urlRequest
        let (session, router) = Self.shared
        let limit = maxBodyBytes
        // A little later than the caller's own deadline: the Coordinator runs one with the same
        // timeout, and when both fired together the message depended on which won the race.
        return try await Deadline.run(timeout + Self.deadlineGrace) {
            let task = session.dataTask(with: prepared)
            let exchange = Exchange(limit: limit)
            let outcome = await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Exchange.Outcome, Never>) in
                    exchange.start(continuation)
                    router.register(task, exchange)
                    task.resume()
                }
            } onCancel: {
                // Never call into URLSession while the cancellation handler holds the task lock.
                DispatchQueue.global().async { task.cancel() }
            }
            router.unregister(task)
            return try Self.response(outcome, service: service, limit: limit)
        }
    }

    private static func response(_ outcome: Exchange.Outcome, service: String, limit: Int) throws -> HTTPResponse {
        if outcome.tooLarge {
            let size = limit >= 1 << 20 ? "\(limit >> 20) MB" : "\(limit >> 10) KB"
            throw ProviderFailure(.http, "\(service): response larger than \(size) refused")
        }
        if let code = outcome.error {
            switch code {
            case .cancelled: throw CancellationError()
            case .timedOut: throw ProviderFailure(.timeout, "\(service): timed out")
            case .cannotConnectToHost, .cannotFindHost, .networkConnectionLost, .notConnectedToInternet:
                throw ProviderFailure(.network, "\(service): could not connect")
            default: break
            }
            // libcurl reports truncated bodies as URLError -1 (unknown).
            throw ProviderFailure(.network, "\(service): connection failed or body cut short")
        }
        guard let http = outcome.response else {
            throw ProviderFailure(.network, "\(service): not an HTTP response")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: outcome.body)
    }
}

/// One request's state: body collected so far, and the caller waiting for the end.
private final class Exchange: Sendable {
    struct Outcome: Sendable {
        var response: HTTPURLResponse?
        var body = Data()
        /// Set when the transfer failed (`.unknown` for errors that are not URLErrors).
        var error: URLError.Code?
        var tooLarge = false
    }

    private let limit: Int
    private let state = Mutex<
        (outcome: Outcome, continuation: CheckedContinuation<Outcome, Never>?, finished: Bool, challenged: Bool)
    >((Outcome(), nil, false, false))

    init(limit: Int) { self.limit = limit }

    func start(_ continuation: CheckedContinuation<Outcome, Never>) {
        state.withLock { $0.continuation = continuation }
    }

    /// Returns false when the body went over the limit (the task should be cancelled).
    func received(response: URLResponse) -> Bool {
        state.withLock { state in
            state.outcome.response = response as? HTTPURLResponse
            if let length = state.outcome.response?.expectedContentLength, length > Int64(limit) {
                state.outcome.tooLarge = true
                return false
            }
            return true
        }
    }

    /// Returns false when the body went over the limit (the task should be cancelled).
    func received(data: Data) -> Bool {
        state.withLock { state in
            guard !state.outcome.tooLarge else { return false }
            if state.outcome.body.count + data.count > limit {
                state.outcome.tooLarge = true
                state.outcome.body = Data()
                return false
            }
            state.outcome.body.append(data)
            return true
        }
    }

    /// The server asked for credentials: its response is the answer, whatever the task ends with.
    func challenged(response: URLResponse) {
        state.withLock { state in
            state.outcome.response = response as? HTTPURLResponse
            state.challenged = true
        }
    }

    func finish(error: (any Error)?) {
        let (continuation, outcome): (CheckedContinuation<Outcome, Never>?, Outcome) = state.withLock { state in
            guard !state.finished else { return (nil, state.outcome) }
            state.finished = true
            if let error, !state.challenged { state.outcome.error = (error as? URLError)?.code ?? .unknown }
            let continuation = state.continuation
            state.continuation = nil
            return (continuation, state.outcome)
        }
        continuation?.resume(returning: outcome)
    }
}

/// The session's single delegate, routing callbacks to each task's ``Exchange``.
private final class TaskRouter: NSObject, URLSessionDataDelegate, Sendable {
    private let exchanges = Mutex<[Int: Exchange]>([:])

    func register(_ task: URLSessionTask, _ exchange: Exchange) {
        exchanges.withLock { $0[task.taskIdentifier] = exchange }
    }

    func unregister(_ task: URLSessionTask) {
        _ = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
    }

    private func exchange(for task: URLSessionTask) -> Exchange? {
        exchanges.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let keep = exchange(for: dataTask)?.received(response: response) ?? true
        completionHandler(keep ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        if exchange(for: dataTask)?.received(data: data) == false { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        exchange(for: task)?.finish(error: error)
    }

    // Credentials travel as headers we set; a 401/407 challenge must come back as a plain response.
    // Corelibs offers no disposition that does that (default handling never completes the task,
    // `.useCredential` without one crashes), so keep the challenge's response and cancel.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        if let response = challenge.failureResponse { exchange(for: task)?.challenged(response: response) }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    // No redirects are followed silently across schemes; same-scheme redirects are fine.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        let sameScheme = request.url?.scheme == task.originalRequest?.url?.scheme
        completionHandler(sameScheme ? request : nil)
    }
}
