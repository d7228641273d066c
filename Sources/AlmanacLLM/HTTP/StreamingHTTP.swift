import AlmanacCore
import AlmanacCurl
import Foundation

/// An HTTP response whose body arrives in pieces, as the server writes it.
struct StreamingResponse: Sendable {
    var status: Int
    /// Headers with lowercased names.
    var headers: [String: String]
    /// The body, chunk by chunk. Ends normally when the server closes a complete body, or throws
    /// ``LLMError/streamCut(tokens:)``-worthy transport errors when the connection breaks mid-body.
    var body: AsyncThrowingStream<Data, any Error>

    init(status: Int, headers: [String: String] = [:], body: AsyncThrowingStream<Data, any Error>) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Collects the whole body (for error responses and non-streaming calls).
    func collect(limit: Int = 8 << 20) async throws -> Data {
        var data = Data()
        for try await chunk in body {
            data.append(chunk)
            if data.count > limit { throw LLMError.badResponse("response larger than \(limit >> 20) MB") }
        }
        return data
    }
}

/// The seam the LLM client speaks through: live (libcurl) or a test double.
protocol StreamingHTTPClient: Sendable {
    /// Sends `request` and returns as soon as the status and headers arrive.
    ///
    /// - Throws: ``LLMError/serverDown(url:)`` when nothing listens, ``LLMError/network(_:)`` otherwise.
    func send(_ request: HTTPRequest) async throws -> StreamingResponse
}

/// Streaming over the providers' libcurl transport: libcurl's write callback hands over each
/// chunk the server flushes as it is written, so tokens arrive as they are generated. Transport
/// failures become ``LLMError``s naming the server; cancelling the consuming task stops the
/// request on the wire too (Ctrl-C).
struct CurlStreamingClient: StreamingHTTPClient {
    /// Seconds without a byte before the request fails (a model may think for a while).
    var idleTimeout: TimeInterval

    init(idleTimeout: TimeInterval = 300) {
        self.idleTimeout = idleTimeout
    }

    func send(_ request: HTTPRequest) async throws -> StreamingResponse {
        let base =
            "\(request.url.scheme ?? "http")://\(request.url.host ?? "")\(request.url.port.map { ":\($0)" } ?? "")"
        do {
            let response = try await CurlTransport().stream(request, idleTimeout: .seconds(idleTimeout))
            return StreamingResponse(
                status: response.status, headers: response.headers, body: Self.mapping(response.body, base: base))
        } catch {
            throw Self.map(error, base: base)
        }
    }

    static func map(_ error: any Error, base: String) -> any Error {
        guard let failure = error as? HTTPStreamFailure else { return error }
        switch failure.kind {
        case .unreachable: return LLMError.serverDown(url: base)
        case .idle: return LLMError.network("\(base): no data for too long (timed out)")
        case .broken: return LLMError.network(failure.message)
        }
    }

    /// The body with its transport failures as ``LLMError``s; ending it early ends the transfer.
    static func mapping(
        _ body: AsyncThrowingStream<Data, any Error>, base: String
    ) -> AsyncThrowingStream<Data, any Error> {
        let (mapped, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        let task = Task {
            do {
                for try await chunk in body { continuation.yield(chunk) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: map(error, base: base))
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return mapped
    }
}
