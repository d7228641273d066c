import AlmanacCore
import Foundation

// Golf, tennis, racing and MMA scoreboards. Their bodies differ by sport and have changed over the
// years, so they are read as loose JSON: a missing or differently typed field is nil, never a failure;
// only a body that is not JSON, or has no `events` list, fails.

/// A JSON value from `JSONSerialization`, read loosely: a missing member or a value of another type reads
/// as nil or empty. Lives only inside one decode call (it is not `Sendable`).
struct Loose {
    let value: Any?

    static var null: Loose { Loose(value: nil) }

    /// Parses `data`; a body that is not JSON is a decoding failure.
    static func parse(_ data: Data) throws -> Loose {
        do {
            return Loose(value: try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
        } catch {
            throw ProviderFailure(.decoding, "\(ESPNProvider.service): unreadable response (malformed JSON)")
        }
    }

    /// The member `key` of an object, null otherwise.
    subscript(key: String) -> Loose { Loose(value: (value as? [String: Any])?[key]) }

    /// Whether this is an object.
    var isObject: Bool { value is [String: Any] }

    /// The elements of an array, empty otherwise.
    var list: [Loose] { (value as? [Any])?.map { Loose(value: $0) } ?? [] }

    /// Whether this is an array.
    var isList: Bool { value is [Any] }

    /// A non-empty string (whole numbers spelled as digits).
    var text: String? {
        if let string = value as? String { return string.isEmpty ? nil : string }
        if isBoolean { return nil }
        if let number = value as? NSNumber {
            let double = number.doubleValue
            guard double.isFinite else { return nil }
            return double.rounded() == double && abs(double) < 1e15 ? String(Int64(double)) : String(double)
        }
        return nil
    }

    /// A whole number (also from a numeric string).
    var int: Int? {
        if let string = value as? String { return Int(string) }
        if isBoolean { return nil }
        if let number = value as? NSNumber {
            let double = number.doubleValue
            return double.isFinite && abs(double) < 1e15 ? Int(double) : nil
        }
        return nil
    }

    /// A JSON boolean, nil otherwise.
    var bool: Bool? { isBoolean ? (value as? NSNumber)?.boolValue : nil }

    private var isBoolean: Bool {
        guard let number = value as? NSNumber else { return false }
        // JSONSerialization gives booleans as NSNumber of type "c" (char) on every platform.
        return String(cString: number.objCType) == "c"
    }

    /// An ESPN instant.
    var date: Date? { text.flatMap(ESPNDate.parse) }
}

/// Decoding of the four non-team scoreboard shapes.
enum ESPNEventsDecoder {
    /// The body as loose JSON, with its `events` list.
    static func root(_ data: Data) throws -> Loose {
        let root = try Loose.parse(data)
        guard root["events"].isList else {
            throw ProviderFailure(.decoding, "ESPN: unreadable response (no events list)")
        }
        return root
    }

    /// A scoreboard body in `league`'s shape. Tennis keeps the draws of `league`'s tour (plus mixed).
    static func decode(_ data: Data, league: League) throws -> SportEvents {
        let root = try root(data)
        let name = root["leagues"].list.first?["name"].text
        let events: [SportEvent] = root["events"].list.compactMap { event in
            switch league.shape {
            case .golf: golf(event, leaderboard: nil)
            case .tennis: tennis(event, tour: league.slug)
            case .racing: racing(event)
            case .mma: mma(event)
            case .team: nil
            }
        }
        return SportEvents(leagueName: name, events: events)
    }

    static func state(_ status: Loose) -> Game.State {
        Game.State(rawValue: status["type"]["state"].text ?? "") ?? .pre
    }

    /// What an event shares across shapes: id, name, state, status, dates.
    static func base(_ event: Loose) -> SportEvent? {
        guard let id = event["id"].text else { return nil }
        let status = event["status"]
        var result = SportEvent(
            id: id, name: event["name"].text ?? event["shortName"].text ?? "Event \(id)", state: state(status),
            status: status["type"]["shortDetail"].text ?? status["type"]["detail"].text, start: event["date"].date,
            end: event["endDate"].date)
        // `timeValid: false`: ESPN knows the day only (its "time" is midnight Eastern).
        result.timeValid = (event["timeValid"].bool ?? event["competitions"].list.first?["timeValid"].bool) != false
        return result
    }

    // MARK: Golf

