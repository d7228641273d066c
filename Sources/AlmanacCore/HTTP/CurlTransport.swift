import CCurl
import Foundation
import Synchronization

/// The live transport: libcurl, driven directly.
///
/// Why not URLSession: on Linux it queues every chunk libcurl hands it for the delegate, with no
/// back-pressure, so a 200 MB body without Content-Length was in memory before a cancel landed.
/// libcurl's write callback refuses the byte that crosses ``maxBodyBytes`` and the transfer stops
/// right there. It also starts sooner (no session thread, no first-request set-up).
///
/// Each transfer blocks one thread of its own, never one of Swift's cooperative pool (two on a
/// two-core machine). Easy handles are kept for the next request, so a second request to the same
/// host reuses the connection and the DNS answer.
public struct CurlTransport: HTTPTransport {
    /// Bodies larger than this are refused, so a runaway upstream cannot exhaust memory.
    public let maxBodyBytes: Int

    /// Creates a live transport (no cookies, no cache; `http_proxy`/`https_proxy`/`no_proxy` apply).
    public init(maxBodyBytes: Int = 32 << 20) {
        self.maxBodyBytes = maxBodyBytes
    }

    /// How much longer than `timeout` libcurl waits: the Coordinator runs a deadline with the same
    /// timeout, and when both fired together the message depended on which won the race.
    static let deadlineGrace: Duration = .milliseconds(250)

    /// Sends the request; a cancelled caller is released at once, the transfer stops on libcurl's
    /// next progress check.
    public func send(_ request: HTTPRequest, timeout: Duration) async throws -> HTTPResponse {
        let transfer = CurlTransfer(request: request, limit: maxBodyBytes, timeout: timeout + Self.deadlineGrace)
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<CurlTransfer.Outcome, Never>) in
                transfer.start(continuation)
            }
        } onCancel: {
            transfer.cancel()
        }
        return try outcome.get()
    }
}

/// One request on its own thread: the caller's continuation, and the flag libcurl polls.
private final class CurlTransfer: Sendable {
    typealias Outcome = Result<HTTPResponse, any Error>

    private let request: HTTPRequest
    private let limit: Int
    private let timeout: Duration
    /// Polled from libcurl's callbacks: set when the caller no longer waits.
    let abandoned = Atomic<Bool>(false)
    private let waiter = Mutex<(continuation: CheckedContinuation<Outcome, Never>?, done: Bool)>((nil, false))

    init(request: HTTPRequest, limit: Int, timeout: Duration) {
        self.request = request
        self.limit = limit
        self.timeout = timeout
    }

    func start(_ continuation: CheckedContinuation<Outcome, Never>) {
        let alreadyCancelled = waiter.withLock { state in
            if state.done { return true }
            state.continuation = continuation
            return false
        }
        if alreadyCancelled {
            continuation.resume(returning: .failure(CancellationError()))
            return
        }
        let thread = Thread { [self] in finish(EasyHandlePool.shared.perform(self, request, limit: limit, timeout: timeout)) }
        thread.name = "almanac-curl"
        thread.start()
    }

    func cancel() {
        abandoned.store(true, ordering: .relaxed)
        finish(.failure(CancellationError()))
    }

    private func finish(_ outcome: Outcome) {
        let continuation = waiter.withLock { state -> CheckedContinuation<Outcome, Never>? in
            guard !state.done else { return nil }
            state.done = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: outcome)
    }
}

/// What libcurl's callbacks fill in, on the transfer's thread only.
private final class CurlSink {
    let transfer: CurlTransfer
    let limit: Int
    var body = Data()
    var headers: [String: String] = [:]
    var tooLarge = false

    init(transfer: CurlTransfer, limit: Int) {
        self.transfer = transfer
        self.limit = limit
    }
}

/// Easy handles between requests (libcurl keeps each one's connections and DNS answers).
private final class EasyHandlePool: Sendable {
    static let shared = EasyHandlePool()

