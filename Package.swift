// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Almanac",
    products: [
        .executable(name: "tools", targets: ["tools"]),
        .executable(name: "tools-mcp", targets: ["tools-mcp"]),
        .executable(name: "tools-serve", targets: ["tools-serve"]),
        .library(name: "AlmanacCore", targets: ["AlmanacCore"]),
        .library(name: "AlmanacRuntime", targets: ["AlmanacRuntime"]),
        .library(name: "AlmanacTesting", targets: ["AlmanacTesting"]),
        .library(name: "AlmanacFixtures", targets: ["AlmanacFixtures"]),
        .library(name: "AlmanacSports", targets: ["AlmanacSports"]),
        .library(name: "AlmanacWeather", targets: ["AlmanacWeather"]),
        .library(name: "AlmanacSearch", targets: ["AlmanacSearch"]),
        .library(name: "AlmanacRead", targets: ["AlmanacRead"]),
        .plugin(name: "RecordFixtures", targets: ["RecordFixtures"]),
    ],
    dependencies: [
        // CLI
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Logging (the only third-party dependency of AlmanacCore)
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // On-disk cache shared by processes (SQLite, WAL)
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // MCP server on stdio (only AlmanacMCP imports it)
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
        // `tools serve` only (AlmanacServe, tools-serve): HTTP server, metrics, shared PostgreSQL cache
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // almanac-fuzz only: the server's HTTP/1 decoder on an in-memory channel (NIOEmbedded).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // Core: protocols, coordinator, the HTTP seam (egress policy, replay, terms), formatting
        // helpers. Pure Swift: no C library, no CLI, no MCP, no SQLite.
        .target(
            name: "AlmanacCore",
            dependencies: [.product(name: "Logging", package: "swift-log")]
        ),
        // The live transport: libcurl driven directly (a write callback that can stop a runaway body).
        .target(name: "AlmanacCurl", dependencies: ["AlmanacCore", "CCurl"]),
        // libcurl opened with dlopen on first use (Sources/CCurl/include/ccurl.h); headers from
        // libcurl4-openssl-dev.
        .target(name: "CCurl", dependencies: ["CLibraryLoader"]),
        // dlopen and symbol lookup shared by CCurl, CLibical and CLibxml2.
        .target(name: "CLibraryLoader"),

        // Tool domains: one module each, providers as files inside.
        .target(
            name: "AlmanacSports",
            dependencies: ["AlmanacCore", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "AlmanacWeather",
            // CLibxml2 for MeteoAlarm's Atom feeds.
            dependencies: ["AlmanacCore", "CLibxml2", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "AlmanacSearch",
            dependencies: ["AlmanacCore", "AlmanacRead", .product(name: "Logging", package: "swift-log")]
        ),
        // libical (parsing, time zones, recurrence) for the calendar tool.
        // libical, opened with dlopen by the calendar only (Sources/CLibical/include/clibical.h);
        // headers from libical-dev.
        .target(name: "CLibical", dependencies: ["CLibraryLoader"]),
        // libxml2's pull parser for CalDAV's WebDAV bodies, opened with dlopen (Sources/CLibxml2);
        // headers from libxml2-dev. They sit in /usr/include/libxml2, off the default path:
        // `headers/libxml` links there, as a header search path must lie inside the package and a
        // pkg-config system library target would also link -lxml2 into every start.
        .target(name: "CLibxml2", dependencies: ["CLibraryLoader"], cSettings: [.headerSearchPath("headers")]),
        .target(name: "AlmanacCalendar", dependencies: ["AlmanacCore", "CLibical", "CLibxml2"]),
        // `tools run read URL`: libxml2's HTML parser (the same lazily loaded CLibxml2) and a
        // Readability-style extractor; the site, then the Internet Archive.
        .target(name: "AlmanacRead", dependencies: ["AlmanacCore", "CLibxml2"]),
        // `tools run news`: RSS, Atom and JSON Feed (libxml2's SAX parser through CLibxml2), summaries
        // through the page reader's extractor, a topic without feeds through the search chain's news.
        .target(name: "AlmanacNews", dependencies: ["AlmanacCore", "AlmanacRead", "AlmanacSearch", "CLibxml2"]),
        // `tools brief`: the [me] profile's day from the other tools' runs (it names none of their types).
        .target(name: "AlmanacBrief", dependencies: ["AlmanacCore"]),

        // Wiring: configuration file, SQLite cache, the registry of every tool.
        .target(
            name: "AlmanacRuntime",
            dependencies: [
                "AlmanacCore", "AlmanacCurl", "AlmanacSports", "AlmanacWeather", "AlmanacSearch", "AlmanacCalendar",
                "AlmanacRead", "AlmanacNews", "AlmanacBrief",
                .product(name: "GRDB", package: "GRDB.swift"),
                // sqlite3_blob_write, which GRDB does not wrap: big payloads are written in place.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),

        // The LLM front: router, prompt context, llama.cpp (OpenAI-compatible) streaming client.
        // It names no tool: the router asks each registered tool's QuestionReader (AlmanacCore).
        .target(name: "AlmanacLLM", dependencies: ["AlmanacCore", "AlmanacCurl", "AlmanacRuntime"]),
        // The tools as an MCP server (the only module importing MCP).
        .target(
            name: "AlmanacMCP",
            dependencies: ["AlmanacCore", "AlmanacRuntime", .product(name: "MCP", package: "swift-sdk")]
        ),
        // The tools over HTTP (OpenAPI tool server, MCP over streamable HTTP, metrics) and the
        // PostgreSQL cache store for several hosts. Only tools-serve links it: NIO stays out of `tools`.
        .target(
            name: "AlmanacServe",
            dependencies: [
                "AlmanacCore", "AlmanacRuntime", "AlmanacMCP",
                .product(name: "MCP", package: "swift-sdk"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        // Benchmark driver for scripts/bench (decode+format in-process, no network).
        .executableTarget(name: "almanac-bench", dependencies: ["AlmanacSports", "AlmanacWeather", "AlmanacCalendar"]),
        // Extraction timing for scripts/bench-read (the extractor alone, no network).
        .executableTarget(name: "almanac-read-bench", dependencies: ["AlmanacRead"]),
        // Feed parsing timed for scripts/bench-news (beside Python's feedparser, no network).
        .executableTarget(name: "almanac-news-bench", dependencies: ["AlmanacNews"]),

        // Decoder fuzzing over every decoder the provider registry declares (scripts/fuzz builds it with -sanitize=fuzzer into .build-fuzz; a plain
        // build replays crash reproducers and seeds through the same decoders).
        .executableTarget(
            name: "almanac-fuzz",
            dependencies: [
                "AlmanacCore", "AlmanacRuntime", "AlmanacServe",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]),

        // Test support shipped as a library (fixtures, goldens, fake providers).
        .target(
            name: "AlmanacTesting", dependencies: ["AlmanacCore", .product(name: "Logging", package: "swift-log")]),

        // Recording upstream exchanges (redacted) and checking them for shape drift: what
        // `tools fixtures` runs, in a library so its tests need no executable.
        .target(name: "AlmanacFixtures", dependencies: ["AlmanacCore"]),

        // The `tools` executable: a thin ArgumentParser front over AlmanacRuntime.
        .executableTarget(
            name: "tools",
            dependencies: [
                "AlmanacRuntime", "AlmanacCurl", "AlmanacLLM", "AlmanacFixtures",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The MCP server, apart from `tools`: the MCP SDK brings FoundationNetworking, and with it
        // libcurl's libraries into every start (see Sources/tools-mcp).
        .executableTarget(
            name: "tools-mcp",
            dependencies: [
                "AlmanacRuntime", "AlmanacMCP",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // The HTTP server behind `tools serve`, apart from `tools` for the reason tools-mcp is.
        .executableTarget(
            name: "tools-serve",
            dependencies: [
                "AlmanacRuntime", "AlmanacServe",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // `swift package --allow-writing-to-package-directory --allow-network-connections all record-fixtures <tool> <scenario> -- <words>`
        .plugin(
            name: "RecordFixtures",
            capability: .command(
                intent: .custom(
                    verb: "record-fixtures", description: "Record upstream exchanges into Fixtures/ (secrets redacted)."
                ),
                permissions: [
                    .writeToPackageDirectory(reason: "writes Fixtures/<tool>/<provider>/<scenario>.*"),
                    .allowNetworkConnections(scope: .all(), reason: "fetches the live upstream once"),
                ])),

        // Tests. None depends on an executable: the end-to-end ones run the built binaries by path
        // (AlmanacTesting's ToolsBinary), which `swift build --build-tests` and `swift test` build
        // with every other product.
        .testTarget(name: "AlmanacCoreTests", dependencies: ["AlmanacCore", "AlmanacCurl", "AlmanacTesting"]),
        .testTarget(name: "AlmanacSportsTests", dependencies: ["AlmanacSports", "AlmanacTesting"]),
        .testTarget(name: "AlmanacWeatherTests", dependencies: ["AlmanacWeather", "AlmanacTesting"]),
        .testTarget(name: "AlmanacSearchTests", dependencies: ["AlmanacSearch", "AlmanacCurl", "AlmanacTesting"]),
        .testTarget(name: "AlmanacReadTests", dependencies: ["AlmanacRead", "AlmanacTesting"]),
        .testTarget(name: "AlmanacNewsTests", dependencies: ["AlmanacNews", "AlmanacRead", "AlmanacTesting"]),
        // AlmanacRuntime: the CalDAV tests keep sync state in the real SQLite cache across runs.
        .testTarget(
            name: "AlmanacCalendarTests",
            dependencies: ["AlmanacCalendar", "AlmanacCurl", "AlmanacRuntime", "AlmanacTesting"]),
        .testTarget(name: "AlmanacRuntimeTests", dependencies: ["AlmanacRuntime", "AlmanacTesting"]),
        .testTarget(name: "AlmanacBriefTests", dependencies: ["AlmanacBrief", "AlmanacRuntime", "AlmanacTesting"]),
        .testTarget(
            name: "AlmanacLLMTests", dependencies: ["AlmanacLLM", "AlmanacMCP", "AlmanacTesting", "AlmanacSports"]),
        .testTarget(
            name: "AlmanacFixturesTests", dependencies: ["AlmanacFixtures", "AlmanacRuntime", "AlmanacTesting"]),
        .testTarget(name: "toolsTests", dependencies: ["AlmanacCore", "AlmanacRuntime", "AlmanacTesting"]),
        .testTarget(name: "AlmanacServeTests", dependencies: ["AlmanacServe", "AlmanacTesting"]),
        .testTarget(
            name: "AlmanacMCPTests",
            dependencies: [
                "AlmanacMCP", "AlmanacRuntime", "AlmanacTesting", .product(name: "MCP", package: "swift-sdk"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)

// Upcoming features, set once for every target.
for target in package.targets
where target.type != .system && target.type != .plugin
    && !["CCurl", "CLibical", "CLibxml2", "CLibraryLoader"].contains(target.name)
{
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))  // SE-0335
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))  // SE-0444
    // Imports are internal unless a file says `public import` (SE-0409), as swift-log and Hummingbird do.
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
