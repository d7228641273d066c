public import AlmanacCore
import AlmanacCurl
public import Foundation
import Logging

/// Options the CLI (or MCP server) sets for one process.
public struct RuntimeOptions: Sendable {
    /// `--tz`: the viewer's IANA zone; nil means `TZ`/system zone.
    var timeZone: String?
    /// `--no-cache`: skip fresh cache reads (results are still stored).
    var noCache: Bool
    /// Wraps the live/replay transport (`tools fixtures record` records through it).
    var wrapTransport: (@Sendable (any HTTPTransport) -> any HTTPTransport)?
    /// A store shared by several hosts (`tools serve` with PostgreSQL) in place of the SQLite
    /// file: cache entries, notes and provider state all go there, with no memory layer in front
    /// (another host may have written a newer entry).
    public var sharedStore: (any CacheStore & ProviderStateStore)?
    /// The front untrusted callers of this process arrive by (`serve`, `mcp`, `ask`): their
    /// writes are allowed when `[serve] allow_writes` names it (docs/security.md).
    var front: String?

    /// Creates options.
    public init(
        timeZone: String? = nil, noCache: Bool = false,
        wrapTransport: (@Sendable (any HTTPTransport) -> any HTTPTransport)? = nil,
        sharedStore: (any CacheStore & ProviderStateStore)? = nil, front: String? = nil
    ) {
        self.front = front
        self.timeZone = timeZone
        self.noCache = noCache
        self.wrapTransport = wrapTransport
        self.sharedStore = sharedStore
    }
}

/// Everything one process needs, built from the environment and the config file: the registry,
/// the coordinator over the shared cache, the transport, the reference time and zone.
public struct Runtime: Sendable {
    /// The tools.
    public internal(set) var registry: ToolRegistry
    /// Environment plus config file.
    public let settings: Settings
    /// Cache, fallback and de-duplication.
    public let coordinator: Coordinator
    /// Live or replay.
    public let transport: any HTTPTransport
    /// The reference time (ALMANAC_NOW or the clock at start).
    public private(set) var now: Date
    /// The viewer's zone.
    public private(set) var timeZone: TimeZone
    /// The on-disk cache, when it could be opened.
    public let diskCache: SQLiteCacheStore?
    /// Cache warnings to show once (e.g. the cache could not be opened).
    public let warnings: [String]
    let options: RuntimeOptions
    let timeout: Duration
    /// The deadline of one provider attempt (`ALMANAC_TIMEOUT`, read and checked once, here).
    public var attemptTimeout: Duration { timeout }
    let logger: Logger
    let webSearch: (any WebSearching)?
    /// Provider state (request intervals, upstream expiry, CalDAV mirrors): the shared store when
    /// hosts share one, else the SQLite file, else one memory store kept for the process, so a
    /// long-running server keeps its intervals between requests.
    let state: any ProviderStateStore
    /// What URLs may reach, for the command line; JSON callers get it as ``CallerTrust/untrusted``.
    public private(set) var egress: EgressPolicy
    /// The tools untrusted callers may see and call (`[serve] tools` and `deny_tools`); the
    /// command line has every tool of ``registry``.
    var offered: ToolRegistry
    /// The configured plugins (`[plugins.NAME]`), nil when there are none.
    let plugins: PluginHost?

