import AlmanacCore
import AlmanacRuntime
import Foundation
import Testing

@testable import AlmanacBrief

@Suite("brief: --for")
struct BriefDayTests {
    static let zone = TimeZone(identifier: "America/New_York") ?? .current
    static let now = Date(timeIntervalSince1970: 1_734_350_400)  // 2024-12-16T12:00:00Z, 07:00 in New York

    @Test("morning is today with last night's scores; evening is tomorrow with tonight's")
    func words() throws {
        let morning = try BriefDay.read(nil, now: Self.now, zone: Self.zone)
        #expect(TimeText.isoDay(morning.day, in: Self.zone) == "2024-12-16")
        #expect(TimeText.isoDay(morning.scoresDay, in: Self.zone) == "2024-12-15")
        #expect(morning.isToday)
        let evening = try BriefDay.read("evening", now: Self.now, zone: Self.zone)
        #expect(TimeText.isoDay(evening.day, in: Self.zone) == "2024-12-17")
        #expect(TimeText.isoDay(evening.scoresDay, in: Self.zone) == "2024-12-16")
        let date = try BriefDay.read("2025-06-05", now: Self.now, zone: Self.zone)
        #expect(TimeText.isoDay(date.day, in: Self.zone) == "2025-06-05")
        #expect(!date.isToday)
    }

    @Test(
        "anything else is a usage error naming it",
        arguments: ["noon", "2025-02-30", "2025-6-5", "5/6/2025", "2025-13-05", "2025-6-005"])
    func bad(_ word: String) {
        #expect(throws: AlmanacError.self) { try BriefDay.read(word, now: Self.now, zone: Self.zone) }
        do {
            _ = try BriefDay.read(word, now: Self.now, zone: Self.zone)
        } catch let error as AlmanacError {
            #expect(error.kind == .usage)
            #expect(error.message.contains("'\(word)'"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}

@Suite("brief: traits")
struct BriefTraitsTests {
    @Test("the briefing is heavy because the calendar it runs is; it takes no URL")
    func heavy() throws {
        let brief = try #require(Runtime.defaultTools().first { $0.name == "brief" })
        #expect(brief.traits.contains(.heavy))
        #expect(!brief.traits.contains(.takesURL))
    }
}
