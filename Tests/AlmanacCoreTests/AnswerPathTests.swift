import AlmanacTesting
import Foundation
import Synchronization
import Testing

@testable import AlmanacCore

/// What a server's answer no longer waits for (issue 32, "Speed"): the shared store's write
/// (write-behind), a rate-limit note nobody can have set, and Foundation's encoder and calendar.
@Suite("Answer path")
struct AnswerPathTests {
    /// A backing store whose writes wait until the test opens them (or 10 s pass: never a hang),
    /// counting what reached it and how often a note was read.
    final class GatedStore: CacheStore {
        let inner = MemoryCacheStore()
        let open = Mutex(false)
        let noteReads = Mutex(0)

        func entry(for key: String) async throws -> CacheEntry? { await inner.entry(for: key) }

        func store(_ entry: CacheEntry) async throws {
            for _ in 0..<1000 where !open.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(10)) }
            await inner.store(entry)
        }

        func removeAll() async throws -> Int { await inner.removeAll() }

        func note(for key: String) async throws -> String? {
            noteReads.withLock { $0 += 1 }
            return await inner.note(for: key)
        }

        func setNote(_ value: String?, for key: String) async throws { await inner.setNote(value, for: key) }
    }

    static func request(_ provider: ScriptedProvider, mayRateLimit: Bool = true) -> CoordinatedRequest<String> {
        var call = provider.call
        call.mayRateLimit = mayRateLimit
        return CoordinatedRequest(tool: "time.now", key: "tokyo", providers: [call], ttl: .zero)
    }

    @Test("with write-behind, the answer does not wait for the shared store; the entry is there after")
    func writeBehindAnswersFirst() async throws {
        let backing = GatedStore()
        let cache = LayeredCacheStore(backing: backing, writeBehind: true)
        let coordinator = Coordinator(cache: cache)
        let answer = try await coordinator.fetch(Self.request(.ok("time", "10:00")))
        #expect(answer.value == "10:00")
        // Answered while the shared store's write still waits at its gate.
        #expect(await backing.inner.entry(for: "time.now:tokyo") == nil)
        #expect(try await cache.entry(for: "time.now:tokyo") != nil)
        backing.open.withLock { $0 = true }
        await coordinator.flushCache()
        #expect(await backing.inner.entry(for: "time.now:tokyo") != nil)
    }

    @Test("an entry written after the reply is served stale when the provider then fails")
    func writeBehindServesStale() async throws {
        let backing = GatedStore()
        let coordinator = Coordinator(cache: LayeredCacheStore(backing: backing, writeBehind: true))
        let flaky = ScriptedProvider("time") { call in
            if call == 1 { return "10:00" }
            throw ProviderFailure(.network, "the plugin exited with status 1 during the call")
        }
        _ = try await coordinator.fetch(Self.request(flaky))
        let stale = try await coordinator.fetch(Self.request(flaky))
        #expect(stale.value == "10:00")
        #expect(stale.metadata.stale)
        backing.open.withLock { $0 = true }
        await coordinator.flushCache()
    }

    @Test("a pending write is read before the backing store, also once memory dropped it")
    func pendingWriteIsRead() async throws {
        let backing = GatedStore()
        // Memory keeps no entry this big: only the pending write has it.
        let cache = LayeredCacheStore(backing: backing, memoryBytes: 16, writeBehind: true)
        let entry = CacheEntry(
            key: "k", tool: "t", provider: "p", fetchedAt: Date(timeIntervalSince1970: 1),
            payload: Data(repeating: 0x41, count: 64))
        try await cache.store(entry)
        #expect(try await cache.entry(for: "k") == entry)
        backing.open.withLock { $0 = true }
        await cache.flush()
        #expect(await backing.inner.entry(for: "k") == entry)
        #expect(try await cache.entry(for: "k") == entry)
    }

    @Test("without write-behind the store has the entry when the answer comes")
    func writeThroughByDefault() async throws {
        let backing = GatedStore()
        backing.open.withLock { $0 = true }
        let coordinator = Coordinator(cache: LayeredCacheStore(backing: backing))
        _ = try await coordinator.fetch(Self.request(.ok("time", "10:00")))
        #expect(await backing.inner.entry(for: "time.now:tokyo") != nil)
    }

    @Test("a provider that cannot be rate limited has no rate-limit note read on its path")
    func noNoteReadWithoutRateLimits() async throws {
        let backing = GatedStore()
        backing.open.withLock { $0 = true }
        let coordinator = Coordinator(cache: LayeredCacheStore(backing: backing))
        _ = try await coordinator.fetch(Self.request(.ok("time", "10:00"), mayRateLimit: false))
        #expect(backing.noteReads.withLock { $0 } == 0)
        _ = try await coordinator.fetch(Self.request(.ok("time", "10:00")))
        #expect(backing.noteReads.withLock { $0 } == 1)
    }

    @Test("a provider is rate limited unless it says otherwise")
    func providersMayRateLimitByDefault() {
        struct Plain: Provider {
            var name: String { "plain" }
            var priority: Int { 0 }
            func fetch(_ query: String, in environment: ProviderEnvironment) async throws -> String { query }
        }
        #expect(Plain().mayRateLimit)
    }

    @Test("TimeText.clock reads the zone's offset as the calendar does")
    func clockMatchesCalendar() {
        let zones = [
            "America/New_York", "Asia/Kolkata", "Asia/Kathmandu", "Australia/Lord_Howe", "UTC", "Pacific/Chatham",
        ]
        let instants: [TimeInterval] = [
            0, -1, -0.5, 59.999, 1_734_305_400, 1_710_054_000, 1_710_053_999, 1_730_613_600, -86_400 * 365.25 * 80,
            4_102_444_799.9,
        ]
        for name in zones {
            let zone = TimeZone(identifier: name)!
            for seconds in instants {
                let date = Date(timeIntervalSince1970: seconds)
                let parts = TimeText.calendar(zone).dateComponents([.hour, .minute], from: date)
                let expected = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
                #expect(TimeText.clock(date, in: zone) == expected, "\(name) at \(seconds)")
            }
        }
    }

    @Test("the envelope's metadata is written as JSONEncoder writes it")
    func envelopeMatchesEncoder() throws {
        struct Text: ToolPayload {
            var value: String
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(value)
            }
            func context(_ rendering: Rendering) -> String { value }
            func text(_ rendering: Rendering) -> String { value }
        }
        let odd = "a\"b\\c/d\u{08}\u{0C}\n\r\t\u{01}\u{1F}é😀\u{2028}"
        let metadata = ResultMetadata(
            tool: "time.now" + odd, provider: "time", fetchedAt: Date(timeIntervalSince1970: 1_734_305_400.25),
            ageSeconds: 12, stale: true,
            attempts: [
                ProviderAttempt(provider: "espn", outcome: .failed, milliseconds: 31, detail: "HTTP 500" + odd),
                ProviderAttempt(provider: "time", outcome: .ok, milliseconds: 2),
            ])
        let bytes = try Envelope.jsonUTF8(metadata: metadata, payload: Text(value: odd))
        // The shape before: each field through JSONOutput's encoder.
        let encoder = JSONOutput.encoder()
        var expected = Array(#"{"tool":"#.utf8) + Array(try encoder.encode(metadata.tool))
        expected += Array(#","provider":"#.utf8) + Array(try encoder.encode(metadata.provider))
        expected += Array(#","fetchedAt":"#.utf8) + Array(try encoder.encode(TimeText.isoUTC(metadata.fetchedAt)))
        expected += Array(#","ageSeconds":12,"stale":true,"attempts":"#.utf8)
        expected += Array(try encoder.encode(metadata.attempts))
        expected += Array(#","data":"#.utf8) + Array(try encoder.encode(odd)) + [UInt8(ascii: "}")]
        #expect(String(decoding: bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }

    @Test("JSONWriter escapes strings as JSONEncoder does")
    func writerMatchesEncoder() throws {
        let samples = ["", "plain", "\u{08}\u{0C}\u{00}\u{7F}", "q\"uote\\/", "línea\nnueva\t😀"]
        for sample in samples {
            var writer = JSONWriter()
            writer.string(sample)
            #expect(writer.bytes == Array(try JSONOutput.encoder().encode(sample)), "\(sample.debugDescription)")
        }
    }

    @Test("UntrustedText.clean reads ASCII without the property tables, as it did with them")
    func cleanAsBefore() {
        // The rule as it was, through Unicode's properties for every scalar.
        func reference(_ text: String, limit: Int) -> String {
            var scalars = String.UnicodeScalarView()
            var lastWasSpace = false
            for scalar in text.unicodeScalars {
                let value = scalar.value
                if (0x200B...0x200F).contains(value) || (0x202A...0x202E).contains(value)
                    || (0x2066...0x2069).contains(value) || value == 0xFEFF || value == 0x00AD
                {
                    continue
                }
                if scalar.properties.generalCategory == .control || scalar.properties.isWhitespace {
                    if !lastWasSpace, !scalars.isEmpty { scalars.append(" ") }
                    lastWasSpace = true
                    continue
                }
                lastWasSpace = false
                scalars.append(scalar == "<" ? "‹" : scalar == ">" ? "›" : scalar)
            }
            var cleaned = String(String(scalars).drop { $0 == " " || $0 == "\t" })
            while cleaned.last == " " || cleaned.last == "\t" { cleaned.removeLast() }
            if cleaned.count > limit {
                var cut = String(cleaned.prefix(limit - 1))
                while cut.last == " " || cut.last == "\t" { cut.removeLast() }
                cleaned = cut + "…"
            }
            return cleaned
        }
        let ascii = String(String.UnicodeScalarView((0..<128).compactMap(Unicode.Scalar.init)))
        let samples = [
            ascii, "  <b>bold</b>\t\u{85}next\u{A0}line\u{2028}x\u{200B}y ", "e\u{301}e\u{301}e\u{301}e\u{301}",
            "🇵🇹🇵🇹🇵🇹 flags", String(repeating: "a b ", count: 200), "",
        ]
        for sample in samples {
            for limit in [3, 5, 8, 600] {
                #expect(UntrustedText.clean(sample, limit: limit) == reference(sample, limit: limit))
            }
        }
    }
}
