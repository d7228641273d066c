import AlmanacCore
import AlmanacRuntime
import ArgumentParser
import Foundation
import Synchronization

extension Tools {
    /// `tools fixtures record|check`: recording real exchanges and watching upstream shapes drift.
    struct FixturesCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fixtures", abstract: "Record upstream exchanges into Fixtures/, or check them for drift.",
            subcommands: [Record.self, Check.self])

        struct Record: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Run a tool live and write its exchanges (secrets redacted) into Fixtures/<tool>/<provider>/.",
                discussion: "Example: tools fixtures record sports nba-tonight -- nba --tz America/New_York. "
                    + "Goldens are re-made offline afterwards: ALMANAC_RECORD=1 swift test.")

            @Argument(help: "The tool (sports, weather, search, ...).") var tool: String
            @Argument(help: "Scenario name: the file stem, e.g. nba-scoreboard-2025-06-05.") var scenario: String
            @Argument(parsing: .postTerminator, help: "The tool's own words after --.") var words: [String] = []
            @Option(help: "The Fixtures directory.") var dir = "Fixtures"

            func run() async throws {
                do {
                    guard scenario.range(of: "^[a-z0-9][a-z0-9._-]*$", options: .regularExpression) != nil else {
                        throw AlmanacError.usage(
                            "scenario '\(scenario)' is not a file stem", suggestion: "use lower case, digits, '-', e.g. nba-tonight")
                    }
                    let recorder = Recorder()
                    let runtime = try Runtime.make(
                        options: RuntimeOptions(noCache: true, wrapTransport: { RecordingTransport(inner: $0, recorder: recorder) }))
                    _ = try await runtime.run(tool: tool, words: words)
                    let written = try recorder.write(
                        into: URL(fileURLWithPath: dir).appendingPathComponent(tool), scenario: scenario,
                        settings: runtime.settings, providers: runtime.providers)
                    for path in written { printLine("wrote \(path)") }
                } catch {
                    throw fail(error)
                }
            }
        }

        struct Check: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Check recorded exchanges; with --live, re-fetch each and report upstream shape drift.",
                discussion: "Base URLs follow each provider's variable (tools list --providers shows them). "
                    + "Exit 0 when every scenario matches, 69 when any drifted or failed.")

            @Flag(help: "Re-fetch every recorded request from the upstream.") var live = false
            @Argument(help: "Only this tool's fixtures.") var tool: String?
            @Argument(help: "Only scenarios whose name contains this.") var scenario: String?
            @Option(help: "The Fixtures directory.") var dir = "Fixtures"

            func run() async throws {
                do {
                    let runtime = try Runtime.make()
                    let root = URL(fileURLWithPath: dir)
                    let scenarios = try FixtureScenario.all(in: root, tool: tool, matching: scenario)
                    guard !scenarios.isEmpty else {
                        throw AlmanacError.usage("no recorded exchanges match", suggestion: "see the *.exchange.json files under \(dir)")
                    }
                    var bad = 0
                    for item in scenarios {
                        let line = await item.check(
                            live: live, settings: runtime.settings, providers: runtime.providers, timeout: runtime.attemptTimeout)
                        if !line.hasPrefix("ok"), !line.hasPrefix("skip") { bad += 1 }
                        printLine(line)
                    }
                    printLine("\(scenarios.count - bad) of \(scenarios.count) scenario\(scenarios.count == 1 ? "" : "s") ok or skipped")
                    if bad > 0 { throw ExitCode(69) }
                } catch let exit as ExitCode {
                    throw exit
                } catch {
                    throw fail(error)
                }
            }
        }
    }
}

/// Which upstream a recorded host is, and where its base URL can be overridden: read from the
/// provider registry (each provider's endpoints, variables and fixture folder).
enum Upstream {
    /// The upstream a request went to (by default host or by its configured base URL) and the URL
    /// written as the real upstream's, so fixtures recorded through an override still read true.
    static func identify(_ url: URL, settings: Settings, providers: ProviderRegistry) -> (folder: String, url: URL) {
        if let host = url.host, let known = providers.endpoint(forDefaultHost: host) {
            return (known.descriptor.fixtureFolder, url)
        }
        for descriptor in providers.descriptors {
            for endpoint in descriptor.endpoints {
                guard let host = endpoint.defaultHost, let configured = endpoint.configuredBase(settings),
                    let base = URLComponents(string: configured), base.host == url.host, base.port == url.port,
                    var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
                else { continue }
                components.scheme = "https"
                components.host = host
                components.port = nil
                return (descriptor.fixtureFolder, components.url ?? url)
            }
        }
        return ("recorded", url)
    }

    /// `url` with its scheme/host/port replaced by the configured base URL for that upstream.
    static func rebase(_ url: URL, settings: Settings, providers: ProviderRegistry) -> URL {
        guard let host = url.host, let known = providers.endpoint(forDefaultHost: host),
            let base = settings.env(known.endpoint.env),
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let baseComponents = URLComponents(string: base)
        else { return url }
        components.scheme = baseComponents.scheme
        components.host = baseComponents.host
        components.port = baseComponents.port
        return components.url ?? url
    }
}

/// Removing secrets from what is recorded: every provider's declared secrets plus generic names.
enum Redaction {
    /// Response headers worth keeping; everything else (Set-Cookie, echoes, ids) is dropped.
    static let keptHeaders: Set<String> = ["content-type", "retry-after", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "last-modified", "expires", "etag"]

