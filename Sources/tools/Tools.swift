import AlmanacCore
import AlmanacRuntime
public import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Process entry: `tools run <tool> ...` and a plain `tools brief` skip ArgumentParser (its
/// reflection-driven parsing costs several milliseconds of a warm call); every other command goes
/// through it.
@main
enum Entry {
    static func main() async {
        if let (tool, words) = RunInvocation.fastArguments(CommandLine.arguments) {
            tuneMallocForOneShot()
            exit(await RunInvocation.execute(tool: tool, words: words, settings: OutputSettings()))
        }
        if let brief = BriefInvocation.fastArguments(CommandLine.arguments) {
            exit(
                await BriefInvocation.execute(
                    words: brief.words, format: brief.format, tz: brief.tz, noCache: brief.noCache))
        }
        await Tools.main()
    }

    /// `tools run` lives for one answer: glibc's defaults hand big blocks back to the kernel as
    /// soon as they are freed and map fresh ones for the next, so a big result (megabytes of
    /// calendar instances and JSON) pays page faults for the same memory again and again. Keep
    /// freed memory and grow the heap in large steps instead (about 2,000 fewer page faults on the
    /// calendar bench). Not for long-running commands (MCP), whose footprint would stay at its peak.
    static func tuneMallocForOneShot() {
        #if canImport(Glibc)
            // `mallopt` is in <malloc.h>, which the Glibc module does not import: look it up.
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
            let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
            // M_MMAP_THRESHOLD (-3; 32 MB is glibc's maximum), M_TRIM_THRESHOLD (-1), M_TOP_PAD (-2).
            _ = mallopt(-3, 32 << 20)
            _ = mallopt(-1, 512 << 20)
            _ = mallopt(-2, 64 << 20)
        #endif
    }
}

/// The `tools` command: fresh, compact facts for local LLMs.
struct Tools: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tools",
        abstract: "Fresh, compact facts for local LLMs ('tools list' shows the tools, plugins' too).",
        discussion: """
            Examples:
              tools run sports nba
              tools run weather Lisbon tomorrow
              tools run calendar today --tz Europe/Berlin
              tools run search "swift 6 release"
              tools ask "did the lakers win?"
              tools mcp
            """,
        version: AlmanacVersion.current,
        subcommands: [
            Run.self, List.self, Cache.self, RouteCommand.self, ContextCommand.self, Ask.self, Schema.self,
            MCPCommand.self, ServeCommand.self, Doctor.self, FixturesCommand.self, PluginCommand.self, Brief.self,
        ]
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
    case let failure as ToolFailure where failure.kind == .cancelled: return ExitCode(130)
    case let failure as ToolFailure: almanac = failure.error
    case is CancellationError: return ExitCode(130)
    default: almanac = .internal("unexpected \(type(of: error)): \(error)")
    }
    FileHandle.standardError.write(Data((almanac.lines.joined(separator: "\n") + "\n").utf8))
    return ExitCode(almanac.exitStatus)
}

func printLine(_ text: String) {
    FileHandle.standardOutput.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
}

/// `printLine` for text already in UTF-8: written as it is, the newline on its own, so megabytes
/// of JSON are not copied into a `Data` (and once more to add the newline) on the way out.
func printLine(_ text: [UInt8]) {
    let handle = FileHandle.standardOutput
    // A reader that went away (closed pipe) is nothing to report.
    try? handle.write(contentsOf: text)
    if text.last != UInt8(ascii: "\n") { try? handle.write(contentsOf: [UInt8(ascii: "\n")]) }
}
