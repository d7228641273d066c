import AlmanacCore
import AlmanacRuntime
import AlmanacServe
import Foundation

/// The decoders fed with arbitrary bytes: every ``UpstreamDecoder`` the provider registry declares,
/// plus the server's request handling, the argument parser (JSON and command-line words) and the
/// egress policy's URL normaliser.
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
            UpstreamDecoder(name: "url-normalizer", seeds: ["Tests/FuzzRegressions/url-normalizer/*"]) {
                URLNormalizerFuzz.check($0)
            },
        ]

    static func named(_ name: String) -> UpstreamDecoder? {
        all.first { $0.name == name }
    }
}

/// The egress policy's URL normaliser (docs/security.md §3): besides never trapping, normalising
/// twice gives what once gave, and the normal form has no dot segment a server could resolve, as
/// a bare path and inside an http URL. A broken property traps, so libFuzzer reports it.
enum URLNormalizerFuzz {
    static func check(_ data: Data) {
        let text = String(decoding: data.prefix(65_536), as: UTF8.self)
        let path = URLNormalizer.path(text)
        guard URLNormalizer.path(path) == path else { fatalError("path: normalising twice differs from once") }
        if hasDotSegment(path) { fatalError("path: a dot segment is left") }
        if text.hasPrefix("/") && !path.hasPrefix("/") { fatalError("path: an absolute path came back relative") }
        _ = URLNormalizer.isPlain(path)
        for candidate in [text, "http://example.org/" + text, "https://127.0.0.1:9101/feeds/" + text] {
            guard let url = URL(string: candidate), let once = URLNormalizer.normalize(url) else { continue }
            guard let twice = URLNormalizer.normalize(once), twice.absoluteString == once.absoluteString else {
                fatalError("url: normalising twice differs from once")
            }
            let sent = URLComponents(url: once, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
            if hasDotSegment(sent) { fatalError("url: a dot segment is left in the path sent") }
        }
    }

    static func hasDotSegment(_ path: String) -> Bool {
        path.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == "." || $0 == ".." }
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