    /// Where a tournament stands. The competition's status is the round's: between rounds ESPN sends
    /// `STATUS_PLAY_COMPLETE`, state `post`, "Round 2 - Play Complete", while the event's own status is
    /// still `in` (the recorded Baycurrent Classic after round 1). Only the event's own `post` (or a
    /// round status that is not play-complete) ends the tournament.
    static func tournamentState(round status: Loose, event eventStatus: Loose) -> Game.State {
        let roundState = state(status)
        guard roundState == .post else { return roundState }
        let eventState = eventStatus["type"]["state"].text.flatMap(Game.State.init(rawValue:))
        let roundOnly = status["type"]["name"].text == "STATUS_PLAY_COMPLETE"
        if eventState == .in || (roundOnly && eventState != .post) { return .in }
        return .post
    }

    /// A golf event from the scoreboard; `leaderboard` (the leaderboard endpoint's event) adds positions,
    /// cut and withdrawal flags and thru, which the scoreboard lacks.
    static func golf(_ event: Loose, leaderboard: Loose?) -> SportEvent? {
        guard var result = base(event) else { return nil }
        let source = leaderboard ?? event
        let competition = source["competitions"].list.first ?? .null
        let status = competition["status"]
        if status.isObject {
            result.state = tournamentState(round: status, event: source["status"])
            result.status = status["type"]["shortDetail"].text ?? result.status
        }
        result.round = status["period"].int
        result.rounds = source["tournament"]["numberOfRounds"].int ?? event["tournament"]["numberOfRounds"].int
        let competitors = competition["competitors"].list
        // The leaderboard lists golfers by id; `sortOrder` is the board's order. The scoreboard's `order` is.
        let ordered = competitors.enumerated().sorted { left, right in
            let a = left.element["sortOrder"].int ?? left.element["order"].int ?? Int.max
            let b = right.element["sortOrder"].int ?? right.element["order"].int ?? Int.max
            return (a, left.offset) < (b, right.offset)
        }.map(\.element)
        result.players = ordered.compactMap { golfer($0, leaderboard: leaderboard != nil) }
        return result
    }

    static func golfer(_ competitor: Loose, leaderboard: Bool) -> GolfPlayer? {
        let athlete = competitor["athlete"]
        // Team events (a pairs event) list teams or rosters instead of athletes.
        guard
            let name = athlete["displayName"].text ?? athlete["fullName"].text ?? athlete["shortName"].text
                ?? competitor["team"]["displayName"].text ?? competitor["roster"]["displayName"].text
        else {
            return nil
        }
        // The scoreboard writes the score as a string; the leaderboard as {value, displayValue}, which
        // lags during a round (it holds the finished rounds: +6 for a golfer +2 after 14 holes of
        // round 2) and after a withdrawal; its `scoreToPar` statistic is the live total.
        let toPar = competitor["statistics"].list.first { $0["name"].text == "scoreToPar" }?["displayValue"].text
        let score = competitor["score"].text ?? toPar ?? competitor["score"]["displayValue"].text
        guard leaderboard else { return GolfPlayer(position: nil, name: name, score: score, thru: nil) }
        let status = competitor["status"]
        let shown = status["position"]["displayName"].text
        let flag = status["displayValue"].text.flatMap { value in
            value.allSatisfy(\.isLetter) && value.count >= 2 && value != "F" ? value.uppercased() : nil
        }
        let position: String? =
            if let shown, shown != "-" { shown } else if let flag {
                flag
            } else if status["type"]["name"].text == "STATUS_CUT" {
                "CUT"
            } else { nil }
        let thru: String? =
            switch state(status) {
            case .post where status["type"]["completed"].bool == true: "F"
            case .in: status["displayThru"].text ?? status["thru"].text
            default: nil
            }
        // A golfer whose round has not begun: ESPN gives the tee time (the status's own state is pre).
        let teeTime = state(status) == .pre ? status["teeTime"].date : nil
        return GolfPlayer(position: position, name: name, score: score, thru: thru, teeTime: teeTime)
    }

    /// The leaderboard endpoint's event with `id`, for `golf(_:leaderboard:)`. Only that id: in a week with
    /// an opposite-field event the board may be another tournament's, and a wrong board is worse than none.
    static func leaderboardEvent(_ data: Data, id: String) throws -> Loose? {
        try root(data)["events"].list.first { $0["id"].text == id }
    }

    // MARK: Tennis