    /// A `CURL *`; only one thread uses it at a time (it is out of the pool while in use).
    private struct Handle: @unchecked Sendable { let raw: UnsafeMutableRawPointer }

    private let idle = Mutex<[Handle]>([])
    private let ready: Bool

    private init() {
        // Once, before any handle exists (curl_global_init is not thread-safe in libcurl 7.x).
        ready = almanac_curl_global_init() == CURLE_OK
    }

    private func take() -> UnsafeMutableRawPointer? {
        if let handle = idle.withLock({ $0.popLast() }) { return handle.raw }
        return curl_easy_init()
    }

    private func give(_ raw: UnsafeMutableRawPointer) {
        curl_easy_reset(raw)
        let kept = idle.withLock { handles -> Bool in
            guard handles.count < 4 else { return false }
            handles.append(Handle(raw: raw))
            return true
        }
        if !kept { curl_easy_cleanup(raw) }
    }

    /// Runs one request to the end on the calling thread.
    func perform(_ transfer: CurlTransfer, _ request: HTTPRequest, limit: Int, timeout: Duration) -> CurlTransfer.Outcome {
        let host = request.url.host ?? "server"
        guard ready, let easy = take() else {
            return .failure(ProviderFailure(.network, "\(host): libcurl could not start"))
        }
        defer { give(easy) }
        let sink = CurlSink(transfer: transfer, limit: limit)
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headerList) }
        for line in Self.headerLines(request) { headerList = curl_slist_append(headerList, line) }

        let scheme = request.url.scheme?.lowercased() ?? "https"
        let milliseconds = max(1, Int(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000))
        _ = almanac_curl_set_string(easy, CURLOPT_URL, request.url.absoluteString)
        _ = almanac_curl_set_long(easy, CURLOPT_NOSIGNAL, 1)  // several threads; no SIGALRM for DNS
        _ = almanac_curl_set_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        // Same-scheme redirects only: an https source is never silently downgraded.
        _ = almanac_curl_set_long(easy, CURLOPT_FOLLOWLOCATION, 1)
        _ = almanac_curl_set_long(easy, CURLOPT_MAXREDIRS, 5)
        _ = almanac_curl_set_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, scheme == "http" ? "http" : "https")
        _ = almanac_curl_set_long(easy, CURLOPT_TIMEOUT_MS, milliseconds)
        _ = almanac_curl_set_long(easy, CURLOPT_CONNECTTIMEOUT_MS, milliseconds)
        _ = almanac_curl_set_string(easy, CURLOPT_ACCEPT_ENCODING, "")  // whatever libcurl can decode
        _ = almanac_curl_set_off(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limit))  // by Content-Length, before reading
        _ = almanac_curl_set_list(easy, CURLOPT_HTTPHEADER, headerList)
        switch (request.method.uppercased(), request.body) {
        case ("GET", nil): _ = almanac_curl_set_long(easy, CURLOPT_HTTPGET, 1)
        case ("HEAD", nil): _ = almanac_curl_set_long(easy, CURLOPT_NOBODY, 1)
        case (let method, let body?):
            _ = almanac_curl_set_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            _ = body.withUnsafeBytes { bytes in
                almanac_curl_set_pointer(easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
            }
            if method != "POST" { _ = almanac_curl_set_string(easy, CURLOPT_CUSTOMREQUEST, method) }
        case (let method, nil): _ = almanac_curl_set_string(easy, CURLOPT_CUSTOMREQUEST, method)
        }

        let context = Unmanaged.passUnretained(sink).toOpaque()
        _ = almanac_curl_set_data_callback(easy, CURLOPT_WRITEFUNCTION, curlWrite)
        _ = almanac_curl_set_pointer(easy, CURLOPT_WRITEDATA, context)
        _ = almanac_curl_set_data_callback(easy, CURLOPT_HEADERFUNCTION, curlHeader)
        _ = almanac_curl_set_pointer(easy, CURLOPT_HEADERDATA, context)
        _ = almanac_curl_set_long(easy, CURLOPT_NOPROGRESS, 0)
        _ = almanac_curl_set_progress_callback(easy, curlProgress)
        _ = almanac_curl_set_pointer(easy, CURLOPT_XFERINFODATA, context)

        let code = withExtendedLifetime(sink) { curl_easy_perform(easy) }
        if code == CURLE_OK {
            return .success(HTTPResponse(status: almanac_curl_response_code(easy), headers: sink.headers, body: sink.body))
        }
        return .failure(Self.failure(code, tooLarge: sink.tooLarge, host: host, limit: limit))
    }

    /// `Name: value` lines; empty `Expect:` stops the 100-continue pause libcurl adds to big bodies,
    /// empty `Content-Type:` its form type when the request names none.
    private static func headerLines(_ request: HTTPRequest) -> [String] {
        var lines = request.headers.map { name, value in value.isEmpty ? "\(name);" : "\(name): \(value)" }
        let names = Set(request.headers.keys.map { $0.lowercased() })
        if !names.contains("user-agent") { lines.append("User-Agent: almanac/0.1 (+tools)") }
        if request.body != nil {
            lines.append("Expect:")
            if !names.contains("content-type") { lines.append("Content-Type:") }
        }
        return lines
    }

    private static func failure(_ code: CURLcode, tooLarge: Bool, host: String, limit: Int) -> any Error {
        if tooLarge || code == CURLE_FILESIZE_EXCEEDED {
            let size = limit >= 1 << 20 ? "\(limit >> 20) MB" : "\(limit >> 10) KB"
            return ProviderFailure(.http, "\(host): response larger than \(size) refused")
        }
        switch code {
        case CURLE_ABORTED_BY_CALLBACK:
            return CancellationError()
        case CURLE_OPERATION_TIMEDOUT:
            return ProviderFailure(.timeout, "\(host): timed out")
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return ProviderFailure(.network, "\(host): could not connect")
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CACERT_BADFILE:
            return ProviderFailure(.network, "\(host): TLS handshake or certificate refused")
        case CURLE_UNSUPPORTED_PROTOCOL:
            return ProviderFailure(.network, "\(host): only http and https are fetched (same scheme on redirects)")
        case CURLE_TOO_MANY_REDIRECTS:
            return ProviderFailure(.network, "\(host): more than 5 redirects")
        default:
            // Resets, truncated bodies (CURLE_PARTIAL_FILE), empty replies, receive errors.
            return ProviderFailure(.network, "\(host): connection failed or body cut short")
        }
    }
}

