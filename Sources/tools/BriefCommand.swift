import AlmanacCore
import AlmanacRuntime
import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension Tools {
    /// `tools brief`: the `[me]` profile's day in one call (the `brief` tool).
    struct Brief: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "brief",
            abstract: "Your day in one call: events and due tasks, weather at home, your teams, headlines.",
            discussion: """
                Reads the [me] profile (home, teams, feeds, calendars, topics) and runs the calendar, weather,
                sports and news tools at once, within a token budget. Safe from cron or a systemd timer:
                stdout holds the briefing and nothing else; exit 0 when any section answered, 69 when every
                section failed (one line each on stderr), 64 for bad input. See docs/brief.md.
                """)

        @Option(name: .customLong("for"), help: "morning (default), evening, today, tomorrow or a day YYYY-MM-DD.")
        var day: String?

        @Option(help: "Token budget (default 400): the least important lines are dropped first.")
        var budget: Int?

        @Option(help: "Output format: context (for LLMs), json (stable envelope) or text (for people).")
        var format: OutputFormat?

        @Option(help: "Viewer time zone (IANA name, e.g. Europe/Lisbon). Default: TZ or the system zone.")
        var tz: String?

        @Flag(name: .customLong("no-cache"), help: "Ask providers even when a fresh cached answer exists.")
        var noCache = false

        func run() async throws {
            var words: [String] = []
            if let day { words += ["--for", day] }
            if let budget { words += ["--budget", String(budget)] }
            let status = await BriefInvocation.execute(
                words: words, format: format ?? .context, tz: tz, noCache: noCache)
            if status != 0 { throw ExitCode(status) }
        }
    }
}

/// The body of `tools brief`.
enum BriefInvocation {
    /// Runs the briefing and prints it; returns the exit status. Under a timer nothing but the
    /// briefing reaches the output: cache warnings go to stderr only when it is a terminal (the
    /// briefing itself says what it left out); errors always do.
    static func execute(words: [String], format: OutputFormat, tz: String?, noCache: Bool) async -> Int32 {
        do {
            let runtime = try Runtime.make(options: RuntimeOptions(timeZone: tz, noCache: noCache))
            if isatty(STDERR_FILENO) == 1 {
                for warning in runtime.warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
            }
            let result = try await runtime.run(tool: "brief", words: words)
            printLine(try result.renderUTF8(format, now: runtime.now, timeZone: runtime.timeZone))
            return 0
        } catch {
            return fail(error).rawValue
        }
    }
}