    /// A tennis tournament with the draws of `tour` (`atp` men's, `wta` women's; mixed doubles in both).
    static func tennis(_ event: Loose, tour: String) -> SportEvent? {
        guard var result = base(event) else { return nil }
        var matches: [TennisMatch] = []
        // Draws arrive grouped; an older body lists competitions on the event directly.
        let groups = event["groupings"].list
        let draws: [(name: String?, slug: String?, competitions: [Loose])] =
            groups.isEmpty
            ? [(nil, nil, event["competitions"].list)]
            : groups.map { ($0["grouping"]["displayName"].text, $0["grouping"]["slug"].text, $0["competitions"].list) }
        for draw in draws {
            for competition in draw.competitions {
                let drawName = draw.name ?? competition["type"]["text"].text
                let slug = draw.slug ?? competition["type"]["slug"].text ?? ""
                guard belongs(slug: slug, name: drawName ?? "", tour: tour) else { continue }
                if let match = tennisMatch(competition, draw: drawName) { matches.append(match) }
            }
        }
        result.matches = matches
        // The tournament's status says final while matches are live: the matches decide.
        let stated = result.state
        if matches.contains(where: { $0.state == .in }) {
            result.state = .in
        } else if matches.contains(where: { $0.state == .pre }) {
            result.state = matches.contains { $0.state == .post } ? .in : .pre
        }
        if result.state != stated { result.status = nil }
        return result
    }

    /// Whether a draw is the tour's: men's draws for ATP, women's for WTA, mixed (and unknown) for both.
    static func belongs(slug: String, name: String, tour: String) -> Bool {
        let key = (slug + " " + name).lowercased()
        let womens = key.contains("women") || key.contains("ladies") || key.contains("girls")
        let mens = !womens && (key.contains("men") || key.contains("boys"))
        switch tour {
        case "atp": return !womens || key.contains("mixed")
        case "wta": return !mens || key.contains("mixed")
        default: return true
        }
    }

    static func tennisMatch(_ competition: Loose, draw: String?) -> TennisMatch? {
        // Upstream order (ESPN's `order` is its own seeding, not the order it shows the pair in).
        let competitors = competition["competitors"].list
        let names = competitors.map { competitor in
            competitor["athlete"]["displayName"].text ?? competitor["roster"]["displayName"].text
                ?? competitor["athlete"]["shortName"].text ?? "TBD"
        }
        guard !names.isEmpty else { return nil }
        let status = competition["status"]
        let winnerIndex = competitors.firstIndex { $0["winner"].bool == true }
        let state = state(status)
        var match = TennisMatch(
            draw: draw, round: competition["round"]["displayName"].text, state: state,
            status: status["type"]["shortDetail"].text,
            start: competition["date"].date ?? competition["startDate"].date,
            players: names, winner: state == .post ? winnerIndex.map { names[$0] } : nil,
            score: sets(competitors, winnerFirst: state == .post ? winnerIndex : nil))
        match.timeValid = competition["timeValid"].bool != false
        return match
    }

    /// "6-4 7-6(2)": one pair per set, the winner's games first once decided; a tiebreak's losing points in
    /// parentheses; a match tiebreak in brackets ("6-4 2-6 [10-5]").
    static func sets(_ competitors: [Loose], winnerFirst: Int?) -> String? {
        guard competitors.count == 2 else { return nil }
        var order = [0, 1]
        if winnerFirst == 1 { order = [1, 0] }
        let first = competitors[order[0]]["linescores"].list
        let second = competitors[order[1]]["linescores"].list
        guard !first.isEmpty, first.count == second.count else { return nil }
        let pairs = zip(first, second).compactMap { a, b -> String? in
            guard let x = a["value"].int, let y = b["value"].int else { return nil }
            let breaks = [a["tiebreak"].int, b["tiebreak"].int].compactMap { $0 }
            // A match tiebreak stands in for a deciding set: ESPN writes it as a 1-0 set with the points
            // as tiebreak; tennis writes the points in brackets ("[10-5]").
            if x + y == 1, let pointsA = a["tiebreak"].int, let pointsB = b["tiebreak"].int {
                return "[\(pointsA)-\(pointsB)]"
            }
            return "\(x)-\(y)" + (breaks.min().map { "(\($0))" } ?? "")
        }
        return pairs.isEmpty ? nil : pairs.joined(separator: " ")
    }

    // MARK: Racing

    /// ESPN's session abbreviations, spelled out.
    static let sessionNames: [String: String] = [
        "FP1": "Practice 1", "FP2": "Practice 2", "FP3": "Practice 3", "Qual": "Qualifying", "Race": "Race",
        "SS": "Sprint Qualifying", "SR": "Sprint", "Sprint": "Sprint", "Practice": "Practice",
    ]

