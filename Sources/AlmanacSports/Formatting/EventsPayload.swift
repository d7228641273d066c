import AlmanacCore
import Foundation

/// Golf tournaments, tennis draws, race weekends and fight cards on one local day (or the next one):
/// `tools run sports pga`, `atp`, `f1`, `ufc`.
struct EventsPayload: ToolPayload {
    var league: League
    var day: LocalDay
    var events: SportEvents
    /// `--next`: the next event rather than the day's.
    var next: Bool
    /// The person asked about (`--player`), as matched.
    var player: String?
    /// At most this many lines per list (golfers, matches, results, bouts), when set.
    var limit: Int?
    /// The clock the answer is for: a live tennis match belongs to the asked day only when that day is today.
    var now: Date
    /// The words of the event asked for (`--event`), when one was; `events` holds only its matches.
    var eventAsked: String?
    /// The day's events when none was named `eventAsked`, so the answer can say what is on instead.
    var elsewhere: [String] = []

    init(
        league: League, day: LocalDay, events: SportEvents, next: Bool, player: String?, limit: Int? = nil, now: Date
    ) {
        self.league = league
        self.day = day
        self.events = events
        self.next = next
        self.player = player
        self.limit = limit
        self.now = now
    }

    var zone: TimeZone { day.zone }

    /// Top of a leaderboard or session shown in context (plus the asked player).
    var top: Int { limit ?? 10 }

    func title(_ rendering: Rendering) -> String {
        var title = "\(league.name) · "
        title +=
            next
            ? "next from \(TimeText.labelledDay(day.start, now: rendering.now, in: zone))"
            : TimeText.labelledDay(day.start, now: rendering.now, in: zone)
        if let player { title += " · \(player)" }
        return title + " · times \(TimeText.zoneAbbreviation(zone, at: day.start))"
    }

    /// Header, then per event: a line with its state, then its shape's lines.
    func context(_ rendering: Rendering) -> String {
        let header = rendering.header(title(rendering), zone: zone)
        guard !events.events.isEmpty else { return header + "\n" + emptyLine(rendering) }
        var lines: [String] = []
        for event in events.events {
            lines.append(eventLine(event, rendering: rendering))
            switch league.shape {
            case .golf: lines += golfLines(event)
            case .tennis: lines += tennisLines(event, rendering: rendering)
            case .racing: lines += racingLines(event, rendering: rendering)
            case .mma: lines += mmaLines(event)
            case .team: break
            }
        }
        let kept = rendering.budget.fit(lines, reserved: header) { "… \($0) more lines omitted" }
        return ([header] + kept).joined(separator: "\n")
    }

    /// The same lines for people.
    func text(_ rendering: Rendering) -> String { context(rendering) }

    func emptyLine(_ rendering: Rendering) -> String {
        let when = TimeText.labelledDay(day.start, now: rendering.now, in: zone)
        if let eventAsked {
            let scope = next ? "in the \(ESPNProvider.nextWindowDays) days from \(when)" : "on \(when)"
            let named = "No \(league.name) event named '\(eventAsked)' \(scope)"
            guard !elsewhere.isEmpty else { return named + "." }
            return named + (next ? "; next: " : "; that day: ") + elsewhere.joined(separator: "; ") + "."
        }
        if next {
            return "No \(league.name) event found in the \(ESPNProvider.nextWindowDays) days from \(when)."
        }
        return "No \(league.name) event on \(when). Ask with --next for the next one."
    }

    // MARK: Event line

    /// "Valero Texas Open · Final · Round 4 of 4, Sun 5 Apr 2026 (today)"; while play is on, ESPN's own round
    /// and status: "Valero Texas Open · Round 2 - Suspended · Round 2 of 4".
    func eventLine(_ event: SportEvent, rendering: Rendering) -> String {
        var parts = [event.name]
        switch event.state {
        case .pre:
            if let start = EventText.firstStart(event) {
                // Upstream may have no status for it while its days have begun (the dates follow on the line).
                let begun = start <= rendering.now && (event.end ?? start) > rendering.now
                parts.append(
                    begun
                        ? "in progress"
                        : "starts \(EventText.start(start, timeValid: event.timeValid, now: rendering.now, zone: zone))"
                )
            } else {
                parts.append("scheduled")
            }
        case .in:
            // Golf's detail says where play stands ("Round 3 - Play Complete"); other shapes' is less telling.
            parts.append(league.shape == .golf ? event.status ?? "in progress" : "in progress")
        case .post: parts.append(event.status.map { $0 == "Complete" ? "Final" : $0 } ?? "Final")
        }
        if league.shape == .golf, let rounds = event.rounds {
            // While play is on, the round is ESPN's: a suspended or rained-out round runs past its calendar day.
            if event.state == .in, let round = event.round {
                parts.append("Round \(round) of \(rounds)")
            } else if let index = roundOfDay(event), index <= rounds {
                parts.append(
                    "Round \(index) of \(rounds), \(TimeText.labelledDay(day.start, now: rendering.now, in: zone))")
            } else if let round = event.round {
                parts.append("Round \(round) of \(rounds)")
            }
        }
        if let start = event.start, let end = event.end, league.shape != .mma,
            TimeText.isoDay(start, in: LocalDay.eastern) != TimeText.isoDay(end, in: LocalDay.eastern)
        {
            parts.append("\(TimeText.day(start, in: LocalDay.eastern)) to \(TimeText.day(end, in: LocalDay.eastern))")
        }
        return parts.joined(separator: " · ")
    }

