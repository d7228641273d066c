import AlmanacCore
import AlmanacRuntime
import AlmanacServe
import ArgumentParser
import Foundation

/// `tools-serve`: the HTTP server behind `tools serve`, in a binary of its own (NIO, Hummingbird
/// and PostgresNIO would otherwise load at every `tools run` start).
@main
struct ToolsServe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tools serve",
        abstract: "Serve the tools over HTTP: OpenAPI tool server, MCP at /mcp, /metrics (docs/serve.md).",
        version: AlmanacVersion.current)

    @Option(help: "Address to bind (default 127.0.0.1; any other needs ALMANAC_SERVE_TOKEN).")
    var host: String?

    @Option(help: "TCP port (default 8765; 0 picks a free one, printed on stdout).")
    var port: Int?

    @Option(help: "Viewer time zone (IANA name) when a request names none. Default: ALMANAC_TZ/config/system.")
    var tz: String?

    @Option(help: "Token budget for each answer's context text (default: unlimited).")
    var budget: Int?

    func run() async throws {
        do {
            let environment = ProcessInfo.processInfo.environment
            let settings = try ConfigLoader.load(environment: environment)
            let configuration = try ServeConfiguration.resolve(
                host: host, port: port, budget: budget, settings: settings)
            var options = RuntimeOptions(timeZone: tz, front: "serve")
            var shared: PostgresCacheStore?
            if let url = settings.env("ALMANAC_CACHE_URL") {
                let store = try await PostgresCacheStore.connect(url: url)
                shared = store
                options.sharedStore = store
            }
            // Plugins are listed before the first request (their tools are published as any tool).
            let runtime = try await Runtime.make(environment: environment, options: options).listingPlugins()
            for warning in runtime.warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
            let cache = shared.map { "postgres \($0.location)" } ?? "sqlite"
            try await AlmanacServer.serve(
                runtime: runtime, configuration: configuration, version: AlmanacVersion.current
            ) {
                port in
                // One line for people and scripts (tests read the port from it).
                FileHandle.standardOutput.write(
                    Data("tools serve: listening on http://\(configuration.host):\(port) (cache: \(cache))\n".utf8))
            }
            await runtime.stopPlugins()
            // Cache writes left for after the answers (write-behind) are stored before exit.
            await runtime.coordinator.flushCache()
            shared?.close()
        } catch let error as AlmanacError {
            FileHandle.standardError.write(Data((error.lines.joined(separator: "\n") + "\n").utf8))
            throw ExitCode(error.exitStatus)
        }
    }
}
