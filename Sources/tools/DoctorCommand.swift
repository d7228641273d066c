import AlmanacCore
import AlmanacCurl
import AlmanacLLM
import AlmanacRuntime
import ArgumentParser
import Foundation

extension Tools {
    /// `tools doctor`: one line per check, exit 0 when every essential check passes (else 69).
    struct Doctor: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check configuration, keys, the cache, each provider and the LLM server.",
            discussion: "Essential: config, cache, libcurl and every configured provider's upstream. "
                + "The LLM server (ALMANAC_LLM_URL, GET /health), missing keys and a missing tools-mcp or "
                + "tools-serve beside tools are reported, not required.")

        func run() async throws {
            let runtime: Runtime
            do {
                runtime = try Runtime.make()
            } catch {
                // Config problems are themselves the first check.
                printLine("fail  config: \(firstLine(error))")
                throw ExitCode(69)
            }
            let checks = await DoctorChecks(runtime: runtime).all()
            for check in checks { printLine(check.line) }
            if checks.contains(where: { $0.essential && $0.status == .fail }) { throw ExitCode(69) }
        }
    }
}

/// One doctor line.
/// The first line of an error, without the CLI's "error: " prefix.
func firstLine(_ error: any Error) -> String {
    let line = (error as? AlmanacError)?.lines.first ?? "\(error)"
    return line.hasPrefix("error: ") ? String(line.dropFirst(7)) : line
}

struct DoctorCheck: Sendable {
    enum Status: String, Sendable { case ok, warn, fail }
    var status: Status
    var name: String
    var detail: String
    var essential: Bool

    var line: String { "\(status.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0)) \(name): \(detail)" }
}

/// The checks behind `tools doctor`. Secrets are reported as present or absent, never shown.
struct DoctorChecks: Sendable {
    let runtime: Runtime
    /// Probes get a short deadline: the doctor must answer quickly when something is down.
    var probeTimeout: Duration { min(.seconds(3), runtime.attemptTimeout) }

    func all() async -> [DoctorCheck] {
        var checks = [config(), await cache()]
        checks += libraries()
        checks += siblings()
        checks += keys()
        checks += await plugins()
        // Every configured provider with a probe; no key is ever sent, so no quota is spent.
        for descriptor in runtime.providers.descriptors {
            guard let probe = descriptor.probe, descriptor.endpoints.indices.contains(probe.endpoint) else { continue }
            let endpoint = descriptor.endpoints[probe.endpoint]
            // Terms the upstream cannot be asked without (a contact in the User-Agent: a generic
            // agent is refused): say what to set rather than probe with an agent it turns away.
            if let reason = descriptor.terms.unconfiguredReason(runtime.settings, service: descriptor.summary) {
                checks.append(
                    DoctorCheck(status: .warn, name: descriptor.name, detail: reason + "; not probed", essential: false)
                )
                continue
            }
            if descriptor.unconfiguredReason(runtime.settings) != nil { continue }
            guard let base = endpoint.configuredBase(runtime.settings) else { continue }
            do {
                checks.append(
                    await reach(
                        descriptor.name, env: endpoint.env, fallback: base, path: probe.path,
                        essential: probe.essential,
                        transport: try probeTransport(descriptor)))
            } catch {
                checks.append(
                    DoctorCheck(
                        status: .fail, name: descriptor.name, detail: firstLine(error), essential: probe.essential))
            }
        }
        checks += await llm()
        return checks
    }

    func config() -> DoctorCheck {
        if let path = runtime.settings.configPath {
            return DoctorCheck(status: .ok, name: "config", detail: "read \(path)", essential: true)
        }
        return DoctorCheck(
            status: .ok, name: "config", detail: "no config file, using defaults and environment", essential: true)
    }

    /// The C libraries are opened on first use, so a missing one would only show at the first
    /// request or calendar: open them here. Which there are comes from the transport (libcurl,
    /// essential) and each tool's declarations; a library several tools open is one check that
    /// names all their uses.
    func libraries() -> [DoctorCheck] {
        var merged: [NativeLibrary] = []
        for library in [NativeLibrary.curl] + runtime.registry.tools.flatMap(\.nativeLibraries) {
            guard let index = merged.firstIndex(where: { $0.name == library.name }) else {
                merged.append(library)
                continue
            }
            merged[index].essential = merged[index].essential || library.essential
            if let use = library.usedFor {
                merged[index].usedFor = merged[index].usedFor.map { "\($0) and \(use)" } ?? use
            }
        }
        return merged.map { library in
            guard let failure = library.open() else {
                let opened = "\(library.opened()) opened"
                if let advice = library.advice() {
                    return DoctorCheck(
                        status: .warn, name: library.name, detail: "\(opened); \(advice)", essential: library.essential)
                }
                return DoctorCheck(status: .ok, name: library.name, detail: opened, essential: library.essential)
            }
            let uses = library.usedFor.map { " (\($0))" } ?? ""
            return DoctorCheck(
                status: library.essential ? .fail : .warn, name: library.name,
                detail: "cannot be opened: \(failure); install \(library.package)\(uses)", essential: library.essential)
        }
    }