    /// Which day of the tournament the asked day is (1 on its first day), by Eastern calendar dates.
    func roundOfDay(_ event: SportEvent) -> Int? {
        guard let start = event.start else { return nil }
        let calendar = TimeText.calendar(LocalDay.eastern)
        let first = calendar.startOfDay(for: start)
        let asked = calendar.startOfDay(for: day.start.addingTimeInterval(12 * 3600))
        guard let days = calendar.dateComponents([.day], from: first, to: asked).day, days >= 0 else { return nil }
        return days + 1
    }

    // MARK: Golf

    func golfLines(_ event: SportEvent) -> [String] {
        let players = event.players
        guard !players.isEmpty else { return ["  no leaderboard yet"] }
        // Before the first round everyone is level: a list of names at "E" reads like a tie for the lead.
        if event.state == .pre {
            var lines = ["  field of \(players.count); no scores before the first round"]
            if let asked = askedIndex(players.map(\.name)) { lines.append("  \(players[asked].name) is in the field") }
            return lines
        }
        var shown = Array(players.prefix(top))
        if let asked = askedIndex(players.map(\.name)), asked >= top { shown.append(players[asked]) }
        // "thru F" on every line of a finished tournament says nothing.
        let showThru = event.state != .post
        var lines = shown.map { golfer in
            "  "
                + [
                    golfer.position ?? "–", golfer.name, golfer.score ?? "–",
                    showThru ? golfer.thru.map { "thru \($0)" } : nil,
                    showThru ? golfer.teeTime.map { "tees off \(TimeText.clock($0, in: zone))" } : nil,
                ]
                .compactMap { $0 }.joined(separator: " ")
        }
        let more = players.count - shown.count
        if more > 0 {
            let cut = players.filter { $0.position == "CUT" }.count
            lines.append("  … \(more) more" + (cut > 0 ? " (\(cut) missed the cut)" : ""))
        }
        return lines
    }

    // MARK: Tennis

    /// The matches of the asked day: those starting in it, and live ones when the asked day is today (a live
    /// match is not yesterday's news). `--next` keeps the whole draw.
    ///
    /// A match with no set time (`timeValid` false) carries ESPN's placeholder, midnight Eastern (04:00Z):
    /// only its Eastern date is known, so it belongs to the viewer's day of that date, not to the day the
    /// placeholder instant falls in (the evening before, west of New York).
    func dayMatches(_ event: SportEvent) -> [TennisMatch] {
        guard !next else { return event.matches }
        let today = day.contains(now)
        let date = day.isoDate
        return event.matches.filter { match in
            if match.state == .in && today { return true }
            guard let start = match.start else { return false }
            return match.timeValid ? day.contains(start) : LocalDay.easternISODate(start) == date
        }
    }

    func tennisLines(_ event: SportEvent, rendering: Rendering) -> [String] {
        var matches = dayMatches(event)
        if let player { matches = matches.filter { PlayerMatcher.mentions($0.people, player) } }
        guard !matches.isEmpty else {
            guard let player else { return ["  no matches on this day"] }
            return [otherMatchLine(event, player: player, rendering: rendering)]
        }
        // Live first, then upcoming by start, then finished: what matters most survives a tight budget.
        let ordered = matches.enumerated().sorted { left, right in
            (EventText.weight(left.element.state), left.element.start ?? .distantFuture, left.offset)
                < (EventText.weight(right.element.state), right.element.start ?? .distantFuture, right.offset)
        }.map(\.element)
        var lines = ordered.prefix(limit ?? 40).map { "  " + matchLine($0) }
        if ordered.count > (limit ?? 40) { lines.append("  … \(ordered.count - (limit ?? 40)) more matches") }
        return lines
    }

