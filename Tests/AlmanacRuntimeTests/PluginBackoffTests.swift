import AlmanacCore
import Foundation
import Testing

@testable import AlmanacRuntime

/// When a failed plugin program may be started again (issue 32, point 4).
@Suite("plugins: restart backoff")
struct PluginBackoffTests {
    @Test("1 s, 2 s, 4 s … doubling per failure in a row, capped at 60 s")
    func delays() {
        let waits = (1...9).map { PluginBackoff.delay(failures: $0, base: .seconds(1)) }
        #expect(waits == [1, 2, 4, 8, 16, 32, 60, 60, 60].map { Duration.seconds($0) })
        #expect(PluginBackoff.delay(failures: 1_000, base: .seconds(1)) == .seconds(60))
        #expect(PluginBackoff.delay(failures: 3, base: .milliseconds(200)) == .milliseconds(800))
    }

    @Test("a refused call says how often it failed, why, and when it is started again (UTC, seconds left)")
    func refusal() {
        let now = ContinuousClock.now
        let date = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15 08:00:00 UTC
        let first = PluginBackoff.after(nil, reason: "exited with status 4", base: .seconds(1), now: now, date: date)
        let second = PluginBackoff.after(first, reason: "no answer", base: .seconds(1), now: now, date: date)
        #expect(second.failures == 2)
        #expect(second.retryAt == now + .seconds(2))
        let message = second.refusal(now: now).message
        #expect(
            message == "its program failed 2 times in a row (no answer); not restarted before 08:00:02 UTC (in 2 s)")
        #expect(first.refusal(now: now).message.hasPrefix("its program failed once (exited with status 4)"))
        #expect(!message.contains("\n"))
    }
}
