import AlmanacTesting
import Foundation
import Testing

/// libcurl, libical and libxml2 are opened when they are needed, not at start: libcurl's ~25
/// libraries cost every process about 4 ms and a call answered from the cache makes no request;
/// libical (with ICU's calendar library) is for the calendar alone, libxml2 for CalDAV.
@Suite("libcurl, libical and libxml2 are loaded only when used")
struct LazyLibrariesEndToEnd {
    /// The shared objects the dynamic loader opened, from its own trace (LD_DEBUG=files).
    static func loadedLibraries(_ output: CommandOutput) -> Set<String> {
        Set(
            output.stderr.split(separator: "\n").compactMap { line -> String? in
                guard let start = line.range(of: "file=") else { return nil }
                return String(line[start.upperBound...].prefix { $0 != " " })
            })
    }

    @Test("a cold call opens libcurl and answers; the warm call after it never loads libcurl")
    func warmCallSkipsLibcurl() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let scratch = try Scratch()
        let environment = scratch.environment(["ALMANAC_ESPN_URL": server.baseURL, "LD_DEBUG": "files"])
        let words = ["run", "sports", "nba", "--date", "2024-12-15", "--tz", "America/New_York"]

        let cold = try await ToolsBinary.run(words, environment: environment)
        #expect(cold.status == 0, "\(cold.stderr.suffix(500))")
        #expect(cold.stdout.contains("Final: Grizzlies (18-9) 110 @ Lakers (14-12) 116 · Lakers won"))
        #expect(Self.loadedLibraries(cold).contains("libcurl.so.4"))