    /// "19:00 Men's Singles 4th Round: A v B", "LIVE 3rd Women's Singles …", "Men's Singles …: A d. B 6-4 6-4";
    /// `day` puts the date before a start on another day.
    func matchLine(_ match: TennisMatch, day showDay: Bool = false, now: Date? = nil) -> String {
        let what = [match.draw, match.round].compactMap { $0 }.joined(separator: " ")
        let names = match.players.joined(separator: " v ")
        switch match.state {
        case .pre:
            let when =
                match.start.map { start in
                    guard showDay else { return match.timeValid ? TimeText.clock(start, in: zone) : "time TBD" }
                    let day = EventText.start(start, timeValid: match.timeValid, now: now ?? self.now, zone: zone)
                    return match.timeValid ? day : "\(day), time TBD"
                } ?? "time TBD"
            return "\(when) \(what): \(names)"
        case .in:
            // ESPN's live status is the set ("1st"); the score's last pair is games in it, not sets.
            let set =
                match.status.map { status in
                    let ordinal =
                        status.first?.isNumber == true && ["st", "nd", "rd", "th"].contains(String(status.suffix(2)))
                    return ordinal ? "\(status) set" : status
                } ?? ""
            return "LIVE \(set) \(what): \(names)" + (match.score.map { " \($0)" } ?? "")
        case .post:
            guard let winner = match.winner else {
                return "\(match.status ?? "Final") \(what): \(names)" + (match.score.map { " \($0)" } ?? "")
            }
            let loser = match.players.first { $0 != winner } ?? ""
            let note =
                match.status.flatMap { ["Final", "Complete"].contains($0) ? nil : " (\($0.lowercased()))" } ?? ""
            return "\(what): \(winner) d. \(loser)" + (match.score.map { " \($0)" } ?? "") + note
        }
    }

    /// The asked player has no match on the day: where they stand in the draw instead (live now, next match,
    /// else last result).
    func otherMatchLine(_ event: SportEvent, player: String, rendering: Rendering) -> String {
        let theirs = event.matches.filter { PlayerMatcher.mentions($0.people, player) }
        let when = TimeText.labelledDay(day.start, now: rendering.now, in: zone)
        let head = "  no match for \(player) on \(when)"
        let byStart = { (a: TennisMatch, b: TennisMatch) in (a.start ?? .distantFuture) < (b.start ?? .distantFuture) }
        if let live = theirs.first(where: { $0.state == .in }) {
            return head + "; now: " + matchLine(live)
        }
        if let upcoming = theirs.filter({ $0.state == .pre }).min(by: byStart) {
            return head + "; next: " + matchLine(upcoming, day: true, now: rendering.now)
        }
        if let last = theirs.filter({ $0.state == .post }).max(by: byStart) {
            return head + "; last: " + matchLine(last)
        }
        return head
    }

    // MARK: Racing

    func racingLines(_ event: SportEvent, rendering: Rendering) -> [String] {
        var lines: [String] = []
        let onDay = event.sessions.filter { session in session.start.map(day.contains) ?? false }
        let shown = next || onDay.isEmpty ? event.sessions.filter { $0.state != .pre }.suffix(1) : onDay[...]
        for session in event.sessions {
            let when =
                session.start.map {
                    "\(TimeText.weekday($0, in: zone)) \(TimeText.clock($0, in: zone))"
                } ?? "time TBD"
            guard shown.contains(session) else {
                let leader = session.state == .post ? session.results.first.map { " · won by \($0.name)" } ?? "" : ""
                lines.append("  \(session.name) \(when) · \(EventText.word(session.state))\(leader)")
                continue
            }
            guard session.state != .pre, !session.results.isEmpty else {
                // Before a session runs ESPN's order is an entry list, not a result: no places to show. IndyCar
                // and NASCAR sessions list no drivers before qualifying.
                let entered = session.results.isEmpty ? "no entry list yet" : "\(session.results.count) entered"
                lines.append("  \(session.name) \(when) · \(EventText.word(session.state)), \(entered)")
                continue
            }
            lines.append("  \(session.name) \(when) · \(EventText.word(session.state)):")
            var results = Array(session.results.prefix(top))
            if let asked = askedIndex(session.results.map(\.name)), asked >= top {
                results.append(session.results[asked])
            }
            lines += results.map { result in
                "    "
                    + [result.position.map(String.init) ?? "–", result.name, result.team.map { "(\($0))" }]
                    .compactMap { $0 }.joined(separator: " ")
            }
            if session.results.count > results.count {
                lines.append("    … \(session.results.count - results.count) more")
            }
        }
        if let upcoming = event.sessions.first(where: { $0.state == .pre }), let start = upcoming.start {
            lines.append("  Next: \(upcoming.name) \(EventText.dayAndClock(start, now: rendering.now, zone: zone))")
        }
        return lines
    }

