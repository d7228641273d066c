public import AlmanacCore
import CLibical
import CLibxml2
import Foundation

/// Calendar events and tasks from `.ics` files, feeds and CalDAV servers, expanded by libical
/// (RRULE, RDATE, EXDATE, RECURRENCE-ID overrides, time zones) and grouped by local day.
///
/// `tools run calendar [today|tomorrow|week|next N|tasks] [--from YYYY-MM-DD --to YYYY-MM-DD]
/// [--search TEXT] [--ics PATH_OR_URL | --caldav URL | --calendar NAME]`
public struct CalendarTool: Tool {
    /// The word that names the tool (`tools run calendar`).
    public let name = "calendar"
    /// One line for listings.
    public let summary = "Events and tasks from .ics files, calendar feeds and CalDAV, by local day"

    static let ranges = ["today", "tomorrow", "week", "next", "tasks", "free"]
    static let rangeHelp =
        "expected today, tomorrow, week, next N, tasks, free, or --from YYYY-MM-DD [--to YYYY-MM-DD]"

    /// Whether CalDAV collections that offer sync-collection are mirrored with it (tests turn it
    /// off to exercise the calendar-query path against the same server).
    var useCalDAVSync = true

    /// The tool with CalDAV sync on (tests turn ``useCalDAVSync`` off).
    public init() {}

    /// The reads and the write commands, with their options.
    public var schema: ToolSchema {
        ToolSchema([
            ToolParameter(
                CalendarParameter.range, .choice(Self.ranges + CalendarWriteCommand.allCases.map(\.rawValue)),
                help:
                    "which events: today (default), tomorrow, week, next N, tasks, or free (busy blocks and free gaps); "
                    + "or a write: add, remind, done, reopen, move, cancel, delete",
                placement: .positional, writeChoices: Set(CalendarWriteCommand.allCases.map(\.rawValue))),
            ToolParameter(
                CalendarParameter.count, .string, help: "for 'next': how many events (1-100, default 5)",
                placement: .positional),
            ToolParameter(
                CalendarParameter.title, .string,
                help: "for add/remind: the title; for the other writes: title words or the UID",
                placement: .remainder, access: .writes),
            ToolParameter(CalendarParameter.from, .string, help: "first day, YYYY-MM-DD"),
            ToolParameter(
                CalendarParameter.to, .string, help: "last day (inclusive), YYYY-MM-DD; for move: the new time (WHEN)"),
            ToolParameter(
                CalendarParameter.hours, .string, help: "for 'free': the hours of each day, HH-HH (default 08-20)"),
            ToolParameter(
                CalendarParameter.search, .string, help: "only events whose title, place or notes contain this text"),
            ToolParameter(
                CalendarParameter.ics, .string, help: "an .ics file, a folder of them, or an http(s)/webcal URL",
                access: .allowedURLs),
            ToolParameter(
                CalendarParameter.caldav, .string,
                help: "a CalDAV URL (user/password from ALMANAC_CALDAV_USER/_PASSWORD)",
                access: .allowedURLs),
            ToolParameter(
                CalendarParameter.calendar, .string, help: "one configured calendar by name ([calendars.NAME])"),
        ]).appending(CalendarWriteRun.parameters)
    }

    /// The providers, one per kind of source (each source uses the one for its kind): the one
    /// list both the run and the descriptors come from.
    static func chain(useCalDAVSync: Bool = true) -> [any DescribedProvider<CalendarFetch, CalendarSnapshot>] {
        [ICSFileProvider(), ICSFeedProvider(), CalDAVProvider(useSync: useCalDAVSync)]
    }

    /// The descriptors of ``chain(useCalDAVSync:)``.
    public var providerDescriptors: [ProviderDescriptor] { Self.chain().map(\.descriptor) }

    /// libical for every calendar, libxml2 for CalDAV's WebDAV bodies.
    public var nativeLibraries: [NativeLibrary] {
        [
            NativeLibrary(
                name: "libical", package: "libical3", usedFor: "calendar only",
                open: { Self.openLibrary() }, opened: { Self.openedLibrary }),
            NativeLibrary(
                name: "libxml2", package: "libxml2", usedFor: "CalDAV",
                open: { Self.openCalDAVLibrary() }, opened: { Self.openedCalDAVLibrary }),
        ]
    }

    /// Unconfigured when no calendar is configured (one-off `--ics`/`--caldav` still work).
    public func unconfiguredReason(in context: ToolContext) -> String? {
        let configured = (try? CalendarSources.configuredSources(context.settings)) ?? []
        return configured.isEmpty ? "no [calendars.NAME] in config.toml (use --ics or --caldav)" : nil
    }

    /// A read through the provider chain, or a write (``CalendarWriteRun``).
    public func run(_ arguments: ToolArguments, context: ToolContext) async throws -> ToolResult {
        if let word = arguments.string(CalendarParameter.range), let command = CalendarWriteCommand(rawValue: word) {
            return try await CalendarWriteRun(command: command, arguments: arguments, context: context).result()
        }
        let request = try CalendarRequest(arguments, now: context.now, zone: context.timeZone)
        var sources = try CalendarSources.resolve(
            ics: arguments.string(CalendarParameter.ics), caldav: arguments.string(CalendarParameter.caldav),
            calendar: arguments.string(CalendarParameter.calendar),
            settings: context.settings, policy: context.environment.egress)
        var warnings: [String] = []
        if arguments.string(CalendarParameter.ics) == nil, arguments.string(CalendarParameter.caldav) == nil,
            arguments.string(CalendarParameter.calendar) == nil
        {
            (sources, warnings) = try CalendarSources.profileDefault(sources, settings: context.settings)
        }
        var result = try await CalendarRun(
            request: request, sources: sources, context: context, providers: Self.chain(useCalDAVSync: useCalDAVSync)
        ).result()
        if !warnings.isEmpty { result.payload = CalendarSources.warn(result.payload, warnings) }
        return result
    }
}

