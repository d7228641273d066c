import AlmanacCore
import AlmanacRuntime
import ArgumentParser
import Foundation

/// The `tools` command: fresh, compact facts for local LLMs.
@main
struct Tools: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tools",
        abstract: "Fresh, compact facts for local LLMs: sports, weather, calendar, web search.",
        discussion: """
            Examples:
              tools run sports nba
              tools run weather Lisbon tomorrow
              tools run calendar today --tz Europe/Berlin
              tools run search "swift 6 release"
            """,
        version: "0.1.0",
        subcommands: [Run.self, List.self, Cache.self, Doctor.self, FixturesCommand.self]
    )
}

/// Output options shared by commands that print tool results. They may also appear among a tool's
/// own words (`tools run sports nba --format json`).
struct OutputOptions: ParsableArguments {
    @Option(help: "Output format: context (for LLMs), json (stable envelope) or text (for people).")
    var format: OutputFormat?

    @Option(help: "Viewer time zone (IANA name, e.g. Europe/Lisbon). Default: TZ or the system zone.")
    var tz: String?

    @Flag(name: .customLong("no-cache"), help: "Ask providers even when a fresh cached answer exists.")
    var noCache = false

    @Option(help: "Token budget for context output; formatters drop whole lines to fit.")
    var budget: Int?
}

extension OutputFormat: ExpressibleByArgument {}

/// Prints an error's lines to stderr and exits with its status.
func fail(_ error: any Error) -> ExitCode {
    let almanac: AlmanacError
    switch error {
    case let known as AlmanacError: almanac = known
    case is CancellationError: return ExitCode(130)
    default: almanac = .internal("unexpected \(type(of: error)): \(error)")
    }
    FileHandle.standardError.write(Data((almanac.lines.joined(separator: "\n") + "\n").utf8))
    return ExitCode(almanac.exitStatus)
}

func printLine(_ text: String) {
    FileHandle.standardOutput.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
}