    static func racing(_ event: Loose) -> SportEvent? {
        guard var result = base(event) else { return nil }
        result.sessions = event["competitions"].list.map { competition in
            let type = competition["type"]
            let sessionState = state(competition["status"])
            let abbreviation = type["abbreviation"].text ?? type["text"].text
            let name = abbreviation.map { sessionNames[$0] ?? $0 } ?? "Session"
            let results = competition["competitors"].list
                .enumerated().sorted {
                    ($0.element["order"].int ?? Int.max, $0.offset) < ($1.element["order"].int ?? Int.max, $1.offset)
                }
                .compactMap { entry -> RaceResult? in
                    let competitor = entry.element
                    let athlete = competitor["athlete"]
                    guard
                        let driver = athlete["displayName"].text ?? athlete["fullName"].text
                            ?? competitor["team"]["displayName"].text
                    else { return nil }
                    let team = competitor["team"]["displayName"].text ?? competitor["vehicle"]["manufacturer"].text
                    // Before the session runs, `order` is ESPN's entry order, not a place.
                    return RaceResult(
                        position: sessionState == .pre ? nil : competitor["order"].int, name: driver,
                        team: athlete["displayName"].text == nil ? nil : team)
                }
            return RaceSession(
                name: name, state: sessionState,
                start: competition["date"].date ?? competition["startDate"].date, results: results)
        }
        .sorted { ($0.start ?? .distantFuture) < ($1.start ?? .distantFuture) }
        return result
    }

    // MARK: MMA

    static func mma(_ event: Loose) -> SportEvent? {
        guard var result = base(event) else { return nil }
        result.bouts = event["competitions"].list.map { competition in
            let competitors = competition["competitors"].list
            let names = competitors.map {
                $0["athlete"]["displayName"].text ?? $0["athlete"]["fullName"].text ?? "TBA"
            }
            let status = competition["status"]
            let state = state(status)
            let winner = state == .post ? competitors.firstIndex { $0["winner"].bool == true }.map { names[$0] } : nil
            return Bout(
                weightClass: competition["type"]["abbreviation"].text ?? competition["type"]["text"].text, state: state,
                start: competition["date"].date ?? competition["startDate"].date, fighters: names,
                records: competitors.map { $0["records"].list.first?["summary"].text },
                winner: winner, method: state == .post ? method(competition) : nil,
                round: state == .pre ? nil : status["period"].int,
                clock: state == .pre ? nil : status["displayClock"].text,
                status: status["type"]["shortDetail"].text ?? status["type"]["detail"].text,
                statusName: status["type"]["name"].text)
        }
        return result
    }

    /// The method from ESPN's fight log ("Unofficial Winner Decision", "Unofficial Winner Kotko"), or a
    /// result status when present.
    static func method(_ competition: Loose) -> String? {
        if let result = competition["status"]["result"]["displayName"].text
            ?? competition["status"]["result"]["name"].text
        {
            return result
        }
        let prefix = "unofficial winner "
        for detail in competition["details"].list {
            guard let text = detail["type"]["text"].text, text.lowercased().hasPrefix(prefix) else { continue }
            let word = String(text.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
            switch word.lowercased() {
            case "kotko", "ko/tko", "ko", "tko": return "KO/TKO"
            case "sub", "submission": return "Submission"
            case "": continue
            default: return word.prefix(1).uppercased() + word.dropFirst()
            }
        }
        return nil
    }
}

extension ESPNProvider {
    /// How far ahead `--next` looks for the next tournament, draw, race weekend or card.
    static let nextWindowDays = 60

