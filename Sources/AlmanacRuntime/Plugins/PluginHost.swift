import AlmanacCore
import Foundation
import Logging

/// The configured plugins of one process: their catalogs, their running programs (started on
/// first use, at most ``maxPerPlugin`` each, reused while alive) and what last went wrong.
actor PluginHost {
    /// Programs one plugin may run at once (calls beyond wait for one to be free).
    static let maxPerPlugin = 2

    nonisolated let configurations: [PluginConfiguration]
    private nonisolated let initialCatalogs: [String: PluginCatalog]
    nonisolated let parentEnvironment: [String: String]
    nonisolated let folder: URL?
    nonisolated let deadline: Duration
    private let logger: Logger
    private var catalogs: [String: PluginCatalog] = [:]
    private var idle: [String: [PluginConnection]] = [:]
    private var running: [String: Int] = [:]
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]
    private var lastErrors: [String: String] = [:] {
        didSet {
            for (name, error) in lastErrors where oldValue[name] != error { record(error: error, for: name) }
            for name in oldValue.keys where lastErrors[name] == nil { record(error: nil, for: name) }
        }
    }
    private var stopped = false
    /// When each idle program was last handed back (servers stop those idle past ``idleLimit``).
    private var idleSince: [ObjectIdentifier: ContinuousClock.Instant] = [:]
    private var reaper: Task<Void, Never>?
    /// How long a program may sit idle before it is stopped (`ALMANAC_PLUGIN_IDLE`, default 300 s).
    private nonisolated let idleLimit: Duration
    /// Plugins whose program failed, and when each may be started again.
    private var backoff: [String: PluginBackoff] = [:]
    /// The first wait after a failure (`ALMANAC_PLUGIN_BACKOFF`, default 1 s), doubled per failure in a row.
    private nonisolated let backoffBase: Duration
    /// Told when a program is started again after a failure (a server's metrics).
    nonisolated let observer = PluginObserver()

    /// Reads `[plugins.*]` and the stored catalogs (no program is started here).
    ///
    /// - Parameters:
    ///   - folder: where catalogs and the plugins' stderr logs live (`<cache>/plugins`), nil for none.
    ///   - deadline: how long a start, handshake or call may take.
    init(
        settings: Settings, parentEnvironment: [String: String], folder: URL?, deadline: Duration, now: Date,
        logger: Logger
    ) throws {
        configurations = try PluginConfiguration.all(settings)
        self.parentEnvironment = parentEnvironment
        self.folder = folder
        self.deadline = deadline
        self.logger = logger
        let idle = settings.env("ALMANAC_PLUGIN_IDLE").flatMap(Double.init).flatMap {
            $0 > 0 && $0 <= 86_400 ? $0 : nil
        }
        idleLimit = .milliseconds(Int64((idle ?? 300) * 1000))
        let base = settings.env("ALMANAC_PLUGIN_BACKOFF").flatMap(Double.init).flatMap {
            $0 > 0 && $0 <= 3600 ? $0 : nil
        }
        backoffBase = .milliseconds(Int64((base ?? 1) * 1000))
        var catalogs: [String: PluginCatalog] = [:]
        for configuration in configurations {
            let fingerprint = PluginCatalog.fingerprint(configuration, parentEnvironment: parentEnvironment)
            if let catalog = PluginCatalog.load(configuration.name, in: folder, fingerprint: fingerprint, now: now) {
                catalogs[configuration.name] = catalog
            }
        }
        self.catalogs = catalogs
        initialCatalogs = catalogs
    }

    /// The tools of every plugin whose catalog was valid when the process started (no program
    /// is started for them until one is called).
    nonisolated func listedTools() -> [PluginTool] {
        configurations.flatMap { configuration in
            initialCatalogs[configuration.name].map { Self.tools(configuration, $0, host: self) } ?? []
        }
    }

    private static func tools(
        _ configuration: PluginConfiguration, _ catalog: PluginCatalog, host: PluginHost
    ) -> [PluginTool] {
        var seen = Set<String>()
        return catalog.tools.compactMap { spec in
            let tool = PluginTool(configuration: configuration, spec: spec, host: host)
            return seen.insert(tool.name).inserted ? tool : nil
        }
    }

    /// The configuration of the plugin `name` names as `PLUGIN.TOOL`, if any.
    nonisolated func configuration(forTool name: String) -> PluginConfiguration? {
        guard let dot = name.firstIndex(of: ".") else { return nil }
        let plugin = name[..<dot].lowercased()
        return configurations.first { $0.name == plugin }
    }

    /// The plugin tool `name` when its plugin is configured but was not listed at start: the
    /// plugin is started and listed now (its catalog saved). Nil when no plugin claims the name
    /// or the plugin has no such tool.
    ///
    /// - Throws: ``AlmanacError`` (unavailable) naming the plugin when it cannot be started or listed.
    func discoverTool(named name: String) async throws -> PluginTool? {
        guard let configuration = configuration(forTool: name) else { return nil }
        let tools = try await list(configuration, toolName: name)
        return tools.first { $0.name == name.lowercased() }
    }

    /// Every plugin's tools, listing the plugins with no valid catalog; a plugin that fails is
    /// left out (its error kept for `tools plugin list`).
    func allTools() async -> [PluginTool] {
        var result: [PluginTool] = []
        for configuration in configurations {
            if let tools = try? await list(configuration, toolName: configuration.name) { result += tools }
        }
        return result
    }

    /// The plugin's tools from its catalog, listing it first when it has none.
    private func list(_ configuration: PluginConfiguration, toolName: String) async throws -> [PluginTool] {
        if let catalog = catalogs[configuration.name] { return Self.tools(configuration, catalog, host: self) }
        let started = ContinuousClock.now
        do {
            let connection = try await checkout(configuration)
            let specs: [PluginToolSpec]
            do {
                let deadline = deadline
                specs = try await Self.blocking(cancel: connection) {
                    try connection.listTools(deadline: deadline).compactMap(PluginToolSpec.init)
                }
                checkin(connection)
            } catch {
                connection.abort()
                checkin(connection)
                failed(configuration.name, error)
                throw error
            }
            let catalog = PluginCatalog(
                fingerprint: PluginCatalog.fingerprint(configuration, parentEnvironment: parentEnvironment),
                listedAt: Date(), tools: specs)
            catalog.save(configuration.name, in: folder)
            catalogs[configuration.name] = catalog
            backoff[configuration.name] = nil
            lastErrors[configuration.name] = nil
            record(error: nil, for: configuration.name)
            return Self.tools(configuration, catalog, host: self)
        } catch {
            let failure = Self.failure(error)
            if !(error is PluginBackingOff) { lastErrors[configuration.name] = failure.message }
            let elapsed = Int(PluginConnection.milliseconds(started.duration(to: .now)))
            throw AlmanacError.unavailable(
                tool: toolName,
                attempts: [
                    ProviderAttempt(
                        provider: configuration.name, outcome: failure.kind == .timeout ? .timeout : .failed,
                        milliseconds: elapsed, detail: "plugin \(configuration.name): \(failure.message)")
                ])
        }
    }

    /// Calls `tool` of `configuration`'s plugin with `arguments` within `deadline`.
    ///
    /// - Throws: ``ProviderFailure`` saying what went wrong (the coordinator records it).
    func call(
        _ configuration: PluginConfiguration, tool: String, arguments: [String: JSONValue], deadline: Duration
    ) async throws -> [String: JSONValue] {
        let connection: PluginConnection
        do {
            connection = try await checkout(configuration)
        } catch {
            let failure = Self.failure(error)
            if !(error is PluginBackingOff) { lastErrors[configuration.name] = failure.message }
            throw failure
        }
        do {
            let result = try await Self.blocking(cancel: connection) {
                try connection.callTool(tool, arguments: arguments, deadline: deadline)
            }
            checkin(connection)
            backoff[configuration.name] = nil
            if lastErrors[configuration.name] != nil { lastErrors[configuration.name] = nil }
            return result
        } catch let error as PluginError {
            checkin(connection)
            if error.code == -32602 || error.message.lowercased().contains("unknown tool") {
                // The plugin no longer has a tool it listed: list it again next time.
                catalogs[configuration.name] = nil
                PluginCatalog.remove(configuration.name, in: folder)
            }
            lastErrors[configuration.name] = error.failure.message
            throw error.failure
        } catch {
            connection.abort()
            checkin(connection)
            failed(configuration.name, error)
            let failure = Self.failure(error)
            lastErrors[configuration.name] = failure.message
            throw failure
        }
    }

    /// Starts (or lengthens) the plugin's backoff after its program failed; a cancelled call is
    /// not the program's fault.
    private func failed(_ name: String, _ error: any Error) {
        guard !(error is CancellationError), !(error is PluginBackingOff) else { return }
        backoff[name] = PluginBackoff.after(
            backoff[name], reason: Self.failure(error).message, base: backoffBase, now: .now, date: Date())
    }

    /// What last went wrong with each plugin (for `tools plugin list`).
    var errors: [String: String] { lastErrors }

    /// Stops every idle program; calls in flight finish and stop theirs.
    func shutdown() {
        stopped = true
        for (_, connections) in idle { for connection in connections { connection.close() } }
        idle = [:]
        idleSince = [:]
        reaper?.cancel()
        reaper = nil
    }

    // MARK: the pool

    private func checkout(_ configuration: PluginConfiguration) async throws -> PluginConnection {
        let name = configuration.name
        while true {
            while let connection = idle[name]?.popLast() {
                idleSince[ObjectIdentifier(connection)] = nil
                if connection.isUsable { return connection }
                connection.abort()
                running[name, default: 1] -= 1
            }
            if running[name, default: 0] < Self.maxPerPlugin { break }
            await withCheckedContinuation { waiting[name, default: []].append($0) }
        }
        // A program that just failed is not started again before its backoff ends.
        if let waiting = backoff[name], ContinuousClock.now < waiting.retryAt {
            wakeOne(name)
            throw PluginBackingOff(failure: waiting.refusal(now: .now))
        }
        let restart = backoff[name] != nil
        running[name, default: 0] += 1
        do {
            let environment = parentEnvironment
            let log = folder.map { Self.log(name, in: $0) }
            let deadline = deadline
            let connection = try await Self.blocking {
                try PluginConnection(
                    configuration: configuration, parentEnvironment: environment, log: log, deadline: deadline)
            }
            if restart { observer.restarted(name) }
            return connection
        } catch {
            running[name, default: 1] -= 1
            wakeOne(name)
            failed(name, error)
            throw error
        }
    }

    private func checkin(_ connection: PluginConnection) {
        let name = connection.plugin
        if connection.isUsable, !stopped {
            idle[name, default: []].append(connection)
            idleSince[ObjectIdentifier(connection)] = .now
            scheduleReaper()
        } else {
            connection.abort()
            running[name, default: 1] -= 1
        }
        wakeOne(name)
    }

    /// Stops, now and then, the programs idle past ``idleLimit``; ends when none is idle.
    private func scheduleReaper() {
        guard reaper == nil else { return }
        let pause = min(idleLimit, .seconds(30))
        reaper = Task { [weak self] in
            while true {
                try? await Task.sleep(for: pause)
                guard let self, await self.stopIdle() else { return }
            }
        }
    }

    /// Stops the programs idle past ``idleLimit``; whether any idle one is left.
    private func stopIdle() -> Bool {
        let now = ContinuousClock.now
        for (name, connections) in idle {
            var kept: [PluginConnection] = []
            for connection in connections {
                let since = idleSince[ObjectIdentifier(connection)] ?? now
                if since.duration(to: now) >= idleLimit || !connection.isUsable {
                    idleSince[ObjectIdentifier(connection)] = nil
                    connection.close()
                    running[name, default: 1] -= 1
                } else {
                    kept.append(connection)
                }
            }
            idle[name] = kept
        }
        if idle.values.allSatisfy(\.isEmpty) {
            reaper = nil
            return false
        }
        return true
    }

    private func wakeOne(_ name: String) {
        if var queue = waiting[name], !queue.isEmpty {
            let next = queue.removeFirst()
            waiting[name] = queue
            next.resume()
        }
    }

    /// The plugin's stderr log (`<cache>/plugins/NAME.log`), moved to `.log.1` past 4 MB.
    static func log(_ name: String, in folder: URL) -> URL {
        try? FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let log = folder.appendingPathComponent("\(name).log")
        if let size = (try? FileManager.default.attributesOfItem(atPath: log.path))?[.size] as? Int, size > 4 << 20 {
            let old = folder.appendingPathComponent("\(name).log.1")
            try? FileManager.default.removeItem(at: old)
            try? FileManager.default.moveItem(at: log, to: old)
        }
        return log
    }

    static func failure(_ error: any Error) -> ProviderFailure {
        switch error {
        case let failure as ProviderFailure: failure
        case let failure as PluginError: failure.failure
        case let refusal as PluginBackingOff: refusal.failure
        case is CancellationError: ProviderFailure(.timeout, "the call was cancelled")
        default: ProviderFailure(.network, "\(type(of: error))")
        }
    }

    /// Runs blocking work on a thread outside the cooperative pool (a kept one, see
    /// ``PluginThreads``); cancelling the task kills `cancel`'s program, which ends the work.
    static func blocking<T: Sendable>(
        cancel connection: PluginConnection? = nil, _ work: @escaping @Sendable () throws -> T
    ) async throws -> T {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                PluginThreads.shared.run { continuation.resume(with: Result { try work() }) }
            }
        } onCancel: {
            connection?.abort()
        }
    }
}
