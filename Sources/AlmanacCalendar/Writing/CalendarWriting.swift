import AlmanacCore
import Foundation

/// The write commands of `tools run calendar` (docs/calendar.md, "Writing").
enum CalendarWriteCommand: String, CaseIterable, Sendable {
    case add, remind, done, reopen, move, cancel, delete

    /// Whether the command names an existing item (WORDS) rather than a new title.
    var findsItem: Bool { self != .add && self != .remind }
}

/// The calendars the operator marked `writable = true`.
enum WritableCalendars {
    /// The writable calendars, or the one `name` names; one line when there is none or `name`
    /// names a read-only one.
    static func resolve(_ settings: Settings, name: String?) throws -> [CalendarSource] {
        let configured = try CalendarSources.configuredSources(settings)
        let table = settings.config("calendars")?.tableValue ?? [:]
        func writable(_ source: CalendarSource) throws -> Bool {
            guard table[source.name]?.tableValue?["writable"] == .bool(true) else { return false }
            switch source.location {
            case .feed:
                throw AlmanacError.configuration(
                    "calendar '\(source.name)' is a feed by URL: feeds are read-only",
                    suggestion:
                        "writable = true works for a local .ics file or a CalDAV calendar; "
                        + "remove it from [calendars.\(source.name)]"
                )
            case .file(let path):
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
                    throw AlmanacError.configuration(
                        "calendar '\(source.name)' is a folder; Almanac writes to one .ics file",
                        suggestion: "point ics in [calendars.\(source.name)] at a file")
                }
                return true
            case .caldav: return true
            }
        }
        if let name {
            guard let source = configured.first(where: { $0.name.lowercased() == name.lowercased() }) else {
                _ = try CalendarSources.resolve(ics: nil, caldav: nil, calendar: name, settings: settings)
                return []
            }
            guard try writable(source) else {
                throw AlmanacError.usage(
                    "calendar '\(source.name)' is read-only",
                    suggestion:
                        "add writable = true to [calendars.\(source.name)] in config.toml (local .ics files and CalDAV)"
                )
            }
            return [source]
        }
        let sources = try configured.filter(writable)
        guard !sources.isEmpty else {
            throw AlmanacError.configuration(
                "no writable calendar: Almanac writes only where config.toml says writable = true",
                suggestion:
                    "add writable = true to a [calendars.NAME] with ics = \"FILE.ics\" or caldav = \"URL\" "
                    + "(docs/calendar.md)"
            )
        }
        return sources
    }
}

/// One write: check the arguments, find the item, ask for confirmation, change the calendar,
/// say what was written.
struct CalendarWriteRun {
    var command: CalendarWriteCommand
    var arguments: ToolArguments
    var context: ToolContext
    /// For an untrusted caller: the confirmation token this run issues or redeems (CallerWrites.swift).
    var ticket: String?

    var now: Date { context.now }
    var zone: TimeZone { context.timeZone }
    var reader: WhenReader { WhenReader(now: context.now, zone: context.timeZone) }

    /// Where an added item goes, or where WORDS are looked for.
    func targets() throws -> [CalendarSource] {
        if arguments.string(CalendarParameter.ics) != nil || arguments.string(CalendarParameter.caldav) != nil {
            throw AlmanacError.usage(
                "calendar: \(command.rawValue) writes only to configured calendars; --ics and --caldav are read-only",
                suggestion: "add writable = true to a [calendars.NAME] and pass --calendar NAME")
        }
        return try WritableCalendars.resolve(context.settings, name: arguments.string(CalendarParameter.calendar))
    }

