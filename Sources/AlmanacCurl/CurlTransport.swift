public import AlmanacCore
import CCurl
public import Foundation
import Synchronization

/// The live transport: libcurl, driven directly.
///
/// Why not URLSession: on Linux it queues every chunk libcurl hands it for the delegate, with no
/// back-pressure, so a 200 MB body without Content-Length was in memory before a cancel landed.
/// libcurl's write callback refuses the byte that crosses ``maxBodyBytes`` and the transfer stops
/// right there. It also starts sooner (no session thread, no first-request set-up), and libcurl is
/// only loaded when a request is made, so a call answered from the cache never pays for it.
///
/// Each transfer blocks one thread of its own, never one of Swift's cooperative pool (two on a
/// two-core machine). Easy handles are kept for the next request, so a second request to the same
/// host reuses the connection and the DNS answer.
public struct CurlTransport: HTTPTransport {
    /// Bodies larger than this are refused, so a runaway upstream cannot exhaust memory.
    let maxBodyBytes: Int

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
        let limits = TransferLimits(
            total: timeout + Self.deadlineGrace, connect: timeout + Self.deadlineGrace,
            maxBody: min(maxBodyBytes, request.maxBodyBytes ?? maxBodyBytes))
        try Task.checkCancellation()
        let transfer = CurlTransfer(request: request, limits: limits)
        transfer.start()
        return try await withTaskCancellationHandler {
            await transfer.outcome.value()
        } onCancel: {
            transfer.cancel()
        }.get()
    }

    /// Sends the request and returns as soon as the status and headers are in; the body follows
    /// chunk by chunk as the server writes it (a streamed LLM answer).
    ///
    /// There is no overall deadline: the transfer fails when no byte arrives for `idleTimeout`.
    /// Ending the body's iteration early (or cancelling the caller) stops the transfer.
    ///
    /// - Throws: ``HTTPStreamFailure`` (also from the body), or `CancellationError`.
    public func stream(
        _ request: HTTPRequest, idleTimeout: Duration, connectTimeout: Duration = .seconds(10)
    ) async throws -> HTTPStreamingResponse {
        let transfer = CurlStreamTransfer(
            request: request, limits: TransferLimits(connect: connectTimeout, idle: idleTimeout))
        return try await withTaskCancellationHandler {
            try await transfer.head()
        } onCancel: {
            transfer.cancel()
        }
    }
}

extension NativeLibrary {
    /// libcurl, which every upstream request goes through.
    public static let curl = NativeLibrary(
        name: "libcurl", package: "libcurl4", usedFor: nil, essential: true,
        open: { CurlTransport.openLibrary() }, opened: { CurlTransport.openedLibrary },
        advice: { CurlTransport.ownBuildAdvice() })
}

extension CurlTransport {
    /// Opens libcurl now (the first request would otherwise): nil when it is ready, else the
    /// dynamic loader's reason. For `tools doctor`.
    static func openLibrary() -> String? {
        almanac_curl_load() == 0 ? nil : String(cString: almanac_curl_error())
    }

    /// The libcurl opened, as soname and version ("libcurl.so.4 7.88.1"), once ``openLibrary()``
    /// returned nil.
    static var openedLibrary: String {
        let opened = String(cString: almanac_curl_opened())
        guard let build = OwnBuild.opened() else { return opened }
        let source = build.source.map { "Debian's \($0)" } ?? "an unrecorded source"
        return "\(opened) (Almanac's HTTP(S)-only build of \(source), in \(build.folder))"
    }

    /// A warning when Almanac's own libcurl build (scripts/build-curl) was opened but the system's
    /// libcurl4 has moved on since (a security update it lacks), or its source is not recorded.
    static func ownBuildAdvice() -> String? {
        guard let build = OwnBuild.opened() else { return nil }
        let rebuild = "run scripts/install again, or set ALMANAC_SYSTEM_LIBCURL=1 to use the system's"
        guard let source = build.source else {
            return "no \(ALMANAC_OWN_LIBCURL).source beside it says which Debian source it was built from: \(rebuild)"
        }
        guard let system = OwnBuild.systemSource(), system != source else { return nil }
        return "it was built from Debian's \(source), but the system's libcurl4 is now \(system): \(rebuild)"
    }

