import AlmanacTesting
import Foundation
import Testing

/// Almanac's own HTTP(S)-only libcurl (scripts/build-curl, installed beside the binaries) is opened
/// before the system's. Here LD_LIBRARY_PATH stands in for the installed binary's RUNPATH, and the
/// system's libcurl, linked under the own build's file name, stands in for the build (the choice
/// and the doctor's report are what is tested; scripts/bench measures the real build).
@Suite("Almanac's own libcurl build is preferred, reported and checked")
struct OwnLibcurlEndToEnd {
    static let ownName = "libcurl-almanac.so.4"

    /// The system's libcurl.so.4, wherever this distribution keeps it.
    static func systemLibcurl() throws -> URL {
        let folders = [
            "/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
            "/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib",
        ]
        let found = folders.map { URL(fileURLWithPath: $0).appendingPathComponent("libcurl.so.4") }
            .first { FileManager.default.fileExists(atPath: $0.path) }
        return try #require(found, "no libcurl.so.4 in \(folders)")
    }

    /// "curl 7.88.1-10+deb12u15": the installed libcurl4's source, as the doctor reads it.
    static func systemSource() async throws -> String? {
        for package in ["libcurl4t64", "libcurl4"] {
            let dpkgQuery = URL(fileURLWithPath: "/usr/bin/dpkg-query")
            guard FileManager.default.isExecutableFile(atPath: dpkgQuery.path) else { return nil }
            let output = try await Command.run(
                dpkgQuery, ["-W", "-f", "${db:Status-Status} ${source:Package} ${source:Version}", package],
                environment: ["PATH": "/usr/bin:/bin"])
            let fields = output.stdout.split(separator: " ")
            if output.status == 0, fields.count == 3, fields[0] == "installed" { return "\(fields[1]) \(fields[2])" }
        }
        return nil
    }

    /// A folder with the stand-in build and, when given, its `.source` file.
    static func ownBuild(in scratch: borrowing Scratch, source: String?) throws -> URL {
        let folder = scratch.url.appendingPathComponent("lib-almanac")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let library = folder.appendingPathComponent(ownName)
        try? FileManager.default.removeItem(at: library)
        try FileManager.default.createSymbolicLink(at: library, withDestinationURL: try systemLibcurl())
        let note = folder.appendingPathComponent(ownName + ".source")
        try? FileManager.default.removeItem(at: note)
        if let source { try Data("\(source)\n".utf8).write(to: note) }
        return folder
    }

    func libcurlLine(_ output: CommandOutput) -> String? {
        output.stdout.split(separator: "\n").map(String.init).first { $0.contains("  libcurl: ") }
    }

    @Test("a cold call opens the own build, not the system's, and answers; ALMANAC_SYSTEM_LIBCURL=1 opens the system's")
    func coldCallOpensOwnBuild() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let scratch = try Scratch()
        let folder = try await Self.ownBuild(in: scratch, source: try Self.systemSource())
        let words = ["run", "sports", "nba", "--date", "2024-12-15", "--tz", "America/New_York"]
        let base = [
            "ALMANAC_ESPN_URL": server.baseURL, "LD_DEBUG": "files", "LD_LIBRARY_PATH": folder.path,
            "ALMANAC_CACHE_TTL": "0",
        ]

        let own = try await ToolsBinary.run(words, environment: scratch.environment(base))
        #expect(own.status == 0, "\(own.stderr.suffix(500))")
        #expect(own.stdout.contains("Final: Grizzlies (18-9) 110 @ Lakers (14-12) 116 · Lakers won"))
        let ownLoaded = LazyLibrariesEndToEnd.loadedLibraries(own)
        #expect(ownLoaded.contains(Self.ownName), "\(ownLoaded.sorted())")
        #expect(!ownLoaded.contains("libcurl.so.4"), "\(ownLoaded.sorted())")

