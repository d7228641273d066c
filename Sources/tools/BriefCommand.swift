import AlmanacCore
import AlmanacCurl
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

/// The body of `tools brief`, shared by the ArgumentParser command and the fast entry point.
enum BriefInvocation {
    /// What `tools brief` was asked, as ``execute(words:format:tz:noCache:)`` takes it.
    struct Request {
        var words: [String] = []
        var format: OutputFormat = .context
        var tz: String?
        var noCache = false
    }

    /// `tools brief` with only its own options, each at most once and with a value that is not
    /// an option (`--for evening`, not `--for=evening`), recognised before ArgumentParser as `tools
    /// run` is: its reflection costs a few milliseconds of one core at every start, before any
    /// section can begin. Anything else (help, a typo, a format it does not know, a budget that
    /// is not a number) goes through ArgumentParser, for its messages.
    static func fastArguments(_ arguments: [String]) -> Request? {
        guard arguments.count >= 2, arguments[1] == "brief" else { return nil }
        var values: [String: String] = [:]
        var request = Request()
        var index = 2
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if word == "--no-cache" {
                guard !request.noCache else { return nil }
                request.noCache = true
                continue
            }
            guard ["--for", "--budget", "--format", "--tz"].contains(word), values[word] == nil,
                index < arguments.count, let value = arguments[index].first, value != "-"
            else { return nil }
            values[word] = arguments[index]
            index += 1
        }
        if let raw = values["--format"] {
            guard let format = OutputFormat(rawValue: raw) else { return nil }
            request.format = format
        }
        if let day = values["--for"] { request.words += ["--for", day] }
        if let raw = values["--budget"] {
            guard let budget = Int(raw) else { return nil }
            request.words += ["--budget", String(budget)]
        }
        request.tz = values["--tz"]
        return request
    }

    /// Runs the briefing and prints it; returns the exit status. Under a timer nothing but the
    /// briefing reaches the output: cache warnings go to stderr only when it is a terminal (the
    /// briefing itself says what it left out); errors always do.
    static func execute(words: [String], format: OutputFormat, tz: String?, noCache: Bool) async -> Int32 {
        Entry.tuneMallocForOneShot()
        // Read once: Foundation builds the dictionary afresh at every call.
        let environment = ProcessInfo.processInfo.environment
        let libcurl = preloadLibcurl(environment: environment)
        let status = await briefing(
            words: words, format: format, options: RuntimeOptions(timeZone: tz, noCache: noCache),
            environment: environment)
        // Exit only once libcurl is in: exit() racing its initialisation (OpenSSL's handlers) after a
        // quick usage error could crash on the way out.
        await libcurl?.value
        return status
    }

    /// The briefing itself: the runtime (whose cache closes as it returns), the run, the output.
    static func briefing(
        words: [String], format: OutputFormat, options: RuntimeOptions, environment: [String: String]
    ) async -> Int32 {
        do {
            let runtime = try Runtime.make(environment: environment, options: options)
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

extension BriefInvocation {
    /// Starts loading libcurl on a thread of its own, unless recordings answer (`ALMANAC_REPLAY`).
    ///
    /// A cold briefing's sections all fetch, and the first to get there loads libcurl and its ~25
    /// libraries (about 11 ms of one core on a 2-core machine) while the others wait for it. Loaded
    /// now, that work overlaps the start-up before the sections (the config, opening the cache),
    /// which keeps only one core busy. `tools run` keeps loading it lazily: its warm answer makes
    /// no request, whereas a briefing nearly always has a section to fetch (every morning's).
    ///
    /// The task ends when libcurl is loaded (or failed to: the transport then says why).
    static func preloadLibcurl(environment: [String: String]) -> Task<Void, Never>? {
        let replay = environment["ALMANAC_REPLAY"]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard replay.isEmpty else { return nil }
        let curl = NativeLibrary.curl
        return Task {
            await withCheckedContinuation { (loaded: CheckedContinuation<Void, Never>) in
                // Not on Swift's cooperative pool (two threads here): dlopen blocks for the whole load.
                // The transport opens it once (pthread_once): its first request waits for this load.
                Thread {
                    _ = curl.open()
                    loaded.resume()
                }
                .start()
            }
        }
    }
}
