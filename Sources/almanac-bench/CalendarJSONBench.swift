import AlmanacCalendar
import AlmanacCore
import Foundation

/// `almanac-bench calendar-json FILE.ics FROM TO N`: expands FILE over FROM..TO (UTC) once, then
/// writes the answer's JSON envelope N times each way and prints both means, for
/// scripts/bench-calendar: the calendar's byte writer (`CompactJSONPayload`) against JSONEncoder
/// over the same `Encodable` payload, with the shared configuration.
enum CalendarJSONBench {
    struct NoNetwork: HTTPTransport {
        func send(_ request: HTTPRequest, timeout: Duration) async throws -> HTTPResponse {
            throw ProviderFailure(.network, "no network in the bench")
        }
    }

    /// The payload through `encode(to:)`, as any non-compact payload is written.
    struct Encoded: Encodable {
        let payload: any ToolPayload
        func encode(to encoder: any Encoder) throws { try payload.encode(to: encoder) }
    }

    static func run(_ arguments: [String]) async throws {
        guard arguments.count == 6, let iterations = Int(arguments[5]), iterations > 0 else {
            FileHandle.standardError.write(
                Data("usage: almanac-bench calendar-json FILE.ics FROM TO ITERATIONS\n".utf8))
            exit(64)
        }
        let now = Date(timeIntervalSince1970: 1_735_689_600)  // 2025-01-01T00:00:00Z
        let environment = ProviderEnvironment(
            // The process environment, so ALMANAC_CALENDAR_MAX_OCCURRENCES can lift the per-answer cap.
            transport: NoNetwork(), settings: Settings(environment: ProcessInfo.processInfo.environment), now: now,
            timeZone: TimeZone(secondsFromGMT: 0) ?? .current,
            timeout: .seconds(60))
        let context = ToolContext(
            coordinator: Coordinator(cache: MemoryCacheStore(), now: { now }), environment: environment,
            fetchOptions: .init(readCache: false, writeCache: false))
        let tool = CalendarTool()
        let words = ["--ics", arguments[2], "--from", arguments[3], "--to", arguments[4]]
        let result = try await tool.run(
            try ToolArguments.parse(cli: words, schema: tool.schema, tool: tool.name), context: context)
        let writer = {
            try Envelope.jsonUTF8(metadata: result.metadata, payload: result.payload).count
        }
        let encoder = {
            try JSONOutput.compact(Encoded(payload: result.payload)).count
        }
        let writerMs = try measure(iterations, writer)
        let encoderMs = try measure(iterations, encoder)
        print("envelope bytes \(try writer()), data bytes through JSONEncoder \(try encoder())")
        print("writer \(writerMs)")
        print("encoder \(encoderMs)")
    }

    static func measure(_ iterations: Int, _ work: () throws -> Int) throws -> Double {
        var bytes = try work()  // warm-up
        let elapsed = try ContinuousClock().measure {
            for _ in 0..<iterations { bytes &+= try work() }
        }
        precondition(bytes > 0)
        return (Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
            / Double(iterations)
    }
}