    /// The text after the command (`add call mom`, `done tax return`).
    var words: String? {
        let text = [arguments.string(CalendarParameter.count), arguments.string(CalendarParameter.title)].compactMap {
            $0
        }.joined(separator: " ")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    func result() async throws -> ToolResult {
        let grant = try callerGrant()
        if grant != nil, ticket == nil {
            var run = self
            run.ticket = arguments.string(CalendarParameter.confirm) ?? WriteTokens.newToken()
            return try await run.result()
        }
        try checkOptions()
        let sources = try targets()
        let plan: WritePlan
        let source: CalendarSource
        if command.findsItem {
            (source, plan) = try await findPlan(in: sources)
        } else {
            source = try addTarget(sources)
            plan = try newItemPlan()
        }
        if let grant {
            try await confirm(plan, in: source, grant: grant)
        } else if !arguments.flag(CalendarParameter.yes) {
            throw ConfirmationRequired(tool: "calendar", preview: plan.preview(source.name, zone: zone))
        }
        let written = try await apply(plan, to: source)
        var payload = CalendarWritePayload(written: written, zone: zone)
        if let span = written.span, command == .add || command == .move {
            payload.overlaps = await overlaps(with: span, uid: written.uid)
        }
        let metadata = ResultMetadata(
            tool: "calendar", provider: written.provider, fetchedAt: now, ageSeconds: 0, stale: false, attempts: [])
        return ToolResult(metadata: metadata, payload: payload)
    }

    // MARK: - Arguments

    /// Options that belong to other commands are refused, so nothing is silently ignored.
    func checkOptions() throws {
        let allowed: [CalendarWriteCommand: Set<CalendarParameter>] = [
            .add: [.at, .for, .until, .allDay, .location, .repeat, .repeatCount, .repeatUntil, .requestID],
            .remind: [.due, .alarm, .location, .requestID],
            .done: [], .reopen: [], .delete: [],
            .move: [.to, .date, .series],
            .cancel: [.date, .series],
        ]
        let common: Set<CalendarParameter> = [
            .range, .count, .title, .calendar, .ics, .caldav, context.trust == .untrusted ? .confirm : .yes,
        ]
        let permitted = common.union(allowed[command] ?? [])
        for name in arguments.values.keys.sorted()
        where !(CalendarParameter(rawValue: name).map(permitted.contains) ?? false) {
            throw AlmanacError.usage(
                "calendar \(command.rawValue) does not take --\(name)",
                suggestion: "usage: \(Self.usage[command] ?? "")")
        }
    }

    static let usage: [CalendarWriteCommand: String] = [
        .add:
            "add TITLE --at WHEN [--for DURATION | --until WHEN] [--all-day] [--location TEXT] "
            + "[--repeat daily|weekly|monthly [--count N | --repeat-until DAY]] [--calendar NAME] [--yes]",
        .remind: "remind TITLE [--due WHEN] [--alarm DURATION] [--calendar NAME] [--yes]",
        .done: "done WORDS", .reopen: "reopen WORDS", .delete: "delete WORDS",
        .move: "move WORDS --to WHEN [--date DAY] [--series]",
        .cancel: "cancel WORDS [--date DAY] [--series]",
    ]

    private func addTarget(_ sources: [CalendarSource]) throws -> CalendarSource {
        guard sources.count == 1, let only = sources.first else {
            throw AlmanacError.usage(
                "calendar: several writable calendars; say which with --calendar",
                suggestion: "writable: \(sources.map(\.name).joined(separator: ", "))")
        }
        return only
    }

    /// The item `add` or `remind` writes.
    func newItemPlan() throws -> WritePlan {
        guard let title = words else {
            throw AlmanacError.usage(
                "calendar \(command.rawValue) needs a title", suggestion: "usage: \(Self.usage[command] ?? "")")
        }
        var item = WriteItem(
            kind: command == .add ? .event : .task, uid: uid(), summary: title,
            location: try arguments.text(
                CalendarParameter.location, needs: "a place", example: "--location \"Main St 5\""),
            stamp: now)
        if command == .add {
            try fillEvent(&item)
        } else {
            try fillTask(&item)
        }
        return .add(item)
    }

    /// A new UID; with `--request-id` the same id always gives the same UID, so a retry finds the
    /// item it already wrote.
    private func uid() -> String {
        if let request = arguments.string(CalendarParameter.requestID), !request.isEmpty {
            return "almanac-\(StableHash.hex("request|" + request))"
        }
        // A caller's preview names the UID its confirming call writes: both come from the token.
        if let ticket { return "almanac-\(StableHash.hex("confirm|" + ticket))" }
        return UUID().uuidString.lowercased() + "@almanac"
    }

    private func fillEvent(_ item: inout WriteItem) throws {
        guard let at = arguments.string(CalendarParameter.at) else {
            throw AlmanacError.usage("calendar add needs --at WHEN", suggestion: WhenReader.examples)
        }
        if arguments.string(CalendarParameter.for) != nil, arguments.string(CalendarParameter.until) != nil {
            throw AlmanacError.usage("--for and --until both set the end", suggestion: "give one of them")
        }
        let when = try reader.read(at, option: "--at")
        if arguments.flag(CalendarParameter.allDay) {
            let first: CivilDate
            switch when {
            case .day(let day): first = day
            case .time(let date): first = CivilDate(date, in: zone)
            }
            var last = first
            if let until = arguments.string(CalendarParameter.until) {
                switch try reader.read(until, option: "--until") {
                case .day(let day): last = day
                case .time(let date): last = CivilDate(date, in: zone)
                }
            } else if let length = arguments.string(CalendarParameter.for) {
                let seconds = try DurationText.seconds(length, option: "--for")
                guard seconds % 86_400 == 0 else {
                    throw AlmanacError.usage(
                        "--for with --all-day is a number of days, got '\(length)'", suggestion: "e.g. --for 2d")
                }
                last = first.adding(days: seconds / 86_400 - 1)
            }
            guard last >= first else {
                throw AlmanacError.usage(
                    "--until \(last) is before --at \(first)", suggestion: "end on or after the start")
            }
            item.start = .day(first)
            item.end = .day(last.adding(days: 1))
        } else {
            guard case .time(let start) = when else {
                throw AlmanacError.usage(
                    "--at '\(at)' names a day but no time",
                    suggestion: "add a time (\"\(at) 15:00\") or --all-day for an all-day event")
            }
            var end = start.addingTimeInterval(3600)
            if let until = arguments.string(CalendarParameter.until) {
                end = try reader.time(until, option: "--until")
                guard end > start else {
                    throw AlmanacError.usage(
                        "--until is not after --at (\(clock(start)) to \(clock(end)))",
                        suggestion: "end after the start")
                }
            } else if let length = arguments.string(CalendarParameter.for) {
                end = start.addingTimeInterval(TimeInterval(try DurationText.seconds(length, option: "--for")))
            }
            item.start = .zoned(start, zone)
            item.end = .zoned(end, zone)
        }
        item.repetition = try repetition(start: item.start)
    }

    private func repetition(start: WriteTime?) throws -> Repetition? {
        let count = arguments.integer(CalendarParameter.repeatCount)
        let untilText = arguments.string(CalendarParameter.repeatUntil)
        guard let frequencyText = arguments.string(CalendarParameter.repeat) else {
            if count != nil || untilText != nil {
                throw AlmanacError.usage(
                    "--count and --repeat-until go with --repeat", suggestion: "e.g. --repeat weekly --count 5")
            }
            return nil
        }
        guard let frequency = Repetition.Frequency(rawValue: frequencyText.lowercased()) else {
            throw AlmanacError.usage(
                "--repeat must be daily, weekly or monthly, got '\(frequencyText)'", suggestion: "e.g. --repeat weekly")
        }
        if count != nil, untilText != nil {
            throw AlmanacError.usage("--count and --repeat-until both end the series", suggestion: "give one of them")
        }
        var rule = Repetition(frequency: frequency)
        if let count {
            guard (1...1000).contains(count) else {
                throw AlmanacError.usage("--count must be 1 to 1000, got \(count)", suggestion: "e.g. --count 10")
            }
            rule.count = count
        }
        if let untilText {
            let until: CivilDate
            switch try reader.read(untilText, option: "--repeat-until") {
            case .day(let day): until = day
            case .time(let date): until = CivilDate(date, in: zone)
            }
            if let start, case .day(let first) = start.eventTime, until < first {
                throw AlmanacError.usage("--repeat-until \(until) is before the first day", suggestion: "a later day")
            }
            if let start, case .instant(let date) = start.eventTime, until < CivilDate(date, in: zone) {
                throw AlmanacError.usage("--repeat-until \(until) is before the first day", suggestion: "a later day")
            }
            rule.until = until
        }
        return rule
    }

    private func fillTask(_ item: inout WriteItem) throws {
        if let due = arguments.string(CalendarParameter.due) {
            switch try reader.read(due, option: "--due") {
            case .day(let day): item.due = .day(day)
            case .time(let date):
                item.due = .zoned(date, zone)
                // A reminder with a time rings at that time unless told otherwise.
                item.alarmBefore = 0
            }
        }
        if let alarm = arguments.string(CalendarParameter.alarm) {
            guard case .zoned? = item.due else {
                throw AlmanacError.usage(
                    "--alarm needs --due with a time (the alarm rings that long before it)",
                    suggestion: "e.g. remind \"call mom\" --due \"tomorrow 18:00\" --alarm 15m")
            }
            item.alarmBefore = try DurationText.seconds(alarm, option: "--alarm")
        }
    }

    private func clock(_ date: Date) -> String {
        "\(TimeText.day(date, in: zone)) \(TimeText.clock(date, in: zone))"
    }
}

extension CalendarWriteRun {
    /// The options the write commands add to the calendar's schema.
    static let parameters: [ToolParameter] = [
        ToolParameter(
            CalendarParameter.at, .string,
            help: "for add: when it starts (WHEN: \"thursday 15:00\", \"in 2 hours\", ISO)"),
        ToolParameter(
            CalendarParameter.for, .string,
            help: "for add: how long (DURATION: 30m, 1h30m, 2d; default 1 hour or 1 day)"),
        ToolParameter(CalendarParameter.until, .string, help: "for add: when it ends (WHEN), instead of --for"),
        ToolParameter(CalendarParameter.allDay, .boolean, help: "for add: an all-day event"),
        ToolParameter(CalendarParameter.location, .string, help: "for add/remind: the place"),
        ToolParameter(
            CalendarParameter.repeat, .choice(Repetition.Frequency.allCases.map(\.rawValue)),
            help: "for add: repeat the event"),
        ToolParameter(
            CalendarParameter.repeatCount, .integer, help: "for add --repeat: how many times (1-1000)",
            aliases: ["--count"]),
        ToolParameter(
            CalendarParameter.repeatUntil, .string, help: "for add --repeat: the last day (YYYY-MM-DD or a day word)"),
        ToolParameter(CalendarParameter.due, .string, help: "for remind: when the task is due (WHEN, or a day)"),
        ToolParameter(
            CalendarParameter.alarm, .string,
            help: "for remind: an alarm this long before the due time (default: at it)"),
        ToolParameter(
            CalendarParameter.date, .string, help: "for move/cancel: the day of the one occurrence of a series"),
        ToolParameter(CalendarParameter.series, .boolean, help: "for move/cancel: every occurrence of a series"),
        ToolParameter(
            CalendarParameter.requestID, .string,
            help: "for add/remind: a client request id; a retry with the same id does not add a second item"),
        ToolParameter(CalendarParameter.yes, .boolean, help: "write without asking", access: .skipsConfirmation),
        ToolParameter(
            CalendarParameter.confirm, .string,
            help: "for a write: the single-use token its preview gave; the same call with it writes exactly that"),
    ].map { parameter in
        var writing = parameter
        if writing.access == .anyCaller { writing.access = .writes }
        return writing
    }
}

extension ToolSchema {
    /// This schema with `more` parameters after its own.
    func appending(_ more: [ToolParameter]) -> ToolSchema { ToolSchema(parameters + more) }
}
