import AlmanacTesting
import Foundation

@testable import AlmanacCore
@testable import AlmanacNews

/// Shared pieces of the news tests: the recorded feeds, a context over a replay or a stub, and
/// the clock of the recordings.
enum NewsTest {
    static let feeds = Fixtures.packageRoot().appendingPathComponent("Fixtures/news/feeds")

    static func feed(_ name: String) throws -> Data { try Data(contentsOf: feeds.appendingPathComponent(name)) }

    static let hackerNews = "hackernews-rss2-frontpage-no-declaration-2025.xml"
    static let hackerNewsURL = "https://news.ycombinator.com/rss"
    /// Forty minutes after Hacker News's newest item (2025-12-14T01:19:50Z).
    static let hackerNewsNow = Date(timeIntervalSince1970: 1_765_677_600)  // 2025-12-14T02:00:00Z
    /// The evening of 24 Nov 2023, after the NYT and NPR recordings.
    static let novemberNow = Date(timeIntervalSince1970: 1_700_866_800)  // 2023-11-24T23:00:00Z

    static func context(
        transport: any HTTPTransport, now: Date, settings: Settings = Settings(), zone: String = "Europe/Lisbon",
        state: any ProviderStateStore = MemoryStateStore(), egress: EgressPolicy = .commandLine
    ) -> ToolContext {
        let environment = ProviderEnvironment(
            transport: transport, settings: settings, now: now,
            timeZone: TimeZone(identifier: zone) ?? TimeZone(secondsFromGMT: 0) ?? .current, timeout: .seconds(5),
            state: state, egress: egress)
        return ToolContext(coordinator: Coordinator(cache: MemoryCacheStore(), now: { now }), environment: environment)
    }

    static func settings(feeds: [String], extra: [String: String] = [:]) -> Settings {
        Settings(environment: extra, config: ["news": .table(["feeds": .array(feeds.map { .string($0) })])])
    }

    static func rendering(_ result: ToolResult, now: Date, zone: String = "Europe/Lisbon") -> Rendering {
        Rendering(metadata: result.metadata, now: now, timeZone: TimeZone(identifier: zone) ?? .current)
    }

    static func data(_ result: ToolResult) throws -> [String: Any] {
        let json = try Envelope.dataJSON(result.payload)
        return try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] ?? [:]
    }
}
