import AlmanacRuntime
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacCore

/// Fault × provider, end to end: the built `tools` binary against the loopback fixture server with
/// each fault injected. Every cell must end within the deadline with a clear message (or data),
/// in bounded memory, without crashing, and leave the cache untouched by the failure.
/// `scripts/fault-matrix` prints the same matrix as the table in docs/reliability.md.
@Suite("fault matrix, end to end", .serialized)
struct FaultMatrixTests {
    /// One provider of the registry with a sample call: its endpoints point at the faulty server,
    /// the other providers of its tool and role at a port with no listener (so the failure line is
    /// its own), and providers of the tool's other roles at a second, healthy server (a geocoder's
    /// sample call needs a forecast, MeteoAlarm's a geocoder: the fault is the provider's own).
    struct Target: Sendable, CustomStringConvertible {
        var provider: String
        var tool: String
        var words: [String]
        var ownVariables: [String]
        var otherVariables: [String]
        var otherRoleVariables: [String]
        var extra: [String: String]
        /// Cache entries its tool's healthy other roles leave before it is asked (a place name's
        /// geocoding answer): they stay when it fails; the failure itself adds none.
        var cachedBeforeItself = 0

        var description: String { provider }

        func environment(base: String, healthy: String) -> [String: String] {
            var environment = extra
            // Other roles first: a variable two roles share (Open-Meteo's, forecast and next hour)
            // is dead for the provider's own role.
            for variable in otherRoleVariables { environment[variable] = healthy }
            for variable in otherVariables { environment[variable] = "http://127.0.0.1:9" }
            for variable in ownVariables { environment[variable] = base }
            return environment
        }

        /// Every provider of the registry that has a sample call and an upstream of its own.
        static let all: [Target] = {
            let providers = Runtime.defaultProviders()
            return providers.descriptors.compactMap { descriptor in
                guard let sample = providers.sampleCall(for: descriptor), !descriptor.endpoints.isEmpty else {
                    return nil
                }
                let others = providers.descriptors(forTool: descriptor.tool).filter { $0.name != descriptor.name }
                let geocodedFirst =
                    descriptor.role != .geocoding && others.contains { $0.role == .geocoding }
                    && !sample.words.contains("--lat")
                return Target(
                    provider: descriptor.name, tool: descriptor.tool, words: sample.words,
                    ownVariables: descriptor.endpoints.map(\.env),
                    otherVariables: others.filter { $0.role == descriptor.role }.flatMap { $0.endpoints.map(\.env) },
                    otherRoleVariables: others.filter { $0.role != descriptor.role }.flatMap {
                        $0.endpoints.map(\.env)
                    },
                    extra: sample.environment, cachedBeforeItself: geocodedFirst ? 1 : 0)
            }
        }()
    }

    /// Fault mode → the phrase on the failure line (nil: data is printed).
    static let expectations: [(fault: String, phrase: String?)] = [
        ("none", nil),
        ("delay:5", "no answer within 2 s"),
        ("refused", "could not connect"),
        ("reset", "connection failed or body cut short"),
        ("404", "HTTP 404"),
        ("403", "HTTP 403"),
        ("500", "HTTP 500"),
        ("429", "HTTP 429, rate limited"),
        ("ctype", nil),
        ("html", "unreadable response (malformed JSON)"),
        ("empty", "unreadable response (malformed JSON)"),
        ("truncate", "connection failed or body cut short"),
        ("malformed", "unreadable response (malformed JSON)"),
        // 32 MB is the transport's own limit; a provider may set a lower one (read: 8 MB).
        ("huge:200", "MB refused"),
        ("drip:1", "no answer within 2 s"),
    ]

    /// The same faults in an XML feed's words (MeteoAlarm's Atom): an HTML page is well-formed
    /// XML but no feed; an empty or cut body is malformed XML.
    static let xmlPhrases: [String: String] = [
        "html": "unreadable response (no Atom feed)",
        "empty": "unreadable response (malformed XML",
        "malformed": "unreadable response (malformed XML",
    ]
    /// Providers whose upstream answers XML.
    static let xmlProviders: Set<String> = ["meteoalarm"]

    struct Cell: Sendable, CustomTestStringConvertible {
        var target: Target
        var fault: String
        var phrase: String?
        var testDescription: String { "\(target.provider) × \(fault)" }
    }

    static let cells: [Cell] = expectations.flatMap { row in
        Target.all.map { target in
            let xml = xmlProviders.contains(target.provider) ? xmlPhrases[row.fault] : nil
            return Cell(target: target, fault: row.fault, phrase: xml ?? row.phrase)
        }
    }