    /// Builds the runtime.
    ///
    /// - Throws: ``AlmanacError`` (usage) for bad environment values, an unreadable config file,
    ///   or a config file holding secrets that others can read.
    public static func make(
        environment: [String: String] = ProcessInfo.processInfo.environment, options: RuntimeOptions = .init(),
        tools: [any Tool]? = nil
    ) throws -> Runtime {
        var logger = Logger(label: "almanac")
        logger.logLevel = Logger.Level(rawValue: environment["ALMANAC_LOG"]?.lowercased() ?? "") ?? .warning
        let settings = try ConfigLoader.load(environment: environment)
        let zone = try timeZone(settings, options: options)
        let fixedNow = try fixedClock(settings)
        let now = fixedNow ?? Date()
        // Upper bounds keep the milliseconds in range (1e20 s would trap) and name sane limits.
        let ttl = try seconds(settings, "ALMANAC_CACHE_TTL", default: 60, allowZero: true, maximum: 604_800)
        let timeout = try seconds(settings, "ALMANAC_TIMEOUT", default: 8, allowZero: false, maximum: 3_600)
        var transport = try liveOrReplay(settings)
        if let wrap = options.wrapTransport { transport = wrap(transport) }
        // A server answers before its cache write reaches the disk (flushCache() at shutdown).
        let stores = caches(
            environment: environment, settings: settings, shared: options.sharedStore,
            writeBehind: options.front.map { _ in logger })
        var egress = try egressPolicy(settings)
        // Catalogs age by the real clock: ALMANAC_NOW (a recording's day) would make every one look stale.
        let plugins = try pluginHost(
            settings, environment: environment, timeout: timeout, now: Date(), logger: logger)
        let registry = ToolRegistry(
            withProviderPlugins(tools ?? defaultTools(), plugins) + (plugins?.listedTools() ?? []))
        let offered = try offeredTools(settings, registry: registry)
        // Travels with every untrusted run, so a tool another one uses (search's read) is off too.
        egress.switchedOffTools = Set(registry.tools.map(\.name)).subtracting(offered.tools.map(\.name))
        // Read for every command, so a misspelt front stops the command line too.
        let writeFronts = try writeFronts(settings)
        if let front = options.front, writeFronts.contains(front) {
            egress.writes = CallerWrites(front: front, tokens: WriteTokens())
        }
        let coordinator = Coordinator(
            cache: stores.cache, configuration: .init(ttl: ttl, timeout: timeout),
            now: { fixedNow ?? Date() }, logger: logger)
        return Runtime(
            registry: registry, settings: settings, coordinator: coordinator,
            transport: transport, now: now, timeZone: zone, diskCache: stores.disk,
            warnings: stores.warnings.map(TerminalText.escaped), options: options,
            timeout: timeout, logger: logger, webSearch: webSearcher(settings),
            state: stateStore(shared: options.sharedStore, disk: stores.disk), egress: egress, offered: offered,
            plugins: plugins)
    }

    /// The viewer's zone: `--tz`, `ALMANAC_TZ`, the config's `tz`, else the system's.
    static func timeZone(_ settings: Settings, options: RuntimeOptions) throws -> TimeZone {
        guard let name = options.timeZone ?? settings.env("ALMANAC_TZ") ?? settings.config("tz")?.stringValue else {
            return TimeZone.current
        }
        guard let named = TimeZone(identifier: name) else {
            throw AlmanacError.usage(
                "unknown time zone '\(name)'", suggestion: "use an IANA name such as Europe/Lisbon or America/New_York")
        }
        return named
    }

    /// The fixed clock `ALMANAC_NOW` sets (replayed fixtures, tests), or nil for the real one.
    static func fixedClock(_ settings: Settings) throws -> Date? {
        guard let fixed = settings.env("ALMANAC_NOW") else { return nil }
        guard let date = TimeText.parseInstant(fixed) else {
            throw AlmanacError.usage(
                "ALMANAC_NOW is not an ISO 8601 instant: '\(fixed)'", suggestion: "e.g. 2024-12-15T23:00:00Z")
        }
        return date
    }

