import AlmanacCore
import AlmanacTesting
import Foundation
import Testing

@testable import AlmanacSports

/// ESPN answers saved by other projects (Fixtures/sports/espn-public/README.md says where from):
/// shapes of play none of our own recordings shows. Each body answers every request, as the
/// scoreboard and the leaderboard endpoint carry the same event.
@Suite("Sports on public ESPN answers: golf in play and before it starts, a live tennis day")
struct PublicRecordingTests {
    static func harness(_ name: String, now: String) throws -> Harness {
        Harness(
            serving: try Fixtures.data("sports/espn-public/\(name).json"), now: instant(now),
            zone: zone("America/New_York"))
    }

    static func context(_ name: String, now: String, _ words: [String]) async throws -> String {
        let harness = try harness(name, now: now)
        return try harness.render(try await harness.run(words))
    }

    @Test("golf in play: the live total to par (not the finished rounds'), thru, and tee times for those not out yet")
    func golfInPlay() async throws {
        let text = try await Self.context(
            "golf-pga-leaderboard-pgachamp-r2-live-2026-05-15", now: "2026-05-15T16:00:00Z",
            ["pga", "--date", "2026-05-15"])
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[1].hasPrefix("PGA Championship · Round 2 - In Progress · Round 2 of 4"))
        // ESPN's tee time 17:21Z ("1:21 PM ET") in the viewer's zone.
        #expect(lines.contains("  T7 Sahith Theegala -2 tees off 13:21"))
        // scoreToPar +2 after 14 holes; score.displayValue still says round 1's -1.
        #expect(lines.contains("  T55 Collin Morikawa +2 thru 14"))
        #expect(lines.contains("  T55 Matt Wallace +2 thru 16"))
        let spaun = try await Self.context(
            "golf-pga-leaderboard-pgachamp-r2-live-2026-05-15", now: "2026-05-15T16:00:00Z",
            ["pga", "--date", "2026-05-15", "--player", "spaun"])
        #expect(spaun.contains("  T116 J.J. Spaun +6 thru 17"))
    }

    @Test("golf the day before: no list of names at E (it reads as a tie), no midnight start time")
    func golfBeforeItStarts() async throws {
        let text = try await Self.context(
            "golf-pga-scoreboard-pre-truist-myrtle-2026-05-06", now: "2026-05-06T16:00:00Z",
            ["pga", "--date", "2026-05-07", "--player", "hadwin"])
        #expect(
            text.contains("Truist Championship · starts Thu 7 May 2026 (tomorrow) · Thu 7 May 2026 to Sun 10 May 2026"))
        #expect(!text.contains("00:00"))
        #expect(text.contains("  field of 7; no scores before the first round"))
        #expect(text.contains("  Adam Hadwin is in the field"))
        #expect(!text.contains(" E\n"))
    }

    @Test("--event picks the day's event by words of its name, and says plainly when none is named so")
    func eventByName() async throws {
        // Two PGA TOUR events the same week: "Truist Championship" and "ONEflight Myrtle Beach Classic".
        let name = "golf-pga-scoreboard-pre-truist-myrtle-2026-05-06"
        let now = "2026-05-06T16:00:00Z"
        let myrtle = try await Self.context(
            name, now: now, ["pga", "--date", "2026-05-07", "--event", "myrtle beach classic"])
        #expect(myrtle.contains("ONEflight Myrtle Beach Classic · starts Thu 7 May 2026 (tomorrow)"))
        #expect(!myrtle.contains("Truist"))
        let truist = try await Self.context(name, now: now, ["pga", "--date", "2026-05-07", "--event", "truist"])
        #expect(truist.contains("Truist Championship · starts") && !truist.contains("Myrtle"))
        let none = try await Self.context(name, now: now, ["pga", "--date", "2026-05-07", "--event", "rocket classic"])
        #expect(
            none.contains(
                "No PGA Tour event named 'rocket classic' on Thu 7 May 2026 (tomorrow); that day: "
                    + "Truist Championship; ONEflight Myrtle Beach Classic."
            ), "\(none)")
        // A golfer asked at an event not on the day is not looked up in the others' fields.
        let player = try await Self.context(
            name, now: now, ["pga", "--date", "2026-05-07", "--event", "rocket", "--player", "hadwin"])
        #expect(player.contains("No PGA Tour event named 'rocket'") && !player.contains("Hadwin"))
        let harness = try Self.harness(name, now: now)
        await #expect(throws: AlmanacError.self) { try await harness.run(["nba", "--event", "finals"]) }
    }

    @Test(
        "tennis: the live set is named, a match tiebreak is in brackets, an unknown time is TBD, a started event is in progress"
    )
    func tennisDay() async throws {
        let name = "tennis-wta-rome-qf-live-2026-05-13"
        let now = "2026-05-13T18:10:00Z"
        let today = try await Self.context(name, now: now, ["wta", "--date", "2026-05-13"])
        #expect(today.contains("  LIVE 1st set Women's Singles Quarterfinal: Elena Rybakina v Elina Svitolina 2-0"))
        #expect(today.contains("  Women's Singles Quarterfinal: Iga Swiatek d. Jessica Pegula 6-1 6-2"))
        let final = try await Self.context(name, now: now, ["wta", "--date", "2026-05-16"])
        #expect(final.contains("  time TBD Women's Singles Final: TBD v TBD"))
        #expect(!final.contains("00:00"))
        let doubles = try await Self.context(name, now: now, ["atp", "--date", "2026-05-10"])
        #expect(
            doubles.contains("Andre Goransson / Evan King d. Tomas Martin Etcheverry / Alejandro Tabilo 6-4 2-6 [10-5]")
        )
        // The event has no status of its own and only a finished men's match: it is under way, not "starts".
        #expect(doubles.contains("Internazionali BNL d'Italia · in progress · "))
        #expect(!doubles.contains("starts"))
    }

    @Test("ESPN's team list down: a team word taken as an abbreviation is still found among the day's own teams")
    func teamFromTheDay() async throws {
        let body = try Fixtures.data("sports/espn/soccer-fifa-world-scoreboard-group-2026-06-15.response.json")
        // Only the scoreboard answers: the team list (/teams) fails.
        let harness = Harness(
            serving: body, atPathsEndingWith: "/scoreboard", otherwise: 500, now: instant("2026-06-15T20:00:00Z"),
            zone: zone("America/New_York"))
        let text = try harness.render(try await harness.run(["fifa.world", "--date", "2026-06-15", "--team", "spain"]))
        #expect(text.contains("Spain"), "\(text)")
        #expect(!text.contains("Belgium"))
        #expect(!text.lowercased().contains("no spain game"))
    }
}
