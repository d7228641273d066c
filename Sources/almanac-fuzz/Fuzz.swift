import AlmanacCore
import AlmanacRuntime
import AlmanacServe
import Foundation

/// The decoders fed with arbitrary bytes: every ``UpstreamDecoder`` the provider registry declares,
/// plus the server's request handling and the argument parser (JSON and command-line words).
/// Each must return or throw, never trap, hang or blow up.
///
/// Built two ways (see scripts/fuzz):
/// - `-sanitize=fuzzer -DFUZZING`: a libFuzzer target; `ALMANAC_FUZZ_TARGET` picks the decoder.
/// - plain: `almanac-fuzz <target> <file>...` replays inputs (crash reproducers, the seed corpus)
///   through the same code; this is what the regression test runs. `almanac-fuzz --list` prints
///   each target with its seed patterns, one per line, for scripts/fuzz.
enum FuzzTargets {
    /// The decoders, then what the server and the argument parser make of a caller's bytes.
    static let all: [UpstreamDecoder] =
        Runtime.defaultProviders().decoders + [
            UpstreamDecoder(name: "serve-request", seeds: ["Tests/FuzzRegressions/serve-request/*"]) {
                ServeFuzz.request($0)
            },
            UpstreamDecoder(name: "arguments-json", seeds: ["Tests/FuzzRegressions/arguments-json/*"]) {
                ServeFuzz.arguments(Array($0))
            },
            UpstreamDecoder(name: "arguments-cli", seeds: ["Tests/FuzzRegressions/arguments-cli/*"]) {
                ServeFuzz.words($0)
            },
        ]

    static func named(_ name: String) -> UpstreamDecoder? {
        all.first { $0.name == name }
    }
}

#if FUZZING
    let selected =
        FuzzTargets.named(ProcessInfo.processInfo.environment["ALMANAC_FUZZ_TARGET"] ?? "") ?? FuzzTargets.all[0]

    /// libFuzzer's entry point: one input to the selected target.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOne(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
        guard let start else { return 0 }
        selected.run(Data(bytes: start, count: count))
        return 0
    }

    /// The `argv` libFuzzer's driver takes.
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
            if arguments.first == "--list" {
                for target in FuzzTargets.all { print("\(target.name) \(target.seeds.joined(separator: " "))") }
                return
            }
            guard let name = arguments.first, let target = FuzzTargets.named(name) else {
                let names = FuzzTargets.all.map(\.name).joined(separator: "|")
                FileHandle.standardError.write(Data("usage: almanac-fuzz --list | \(names) <input file>...\n".utf8))
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
            print("\(target.name): \(count) input\(count == 1 ? "" : "s") decoded without a crash")
        }
    }
#endif