    @Test("the matrix covers every provider of the registry that has an upstream")
    func coversRegistry() {
        let names = Set(Target.all.map(\.provider))
        #expect(
            names.isSuperset(of: [
                "espn", "mlb-statsapi", "nhl-api", "open-meteo", "met-norway", "open-meteo-geocoding", "nominatim",
                "brave",
                "searxng", "met-alerts", "nws-alerts", "meteoalarm",
            ]))
    }

    @Test("each fault ends in data or one clear line, in time and bounded memory, cache untouched", arguments: cells)
    func cell(_ cell: Cell) async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let healthy = try FixtureServer()
        defer { healthy.stop() }
        let refused = cell.fault == "refused"
        try await server.setFault(refused ? "none" : cell.fault)
        let scratch = try Scratch()
        // Port 9 (discard) has no listener on loopback.
        let base = refused ? "http://127.0.0.1:9" : server.baseURL
        let environment = scratch.environment(
            cell.target.environment(base: base, healthy: healthy.baseURL).merging(["ALMANAC_TIMEOUT": "2"]) { $1 })

        let output = try await MeasuredRun.run(
            ToolsBinary.url, cell.target.words, environment: environment, directory: scratch.url, timeout: 30)

        #expect(output.signal == nil, "killed by signal: \(output.stderr)")
        // A slow drip still ends in time when the whole body is small (geocoding, ~1 KiB): data or the deadline.
        if cell.fault.hasPrefix("drip"), output.status == 0 {
            #expect(output.stdout.hasPrefix("[\(cell.target.tool)] "))
            return
        }
        #expect(!output.stderr.contains("Fatal error"))
        // Generous bound (2 s deadline, loaded 2-core machine): the point is "cut", not "fast".
        #expect(output.milliseconds < 12_000)
        // Baseline is ~45 MiB (debug build). A 200 MB body without Content-Length is cut at the
        // 32 MB limit by libcurl's write callback, so it may add that much and no more (~78 MiB).
        #expect(output.peakKiB < (cell.fault.hasPrefix("huge") ? 120 : 100) * 1024)

        let info = try await ToolsBinary.run(["cache", "info"], environment: environment)
        #expect(info.stdout.contains("integrity: ok"))
        if let phrase = cell.phrase {
            #expect(output.status == 69, "stderr: \(output.stderr)")
            #expect(output.stdout.isEmpty)
            let lines = output.stderr.split(separator: "\n").map(String.init)
            #expect(lines.first == "error: \(cell.target.tool): every provider failed")
            let own = lines.first { $0.hasPrefix("  \(cell.target.provider): ") }
            #expect(own != nil, "\(lines)")
            // A delay may be cut by our deadline or, on a starved machine, by libcurl's own timeout
            // one second later: both are reported as timeouts.
            let timedOut = cell.fault.hasPrefix("delay") && own?.contains("timed out") == true
            #expect(own?.contains(phrase) == true || timedOut, "\(lines)")
            // Every other line is another provider of the chain, which had no server to reach.
            for line in lines.dropFirst() where line != own {
                #expect(line.contains("could not connect") || line.contains("rate limited"), "\(line)")
            }
            #expect(info.stdout.contains("entries: \(cell.target.cachedBeforeItself)\n"), "\(info.stdout)")
        } else {
            #expect(output.status == 0, "stderr: \(output.stderr)")
            #expect(output.stdout.hasPrefix("[\(cell.target.tool)] "))
            #expect(!info.stdout.contains("entries: 0"))
        }
    }
}

@Suite("peak memory of a child process")
struct MeasuredRunTests {
    @Test("a child's peak RSS is its own, not this (large) test process's")
    func ownPeak() async throws {
        // Make this process's own peak at least 256 MiB by touching every page of a buffer.
        let size = 256 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 4096)
        defer { buffer.deallocate() }
        for offset in stride(from: 0, to: size, by: 4096) {
            buffer.storeBytes(of: 1, toByteOffset: offset, as: UInt8.self)
        }
        let scratch = try Scratch()
        let output = try await MeasuredRun.run(
            ToolsBinary.url, ["list"], environment: scratch.environment(), directory: scratch.url, timeout: 30)
        #expect(output.status == 0)
        #expect(output.peakKiB > 1024)
        #expect(output.peakKiB < 128 * 1024, "a small command reported \(output.peakKiB) KiB")
    }
}
