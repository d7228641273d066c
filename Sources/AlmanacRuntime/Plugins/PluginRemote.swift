import AlmanacCore
import AlmanacCurl
import Foundation
import Synchronization

/// A remote plugin's side of MCP's streamable HTTP transport (`[plugins.NAME] url = ...`): each
/// JSON-RPC message is a POST to the one URL; the answer is JSON or an SSE stream whose `data:`
/// events hold the messages; the `Mcp-Session-Id` the server gives at initialize goes with every
/// later POST.
///
/// Sent through ``EgressPolicy`` with the URL as a configured origin (the operator named it, so it
/// is reached whoever asks), the usual deadline and a body cap, and no credentials. Calls block
/// their thread like the stdio connection's (``PluginHost`` runs them off the cooperative pool).
final class PluginRemote: Sendable {
    let url: URL
    let plugin: String
    private let transport: any HTTPTransport
    /// The session the server assigned, and the request in flight (cancelled by ``abort()``).
    private let state = Mutex<(session: String?, task: Task<HTTPResponse, any Error>?, aborted: Bool)>(
        (nil, nil, false))

    init(url: URL, plugin: String, transport: any HTTPTransport = CurlTransport()) {
        self.url = url
        self.plugin = plugin
        self.transport = transport
    }

    /// Posts one message; the JSON-RPC messages of the answer (none for a notification's 202).
    func post(_ message: JSONValue, deadline: Duration, during step: String) throws -> [JSONValue] {
        var request = HTTPRequest(
            method: "POST", url: url,
            headers: [
                "Content-Type": "application/json", "Accept": "application/json, text/event-stream",
                "MCP-Protocol-Version": PluginConnection.protocolVersion,
            ],
            body: try PluginConnection.encoder.encode(message))
        request.maxBodyBytes = PluginConnection.maxMessageBytes
        if let session = state.withLock({ $0.session }) { request.headers["Mcp-Session-Id"] = session }
        let response = try wait(for: request, deadline: deadline, during: step)
        guard (200..<300).contains(response.status) else {
            throw ProviderFailure(.http, "the server answered HTTP \(response.status) during \(step)")
        }
        if let session = response.header("mcp-session-id"), !session.isEmpty, session.utf8.count <= 256,
            session.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) })
        {
            state.withLock { $0.session = $0.session ?? session }
        }
        if response.status == 202 || response.body.isEmpty { return [] }
        let type = response.header("content-type")?.lowercased() ?? ""
        if type.hasPrefix("text/event-stream") { return try Self.events(response.body, during: step) }
        guard let value = try? PluginConnection.decoder.decode(JSONValue.self, from: response.body) else {
            throw ProviderFailure(.decoding, "its answer is not JSON during \(step)")
        }
        if case .array(let batch) = value { return batch }
        return [value]
    }

    /// Ends the request in flight, if any; no later one is sent.
    func abort() {
        let task = state.withLock { state in
            state.aborted = true
            return state.task
        }
        task?.cancel()
    }

    var isAborted: Bool { state.withLock { $0.aborted } }

    /// The JSON-RPC messages of an SSE body: each event's `data:` lines joined by newlines.
    static func events(_ body: Data, during step: String) throws -> [JSONValue] {
        var messages: [JSONValue] = []
        var data: [String] = []
        func flush() throws {
            defer { data = [] }
            let text = data.joined(separator: "\n")
            guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return }
            guard let value = try? decoder.decode(JSONValue.self, from: Data(text.utf8)) else {
                throw ProviderFailure(.decoding, "it sent an event that is not JSON during \(step)")
            }
            messages.append(value)
        }
        let text = String(decoding: body, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty {
                try flush()
            } else if line.hasPrefix("data:") {
                var value = line.dropFirst(5)
                if value.first == " " { value = value.dropFirst() }
                data.append(String(value))
            }
        }
        try flush()
        return messages
    }

    private static let decoder = PluginConnection.decoder

    /// Runs the async send on its own task and waits for it on this (non-pool) thread.
    private func wait(for request: HTTPRequest, deadline: Duration, during step: String) throws -> HTTPResponse {
        let transport = transport
        let plugin = plugin
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Result<HTTPResponse, any Error>?>(nil)
        let task = Task<HTTPResponse, any Error> {
            let (response, _) = try await EgressPolicy.commandLine.send(
                request, via: transport, timeout: deadline, service: "plugin \(plugin)",
                configured: Origin(request.url).map { [$0] } ?? [])
            return response
        }
        let aborted = state.withLock { state in
            state.task = task
            return state.aborted
        }
        if aborted { task.cancel() }
        Task {
            let outcome = await task.result
            result.withLock { $0 = outcome }
            done.signal()
        }
        // The transport enforces the deadline; the margin only covers a transport that does not.
        let waited = done.wait(timeout: .now() + .milliseconds(Int(PluginConnection.milliseconds(deadline)) + 2000))
        state.withLock { $0.task = nil }
        guard waited == .success, let outcome = result.withLock({ $0 }) else {
            task.cancel()
            throw ProviderFailure(.timeout, "no answer within \(PluginConnection.seconds(deadline)) during \(step)")
        }
        switch outcome {
        case .success(let response): return response
        case .failure(let error as ProviderFailure):
            // "plugin NAME: could not connect to HOST": the caller adds the plugin's name.
            let prefix = "plugin \(plugin): "
            let message =
                error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message
            throw ProviderFailure(error.kind, "\(message) during \(step)")
        case .failure(is CancellationError): throw CancellationError()
        case .failure: throw ProviderFailure(.network, "could not reach \(url.host ?? "the server") during \(step)")
        }
    }
}
