import AlmanacCore
public import Foundation

/// A piece of a streamed answer.
enum ChatDelta: Sendable, Equatable {
    /// Text to print.
    case text(String)
    /// The model finished (`stop`, `length`, `tool_calls`).
    case finished(reason: String)
}

/// A complete (non-streamed) answer.
struct ChatCompletion: Sendable, Equatable {
    /// The assistant message.
    var message: ChatMessage
    /// `stop`, `length`, `tool_calls`, ...
    var finishReason: String?
}

/// An OpenAI-compatible chat client for llama.cpp's servers (`llama-server` and
/// llama-cpp-python's `llama_cpp.server`), speaking `/v1/chat/completions`.
public struct LLMClient: Sendable {
    /// The server root, e.g. `http://127.0.0.1:8080`.
    var baseURL: URL
    /// The HTTP seam.
    var http: any StreamingHTTPClient

    /// A client over curl (the HTTP seam stays inside the module; tests pass their own).
    public init(baseURL: URL) {
        self.init(baseURL: baseURL, http: CurlStreamingClient())
    }

    init(baseURL: URL, http: any StreamingHTTPClient) {
        self.baseURL = baseURL
        self.http = http
    }

    /// The server from `ALMANAC_LLM_URL` (default `http://127.0.0.1:8080`).
    ///
    /// - Throws: a usage error when the variable is not an http(s) URL.
    static func url(from environment: [String: String]) throws -> URL {
        let raw = environment["ALMANAC_LLM_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? "http://127.0.0.1:8080"
        guard let url = URL(string: raw.hasSuffix("/") ? String(raw.dropLast()) : raw),
            ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil
        else {
            throw AlmanacError.usage(
                "ALMANAC_LLM_URL is not an http(s) URL: '\(raw)'",
                suggestion: "e.g. ALMANAC_LLM_URL=http://127.0.0.1:8080")
        }
        return url
    }

    private func post(_ body: ChatRequest) async throws -> StreamingResponse {
        let request = HTTPRequest(
            method: "POST", url: baseURL.appendingPathComponent("v1/chat/completions"),
            headers: [
                "Content-Type": "application/json",
                "Accept": body.stream ? "text/event-stream" : "application/json",
            ],
            body: try JSONOutput.compact(body))
        let response = try await http.send(request)
        guard (200..<300).contains(response.status) else {
            let data = (try? await response.collect(limit: 1 << 20)) ?? Data()
            throw Self.error(status: response.status, body: data)
        }
        return response
    }

    /// Maps an error response to ``LLMError``, recognising both servers' over-context errors.
    static func error(status: Int, body: Data) -> LLMError {
        struct Envelope: Decodable {
            struct Detail: Decodable {
                var message: String?
                var type: String?
                var code: JSONValue?
            }
            var error: Detail?
        }
        let text = String(decoding: body, as: UTF8.self)
        guard let detail = (try? JSONDecoder().decode(Envelope.self, from: body))?.error else {
            let line = text.split(separator: "\n").first.map(String.init) ?? ""
            return .http(
                status: status, message: String(line.prefix(200)).isEmpty ? "(no body)" : String(line.prefix(200)))
        }
        let message = detail.message ?? text
        let code: String? = if case .string(let value) = detail.code { value } else { nil }
        let overContext: Set<String> = ["context_length_exceeded", "exceed_context_size_error"]
        if overContext.contains(code ?? "") || overContext.contains(detail.type ?? "") {
            return .contextExceeded(String(message.prefix(300)))
        }
        return .http(status: status, message: String(message.prefix(300)))
    }

    /// Streams the answer to `request` (sent with `stream: true`).
    ///
    /// The stream finishes after `[DONE]`. It throws ``LLMError/emptyStream`` when the body ends
    /// before any event and ``LLMError/streamCut(tokens:)`` when it ends (or breaks) without
    /// `[DONE]` after some text. `: ping` comments are skipped.
    func stream(_ request: ChatRequest) -> AsyncThrowingStream<ChatDelta, any Error> {
        var request = request
        request.stream = true
        let body = request
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let response = try await post(body)
                    var parser = SSEParser()
                    var events = 0
                    var pieces = 0
                    var done = false
                    func handle(_ event: SSEEvent) throws {
                        events += 1
                        switch event {
                        case .done:
                            done = true
                        case .error(let payload):
                            throw Self.error(status: 200, body: Data(payload.utf8))
                        case .data(let payload):
                            for delta in try Self.decodeChunk(payload) {
                                if case .text = delta { pieces += 1 }
                                continuation.yield(delta)
                            }
                        }
                    }
                    do {
                        for try await chunk in response.body {
                            for event in parser.feed(chunk) where !done { try handle(event) }
                            if done { break }
                        }
                        if !done { for event in parser.finish() { try handle(event) } }
                    } catch let error as LLMError {
                        if error.kind == .network {
                            throw events == 0 ? LLMError.emptyStream : LLMError.streamCut(tokens: pieces)
                        }
                        throw error
                    }
                    guard done else { throw events == 0 ? LLMError.emptyStream : LLMError.streamCut(tokens: pieces) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// One streamed chunk: `choices[0].delta.content` and `finish_reason`, or an `error` object.
    static func decodeChunk(_ payload: String) throws -> [ChatDelta] {
        struct Chunk: Decodable {
            struct Choice: Decodable {
                struct Delta: Decodable { var content: String? }
                var delta: Delta?
                // swift-format-ignore: AlwaysUseLowerCamelCase
                // The OpenAI wire name, decoded as is.
                var finish_reason: String?
            }
            var choices: [Choice]?
            var error: JSONValue?
        }
        let data = Data(payload.utf8)
        guard let chunk = try? JSONDecoder().decode(Chunk.self, from: data) else {
            throw LLMError.badResponse("stream event is not a chat chunk: \(payload.prefix(120))")
        }
        if chunk.error != nil { throw error(status: 200, body: data) }
        var deltas: [ChatDelta] = []
        for choice in chunk.choices?.prefix(1) ?? [] {
            if let text = choice.delta?.content, !text.isEmpty { deltas.append(.text(text)) }
            if let reason = choice.finish_reason { deltas.append(.finished(reason: reason)) }
        }
        return deltas
    }

    /// Sends `request` without streaming and returns the whole answer (used for tool calls).
    func complete(_ request: ChatRequest) async throws -> ChatCompletion {
        var request = request
        request.stream = false
        let response = try await post(request)
        let data: Data
        do {
            data = try await response.collect()
        } catch let error as LLMError {
            if error.kind == .network { throw LLMError.emptyStream }
            throw error
        }
        struct Body: Decodable {
            struct Choice: Decodable {
                var message: ChatMessage
                // swift-format-ignore: AlwaysUseLowerCamelCase
                // The OpenAI wire name, decoded as is.
                var finish_reason: String?
            }
            var choices: [Choice]
        }
        guard let choice = (try? JSONDecoder().decode(Body.self, from: data))?.choices.first else {
            throw LLMError.badResponse("no choices in \(String(decoding: data.prefix(120), as: UTF8.self))")
        }
        return ChatCompletion(message: choice.message, finishReason: choice.finish_reason)
    }
}