/// A checked request: what to show and in which window.
struct CalendarRequest: Sendable {
    enum Mode: Sendable, Equatable {
        case days(label: String)
        case next(Int)
        case tasks
    }

    var mode: Mode
    var window: ExpansionWindow
    var firstDay: CivilDate
    var lastDay: CivilDate
    var search: String?
    var now: Date
    /// For `free`: the hours of each day looked at (FreeBusy.swift).
    var freeHours: DayHours?

    init(_ arguments: ToolArguments, now: Date, zone: TimeZone) throws {
        self.now = now
        let today = CivilDate(now, in: zone)
        let range = arguments.string(CalendarParameter.range)
        let count = arguments.string(CalendarParameter.count)
        let from = try arguments.string(CalendarParameter.from).map { try Self.day($0, option: "--from") }
        let to = try arguments.string(CalendarParameter.to).map { try Self.day($0, option: "--to") }
        search = try arguments.text(CalendarParameter.search, needs: "words to look for", example: "--search dentist")

        if let count, range != "next" {
            if Int(count) != nil {
                throw AlmanacError.usage("a count only goes with 'next' (got '\(count)')", suggestion: "e.g. next 5")
            }
            throw AlmanacError.usage("unknown range '\(count)'", suggestion: Self.suggestion(for: count))
        }
        if let text = arguments.string(CalendarParameter.hours) {
            guard range == "free", let hours = DayHours(text) else {
                throw AlmanacError.usage(
                    "--hours must be HH-HH with 'free', got '\(text)'", suggestion: "e.g. free --hours 12-18")
            }
            freeHours = hours
        } else if range == "free" {
            freeHours = .waking
        }
        if from != nil || to != nil, let range, range != "today", range != "free" {
            throw AlmanacError.usage(
                "'\(range)' and --from/--to both choose a range", suggestion: "use one of them")
        }

        switch range {
        case "next":
            let value = count ?? "5"
            guard let n = Int(value), (1...100).contains(n) else {
                throw AlmanacError.usage(
                    "next needs a number of events from 1 to 100, got '\(value)'", suggestion: "e.g. next 5")
            }
            mode = .next(n)
            firstDay = today
            lastDay = today.adding(days: 365)
            window = ExpansionWindow(start: now, end: lastDay.adding(days: 1).start(in: zone), zone: zone)
            return
        case "tasks":
            mode = .tasks
            firstDay = today
            lastDay = today
        case "tomorrow":
            mode = .days(label: "tomorrow")
            firstDay = today.adding(days: 1)
            lastDay = firstDay
        case "week":
            mode = .days(label: "week")
            firstDay = today
            lastDay = today.adding(days: 6)
        default:
            if from != nil || to != nil {
                firstDay = from ?? today
                lastDay = to ?? firstDay
                guard firstDay <= lastDay else {
                    throw AlmanacError.usage(
                        "--from \(firstDay) is after --to \(lastDay)", suggestion: "--from must be on or before --to")
                }
                guard firstDay.days(to: lastDay) <= 3_660 else {
                    throw AlmanacError.usage(
                        "--from/--to span more than 10 years", suggestion: "ask for a shorter range")
                }
                mode = .days(label: "range")
            } else {
                mode = .days(label: "today")
                firstDay = today
                lastDay = today
            }
        }
        window = ExpansionWindow(
            start: firstDay.start(in: zone), end: lastDay.adding(days: 1).start(in: zone), zone: zone)
    }

    static func day(_ text: String, option: String) throws -> CivilDate {
        guard let day = CivilDate(iso: text.trimmingCharacters(in: .whitespaces)) else {
            throw AlmanacError.usage(
                "\(option) must be a date in the form YYYY-MM-DD, got '\(text)'",
                suggestion: "e.g. \(option) 2024-06-01")
        }
        return day
    }

    static func suggestion(for word: String) -> String {
        let guess = Suggest.closest(to: word.lowercased(), in: CalendarTool.ranges)
        return (guess.map { "did you mean '\($0)'? " } ?? "") + CalendarTool.rangeHelp
    }

    /// The normalized range for JSON.
    var rangeName: String {
        switch mode {
        case .days(let label): label
        case .next: "next"
        case .tasks: "tasks"
        }
    }
}

extension CalendarTool {
    /// Opens libical now (the first calendar file would otherwise): nil when it is ready, else the
    /// dynamic loader's reason. For `tools doctor`.
    static func openLibrary() -> String? { LibICal.loadFailure }

    /// Opens libxml2, which reads CalDAV's WebDAV bodies: nil when it is ready, else the dynamic
    /// loader's reason. For `tools doctor`.
    static func openCalDAVLibrary() -> String? {
        almanac_xml_load() == 0 ? nil : String(cString: almanac_xml_error())
    }

    /// The libical soname opened, once ``openLibrary()`` returned nil.
    static var openedLibrary: String { String(cString: almanac_ical_opened()) }

    /// The libxml2 opened, as soname and version ("libxml2.so.2 2.9.14"), once
    /// ``openCalDAVLibrary()`` returned nil.
    static var openedCalDAVLibrary: String { String(cString: almanac_xml_opened()) }
}
