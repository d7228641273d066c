import AlmanacCore
import AlmanacSports
import AlmanacWeather
import Foundation

// BraveClient.decode and ICalendarDocument are internal; fuzz builds are debug builds (testing enabled).
@testable import AlmanacCalendar
@testable import AlmanacSearch

/// The decoders fed with arbitrary bytes. Each must return or throw, never trap, hang or blow up.
///
/// Built two ways (see scripts/fuzz):
/// - `-sanitize=fuzzer -DFUZZING`: a libFuzzer target; `ALMANAC_FUZZ_TARGET` picks the decoder.
/// - plain: `almanac-fuzz <target> <file>...` replays inputs (crash reproducers, the seed corpus)
///   through the same code; this is what the regression test runs.
enum FuzzTarget: String, CaseIterable, Sendable {
    case espn
    case openMeteo = "open-meteo"
    case geocoding
    case brave
    case calendar

    /// Where its seed corpus lives (recorded real bodies).
    var seedFolder: String {
        switch self {
        case .espn: "Fixtures/sports/espn"
        case .openMeteo, .geocoding: "Fixtures/weather/open-meteo"
        case .brave: "Fixtures/search/brave"
        case .calendar: "Fixtures/calendar/ics"
        }
    }

    static let now = Date(timeIntervalSince1970: 1_750_000_000)

    func run(_ data: Data) {
        switch self {
        case .espn:
            for league in League.all.prefix(3) { _ = try? ESPNScoreboard.decode(data, league: league) }
        case .openMeteo:
            _ = try? OpenMeteoDecoder.decode(data)
        case .geocoding:
            _ = try? OpenMeteoGeocoder.decode(data)
        case .brave:
            for kind in [SearchKind.web, .news] {
                _ = try? BraveClient.decode(
                    HTTPResponse(status: 200, body: data), for: SearchQuery(text: "fuzz", kind: kind), now: Self.now)
            }
        case .calendar:
            Self.calendar(data)
        }
    }

    /// libical's parser, then expansion over a year in two zones and the task list: the whole
    /// iCalendar path the tool runs on a downloaded file.
    static func calendar(_ data: Data) {
        let done = DispatchSemaphore(value: 0)
        // Expansion is async (child tasks for big calendars); the fuzzer's callback is not, and it
        // runs on libFuzzer's own thread, outside the cooperative pool, so blocking here is safe.
        Task {
            defer { done.signal() }
            guard let document = try? ICalendarDocument(text: String(decoding: data, as: UTF8.self), name: "fuzz")
            else { return }
            for zone in ["UTC", "America/New_York"] {
                guard let timeZone = TimeZone(identifier: zone) else { continue }
                let window = ExpansionWindow(start: now, end: now.addingTimeInterval(366 * 86_400), zone: timeZone)
                _ = await document.expand(in: window, calendar: "fuzz")
                _ = document.tasks(now: now, zone: timeZone, calendar: "fuzz")
            }
        }
        done.wait()
    }
}

#if FUZZING
    let selected = FuzzTarget(rawValue: ProcessInfo.processInfo.environment["ALMANAC_FUZZ_TARGET"] ?? "") ?? .espn

    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOne(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
        guard let start else { return 0 }
        selected.run(Data(bytes: start, count: count))
        return 0
    }

    public typealias FuzzArguments = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>

    @_silgen_name("LLVMFuzzerRunDriver")
    func runDriver(
        _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<FuzzArguments?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt

    /// SwiftPM links executables with `main` aliased to `<module>_main`, so libFuzzer's own `main`
    /// is never used: this entry hands control to libFuzzer's driver instead.
    @_cdecl("almanac_fuzz_main")
    public func fuzzMain(_ argc: CInt, _ argv: FuzzArguments?) -> CInt {
        var count = argc
        var arguments = argv
        return runDriver(&count, &arguments, fuzzOne)
    }
#else
    @main
    struct FuzzReplay {
        static func main() {
            let arguments = Array(CommandLine.arguments.dropFirst())
            guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
                let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
                FileHandle.standardError.write(Data("usage: almanac-fuzz \(names) <input file>...\n".utf8))
                exit(64)
            }
            var count = 0
            for path in arguments.dropFirst() {
                guard let data = FileManager.default.contents(atPath: path) else {
                    FileHandle.standardError.write(Data("almanac-fuzz: cannot read \(path)\n".utf8))
                    exit(66)
                }
                target.run(data)
                count += 1
            }
            print("\(target.rawValue): \(count) input\(count == 1 ? "" : "s") decoded without a crash")
        }
    }
#endif
