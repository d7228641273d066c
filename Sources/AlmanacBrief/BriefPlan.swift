import AlmanacCore
import Foundation

/// Which day a briefing is about and what it looks at: `--for morning` (today: the day ahead,
/// last night's results), `evening` (tomorrow's plans and weather, tonight's results) or a day.
struct BriefDay: Sendable, Equatable {
    /// `morning`, `evening` or the day as written (`today`, `tomorrow`, `2025-06-05`).
    var label: String
    /// Midnight of the day the calendar and the forecast are about, in the viewer's zone.
    var day: Date
    /// The day whose scores count as "the last result" (morning: yesterday; else the day itself).
    var scoresDay: Date
    /// Whether the day is today (rain in the next hour only makes sense then).
    var isToday: Bool

    /// Reads `--for`; nil means morning.
    ///
    /// - Throws: ``AlmanacError`` (usage) for anything but morning, evening, today, tomorrow,
    ///   yesterday or a YYYY-MM-DD date.
    static func read(_ raw: String?, now: Date, zone: TimeZone) throws -> BriefDay {
        let calendar = TimeText.calendar(zone)
        let today = calendar.startOfDay(for: now)
        func offset(_ days: Int) -> Date { calendar.date(byAdding: .day, value: days, to: today) ?? today }
        let word = (raw ?? "morning").trimmingCharacters(in: .whitespaces).lowercased()
        switch word {
        case "morning", "today", "":
            return BriefDay(label: word.isEmpty ? "morning" : word, day: today, scoresDay: offset(-1), isToday: true)
        case "evening", "tonight":
            return BriefDay(label: "evening", day: offset(1), scoresDay: today, isToday: false)
        case "tomorrow":
            return BriefDay(label: word, day: offset(1), scoresDay: offset(1), isToday: false)
        case "yesterday":
            return BriefDay(label: word, day: offset(-1), scoresDay: offset(-1), isToday: false)
        default:
            guard let date = TimeText.parseDay(word, in: zone) else {
                throw AlmanacError.usage(
                    "brief: --for must be morning, evening, today, tomorrow or a date, got '\(raw ?? "")'",
                    suggestion: "e.g. --for evening or --for 2025-06-05")
            }
            let day = calendar.startOfDay(for: date)
            return BriefDay(label: word, day: day, scoresDay: day, isToday: day == today)
        }
    }

    /// The day as the tools' `--date`/`--day` take it: `YYYY-MM-DD` in the viewer's zone.
    func iso(_ date: Date, zone: TimeZone) -> String { TimeText.isoDay(date, in: zone) }
}

/// One run of another tool that a section needs.
struct BriefCall: Sendable {
    /// What the call is for: decides which of its lines are kept and how important they are.
    enum Role: String, Sendable {
        case events, tasks, forecast, alerts, nextHour, scores, nextGame, headlines
    }

    /// The section it belongs to.
    var section: BriefSectionName
    /// The tool run.
    var tool: String
    /// Its CLI words (only configured things: the profile's teams and topics).
    var words: [String]
    /// What it is for.
    var role: Role
    /// A short label for its failure line ("warnings", "lakers").
    var label: String
    /// Calls made instead when this one is not configured (the profile's topics when no feed
    /// is), inside this call's own task so they overlap the other sections.
    var fallback: [BriefCall] = []
}

/// The sections, most important first: the order they print in and the order lines are kept.
enum BriefSectionName: String, Sendable, CaseIterable, Codable {
    case calendar, weather, teams, headlines

    /// The heading.
    var title: String {
        switch self {
        case .calendar: "Calendar"
        case .weather: "Weather"
        case .teams: "Teams"
        case .headlines: "Headlines"
        }
    }

    /// What its lines are, for "… 3 more headlines omitted".
    func noun(_ count: Int) -> String {
        let one = count == 1
        switch self {
        case .calendar: return one ? "calendar line" : "calendar lines"
        case .weather: return one ? "weather line" : "weather lines"
        case .teams: return one ? "team line" : "team lines"
        case .headlines: return one ? "headline" : "headlines"
        }
    }
}

