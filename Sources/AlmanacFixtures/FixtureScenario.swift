public import AlmanacCore
public import Foundation

/// One recorded exchange file and what checking it means.
public struct FixtureScenario: Sendable {
    /// The path below the Fixtures folder without `.exchange.json`, e.g. `sports/espn/nba-tonight`.
    public var name: String
    /// The recorded request and response head.
    var exchange: RecordedExchange
    /// The recorded body file, when the exchange names one.
    var body: URL?

    /// Every `*.exchange.json` below `root` (or below `root/tool`) whose name contains `matching`,
    /// sorted by name.
    public static func all(in root: URL, tool: String?, matching: String?) throws -> [FixtureScenario] {
        let base = tool.map { root.appendingPathComponent($0) } ?? root
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
        var found: [FixtureScenario] = []
        for case let file as URL in walker where file.lastPathComponent.hasSuffix(".exchange.json") {
            let relative = file.path.dropFirst(root.path.count + 1).replacingOccurrences(of: ".exchange.json", with: "")
            if let matching, !relative.contains(matching) { continue }
            let exchange = try JSONDecoder().decode(RecordedExchange.self, from: Data(contentsOf: file))
            found.append(
                FixtureScenario(
                    name: relative, exchange: exchange,
                    body: exchange.response.body.map { file.deletingLastPathComponent().appendingPathComponent($0) }))
        }
        return found.sorted { $0.name < $1.name }
    }

    /// One line: `ok`, `skip`, `fail` or `drift` and the scenario's name, with what drifted. Offline
    /// it only checks that the body loads; `live` re-fetches the request (at the configured base
    /// URL, with the provider's own live headers) and compares status and JSON shape.
    ///
    /// - Parameter transport: what a live check fetches through (the live libcurl transport in
    ///   `tools fixtures check`); passed in so this library needs no particular transport.
    public func check(
        live: Bool, settings: Settings, providers: ProviderRegistry, timeout: Duration, transport: any HTTPTransport
    ) async -> String {
        guard let body, let recorded = FileManager.default.contents(atPath: body.path) else {
            return "fail  \(name): body file missing"
        }
        let recordedShape = JSONShape(recorded)
        guard live else {
            return recordedShape == nil ? "ok    \(name) (not JSON, \(recorded.count) bytes)" : "ok    \(name)"
        }
        guard let url = URL(string: exchange.request.url) else { return "fail  \(name): bad recorded URL" }
        var request = HTTPRequest(
            method: exchange.request.method, url: Upstream.rebase(url, settings: settings, providers: providers))
        if let host = url.host, let known = providers.endpoint(forDefaultHost: host) {
            guard let headers = known.descriptor.liveRequestHeaders(settings) else {
                return "skip  \(name): \(known.descriptor.unconfiguredReason(settings) ?? "not configured")"
            }
            request.headers.merge(headers) { _, new in new }
        }
        let response: HTTPResponse
        let prepared = request
        do {
            response = try await Deadline.run(timeout) { try await transport.send(prepared, timeout: timeout) }
        } catch let failure as ProviderFailure {
            return "fail  \(name): \(failure.message)"
        } catch {
            return "fail  \(name): no answer within \(timeout)"
        }
        if response.status != exchange.response.status {
            return "drift \(name): HTTP \(response.status), recorded \(exchange.response.status)"
        }
        guard let recordedShape else { return "ok    \(name)" }
        guard let liveShape = JSONShape(response.body) else { return "drift \(name): the body is no longer JSON" }
        let changes = recordedShape.drift(to: liveShape)
        if changes.isEmpty { return "ok    \(name)" }
        let shown = changes.prefix(8).joined(separator: "; ")
        return "drift \(name): \(shown)\(changes.count > 8 ? "; … \(changes.count - 8) more" : "")"
    }
}