    /// The events of a golf, tennis, racing or MMA scoreboard overlapping `day` (or, with `next`, the first
    /// one not finished from `day` on).
    ///
    /// These scoreboards accept a date range (`dates=20260402-20260405`, which answers 400 for team sports):
    /// one request covers the Eastern dates overlapping the viewer's day, or the `--next` window. No `limit`
    /// is sent (600 or more silently truncates to 25). Golf positions come from the leaderboard endpoint
    /// (`/apis/site/v2/sports/golf/leaderboard?league=pga&event=ID`); when it fails, the scoreboard's order
    /// stands, without positions.
    func events(
        _ query: SportsQuery, day: LocalDay, base: URL, environment: ProviderEnvironment
    ) async throws
        -> SportEvents
    {
        let league = query.league
        let dates = day.easternDates
        guard let first = dates.first, let last = dates.last else {
            throw ProviderFailure(.notFound, "ESPN: no date to look up")
        }
        var range = first == last ? first : "\(first)-\(last)"
        if query.next {
            let until = day.start.addingTimeInterval(TimeInterval(Self.nextWindowDays * 86_400))
            range = "\(first)-\(LocalDay.containing(until, in: LocalDay.eastern).easternDates.first ?? last)"
        }
        let url = Self.url(base, "/apis/site/v2/sports/\(league.path)/scoreboard", query: "dates=\(range)")
        let response = try await environment.transport.fetch(
            HTTPRequest(url: url), timeout: environment.timeout, service: Self.service)
        var decoded = try ESPNEventsDecoder.decode(response.body, league: league)
        decoded.events = Self.pick(decoded.events, day: day, next: query.next, shape: league.shape)
        if league.shape == .golf {
            for index in decoded.events.indices {
                decoded.events[index] = try await leaderboard(
                    for: decoded.events[index], league: league, base: base, environment: environment)
            }
        }
        return decoded
    }

    /// The golf event with the leaderboard endpoint's positions; as the scoreboard has it (positions null)
    /// when the endpoint does not know the tour or event (404) or has no board for it. Any other failure
    /// (timeout, a cut or malformed body) fails the attempt: a board without positions must not pass for
    /// a complete answer when the cause is passing.
    func leaderboard(
        for event: SportEvent, league: League, base: URL, environment: ProviderEnvironment
    ) async throws
        -> SportEvent
    {
        let url = Self.url(
            base, "/apis/site/v2/sports/golf/leaderboard", query: "league=\(league.slug)&event=\(event.id)")
        do {
            let response = try await environment.transport.fetch(
                HTTPRequest(url: url), timeout: environment.timeout, service: Self.service)
            guard let wire = try ESPNEventsDecoder.leaderboardEvent(response.body, id: event.id),
                var board = ESPNEventsDecoder.golf(wire, leaderboard: wire), !board.players.isEmpty
            else { return event }
            // The scoreboard's dates and name are the event's; the leaderboard adds the board.
            board.start = event.start ?? board.start
            board.end = event.end ?? board.end
            return board
        } catch let failure as ProviderFailure where failure.kind == .notFound {
            return event
        }
    }

    /// Events overlapping `day`, or with `next` the first one still to finish. Tennis keeps the whole draw:
    /// `--player` searches all of it, and `EventsPayload` cuts it to the asked day (it knows the clock).
    static func pick(_ events: [SportEvent], day: LocalDay, next: Bool, shape: League.Shape) -> [SportEvent] {
        let sorted = events.enumerated().sorted {
            ($0.element.start ?? .distantFuture, $0.offset) < ($1.element.start ?? .distantFuture, $1.offset)
        }.map(\.element)
        // An event still in progress has not ended whatever its end date says (golf finishing on a Monday).
        func lasts(_ event: SportEvent) -> Bool { event.state == .in || lastInstant(event, shape: shape) >= day.start }
        if next {
            let upcoming = sorted.first { event in event.state != .post && lasts(event) }
            return upcoming.map { [$0] } ?? []
        }
        return sorted.compactMap { event in
            let first = firstInstant(event)
            guard first.map({ $0 < day.end }) ?? true, lasts(event) else { return nil }
            return event
        }
    }

    /// When an event begins: its date, or its first session, match or bout.
    static func firstInstant(_ event: SportEvent) -> Date? {
        ([event.start] + event.sessions.map(\.start) + event.bouts.map(\.start) + event.matches.map(\.start))
            .compactMap { $0 }.min()
    }

    /// When an event ends, as far as the body says: golf's `endDate` names the last day (its midnight
    /// Eastern), so the whole of that day counts.
    static func lastInstant(_ event: SportEvent, shape: League.Shape) -> Date {
        var end = event.end.map { shape == .golf || shape == .tennis ? $0.addingTimeInterval(86_400 - 1) : $0 }
        if end == nil, shape == .golf, let start = event.start {
            // No end date: a tournament lasts its rounds, one a day.
            end = start.addingTimeInterval(TimeInterval(max(event.rounds ?? 4, 1)) * 86_400 - 1)
        }
        let starts =
            [end, event.start] + event.sessions.map(\.start) + event.bouts.map(\.start) + event.matches.map(\.start)
        return starts.compactMap { $0 }.max() ?? .distantPast
    }
}