        let system = try await ToolsBinary.run(
            words, environment: scratch.environment(base.merging(["ALMANAC_SYSTEM_LIBCURL": "1"]) { $1 }))
        #expect(system.status == 0, "\(system.stderr.suffix(500))")
        #expect(system.stdout.split(separator: "\n").dropFirst() == own.stdout.split(separator: "\n").dropFirst())
        let systemLoaded = LazyLibrariesEndToEnd.loadedLibraries(system)
        #expect(systemLoaded.contains("libcurl.so.4"), "\(systemLoaded.sorted())")
        #expect(!systemLoaded.contains(Self.ownName), "\(systemLoaded.sorted())")
    }

    @Test(
        "the doctor names the own build, its Debian source and folder, and warns when it is unrecorded or behind the system's libcurl4"
    )
    func doctorReportsOwnBuild() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let scratch = try Scratch()
        let common = scratch.environment(
            DoctorEndToEndTests.everyEndpoint(at: server.baseURL).merging(["ALMANAC_LLM_URL": server.baseURL]) { $1 })
        func environment(_ folder: URL, _ extra: [String: String]) -> [String: String] {
            common.merging(["LD_LIBRARY_PATH": folder.path]) { $1 }.merging(extra) { $1 }
        }

        let unrecorded = try Self.ownBuild(in: scratch, source: nil)
        let noSource = try await ToolsBinary.run(["doctor"], environment: environment(unrecorded, [:]))
        let noSourceLine = try #require(libcurlLine(noSource), "\(noSource.stdout)")
        #expect(noSourceLine.hasPrefix("warn  libcurl: \(Self.ownName) 7."), "\(noSourceLine)")
        #expect(
            noSourceLine.contains(
                "(Almanac's HTTP(S)-only build of an unrecorded source, in \(unrecorded.path)) opened"))
        #expect(noSourceLine.contains("no \(Self.ownName).source beside it says which Debian source it was built from"))
        #expect(
            noSourceLine.hasSuffix("run scripts/install again, or set ALMANAC_SYSTEM_LIBCURL=1 to use the system's"))
        #expect(noSource.status == 0, "a warning does not fail the doctor: \(noSource.stdout)")

        // The system's libcurl loaded already (as FoundationNetworking loads it into tools-mcp):
        // that one is used, not a second copy.
        let preloaded = try await ToolsBinary.run(
            ["doctor"], environment: environment(unrecorded, ["LD_PRELOAD": try Self.systemLibcurl().path]))
        #expect(libcurlLine(preloaded)?.hasPrefix("ok    libcurl: libcurl.so.4 7.") == true, "\(preloaded.stdout)")

        guard let source = try await Self.systemSource() else { return }  // no dpkg: nothing to compare with
        let current = try Self.ownBuild(in: scratch, source: source)
        let upToDate = try await ToolsBinary.run(["doctor"], environment: environment(current, [:]))
        let upToDateLine = try #require(libcurlLine(upToDate), "\(upToDate.stdout)")
        #expect(upToDateLine.hasPrefix("ok    libcurl: \(Self.ownName) 7."), "\(upToDateLine)")
        #expect(
            upToDateLine.hasSuffix("(Almanac's HTTP(S)-only build of Debian's \(source), in \(current.path)) opened"))

        let behind = try Self.ownBuild(in: scratch, source: "curl 7.0.0-1")
        let outdated = try await ToolsBinary.run(["doctor"], environment: environment(behind, [:]))
        let outdatedLine = try #require(libcurlLine(outdated), "\(outdated.stdout)")
        #expect(outdatedLine.hasPrefix("warn  libcurl: \(Self.ownName) 7."), "\(outdatedLine)")
        #expect(
            outdatedLine.contains(
                "opened; it was built from Debian's curl 7.0.0-1, but the system's libcurl4 is now \(source): "
                    + "run scripts/install again"))

        let chosen = try await ToolsBinary.run(
            ["doctor"], environment: environment(behind, ["ALMANAC_SYSTEM_LIBCURL": "1"]))
        #expect(libcurlLine(chosen)?.hasPrefix("ok    libcurl: libcurl.so.4 7.") == true, "\(chosen.stdout)")
    }
}