    /// `tools mcp` and `tools serve` execute a binary of their own from this binary's folder; one
    /// missing there (a `tools` copied alone, or built with `--product tools` only) would only show
    /// when the command is run. A warning: `tools run` needs neither.
    func siblings() -> [DoctorCheck] {
        [("tools-mcp", "tools mcp"), ("tools-serve", "tools serve")].map { name, command in
            let path = SiblingBinary.path(name)
            if FileManager.default.isExecutableFile(atPath: path) {
                return DoctorCheck(status: .ok, name: name, detail: "\(path) (\(command))", essential: false)
            }
            return DoctorCheck(
                status: .warn, name: name,
                detail: "missing beside tools (\(path)), so \(command) cannot run; \(SiblingBinary.installStep)",
                essential: false)
        }
    }

    func keys() -> [DoctorCheck] {
        let context = runtime.context()
        return runtime.registry.tools.map { tool in
            if let reason = tool.unconfiguredReason(in: context) {
                return DoctorCheck(status: .warn, name: "\(tool.name) setup", detail: reason, essential: false)
            }
            let usesSecrets = tool.providerDescriptors.contains { descriptor in
                descriptor.unconfiguredReason(runtime.settings) == nil
                    && descriptor.secrets.contains { secret in
                        switch secret {
                        case .environment(let name): runtime.settings.env(name) != nil
                        case .config(let path): runtime.settings.config(path) != nil
                        case .header, .queryParameter: false
                        }
                    }
            }
            let detail = usesSecrets ? "key present (not shown)" : "nothing to configure"
            return DoctorCheck(status: .ok, name: "\(tool.name) setup", detail: detail, essential: false)
        }
    }

    func cache() async -> DoctorCheck {
        guard let disk = runtime.diskCache else {
            return DoctorCheck(
                status: .fail, name: "cache", detail: runtime.warnings.first ?? "cannot be opened", essential: true)
        }
        do {
            let health = try await disk.health()
            let status: DoctorCheck.Status = health.integrity == "ok" ? .ok : .fail
            return DoctorCheck(
                status: status, name: "cache",
                detail:
                    "\(disk.path), \(health.entries) entr\(health.entries == 1 ? "y" : "ies"), integrity \(health.integrity)",
                essential: true)
        } catch {
            return DoctorCheck(status: .fail, name: "cache", detail: "unreadable: \(error)", essential: true)
        }
    }

    /// The transport a probe of `descriptor`'s upstream goes through: the provider's own terms
    /// (its User-Agent with the contact, its minimum interval across processes), so the upstream
    /// sees the client it will serve. Conditional requests are left out: a probe must reach the
    /// upstream, never be answered from a stored copy.
    func probeTransport(_ descriptor: ProviderDescriptor) throws -> any HTTPTransport {
        var probing = descriptor
        probing.terms.conditionalRequests = false
        return try runtime.context().environment.transport(honouring: probing)
    }

    func reach(
        _ name: String, env: String, fallback: String, path: String, essential: Bool, transport: any HTTPTransport,
        base given: URL? = nil
    ) async -> DoctorCheck {
        let base: URL
        do {
            base = try given ?? runtime.settings.baseURL(env: env, default: fallback)
        } catch {
            return DoctorCheck(
                status: .fail, name: name, detail: firstLine(error), essential: essential)
        }
        guard let url = URL(string: base.absoluteString + path) else {
            return DoctorCheck(status: .fail, name: name, detail: "bad URL from \(env)", essential: essential)
        }
        let origin = "\(base.scheme ?? "http")://\(base.host ?? "")\(base.port.map { ":\($0)" } ?? "")"
        let started = Date()
        do {
            // Any HTTP answer proves the host is up; replay mode answers from Fixtures.
            let response = try await Deadline.run(probeTimeout) { [transport, probeTimeout] in
                try await transport.send(HTTPRequest(url: url), timeout: probeTimeout)
            }
            let ms = Int(Date().timeIntervalSince(started) * 1000)
            return DoctorCheck(
                status: .ok, name: name, detail: "reachable at \(origin) (HTTP \(response.status), \(ms) ms)",
                essential: essential)
        } catch {
            let reason: String
            switch error {
            case is DeadlineExceeded: reason = "no answer within \(probeTimeout)"
            case let failure as ProviderFailure: reason = failure.message
            default: reason = "could not connect"
            }
            return DoctorCheck(
                status: .fail, name: name, detail: "unreachable at \(origin): \(reason)", essential: essential)
        }
    }

    /// One check per LLM server `tools ask` may use (ALMANAC_LLM_URL or [llm] urls, in order).
    func llm() async -> [DoctorCheck] {
        let urls: [URL]
        do {
            urls = try LLMEndpoints.urls(from: runtime.settings)
        } catch {
            return [DoctorCheck(status: .warn, name: "llm", detail: firstLine(error), essential: false)]
        }
        var checks: [DoctorCheck] = []
        for (index, url) in urls.enumerated() {
            checks.append(await llm(urls.count == 1 ? "llm" : "llm \(index + 1)", url))
        }
        return checks
    }

    func llm(_ name: String, _ url: URL) async -> DoctorCheck {
        let check = await reach(
            name, env: "ALMANAC_LLM_URL", fallback: LLMEndpoints.defaultURL, path: "/health", essential: false,
            transport: runtime.transport, base: url)
        if check.status == .fail {
            return DoctorCheck(status: .warn, name: check.name, detail: check.detail, essential: false)
        }
        // llama.cpp answers 503 while the model loads.
        if !check.detail.contains("HTTP 200") {
            return DoctorCheck(status: .warn, name: name, detail: check.detail + ", not ready", essential: false)
        }
        return check
    }
}
