import Foundation
import Synchronization
import Testing

@testable import AlmanacCore

/// The single-use confirmation tokens of writes by untrusted callers (docs/security.md).
@Suite("Write confirmation tokens")
struct WriteTokensTests {
    final class Clock: Sendable {
        let now = Mutex(Date(timeIntervalSince1970: 1_000_000))
        func advance(_ seconds: TimeInterval) { now.withLock { $0 += seconds } }
    }

    @Test("a token confirms its write once, for its caller, within its lifetime")
    func singleUse() async {
        let clock = Clock()
        let tokens = WriteTokens(lifetime: 300, clock: { clock.now.withLock { $0 } })
        let token = WriteTokens.newToken()
        #expect(token.count == 32 && token != WriteTokens.newToken())
        await tokens.register(token, fingerprint: "add A", caller: "one")
        #expect(await tokens.redeem(token, fingerprint: "add A", caller: "two") == .unknown)
        #expect(await tokens.redeem(token, fingerprint: "add B", caller: "one") == .otherWrite)
        #expect(await tokens.redeem(token, fingerprint: "add A", caller: "one") == .confirmed)
        #expect(await tokens.redeem(token, fingerprint: "add A", caller: "one") == .unknown)
        #expect(await tokens.count == 0)
    }

    @Test("an expired token confirms nothing and is dropped")
    func expiry() async {
        let clock = Clock()
        let tokens = WriteTokens(lifetime: 300, clock: { clock.now.withLock { $0 } })
        await tokens.register("t", fingerprint: "add A", caller: "one")
        clock.advance(301)
        #expect(await tokens.redeem("t", fingerprint: "add A", caller: "one") == .expired)
        #expect(await tokens.redeem("t", fingerprint: "add A", caller: "one") == .unknown)
    }

    @Test("a full store drops the oldest token, not the newest")
    func bounded() async {
        let clock = Clock()
        let tokens = WriteTokens(lifetime: 300, capacity: 2, clock: { clock.now.withLock { $0 } })
        for name in ["a", "b", "c"] {
            await tokens.register(name, fingerprint: name, caller: "x")
            clock.advance(1)
        }
        #expect(await tokens.count == 2)
        #expect(await tokens.redeem("a", fingerprint: "a", caller: "x") == .unknown)
        #expect(await tokens.redeem("c", fingerprint: "c", caller: "x") == .confirmed)
    }
}
