import AlmanacCore
import Foundation

/// Where one calendar comes from.
enum CalendarLocation: Sendable, Hashable {
    /// A local `.ics` file or a folder of them.
    case file(String)
    /// An http(s) feed (`webcal://` is read as `https://`, or `http://` on loopback hosts).
    case feed(URL)
    /// A CalDAV server (a calendar collection, a principal, or just the host: discovery finds the rest).
    case caldav(URL)
}

/// Basic-auth credentials. Never encoded, logged or printed; `description` hides the password.
struct Credentials: Sendable, Hashable, CustomStringConvertible {
    var username: String
    var password: String
    /// The operator allowed them over plain http to a host off this machine (`allow_insecure_auth`).
    var allowsPlainHTTP = false

    var description: String { "Credentials(username: \(username), password: <hidden>)" }

    /// Bound to `url`'s origin: sent there only, after its 401 (docs/security.md).
    func bound(to url: URL) -> BoundCredential? {
        BoundCredential.basic(username: username, password: password, for: url, allowsPlainHTTP: allowsPlainHTTP)
    }
}

/// One calendar as the user named it (config table or a one-off `--ics`/`--caldav`).
struct CalendarSource: Sendable, Hashable {
    /// The name shown in output (`work`, `holidays`, or the file name for `--ics`).
    var name: String
    /// Where it lives.
    var location: CalendarLocation
    /// CalDAV credentials, when configured.
    var credentials: Credentials?
    /// Whether the name came from the config (then several CalDAV collections show as `name/collection`).
    var configured: Bool

    /// The origin the operator named (a configured calendar's server, or any source given on the
    /// command line): reached whoever asks. Hosts found in its answers are vetted as data.
    func configuredOrigins(trust: CallerTrust) -> Set<Origin> {
        guard configured || trust == .commandLine else { return [] }
        switch location {
        case .file: return []
        case .feed(let url), .caldav(let url): return Origin(url).map { [$0] } ?? []
        }
    }
}