    /// Almanac's own libcurl build, when that is the one opened: its folder and the Debian source
    /// package and version it was built from (the `.source` file scripts/build-curl writes).
    struct OwnBuild {
        var folder: String
        var source: String?

        static func opened() -> OwnBuild? {
            guard String(cString: almanac_curl_opened()).hasPrefix(ALMANAC_OWN_LIBCURL + " ") else { return nil }
            // The loader's origin keeps the RUNPATH's spelling (bin/../lib/almanac).
            let folder = URL(fileURLWithPath: String(cString: almanac_curl_folder())).standardizedFileURL.path
            let note = URL(fileURLWithPath: folder).appendingPathComponent(ALMANAC_OWN_LIBCURL + ".source")
            let source = (try? String(contentsOf: note, encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            return OwnBuild(folder: folder, source: source.flatMap { $0.isEmpty ? nil : $0 })
        }

        /// "curl 7.88.1-10+deb12u15": the installed libcurl4's source package and version, from
        /// dpkg; nil where there is no dpkg or no libcurl4 package.
        static func systemSource() -> String? {
            for package in ["libcurl4t64", "libcurl4"] {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/dpkg-query")
                process.arguments = ["-W", "-f", "${db:Status-Status} ${source:Package} ${source:Version}", package]
                let output = Pipe()
                process.standardOutput = output
                process.standardError = FileHandle.nullDevice
                guard (try? process.run()) != nil else { return nil }
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                let fields = String(decoding: data, as: UTF8.self).split(separator: " ")
                if process.terminationStatus == 0, fields.count == 3, fields[0] == "installed" {
                    return "\(fields[1]) \(fields[2])"
                }
            }
            return nil
        }
    }
}

/// A response whose body arrives in pieces, as the server writes it.
public struct HTTPStreamingResponse: Sendable {
    /// Status code of the final response.
    public var status: Int
    /// Headers with lowercased names.
    public var headers: [String: String]
    /// The body, chunk by chunk; throws ``HTTPStreamFailure`` when the connection breaks.
    public var body: AsyncThrowingStream<Data, any Error>
}

/// Why a streamed request failed, in classes a caller can act on.
public struct HTTPStreamFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of failure.
    public enum Kind: Sendable, Equatable {
        /// Nothing answered: connection refused or no such host.
        case unreachable
        /// No byte arrived for the idle timeout.
        case idle
        /// The connection broke, the body was cut short, or libcurl could not be started.
        case broken
    }

    /// The class.
    public var kind: Kind
    /// One line naming the host.
    public var message: String

    /// The message.
    public var description: String { message }
}

/// Deadlines and size cap of one transfer.
struct TransferLimits: Sendable {
    /// The whole transfer, or nil for none.
    var total: Duration?
    /// Connecting, including DNS and TLS.
    var connect: Duration
    /// Fails when no byte arrives for this long, or nil.
    var idle: Duration?
    /// Refuses bodies larger than this, or nil for no cap.
    var maxBody: Int?

    init(total: Duration? = nil, connect: Duration, idle: Duration? = nil, maxBody: Int? = nil) {
        self.total = total
        self.connect = connect
        self.idle = idle
        self.maxBody = maxBody
    }
}

/// A value handed from a transfer's thread to the task waiting for it, once: the first delivery
/// wins (the transfer's result, or the cancellation that released the caller earlier).
private final class Handoff<Value: Sendable>: Sendable {
    private let state = Mutex<(waiter: CheckedContinuation<Value, Never>?, value: Value?)>((nil, nil))

    func deliver(_ value: Value) {
        let waiter = state.withLock { state -> CheckedContinuation<Value, Never>? in
            guard state.value == nil else { return nil }
            state.value = value
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: value)
    }

