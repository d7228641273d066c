public import AlmanacCore
public import Foundation
import Synchronization

/// Exchanges seen while recording, written out redacted as Fixtures/ files.
public final class Recorder: Sendable {
    struct Seen: Sendable {
        var request: HTTPRequest
        var response: HTTPResponse
    }

    private let seen = Mutex<[Seen]>([])

    /// An empty recorder.
    public init() {}

    /// Keeps a copy of one exchange.
    func add(_ request: HTTPRequest, _ response: HTTPResponse) {
        seen.withLock { $0.append(Seen(request: request, response: response)) }
    }

    /// Writes `<scenario>[-n].exchange.json` + `.response.json` per exchange into `<tool folder>/<provider>/`.
    ///
    /// - Returns: the paths written, in order.
    /// - Throws: ``AlmanacError`` (usage) when nothing was fetched; file-system errors as they come.
    public func write(
        into toolFolder: URL, scenario: String, settings: Settings, providers: ProviderRegistry
    ) throws
        -> [String]
    {
        let secrets = Redaction.secrets(in: settings, providers: providers)
        let all = seen.withLock { $0 }
        guard !all.isEmpty else {
            throw AlmanacError.usage(
                "nothing was fetched, so nothing was recorded", suggestion: "check the tool's words after --")
        }
        var written: [String] = []
        for (index, exchange) in all.enumerated() {
            let stem = all.count == 1 ? scenario : "\(scenario)-\(index + 1)"
            let upstream = Upstream.identify(exchange.request.url, settings: settings, providers: providers)
            let folder = toolFolder.appendingPathComponent(upstream.folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let bodyName = "\(stem).response.json"
            // The same layout ReplayTransport and scripts/fixture-server.py read.
            let record = RecordedExchange(
                request: .init(method: exchange.request.method, url: Redaction.url(upstream.url, providers: providers)),
                response: .init(
                    status: exchange.response.status, headers: Redaction.headers(exchange.response.headers),
                    body: bodyName))
            try JSONOutput.compact(record)
                .write(to: folder.appendingPathComponent("\(stem).exchange.json"))
            try Redaction.body(exchange.response.body, secrets: secrets).write(
                to: folder.appendingPathComponent(bodyName))
            written += [
                folder.appendingPathComponent("\(stem).exchange.json").path,
                folder.appendingPathComponent(bodyName).path,
            ]
        }
        return written
    }
}

/// Passes requests through and keeps a copy of each exchange in a ``Recorder``.
public struct RecordingTransport: HTTPTransport {
    let inner: any HTTPTransport
    let recorder: Recorder

    /// Records what `inner` answers into `recorder`.
    public init(inner: any HTTPTransport, recorder: Recorder) {
        self.inner = inner
        self.recorder = recorder
    }

    /// Sends through `inner`; a failed exchange is not recorded.
    public func send(_ request: HTTPRequest, timeout: Duration) async throws -> HTTPResponse {
        let response = try await inner.send(request, timeout: timeout)
        recorder.add(request, response)
        return response
    }
}