    // MARK: MMA

    func mmaLines(_ event: SportEvent) -> [String] {
        guard !event.bouts.isEmpty else { return ["  no bouts announced"] }
        var bouts = EventText.mainEventFirst(event.bouts, league: league)
        if let player { bouts = bouts.filter { PlayerMatcher.mentions($0.fighters, player) } }
        return bouts.enumerated().map { index, bout in
            let label = index == 0 && player == nil ? "Main event" : (bout.weightClass ?? "Bout")
            let weight = index == 0 && player == nil ? (bout.weightClass.map { " (\($0))" } ?? "") : ""
            let names = zip(
                bout.fighters,
                bout.records + Array(repeating: nil, count: max(0, bout.fighters.count - bout.records.count))
            )
            .map { name, record in record.map { "\(name) (\($0))" } ?? name }.joined(separator: " v ")
            if let called = EventText.calledOff(bout) { return "  \(label)\(weight): \(names) · \(called)" }
            switch bout.state {
            case .pre:
                let when = bout.start.map { TimeText.clock($0, in: zone) } ?? "time TBD"
                return "  \(label)\(weight): \(names) · \(when)"
            case .in:
                return "  \(label)\(weight): \(names) · LIVE" + (bout.round.map { " round \($0)" } ?? "")
            case .post:
                guard let winner = bout.winner else {
                    return "  \(label)\(weight): \(names) · \(EventText.noWinner(bout))"
                }
                var how = [bout.method, bout.round.map { "round \($0)" }, bout.clock].compactMap { $0 }.joined(
                    separator: ", ")
                if !how.isEmpty { how = " (\(how))" }
                return "  \(label)\(weight): \(names) · \(winner) won\(how)"
            }
        }
    }

    func askedIndex(_ names: [String]) -> Int? {
        guard let player else { return nil }
        return names.firstIndex { PlayerMatcher.mentions([$0], player) }
    }

    // MARK: JSON

    enum CodingKeys: String, CodingKey {
        case view, shape, date, timeZone, next, player, upstreamLeagueName, events
    }

    /// `{"league","leagueName","sport","view":"scores","shape","date","timeZone","next","player","events":[...]}`.
    /// By hand: `data` flattens the league's keys in beside the view's.
    func encode(to encoder: any Encoder) throws {
        try LeagueJSON(league).encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(SportsView.scores.rawValue, forKey: .view)
        try container.encode(league.shape.rawValue, forKey: .shape)
        try container.encode(day.isoDate, forKey: .date)
        try container.encode(day.zoneIdentifier, forKey: .timeZone)
        try container.encode(next, forKey: .next)
        try container.encode(player, forKey: .player)
        let shown = events.events.map { event in
            var shown = event
            if league.shape == .tennis { shown.matches = dayMatches(event) }
            return EventJSON(event: shown, shape: league.shape, league: league)
        }
        try container.encode(shown, forKey: .events)
    }
}

/// One event in JSON, with only its shape's list.
struct EventJSON: Encodable {
    var event: SportEvent
    var shape: League.Shape
    var league: League

    enum CodingKeys: String, CodingKey {
        case id, name, state, status, start, end, round, rounds, players, matches, sessions, bouts
    }

