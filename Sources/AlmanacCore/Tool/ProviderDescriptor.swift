public import Foundation

/// Everything the program knows about one provider, declared once beside the provider's code.
///
/// The tool's chain, `tools list --providers`, `tools doctor`, fixture recording and redaction, the
/// drift check, the fuzz targets, the fault matrix and the contract kit all read these values, so
/// adding a provider means writing its file and adding it to its tool's provider list.
///
/// ```swift
/// static let descriptor = ProviderDescriptor(
///     name: "met-norway", tool: "weather", priority: 10, summary: "MET Norway Locationforecast 2.0",
///     label: "MET Norway",
///     endpoints: [ProviderEndpoint(env: "ALMANAC_METNO_URL", defaultBase: "https://api.met.no")],
///     terms: UpstreamTerms(
///         userAgent: .contactRequired(config: ["weather", "contact"]), conditionalRequests: true,
///         attribution: "Data from MET Norway (CC BY 4.0)"),
///     probe: HealthProbe(path: "/weatherapi/locationforecast/2.0/status", essential: false))
/// ```
public struct ProviderDescriptor: Sendable {
    /// Stable name shown in attempts, JSON `provider` and listings, e.g. `open-meteo`.
    public var name: String
    /// The tool whose chain it belongs to, e.g. `weather`.
    public var tool: String
    /// What it answers within its tool (a tool may chain several kinds of lookup).
    public var role: ProviderRole
    /// Lower is tried first; ties keep list order.
    public var priority: Int
    /// One line for listings: what the upstream is.
    public var summary: String
    /// The provider as people name it in messages and summaries, e.g. `MET Norway`.
    public var label: String
    /// The upstream base URLs it speaks to (most have one).
    public var endpoints: [ProviderEndpoint]
    /// Secrets it uses, so recording, logs and errors redact them.
    public var secrets: [ProviderSecret]
    /// What the upstream's terms of use ask of a client.
    public var terms: UpstreamTerms
    /// A cheap request proving the upstream answers, for `tools doctor`; nil when there is none.
    public var probe: HealthProbe?
    /// The decoders of upstream bytes, fed arbitrary input by the fuzzer.
    public var decoders: [UpstreamDecoder]
    /// Nil when the provider can be used with `settings`, else a one-line reason (no key, no URL).
    public var unconfiguredReason: @Sendable (Settings) -> String?
    /// A call of the `tools` binary that reaches this provider first (the fault matrix runs it
    /// against a loopback server), with the environment it needs besides the base URL.
    var sampleCall: SampleCall?
    /// The folder under `Fixtures/<tool>/` its recorded exchanges live in (default: its name).
    public var fixtureFolder: String
    /// Headers a live request outside the provider needs (the drift check re-fetching a recorded
    /// URL): a key header, say. Nil when it cannot be made with `settings` (no key).
    public var liveRequestHeaders: @Sendable (Settings) -> [String: String]?

    /// Creates a descriptor.
    public init(
        name: String, tool: String, role: ProviderRole = .main, priority: Int, summary: String,
        label: String? = nil, endpoints: [ProviderEndpoint] = [], secrets: [ProviderSecret] = [],
        terms: UpstreamTerms = .init(), probe: HealthProbe? = nil, decoders: [UpstreamDecoder] = [],
        unconfiguredReason: @escaping @Sendable (Settings) -> String? = { _ in nil }, sampleCall: SampleCall? = nil,
        fixtureFolder: String? = nil,
        liveRequestHeaders: @escaping @Sendable (Settings) -> [String: String]? = { _ in [:] }
    ) {
        self.name = name
        self.tool = tool
        self.role = role
        self.priority = priority
        self.summary = summary
        self.label = label ?? name
        self.endpoints = endpoints
        self.secrets = secrets
        self.terms = terms
        self.probe = probe
        self.decoders = decoders
        self.unconfiguredReason = unconfiguredReason
        self.sampleCall = sampleCall
        self.fixtureFolder = fixtureFolder ?? name
        self.liveRequestHeaders = liveRequestHeaders
    }

    /// The listing entry for `tools list --providers`.
    var info: ProviderInfo {
        ProviderInfo(name: name, priority: priority, note: role == .main ? summary : "\(role.rawValue): \(summary)")
    }

    /// The base URL of endpoint `index` from its variable (or its default), validated.
    ///
    /// - Throws: ``AlmanacError`` (usage) when the variable is not an http(s) URL, or there is no
    ///   default and nothing is configured.
    public func baseURL(_ settings: Settings, endpoint index: Int = 0) throws -> URL {
        guard endpoints.indices.contains(index) else {
            throw AlmanacError.internal("\(name) has no endpoint \(index)")
        }
        return try endpoints[index].baseURL(settings)
    }
}