    func value() async -> Value {
        await withCheckedContinuation { waiter in
            let ready = state.withLock { state -> Value? in
                if let value = state.value { return value }
                state.waiter = waiter
                return nil
            }
            if let ready { waiter.resume(returning: ready) }
        }
    }
}

/// One buffered request on its own thread, and the flag libcurl polls.
private final class CurlTransfer: Sendable {
    private let request: HTTPRequest
    private let limits: TransferLimits
    let abandoned = Atomic<Bool>(false)
    let outcome = Handoff<Result<HTTPResponse, any Error>>()

    init(request: HTTPRequest, limits: TransferLimits) {
        self.request = request
        self.limits = limits
    }

    func start() {
        startThread { [self] in
            let sink = CurlSink(abandoned: { [self] in abandoned.load(ordering: .relaxed) }, limit: limits.maxBody)
            switch EasyHandlePool.shared.perform(request, limits: limits, sink: sink) {
            case .success((let code, let status)) where code == CURLE_OK:
                outcome.deliver(.success(HTTPResponse(status: status, headers: sink.headers, body: sink.takeBody())))
            case .success((let code, _)):
                outcome.deliver(
                    .failure(
                        CurlFailure.provider(
                            code, tooLarge: sink.tooLarge, host: request.host, limit: limits.maxBody ?? 0)))
            case .failure(let unavailable):
                outcome.deliver(
                    .failure(
                        ProviderFailure(
                            .network,
                            "\(request.host): libcurl could not start: \(unavailable.reason); install libcurl4")))
            }
        }
    }

    func cancel() {
        abandoned.store(true, ordering: .relaxed)
        outcome.deliver(.failure(CancellationError()))
    }
}

/// One streamed request on its own thread: the head goes to the waiting caller once, the body
/// chunks to an `AsyncThrowingStream`.
private final class CurlStreamTransfer: Sendable {
    private let request: HTTPRequest
    private let limits: TransferLimits
    let abandoned = Atomic<Bool>(false)
    private let body: AsyncThrowingStream<Data, any Error>
    private let chunks: AsyncThrowingStream<Data, any Error>.Continuation
    private let headOutcome = Handoff<Result<HTTPStreamingResponse, any Error>>()

    init(request: HTTPRequest, limits: TransferLimits) {
        self.request = request
        self.limits = limits
        (body, chunks) = AsyncThrowingStream<Data, any Error>.makeStream()
    }

    /// Starts the transfer and waits for the status and headers (or the failure).
    func head() async throws -> HTTPStreamingResponse {
        // Cleared when the stream ends, which breaks the transfer <-> continuation cycle.
        chunks.onTermination = { [self] termination in
            if case .cancelled = termination { abandoned.store(true, ordering: .relaxed) }
        }
        startThread { [self] in run() }
        return try await headOutcome.value().get()
    }

    func cancel() {
        abandoned.store(true, ordering: .relaxed)
        headOutcome.deliver(.failure(CancellationError()))
    }

    private func run() {
        let sink = CurlSink(abandoned: { [self] in abandoned.load(ordering: .relaxed) }, limit: nil)
        sink.forward = { [self] sink, bytes in
            if !sink.headDelivered {
                sink.headDelivered = true
                headOutcome.deliver(
                    .success(HTTPStreamingResponse(status: sink.status(), headers: sink.headers, body: body)))
            }
            chunks.yield(Data(bytes))
        }
        let error: any Error
        switch EasyHandlePool.shared.perform(request, limits: limits, sink: sink) {
        case .success((let code, let status)) where code == CURLE_OK:
            // An empty body never reached the write callback: the head goes out now.
            headOutcome.deliver(.success(HTTPStreamingResponse(status: status, headers: sink.headers, body: body)))
            chunks.finish()
            return
        case .success((let code, _)):
            error = CurlFailure.stream(code, host: request.host)
        case .failure(let unavailable):
            error = HTTPStreamFailure(
                kind: .broken,
                message: "\(request.host): libcurl could not start: \(unavailable.reason); install libcurl4")
        }
        headOutcome.deliver(.failure(error))
        chunks.finish(throwing: error)
    }
}

/// Runs `work` on a thread of its own (libcurl blocks it for the whole transfer).
private func startThread(_ work: @escaping @Sendable () -> Void) {
    let thread = Thread(block: work)
    thread.name = "almanac-curl"
    thread.start()
}

/// What libcurl's callbacks work on, on the transfer's thread only.
private final class CurlSink {
    let isAbandoned: () -> Bool
    let limit: Int?
    var body = Data()
    var headers: [String: String] = [:]
    var tooLarge = false
    /// Streaming: receives each chunk instead of `body`.
    var forward: ((CurlSink, UnsafeRawBufferPointer) -> Void)?
    var headDelivered = false
    /// The easy handle while the transfer runs.
    var easy: UnsafeMutableRawPointer?