    /// Recorded exchanges from `ALMANAC_REPLAY`'s folder, else libcurl.
    static func liveOrReplay(_ settings: Settings) throws -> any HTTPTransport {
        guard let replay = settings.env("ALMANAC_REPLAY") else { return CurlTransport() }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: replay, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw AlmanacError.usage(
                "ALMANAC_REPLAY is not a directory: '\(replay)'", suggestion: "point it at the Fixtures folder")
        }
        return try ReplayTransport(directory: URL(fileURLWithPath: replay))
    }

    /// The cache: the shared store when hosts share one, else a memory layer over the SQLite
    /// file, else memory alone (a cache that cannot open is a warning, never a failure).
    static func caches(
        environment: [String: String], settings: Settings, shared: (any CacheStore & ProviderStateStore)?,
        writeBehind logger: Logger? = nil
    ) -> (cache: any CacheStore, disk: SQLiteCacheStore?, warnings: [String]) {
        if let shared { return (shared, nil, []) }
        let directory = cacheDirectory(environment: environment, settings: settings)
        do {
            let store = try SQLiteCacheStore(directory: directory)
            let warnings = store.movedAside.map { ["the cache was damaged: moved it to \($0) and started a new one"] }
            let layered = LayeredCacheStore(
                backing: store, writeBehind: logger != nil,
                failed: { [logger] error in logger?.warning("cache write failed: \(error)") })
            return (layered, store, warnings ?? [])
        } catch {
            return (
                MemoryCacheStore(maxBytes: MemoryCacheStore.defaultMaxBytes), nil,
                ["cache unavailable at \(directory.path) (\(SQLiteCacheStore.reason(error))); continuing without it"]
            )
        }
    }

    /// The operator's egress settings: URL prefixes untrusted callers may name and reach
    /// (`[serve] allow_urls` or `ALMANAC_ALLOW_URLS`, space- or comma-separated) and fixed name
    /// resolutions (`ALMANAC_RESOLVE="name=address,..."`, as curl's `--resolve`).
    static func egressPolicy(_ settings: Settings) throws -> EgressPolicy {
        let prefixes =
            try settings.list(
                env: "ALMANAC_ALLOW_URLS", config: "serve", "allow_urls",
                example: "allow_urls = [\"https://calendar.example.com/feeds/\"]")?.items ?? []
        for prefix in prefixes {
            guard let url = URL(string: prefix), Origin(url) != nil, url.user == nil else {
                throw AlmanacError.usage(
                    // AlmanacError escapes control characters, so the entry can be echoed as it is.
                    "allow_urls: '\(prefix)' is not an http(s) URL prefix",
                    suggestion: "e.g. allow_urls = [\"https://calendar.example.com/feeds/\"] under [serve]")
            }
        }
        var fixed: [String: [IPAddress]] = [:]
        if let raw = settings.env("ALMANAC_RESOLVE") {
            guard let table = SystemResolver.table(raw) else {
                throw AlmanacError.usage(
                    "ALMANAC_RESOLVE must be name=address pairs",
                    suggestion: "e.g. ALMANAC_RESOLVE=dav.home=192.168.1.5")
            }
            fixed = table
        }
        return EgressPolicy(trust: .commandLine, allowedPrefixes: prefixes, resolver: SystemResolver(fixed: fixed))
    }

    /// The tools the operator offers untrusted callers: every tool, or those `ALMANAC_SERVE_TOOLS` /
    /// `[serve] tools` name, less those `ALMANAC_SERVE_DENY_TOOLS` / `[serve] deny_tools` name. An
    /// unknown name is an error, not ignored: a misspelt `deny_tools = ["raed"]` would otherwise
    /// leave the tool on.
    static func offeredTools(_ settings: Settings, registry: ToolRegistry) throws -> ToolRegistry {
        let allowed = try toolNames(settings, variable: "ALMANAC_SERVE_TOOLS", key: "tools", registry: registry)
        let denied = try toolNames(
            settings, variable: "ALMANAC_SERVE_DENY_TOOLS", key: "deny_tools", registry: registry)
        return ToolRegistry(
            registry.tools.filter { tool in
                (allowed?.contains(tool.name) ?? true) && !(denied?.contains(tool.name) ?? false)
                    && !((tool as? PluginTool)?.withheld ?? false)
            })
    }

    /// The tool names of one setting (the variable wins over the config key), nil when unset.
    static func toolNames(
        _ settings: Settings, variable: String, key: String, registry: ToolRegistry
    ) throws
        -> Set<String>?
    {
        guard
            let (names, source) = try settings.list(
                env: variable, config: "serve", key, example: "\(key) = [\"sports\", \"weather\"]")
        else { return nil }
        let known = registry.tools.map(\.name)
        var result = Set<String>()
        for name in names {
            guard let tool = registry.tool(named: name) else {
                // A plugin's tool whose plugin was not listed yet: `PLUGIN.TOOL`, the plugin configured.
                if PluginConfiguration.claims(name, settings) {
                    result.insert(name.lowercased())
                    continue
                }
                // AlmanacError escapes control characters, so the entry can be echoed as it is.
                throw AlmanacError.usage(
                    "\(source): unknown tool '\(name)'", suggestion: "tools: \(known.joined(separator: ", "))")
            }
            result.insert(tool.name)
        }
        return result
    }

    /// A tool context for one run by `trust`'s caller. With `search` switched off for untrusted
    /// callers, their runs get no web search either (the sports and weather fallbacks use it).
    public func context(trust: CallerTrust = .commandLine) -> ToolContext {
        let policy = egress.with(trust: trust)
        return ToolContext(
            coordinator: coordinator,
            environment: ProviderEnvironment(
                transport: transport, settings: settings, now: now, timeZone: timeZone, timeout: timeout,
                webSearch: policy.offers("search") ? webSearch : nil,
                state: trust == .commandLine ? state : ScopedStateStore(state, scope: policy.cacheScope), egress: policy
            ),
            fetchOptions: FetchOptions(readCache: !options.noCache, writeCache: true),
            logger: logger)
    }

    /// The same runtime (one coordinator, cache and transport) for one request of a long-running
    /// server: the clock read now unless `ALMANAC_NOW` fixes it, and the request's zone if given.
    func forRequest(timeZone zone: TimeZone? = nil) -> Runtime {
        var copy = self
        if settings.env("ALMANAC_NOW") == nil { copy.now = Date() }
        if let zone { copy.timeZone = zone }
        return copy
    }

    /// The same runtime for one caller of a front where writes are allowed: the tokens it is given
    /// are bound to `caller`, and `ask` asks the person behind it (MCP elicitation, a terminal).
    public func with(caller: String, ask: (@Sendable (String) async -> Bool?)? = nil) -> Runtime {
        var copy = self
        copy.egress.writes?.caller = caller
        copy.egress.writes?.ask = ask
        return copy
    }

    /// This runtime with writes by untrusted callers of `front` allowed when `[serve] allow_writes`
    /// names it (for `tools ask`, whose runtime also serves the router's trusted routes).
    public func allowingWrites(from front: String) throws -> Runtime {
        var copy = self
        if try Self.writeFronts(settings).contains(front) {
            copy.egress.writes = CallerWrites(front: front, tokens: WriteTokens())
        }
        return copy
    }

    /// The fronts whose untrusted callers may write (`[serve] allow_writes`, or
    /// `ALMANAC_ALLOW_WRITES`, space- or comma-separated): `serve`, `mcp`, `ask`; none by default.
    static func writeFronts(_ settings: Settings) throws -> Set<String> {
        let fronts = ["serve", "mcp", "ask"]
        guard
            let (names, source) = try settings.list(
                env: "ALMANAC_ALLOW_WRITES", config: "serve", "allow_writes", example: "allow_writes = [\"mcp\"]")
        else { return [] }
        var result = Set<String>()
        for name in names {
            guard fronts.contains(name.lowercased()) else {
                // AlmanacError escapes control characters, so the entry can be echoed as it is.
                throw AlmanacError.usage(
                    "\(source): unknown front '\(name)'", suggestion: "fronts: \(fronts.joined(separator: ", "))")
            }
            result.insert(name.lowercased())
        }
        return result
    }

    /// Parses CLI words for `tool` and runs it.
    public func run(tool name: String, words: [String]) async throws -> ToolResult {
        try await run(tool(resolving: name), words: words)
    }

    /// Runs `tool` with JSON arguments. JSON comes from callers Almanac does not trust (`tools
    /// serve`, `tools mcp`, a model's tool call): the arguments are checked against the schema such
    /// callers see, and the run reaches only what they may (docs/security.md).
    public func run(tool name: String, json: [String: JSONValue]) async throws -> ToolResult {
        try await run(publishedTool(name), json: json, strictTypes: false)
    }

    /// The tools untrusted callers see and may call, in the registry's order: every tool unless
    /// the operator switched some off for them (`[serve] tools`, `deny_tools`: docs/security.md).
    public var publishedTools: [any Tool] { offered.tools }

    /// The one-line refusal when `name` is a tool the operator switched off for untrusted
    /// callers (it exists but is not published), else nil.
    public func switchedOff(_ name: String) -> AlmanacError? {
        guard let tool = registry.tool(named: name), offered.tool(named: name) == nil else { return nil }
        let names = offered.tools.map(\.name)
        return AlmanacError.usage(
            "tool '\(tool.name)' is switched off for callers of tools serve, mcp or a model",
            suggestion: (names.isEmpty ? "no tools are offered" : "tools: \(names.joined(separator: ", "))")
                + "; the operator chooses them with [serve] tools and deny_tools (docs/security.md)")
    }

    /// The published tool `name`, else a one-line usage error naming the published ones.
    func publishedTool(_ name: String) throws -> any Tool {
        if let refusal = switchedOff(name) { throw refusal }
        return try offered.require(name)
    }

    /// `tool`'s schema as untrusted callers see it: what servers publish.
    public func publishedSchema(_ tool: any Tool) -> ToolSchema {
        tool.schema.visible(to: egress.with(trust: .untrusted))
    }

    static func seconds(
        _ settings: Settings, _ name: String, default fallback: Double, allowZero: Bool, maximum: Double
    ) throws -> Duration {
        guard let raw = settings.env(name) else { return .milliseconds(Int64(fallback * 1000)) }
        guard let value = Double(raw), value.isFinite, allowZero ? value >= 0 : value > 0, value <= maximum else {
            throw AlmanacError.usage(
                "\(name) must be a number of seconds\(allowZero ? " from 0" : " above 0") to \(Int(maximum)), got '\(raw)'",
                suggestion: "e.g. \(name)=\(Int(fallback))")
        }
        return .milliseconds(Int64((value * 1000).rounded()))
    }

    static func stateStore(
        shared: (any CacheStore & ProviderStateStore)?, disk: SQLiteCacheStore?
    )
        -> any ProviderStateStore
    {
        if let shared { return shared }
        if let disk { return disk }
        return MemoryStateStore()
    }

    static func cacheDirectory(environment: [String: String], settings: Settings) -> URL {
        if let directory = settings.env("ALMANAC_CACHE_DIR") { return URL(fileURLWithPath: directory) }
        if let xdg = settings.env("XDG_CACHE_HOME") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("almanac")
        }
        let home = settings.env("HOME") ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".cache/almanac")
    }
}