/// What a provider answers within its tool.
public struct ProviderRole: RawRepresentable, Sendable, Hashable, Codable {
    /// The role's name.
    public var rawValue: String
    /// Creates a role.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The tool's main answer (scores, forecast, events, results).
    public static let main = ProviderRole(rawValue: "main")
    /// Place names to coordinates.
    public static let geocoding = ProviderRole(rawValue: "geocoding")
    /// Web search standing in for another tool's upstream.
    public static let webFallback = ProviderRole(rawValue: "web search fallback")
}

/// One upstream base URL and the variable (or config value) that overrides it.
public struct ProviderEndpoint: Sendable, Hashable {
    /// The environment variable holding the base URL, e.g. `ALMANAC_ESPN_URL`.
    public var env: String
    /// `[section] key` in the config file that may hold it too (for self-hosted upstreams).
    public var config: [String]?
    /// The public upstream's base URL; nil for self-hosted upstreams with no default.
    public var defaultBase: String?

    /// Creates an endpoint.
    public init(env: String, config: [String]? = nil, defaultBase: String?) {
        self.env = env
        self.config = config
        self.defaultBase = defaultBase
    }

    /// The default base URL's host (what recorded fixtures name).
    public var defaultHost: String? { defaultBase.flatMap { URLComponents(string: $0)?.host } }

    /// The configured base URL: the variable, else the config value, else the default.
    public func configuredBase(_ settings: Settings) -> String? {
        if let value = settings.env(env) { return value }
        if let path = config, !path.isEmpty, let value = settings.config(path)?.stringValue, !value.isEmpty {
            return value
        }
        return defaultBase
    }

    /// The base URL, validated (no trailing slash).
    func baseURL(_ settings: Settings) throws -> URL {
        guard let raw = configuredBase(settings) else {
            throw AlmanacError.usage("\(env) is not set", suggestion: "set it to the upstream's base URL")
        }
        return try Settings.validBaseURL(raw, variable: env, example: defaultBase ?? "https://search.example.org")
    }
}

/// A secret a provider uses, by where it lives and where it travels.
public enum ProviderSecret: Sendable, Hashable {
    /// An environment variable holding it, e.g. `BRAVE_API_KEY`.
    case environment(String)
    /// A config file value holding it, e.g. `["brave", "api_key"]`.
    case config([String])
    /// A request header carrying it, e.g. `x-subscription-token`.
    case header(String)
    /// A query parameter carrying it.
    case queryParameter(String)
}

/// What an upstream's terms ask of a client.
public struct UpstreamTerms: Sendable, Hashable {
    /// The User-Agent the upstream requires.
    public var userAgent: UserAgentPolicy
    /// The shortest time between two requests from this machine (all processes), if limited.
    public var minimumInterval: Duration?
    /// Whether to send `If-Modified-Since`/`If-None-Match` and honour `Expires` (a 304 keeps the
    /// stored body).
    public var conditionalRequests: Bool
    /// Attribution the licence requires wherever the data is shown to people.
    public var attribution: String?

    /// Creates terms; the defaults ask nothing special.
    public init(
        userAgent: UserAgentPolicy = .standard, minimumInterval: Duration? = nil, conditionalRequests: Bool = false,
        attribution: String? = nil
    ) {
        self.userAgent = userAgent
        self.minimumInterval = minimumInterval
        self.conditionalRequests = conditionalRequests
        self.attribution = attribution
    }
}

/// Which User-Agent an upstream needs.
public enum UserAgentPolicy: Sendable, Hashable {
    /// Almanac's own identifying User-Agent is enough.
    case standard
    /// The User-Agent must carry a contact (an e-mail or URL) from this config path or the
    /// `ALMANAC_CONTACT` variable; the upstream refuses generic agents.
    case contactRequired(config: [String])
    /// Almanac's agent, with the contact from this config path or `ALMANAC_CONTACT` when one is
    /// set (the upstream asks for an identifying agent but serves without a contact).
    case contactWhenSet(config: [String])
}

/// A cheap request that proves an upstream answers; no key is sent.
public struct HealthProbe: Sendable, Hashable {
    /// Path and query appended to the endpoint's base URL.
    public var path: String
    /// Which endpoint (index into ``ProviderDescriptor/endpoints``).
    public var endpoint: Int
    /// Whether a failure makes `tools doctor` fail (else it warns).
    public var essential: Bool

    /// Creates a probe.
    public init(path: String, endpoint: Int = 0, essential: Bool = true) {
        self.path = path
        self.endpoint = endpoint
        self.essential = essential
    }
}