    /// By hand: which list (and golf's `round`/`rounds`) is written depends on the league's shape.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(event.id, forKey: .id)
        try container.encode(event.name, forKey: .name)
        try container.encode(event.state.rawValue, forKey: .state)
        try container.encode(event.status, forKey: .status)
        try container.encode(event.start.map(TimeText.isoUTC), forKey: .start)
        try container.encode(event.end.map(TimeText.isoUTC), forKey: .end)
        switch shape {
        case .golf:
            try container.encode(event.round, forKey: .round)
            try container.encode(event.rounds, forKey: .rounds)
            try container.encode(event.players.map(PlayerJSON.init), forKey: .players)
        case .tennis:
            try container.encode(event.matches.map(MatchJSON.init), forKey: .matches)
        case .racing:
            try container.encode(event.sessions.map(SessionJSON.init), forKey: .sessions)
        case .mma:
            try container.encode(
                EventText.mainEventFirst(event.bouts, league: league).map(BoutJSON.init), forKey: .bouts)
        case .team: break
        }
    }

    struct PlayerJSON: Encodable {
        @Nullable var position: String?
        var name: String
        @Nullable var score: String?
        @Nullable var thru: String?
        @Nullable var teeTime: String?

        init(player: GolfPlayer) {
            position = player.position
            name = player.name
            score = player.score
            thru = player.thru
            teeTime = player.teeTime.map(TimeText.isoUTC)
        }
    }

    struct ResultJSON: Encodable {
        @Nullable var position: Int?
        var name: String
        @Nullable var team: String?

        init(result: RaceResult) {
            position = result.position
            name = result.name
            team = result.team
        }
    }

    struct MatchJSON: Encodable {
        @Nullable var draw: String?
        @Nullable var round: String?
        var state: String
        @Nullable var status: String?
        @Nullable var start: String?
        var timeValid: Bool
        var players: [String]
        @Nullable var winner: String?
        @Nullable var score: String?

        init(match: TennisMatch) {
            draw = match.draw
            round = match.round
            state = match.state.rawValue
            status = match.status
            start = match.start.map(TimeText.isoUTC)
            timeValid = match.timeValid
            players = match.players
            winner = match.winner
            score = match.score
        }
    }

    struct SessionJSON: Encodable {
        var name: String
        var state: String
        @Nullable var start: String?
        var results: [ResultJSON]

        init(session: RaceSession) {
            name = session.name
            state = session.state.rawValue
            start = session.start.map(TimeText.isoUTC)
            results = session.results.map(ResultJSON.init)
        }
    }

    struct BoutJSON: Encodable {
        @Nullable var weightClass: String?
        var state: String
        @Nullable var status: String?
        @Nullable var start: String?
        var fighters: [String]
        @Nullable var winner: String?
        @Nullable var method: String?
        @Nullable var round: Int?
        @Nullable var clock: String?

        init(bout: Bout) {
            weightClass = bout.weightClass
            state = bout.state.rawValue
            status = bout.status
            start = bout.start.map(TimeText.isoUTC)
            fighters = bout.fighters
            winner = bout.winner
            method = bout.method
            round = bout.round
            clock = bout.clock
        }
    }
}

/// Small helpers the event lines share.
enum EventText {
    /// "live", "final", "scheduled".
    static func word(_ state: Game.State) -> String {
        switch state {
        case .pre: "scheduled"
        case .in: "LIVE"
        case .post: "final"
        }
    }

    /// "Sun 24 May 2026 (tomorrow) 22:00".
    static func dayAndClock(_ date: Date, now: Date, zone: TimeZone) -> String {
        "\(TimeText.labelledDay(date, now: now, in: zone)) \(TimeText.clock(date, in: zone))"
    }

    /// A start as `dayAndClock`, or only its day when upstream knows no time (`timeValid` false: its
    /// placeholder is midnight Eastern, so the Eastern date is the day).
    static func start(_ date: Date, timeValid: Bool, now: Date, zone: TimeZone) -> String {
        timeValid ? dayAndClock(date, now: now, zone: zone) : TimeText.labelledDay(date, now: now, in: LocalDay.eastern)
    }

    static func weight(_ state: Game.State) -> Int {
        switch state {
        case .in: 0
        case .pre: 1
        case .post: 2
        }
    }

    /// The event's first start: its date or its first session, match or bout.
    static func firstStart(_ event: SportEvent) -> Date? { ESPNProvider.firstInstant(event) }

    /// A bout called off ("cancelled", "postponed"), from ESPN's status name or detail; nil otherwise.
    static func calledOff(_ bout: Bout) -> String? {
        let key = [bout.statusName, bout.status].compactMap { $0 }.joined(separator: " ").lowercased()
        if key.contains("cancel") { return "cancelled" }
        if key.contains("postpone") { return "postponed" }
        return nil
    }

    /// A finished bout without a winner: draw or no contest when ESPN's status (or result) says so, else
    /// ESPN's own status detail, else "no winner". No recording shows one; the words are ESPN's status names'.
    static func noWinner(_ bout: Bout) -> String {
        let key = [bout.statusName, bout.status, bout.method].compactMap { $0 }.joined(separator: " ").lowercased()
            .replacingOccurrences(of: "_", with: " ")
        if key.contains("no contest") { return "no contest" }
        if key.contains("draw") {
            return "draw" + (bout.method.map { $0.lowercased().contains("draw") ? "" : " (\($0))" } ?? "")
        }
        if let status = bout.status, !["final", "complete"].contains(status.lowercased()) { return status }
        return "no winner"
    }

    /// The main event first: UFC and PFL (and most cards) list it last; LFA lists it first.
    static func mainEventFirst(_ bouts: [Bout], league: League) -> [Bout] {
        let listsFirst: Set<String> = ["lfa"]
        return listsFirst.contains(league.slug) ? bouts : bouts.reversed()
    }
}