// libcurl's callbacks: plain C functions, the sink arrives as the user pointer.

private func curlWrite(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let context else { return 0 }
    let sink = Unmanaged<CurlSink>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    if sink.transfer.abandoned.load(ordering: .relaxed) { return 0 }
    guard sink.body.count + length <= sink.limit else {
        // Refusing the chunk stops the transfer here (CURLE_WRITE_ERROR); drop what was kept.
        sink.tooLarge = true
        sink.body = Data()
        return 0
    }
    if let data, length > 0 { sink.body.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length) }
    return length
}

private func curlHeader(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    let length = size * count
    guard let context, let data else { return length }
    let sink = Unmanaged<CurlSink>.fromOpaque(context).takeUnretainedValue()
    let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
    if line.hasPrefix("HTTP/") {
        sink.headers = [:]  // a new response (after a redirect or 100 Continue): only the last one counts
    } else if let colon = line.firstIndex(of: ":") {
        let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        if let earlier = sink.headers[name] {
            sink.headers[name] = earlier + ", " + value
        } else {
            sink.headers[name] = value
        }
    }
    return length
}

private func curlProgress(_ context: UnsafeMutableRawPointer?, _: curl_off_t, _: curl_off_t, _: curl_off_t, _: curl_off_t) -> Int32 {
    guard let context else { return 0 }
    return Unmanaged<CurlSink>.fromOpaque(context).takeUnretainedValue().transfer.abandoned.load(ordering: .relaxed) ? 1 : 0
}