    init(abandoned: @escaping () -> Bool, limit: Int?) {
        self.isAbandoned = abandoned
        self.limit = limit
    }

    /// The final response's status, readable once its headers are in.
    func status() -> Int { easy.map { almanac_curl_response_code($0) } ?? 0 }

    /// The body, no longer held here: the caller's is then its only reference and grows in place
    /// (a calendar feed appends its cache header to its 19 MB instead of copying them).
    func takeBody() -> Data {
        defer { body = Data() }
        return body
    }
}

/// Easy handles between requests (libcurl keeps each one's connections and DNS answers).
private final class EasyHandlePool: Sendable {
    static let shared = EasyHandlePool()

    /// A `CURL *`; only one thread uses it at a time (it is out of the pool while in use).
    private struct Handle: @unchecked Sendable { let raw: UnsafeMutableRawPointer }

    private let idle = Mutex<[Handle]>([])

    private func take() -> UnsafeMutableRawPointer? {
        if let handle = idle.withLock({ $0.popLast() }) { return handle.raw }
        return curl_easy_init()
    }

    /// Back to the pool, unless `reusable` is false: a handle that held a pinned address keeps it
    /// in its DNS cache, which no other request should inherit.
    private func give(_ raw: UnsafeMutableRawPointer, reusable: Bool = true) {
        guard reusable else { return curl_easy_cleanup(raw) }
        curl_easy_reset(raw)
        let kept = idle.withLock { handles -> Bool in
            guard handles.count < 4 else { return false }
            handles.append(Handle(raw: raw))
            return true
        }
        if !kept { curl_easy_cleanup(raw) }
    }

    /// Runs one request to the end on the calling thread: libcurl's code and the final status, or
    /// why libcurl could not be loaded or started.
    func perform(
        _ request: HTTPRequest, limits: TransferLimits, sink: CurlSink
    ) -> Result<(CURLcode, Int), CurlUnavailable> {
        guard almanac_curl_load() == 0 else {
            return .failure(CurlUnavailable(reason: String(cString: almanac_curl_error())))
        }
        guard let easy = take() else { return .failure(CurlUnavailable(reason: "no easy handle")) }
        defer { give(easy, reusable: request.pinnedAddress == nil) }
        sink.easy = easy
        defer { sink.easy = nil }
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headerList) }
        for line in Self.headerLines(request) { headerList = curl_slist_append(headerList, line) }