/// What the profile asks for: the calls each section makes, and the sections left out because
/// nothing is configured for them (each with a short note).
struct BriefPlan: Sendable {
    var calls: [BriefCall] = []
    /// "weather: no home set ([me] home)".
    var notes: [String] = []
    /// Profile entries the briefing could not use ("[me] teams: 'lakers' is not LEAGUE:TEAM").
    var warnings: [String] = []

    /// Headlines shown from the feeds.
    static let headlineCount = 5

    static func make(profile: Profile, day: BriefDay, zone: TimeZone, offers: (String) -> Bool) -> BriefPlan {
        var plan = BriefPlan()
        plan.warnings = profile.warnings
        let date = day.iso(day.day, zone: zone)

        // Calendar: one run for events and one for tasks. With no --calendar the calendar tool reads
        // the profile's calendars (else every configured one), and warns about a name it lacks.
        if offers("calendar") {
            let range =
                day.label == "today" || day.label == "morning"
                ? ["today"]
                : day.label == "evening" || day.label == "tomorrow" ? ["tomorrow"] : ["--from", date, "--to", date]
            plan.calls.append(
                BriefCall(section: .calendar, tool: "calendar", words: range, role: .events, label: "events"))
            plan.calls.append(
                BriefCall(section: .calendar, tool: "calendar", words: ["tasks"], role: .tasks, label: "tasks"))
        } else {
            plan.notes.append("calendar: switched off for this caller")
        }

        // Weather at home: the day, official warnings, and (today) rain in the next hour. No place
        // words: the weather tool reads [me] home itself, so a briefing and `tools run weather`
        // share one geocoding and one cache entry.
        if profile.home != nil {
            if offers("weather") {
                plan.calls.append(
                    BriefCall(
                        section: .weather, tool: "weather", words: ["--day", date], role: .forecast,
                        label: "forecast"))
                plan.calls.append(
                    BriefCall(
                        section: .weather, tool: "weather", words: ["--alerts"], role: .alerts,
                        label: "warnings"))
                if day.isToday {
                    plan.calls.append(
                        BriefCall(
                            section: .weather, tool: "weather", words: ["--next-hour"], role: .nextHour,
                            label: "next hour"))
                }
            } else {
                plan.notes.append("weather: switched off for this caller")
            }
        } else {
            plan.notes.append("weather: no home set ([me] home)")
        }

        // Each team: the day's game (last night's in the morning) and the next one (with the last result).
        if profile.teams.isEmpty {
            plan.notes.append("teams: none set ([me] teams)")
        } else if !offers("sports") {
            plan.notes.append("teams: switched off for this caller")
        } else {
            let scores = day.iso(day.scoresDay, zone: zone)
            for entry in profile.teams {
                guard let (league, team) = Profile.team(entry) else {
                    plan.warnings.append(
                        "[me] teams: '\(UntrustedText.clean(entry, limit: 60))' is not LEAGUE:TEAM (e.g. nba:lakers)")
                    continue
                }
                plan.calls.append(
                    BriefCall(
                        section: .teams, tool: "sports", words: [league, "--team", team, "--date", scores],
                        role: .scores,
                        label: team))
                plan.calls.append(
                    BriefCall(
                        section: .teams, tool: "sports", words: [league, "--team", team, "--next"], role: .nextGame,
                        label: team))
            }
        }

        // Headlines: the configured feeds ([news] feeds, [me] feeds); topics when there are none.
        if offers("news") {
            let topics = profile.searchedTopics.map { topic in
                BriefCall(
                    section: .headlines, tool: "news", words: [topic, "--count", "3"], role: .headlines, label: topic)
            }
            plan.calls.append(
                BriefCall(
                    section: .headlines, tool: "news", words: ["--count", String(headlineCount)], role: .headlines,
                    label: "feeds", fallback: topics))
        } else {
            plan.notes.append("headlines: switched off for this caller")
        }
        return plan
    }
}