        let warm = try await ToolsBinary.run(words, environment: environment)
        #expect(warm.status == 0)
        // The same games (the header's age may differ by a second).
        #expect(warm.stdout.split(separator: "\n").dropFirst() == cold.stdout.split(separator: "\n").dropFirst())
        let loaded = Self.loadedLibraries(warm)
        #expect(loaded.contains("libsqlite3.so.0"), "the trace should list what was loaded: \(loaded)")
        #expect(!loaded.contains("libcurl.so.4"), "\(loaded.sorted())")
        #expect(!loaded.contains("libcurl-almanac.so.4"), "\(loaded.sorted())")
        #expect(!loaded.contains("libical.so.3"), "\(loaded.sorted())")
        #expect(!Self.loadedLibraries(cold).contains("libical.so.3"))
        // libxml2 reads CalDAV's bodies only (Foundation's XMLParser linked it into every start).
        for soname in ["libxml2.so.16", "libxml2.so.2"] {  // 2.14 renamed it
            #expect(!loaded.contains(soname))
            #expect(!Self.loadedLibraries(cold).contains(soname))
        }
    }

    @Test("a calendar file opens libical and never libcurl")
    func calendarOpensLibical() async throws {
        let scratch = try Scratch()
        let output = try await ToolsBinary.run(
            [
                "run", "calendar", "--ics", Fixtures.url("calendar/ics/davx5-ical4j-exdate-berlin.ics").path,
                "--from", "2019-10-01", "--to", "2019-10-31", "--tz", "UTC", "--format", "json",
            ],
            environment: scratch.environment(["LD_DEBUG": "files"]))
        #expect(output.status == 0, "\(output.stderr.suffix(500))")
        #expect(output.stdout.contains("\"start\":\"2019-10-29T15:15:00Z\""), "\(output.stdout.prefix(400))")
        let loaded = Self.loadedLibraries(output)
        #expect(loaded.contains("libical.so.3"))
        #expect(!loaded.contains("libcurl.so.4"), "\(loaded.sorted())")
    }

    @Test("a libcurl or libical that cannot be opened is one clear line, not a crash")
    func unloadableLibraries() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let scratch = try Scratch()
        let fakes = try scratch.unloadable(["libcurl.so.4", "libcurl-gnutls.so.4", "libical.so.3"])
        let environment = scratch.environment(["ALMANAC_ESPN_URL": server.baseURL, "LD_LIBRARY_PATH": fakes.path])

        let sports = try await ToolsBinary.run(
            ["run", "sports", "nba", "--date", "2024-12-15"], environment: environment)
        #expect(sports.status == 69)
        #expect(sports.stderr.contains("libcurl could not start: "), "\(sports.stderr)")
        #expect(sports.stderr.contains("; install libcurl4"))
        #expect(sports.stderr.contains("libcurl.so.4"))
        #expect(!sports.stderr.contains("Fatal error"))

        let calendar = try await ToolsBinary.run(
            [
                "run", "calendar", "--ics", Fixtures.url("calendar/ics/davx5-ical4j-exdate-berlin.ics").path, "--from",
                "2019-10-01",
            ],
            environment: environment)
        #expect(calendar.status == 64)
        #expect(calendar.stderr.hasPrefix("error: calendar: libical could not be opened: "), "\(calendar.stderr)")
        #expect(calendar.stderr.contains("libical.so.3"))
        #expect(calendar.stderr.contains("install it: apt install libical3"))
        #expect(!calendar.stderr.contains("Fatal error"))
    }

    /// Stand-ins with every symbol the shims look up, reporting versions below the minimums.
    static let oldLibcurl = """
        typedef struct { int age; const char *version; unsigned int version_num; } info;
        static info data = {10, "7.61.1", 0x073d01};
        info *curl_version_info(int stamp) { (void)stamp; return &data; }
        int curl_global_init(long flags) { (void)flags; return 0; }
        void *curl_easy_init(void) { return 0; }
        int curl_easy_perform(void *handle) { (void)handle; return 7; }
        void *curl_slist_append(void *list, const char *line) { (void)list; (void)line; return 0; }
        void curl_easy_cleanup(void *handle) { (void)handle; }
        void curl_easy_reset(void *handle) { (void)handle; }
        void curl_slist_free_all(void *list) { (void)list; }
        int curl_easy_setopt(void *handle, int option, ...) { (void)handle; (void)option; return 0; }
        int curl_easy_getinfo(void *handle, int info, ...) { (void)handle; (void)info; return 0; }
        """
    static let oldLibxml2 = """
        const char *xmlParserVersion = "20703";
        void *xmlReaderForMemory(void) { return 0; }
        int xmlTextReaderRead(void) { return -1; }
        int xmlTextReaderNodeType(void) { return 0; }
        int xmlTextReaderIsEmptyElement(void) { return 0; }
        const char *xmlTextReaderConstLocalName(void) { return 0; }
        const char *xmlTextReaderConstNamespaceUri(void) { return 0; }
        const char *xmlTextReaderConstValue(void) { return 0; }
        void xmlFreeTextReader(void) {}
        void xmlTextReaderSetStructuredErrorHandler(void) {}
        void xmlSetGenericErrorFunc(void) {}
        void xmlSetStructuredErrorFunc(void) {}
        void *htmlReadMemory(void) { return 0; }
        void xmlFreeDoc(void) {}
        void *htmlCreateMemoryParserCtxt(void) { return 0; }
        int htmlCtxtUseOptions(void) { return 0; }
        void *xmlFindCharEncodingHandler(void) { return 0; }
        int xmlSwitchToEncoding(void) { return 0; }
        int htmlParseDocument(void) { return -1; }
        void htmlFreeParserCtxt(void) {}
        void *xmlCreateMemoryParserCtxt(void) { return 0; }
        int xmlCtxtUseOptions(void) { return 0; }
        int xmlParseDocument(void) { return -1; }
        void xmlFreeParserCtxt(void) {}
        """

    /// Builds `source` into a shared object under each of `names` in `folder`, with the C compiler
    /// the Swift toolchain brings.
    static func sharedObject(_ source: String, names: [String], in folder: URL) throws {
        let file = folder.appendingPathComponent("\(names[0]).c")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let library = folder.appendingPathComponent(names[0])
        let compiler = Process()
        compiler.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        compiler.arguments = ["cc", "-shared", "-fPIC", "-o", library.path, file.path]
        try compiler.run()
        compiler.waitUntilExit()
        try #require(compiler.terminationStatus == 0, "cc could not build \(names[0])")
        for name in names.dropFirst() {
            try FileManager.default.copyItem(at: library, to: folder.appendingPathComponent(name))
        }
    }

    @Test("a libcurl or libxml2 older than the minimum is one clear line")
    func tooOldLibraries() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let scratch = try Scratch()
        let folder = try scratch.unloadable([])
        // Every soname each shim tries, so a newer system library is never reached first.
        try Self.sharedObject(Self.oldLibcurl, names: ["libcurl.so.4", "libcurl-gnutls.so.4"], in: folder)
        try Self.sharedObject(Self.oldLibxml2, names: ["libxml2.so.16", "libxml2.so.2"], in: folder)
        let base = server.baseURL
        let environment = scratch.environment([
            "ALMANAC_ESPN_URL": base, "ALMANAC_OPEN_METEO_URL": base, "ALMANAC_GEOCODING_URL": base,
            "ALMANAC_LLM_URL": base, "LD_LIBRARY_PATH": folder.path,
        ])

        let doctor = try await ToolsBinary.run(["doctor"], environment: environment)
        let lines = doctor.stdout.split(separator: "\n").map(String.init)
        #expect(doctor.status == 69)
        #expect(
            lines.contains(
                "fail  libcurl: cannot be opened: libcurl.so.4 is 7.61.1; Almanac needs 7.68.0 or later; install libcurl4"
            ), "\(doctor.stdout)")
        #expect(
            lines.contains(
                "warn  libxml2: cannot be opened: libxml2.so.16 is 2.7.3; Almanac needs 2.9.0 or later; install libxml2 (CalDAV and read and news)"
            ))

        let sports = try await ToolsBinary.run(
            ["run", "sports", "nba", "--date", "2024-12-15"], environment: environment)
        #expect(sports.status == 69)
        #expect(
            sports.stderr.contains(
                "libcurl could not start: libcurl.so.4 is 7.61.1; Almanac needs 7.68.0 or later; install libcurl4"),
            "\(sports.stderr)")
    }
}