/// A decoder of upstream bytes, as the fuzzer drives it.
public struct UpstreamDecoder: Sendable {
    /// The fuzz target's name, e.g. `espn`.
    public var name: String
    /// Seed files, as paths relative to the package root with one `*` in the file name.
    public var seeds: [String]
    /// Decodes `data`; must return (it may fail inside), never trap or hang.
    public var run: @Sendable (Data) -> Void

    /// Creates a decoder entry.
    public init(name: String, seeds: [String], run: @escaping @Sendable (Data) -> Void) {
        self.name = name
        self.seeds = seeds
        self.run = run
    }
}

/// A `tools` call that reaches one provider, for the fault matrix.
public struct SampleCall: Sendable, Hashable {
    /// Words after `tools`, e.g. `["run", "sports", "nba", "--date", "2024-12-15"]`.
    public var words: [String]
    /// Extra environment (a fixed `ALMANAC_NOW`, a test key).
    public var environment: [String: String]

    /// The contact sample calls give upstreams that require one.
    static let testContact = "almanac-tests@example.org"

    /// Creates a sample call.
    public init(words: [String], environment: [String: String] = [:]) {
        self.words = words
        self.environment = environment
    }
}

/// Every provider the program has, in tool and priority order: the one list the CLI, doctor,
/// recording, fuzzing and the LLM router read.
public struct ProviderRegistry: Sendable {
    /// The descriptors, in the order given (tools' lists concatenated).
    public let descriptors: [ProviderDescriptor]

    /// Creates a registry; a later descriptor with a duplicate name is ignored.
    public init(_ descriptors: [ProviderDescriptor]) {
        var seen = Set<String>()
        self.descriptors = descriptors.filter { seen.insert($0.name).inserted }
    }

    /// The providers of `tool`, lowest priority value first (list order on ties).
    public func descriptors(forTool tool: String) -> [ProviderDescriptor] {
        descriptors.enumerated().filter { $0.element.tool == tool }
            .sorted { ($0.element.priority, $0.offset) < ($1.element.priority, $1.offset) }.map(\.element)
    }

    /// `descriptor`'s sample call as the fault matrix runs it: its own environment, plus what the
    /// providers tried after it in its role need to be tried at all (a contact for an upstream
    /// that refuses agents without one), so they fail on their own as in real use instead of
    /// being skipped. Each provider's sample call thus names only its own needs.
    public func sampleCall(for descriptor: ProviderDescriptor) -> SampleCall? {
        guard var call = descriptor.sampleCall else { return nil }
        let chain = descriptors(forTool: descriptor.tool).filter { $0.role == descriptor.role }
        guard let position = chain.firstIndex(where: { $0.name == descriptor.name }) else { return call }
        for later in chain[(position + 1)...] {
            if case .contactRequired = later.terms.userAgent, call.environment[UpstreamTerms.contactVariable] == nil {
                call.environment[UpstreamTerms.contactVariable] = SampleCall.testContact
            }
        }
        return call
    }

    /// The provider called `name`.
    func descriptor(named name: String) -> ProviderDescriptor? {
        descriptors.first { $0.name == name }
    }

    /// The provider and endpoint whose default host is `host`.
    public func endpoint(forDefaultHost host: String) -> (descriptor: ProviderDescriptor, endpoint: ProviderEndpoint)? {
        for descriptor in descriptors {
            for endpoint in descriptor.endpoints where endpoint.defaultHost == host {
                return (descriptor, endpoint)
            }
        }
        return nil
    }

    /// Request headers whose values are secrets (every provider's, plus the generic ones).
    var secretHeaders: Set<String> {
        var names = HTTPRequest.sensitiveHeaders
        for case .header(let name) in descriptors.flatMap(\.secrets) { names.insert(name.lowercased()) }
        return names
    }

    /// Query parameters whose values are secrets (every provider's, plus the generic ones).
    public var secretQueryParameters: Set<String> {
        var names: Set<String> = ["key", "api_key", "apikey", "token", "access_token", "password", "secret"]
        for case .queryParameter(let name) in descriptors.flatMap(\.secrets) { names.insert(name.lowercased()) }
        return names
    }

    /// The secret values configured in `settings` (to scrub from anything recorded or shown).
    public func secretValues(in settings: Settings) -> [String] {
        var values: [String] = []
        for secret in descriptors.flatMap(\.secrets) {
            switch secret {
            case .environment(let name): if let value = settings.env(name) { values.append(value) }
            case .config(let path):
                if let value = settings.config(path)?.stringValue, !value.isEmpty { values.append(value) }
            case .header, .queryParameter: break
            }
        }
        return Array(Set(values)).sorted()
    }

    /// Every fuzzable decoder, by target name.
    public var decoders: [UpstreamDecoder] {
        var seen = Set<String>()
        return descriptors.flatMap(\.decoders).filter { seen.insert($0.name).inserted }
    }
}