/// FNV-1a 64-bit, for cache and state keys that must not reveal the URL they stand for.
enum StableHash {
    static func hex(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// Reads calendar sources from the command line and `[calendars.NAME]` tables.
enum CalendarSources {
    /// Environment variables for one-off `--caldav` credentials.
    static let userVariable = "ALMANAC_CALDAV_USER"
    static let passwordVariable = "ALMANAC_CALDAV_PASSWORD"
    /// Set to 1 to let one-off `--caldav` credentials travel over plain http to a host off this machine.
    static let insecureVariable = "ALMANAC_ALLOW_INSECURE_AUTH"

    /// The sources a run uses: `--ics`/`--caldav` if given, else `--calendar NAME`, else every
    /// configured calendar.
    ///
    /// Untrusted callers (`policy.trust`) never name files, name URLs only under the operator's
    /// allowed prefixes, and never get the one-off CalDAV credentials from the environment.
    static func resolve(
        ics: String?, caldav: String?, calendar: String?, settings: Settings, policy: EgressPolicy = .commandLine
    ) throws -> [CalendarSource] {
        var sources: [CalendarSource] = []
        let untrusted = policy.trust == .untrusted
        if let ics {
            var source = try oneOffICS(ics)
            if untrusted {
                guard case .feed(let url) = source.location else {
                    throw AlmanacError.usage(
                        "ics: callers of tools serve, mcp or a model may not name local files or folders",
                        suggestion: "name a configured calendar with 'calendar' (docs/security.md)")
                }
                // The URL fetched is the normal form that was checked (no dot segments to escape by).
                source.location = .feed(try policy.checkCallerURL(url, argument: "ics"))
            }
            sources.append(source)
        }
        if let caldav {
            var url = try httpURL(caldav, option: "--caldav")
            if untrusted { url = try policy.checkCallerURL(url, argument: "caldav") }
            var credentials: Credentials?
            if !untrusted, let user = settings.env(userVariable) {
                credentials = Credentials(
                    username: user, password: settings.env(passwordVariable) ?? "",
                    allowsPlainHTTP: settings.env(insecureVariable) == "1")
            }
            sources.append(
                CalendarSource(
                    name: url.host ?? "caldav", location: .caldav(url), credentials: credentials, configured: false))
        }
        if !sources.isEmpty { return sources }

        let configured = try configuredSources(settings)
        if let calendar {
            guard let match = configured.first(where: { $0.name.lowercased() == calendar.lowercased() }) else {
                let names = configured.map(\.name)
                if names.isEmpty {
                    throw AlmanacError.configuration(
                        "no calendar named '\(calendar)': no calendars are configured",
                        suggestion:
                            "add [calendars.\(calendar)] with ics = \"PATH_OR_URL\" or caldav = \"URL\" to config.toml")
                }
                throw AlmanacError.usage(
                    "no calendar named '\(calendar)'",
                    suggestion: (Suggest.closest(to: calendar, in: names).map { "did you mean '\($0)'? " } ?? "")
                        + "configured: \(names.joined(separator: ", "))")
            }
            return [match]
        }
        guard !configured.isEmpty else {
            throw AlmanacError.configuration(
                "no calendar configured",
                suggestion:
                    "pass --ics FILE_OR_URL or --caldav URL, or add [calendars.NAME] with ics = \"...\" or caldav = \"...\" to config.toml"
            )
        }
        return configured
    }

    /// `[calendars.NAME]` tables, sorted by name.
    static func configuredSources(_ settings: Settings) throws -> [CalendarSource] {
        guard let table = settings.config("calendars")?.tableValue else { return [] }
        var sources: [CalendarSource] = []
        for name in table.keys.sorted() {
            guard let entry = table[name]?.tableValue else {
                throw AlmanacError.configuration(
                    "config [calendars.\(name)] is not a table",
                    suggestion: "write [calendars.\(name)] then ics = \"...\"")
            }
            if let ics = entry["ics"]?.stringValue {
                var source = try oneOffICS(ics, option: "[calendars.\(name)] ics")
                source.name = name
                source.configured = true
                sources.append(source)
            } else if let caldav = entry["caldav"]?.stringValue {
                let url = try httpURL(caldav, option: "[calendars.\(name)] caldav")
                var credentials: Credentials?
                if let user = entry["username"]?.stringValue {
                    var password = entry["password"]?.stringValue
                    if let variable = entry["password_env"]?.stringValue {
                        guard let value = settings.env(variable) else {
                            throw AlmanacError.configuration(
                                "calendar '\(name)': environment variable \(variable) (password_env) is not set",
                                suggestion: "export \(variable)=... or set password in a mode-0600 config.toml")
                        }
                        password = value
                    }
                    credentials = Credentials(
                        username: user, password: password ?? "",
                        allowsPlainHTTP: entry["allow_insecure_auth"] == .bool(true))
                }
                sources.append(
                    CalendarSource(name: name, location: .caldav(url), credentials: credentials, configured: true))
            } else {
                throw AlmanacError.configuration(
                    "calendar '\(name)' has neither ics nor caldav",
                    suggestion: "add ics = \"PATH_OR_URL\" or caldav = \"https://...\" under [calendars.\(name)]")
            }
        }
        return sources
    }

    static func oneOffICS(_ value: String, option: String = "--ics") throws -> CalendarSource {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        let lowered = trimmed.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || lowered.hasPrefix("webcal://")
            || lowered.hasPrefix("webcals://")
        {
            let url = try httpURL(webcalAsHTTP(trimmed), option: option)
            let stem = url.deletingPathExtension().lastPathComponent
            return CalendarSource(
                name: stem.isEmpty || stem == "/" ? (url.host ?? "feed") : stem, location: .feed(url), credentials: nil,
                configured: false)
        }
        guard !trimmed.isEmpty else {
            throw AlmanacError.usage(
                "\(option) needs a file, folder or URL", suggestion: "e.g. \(option) ~/calendar.ics")
        }
        var path = trimmed
        if path.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"] {
            path = home + path.dropFirst(1)
        }
        let url = URL(fileURLWithPath: path).standardizedFileURL
        return CalendarSource(
            name: url.deletingPathExtension().lastPathComponent, location: .file(url.path), credentials: nil,
            configured: false)
    }

    /// `webcal://` and `webcals://` links name an http(s) feed. `webcal://` does not say which, so
    /// it is read as https (feed URLs often carry a private token), except on this machine
    /// (localhost, 127.x.x.x, ::1): loopback servers seldom have a certificate and the traffic never
    /// leaves the host. Other text is returned unchanged.
    static func webcalAsHTTP(_ text: String) -> String {
        let lowered = text.lowercased()
        for scheme in ["webcals://", "webcal://"] where lowered.hasPrefix(scheme) {
            let rest = text.dropFirst(scheme.count)
            let host = URL(string: "https://" + rest)?.host?.lowercased().trimmingCharacters(
                in: CharacterSet(charactersIn: "[]"))
            let loopback = host == "localhost" || host == "::1" || host?.hasPrefix("127.") == true
            return (scheme == "webcal://" && loopback ? "http://" : "https://") + rest
        }
        return text
    }

    static func httpURL(_ text: String, option: String) throws -> URL {
        guard let url = URL(string: text.trimmingCharacters(in: .whitespaces)), let scheme = url.scheme?.lowercased(),
            ["http", "https"].contains(scheme), url.host != nil
        else {
            throw AlmanacError.usage(
                // Echo the text unless it may carry user:password@.
                "\(option) is not an http(s) URL" + (text.contains("@") ? "" : ": '\(text)'"),
                suggestion: "e.g. https://example.com/dav/calendars/me/")
        }
        return url
    }
}