        let scheme = request.url.scheme?.lowercased() ?? "https"
        _ = almanac_curl_set_string(easy, CURLOPT_URL, request.url.absoluteString)
        _ = almanac_curl_set_long(easy, CURLOPT_NOSIGNAL, 1)  // several threads; no SIGALRM for DNS
        // http(s) only, and same-scheme redirects only: an https source is never silently downgraded.
        // A libcurl that refuses the restriction must not run the transfer unrestricted.
        guard almanac_curl_restrict_protocols(easy, scheme == "http" ? "http" : "https") == CURLE_OK else {
            return .failure(CurlUnavailable(reason: "it refused to restrict transfers to http(s)"))
        }
        if request.followRedirects {
            _ = almanac_curl_set_long(easy, CURLOPT_FOLLOWLOCATION, 1)
            _ = almanac_curl_set_long(easy, CURLOPT_MAXREDIRS, 5)
        }
        // A vetted address: libcurl connects there and never asks DNS again for this host.
        var resolveList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(resolveList) }
        if let pinned = request.pinnedAddress, let origin = Origin(request.url) {
            let address = pinned.contains(":") ? "[\(pinned)]" : pinned
            resolveList = curl_slist_append(resolveList, "\(origin.host):\(origin.port):\(address)")
            _ = almanac_curl_set_list(easy, CURLOPT_RESOLVE, resolveList)
        }
        if let total = limits.total { _ = almanac_curl_set_long(easy, CURLOPT_TIMEOUT_MS, Self.milliseconds(total)) }
        _ = almanac_curl_set_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(limits.connect))
        if let idle = limits.idle {
            // Under 1 byte/s for that many seconds: libcurl's way of saying "idle".
            _ = almanac_curl_set_long(easy, CURLOPT_LOW_SPEED_LIMIT, 1)
            _ = almanac_curl_set_long(easy, CURLOPT_LOW_SPEED_TIME, max(1, Int(idle.components.seconds)))
        }
        _ = almanac_curl_set_string(easy, CURLOPT_ACCEPT_ENCODING, "")  // whatever libcurl can decode
        if let limit = limits.maxBody {
            // By Content-Length, before reading.
            _ = almanac_curl_set_off(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limit))
        }
        _ = almanac_curl_set_list(easy, CURLOPT_HTTPHEADER, headerList)
        switch (request.method.uppercased(), request.body) {
        case ("GET", nil): _ = almanac_curl_set_long(easy, CURLOPT_HTTPGET, 1)
        case ("HEAD", nil): _ = almanac_curl_set_long(easy, CURLOPT_NOBODY, 1)
        case (let method, let body?):
            _ = almanac_curl_set_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            _ = body.withUnsafeBytes { bytes in
                almanac_curl_set_pointer(
                    easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
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
        return .success((code, code == CURLE_OK ? almanac_curl_response_code(easy) : 0))
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        max(1, Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000))
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
}

/// libcurl could not be loaded (not installed) or could not start a transfer.
private struct CurlUnavailable: Error {
    var reason: String
}

/// libcurl's result codes as the errors callers see.
private enum CurlFailure {

    /// For a provider's request: the one-line classes the fault matrix documents.
    static func provider(_ code: CURLcode, tooLarge: Bool, host: String, limit: Int) -> any Error {
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

    /// For a streamed request.
    static func stream(_ code: CURLcode, host: String) -> any Error {
        switch code {
        case CURLE_ABORTED_BY_CALLBACK:
            return CancellationError()
        case CURLE_OPERATION_TIMEDOUT:
            return HTTPStreamFailure(kind: .idle, message: "\(host): no data for too long (timed out)")
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return HTTPStreamFailure(kind: .unreachable, message: "\(host): could not connect")
        default:
            return HTTPStreamFailure(kind: .broken, message: "\(host): connection broke (libcurl \(code.rawValue))")
        }
    }
}

extension HTTPRequest {
    /// The host for messages.
    fileprivate var host: String { url.host ?? "server" }
}

// libcurl's callbacks: plain C functions, the sink arrives as the user pointer.

private func curlWrite(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let context else { return 0 }
    let sink = Unmanaged<CurlSink>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    if sink.isAbandoned() { return 0 }
    if let forward = sink.forward {
        forward(sink, UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : length))
        return length
    }
    if let limit = sink.limit, sink.body.count + length > limit {
        // Refusing the chunk stops the transfer here (CURLE_WRITE_ERROR); drop what was kept.
        sink.tooLarge = true
        sink.body = Data()
        return 0
    }
    if let data, length > 0 {
        sink.body.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length)
    }
    return length
}

private func curlHeader(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
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

private func curlProgress(
    _ context: UnsafeMutableRawPointer?, _: curl_off_t, _: curl_off_t, _: curl_off_t, _: curl_off_t
) -> Int32 {
    guard let context else { return 0 }
    return Unmanaged<CurlSink>.fromOpaque(context).takeUnretainedValue().isAbandoned() ? 1 : 0
}