    /// Secret values configured for this process (to scrub from bodies, should an upstream echo one).
    static func secrets(in settings: Settings, providers: ProviderRegistry) -> [String] {
        providers.secretValues(in: settings).filter { $0.count >= 4 }
    }

    /// The URL without user info and with secret query values replaced.
    static func url(_ url: URL, providers: ProviderRegistry) -> String {
        let secretParameters = providers.secretQueryParameters
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "" }
        components.user = nil
        components.password = nil
        components.queryItems = components.queryItems?.map { item in
            secretParameters.contains(item.name.lowercased()) ? URLQueryItem(name: item.name, value: "REDACTED") : item
        }
        return components.string ?? ""
    }

    static func headers(_ headers: [String: String]) -> [String: String] {
        headers.filter { keptHeaders.contains($0.key.lowercased()) }
    }

    static func body(_ body: Data, secrets: [String]) -> Data {
        guard !secrets.isEmpty, var text = String(data: body, encoding: .utf8) else { return body }
        for secret in secrets { text = text.replacingOccurrences(of: secret, with: "REDACTED") }
        return Data(text.utf8)
    }
}

/// Exchanges seen while recording.
final class Recorder: Sendable {
    struct Seen: Sendable {
        var request: HTTPRequest
        var response: HTTPResponse
    }

    private let seen = Mutex<[Seen]>([])

    func add(_ request: HTTPRequest, _ response: HTTPResponse) {
        seen.withLock { $0.append(Seen(request: request, response: response)) }
    }

    /// Writes `<scenario>[-n].exchange.json` + `.response.json` per exchange into `<tool folder>/<provider>/`.
    func write(into toolFolder: URL, scenario: String, settings: Settings, providers: ProviderRegistry) throws -> [String] {
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
            let record: [String: Any] = [
                "request": ["method": exchange.request.method, "url": Redaction.url(upstream.url, providers: providers)],
                "response": [
                    "status": exchange.response.status, "headers": Redaction.headers(exchange.response.headers),
                    "body": bodyName,
                ],
            ]
            try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys, .withoutEscapingSlashes])
                .write(to: folder.appendingPathComponent("\(stem).exchange.json"))
            try Redaction.body(exchange.response.body, secrets: secrets).write(to: folder.appendingPathComponent(bodyName))
            written += [folder.appendingPathComponent("\(stem).exchange.json").path, folder.appendingPathComponent(bodyName).path]
        }
        return written
    }
}

/// Passes requests through and keeps a copy of each exchange.
struct RecordingTransport: HTTPTransport {
    let inner: any HTTPTransport
    let recorder: Recorder

    func send(_ request: HTTPRequest, timeout: Duration) async throws -> HTTPResponse {
        let response = try await inner.send(request, timeout: timeout)
        recorder.add(request, response)
        return response
    }
}

/// One recorded exchange file and what checking it means.
struct FixtureScenario: Sendable {
    var name: String
    var exchange: RecordedExchange
    var body: URL?

    static func all(in root: URL, tool: String?, matching: String?) throws -> [FixtureScenario] {
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

    func check(live: Bool, settings: Settings, providers: ProviderRegistry, timeout: Duration) async -> String {
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
            response = try await Deadline.run(timeout) { try await CurlTransport().send(prepared, timeout: timeout) }
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

/// The paths and value types of a JSON document; array elements are merged under `[]`.
struct JSONShape: Sendable, Equatable {
    var types: [String: Set<String>]

    init?(_ data: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return nil }
        var types: [String: Set<String>] = [:]
        func walk(_ value: Any, _ path: String) {
            switch value {
            case let dictionary as [String: Any]:
                types[path, default: []].insert("object")
                for (key, member) in dictionary { walk(member, path.isEmpty ? key : "\(path).\(key)") }
            case let array as [Any]:
                types[path, default: []].insert("array")
                for element in array { walk(element, path + "[]") }
            case is NSNull:
                types[path, default: []].insert("null")
            case let number as NSNumber:
                // JSONSerialization gives booleans as NSNumber too; the encoding ("c") tells them apart.
                let isBool = String(cString: number.objCType) == "c"
                types[path, default: []].insert(isBool ? "boolean" : "number")
            case is String:
                types[path, default: []].insert("string")
            default:
                types[path, default: []].insert("unknown")
            }
        }
        walk(object, "")
        self.types = types
    }

    /// "gone: a.b", "type changed: a.c (string → number)"; a gone parent hides its children.
    func drift(to live: JSONShape) -> [String] {
        var changes: [String] = []
        var gone: [String] = []
        for path in types.keys.sorted() where !path.isEmpty {
            guard let liveTypes = live.types[path] else {
                if !gone.contains(where: { path.hasPrefix($0 + ".") || path.hasPrefix($0 + "[]") }) {
                    gone.append(path)
                    changes.append("gone: \(path)")
                }
                continue
            }
            let before = types[path, default: []].subtracting(["null"])
            let after = liveTypes.subtracting(["null"])
            if !before.isEmpty, !after.isEmpty, before.isDisjoint(with: after) {
                changes.append("type changed: \(path) (\(before.sorted().joined(separator: "/")) → \(after.sorted().joined(separator: "/")))")
            }
        }
        return changes
    }
}
