import AlmanacCore
import ArgumentParser
import Foundation

extension Tools {
    /// `tools serve`: runs the HTTP server binary, `tools-serve`, from this binary's folder. It is
    /// a binary of its own so that NIO and Hummingbird stay out of every `tools run` start.
    struct ServeCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Serve the tools over HTTP: OpenAPI tool server, MCP at /mcp, /metrics (docs/serve.md).")

        @Option(help: "Address to bind (default 127.0.0.1; any other needs ALMANAC_SERVE_TOKEN).")
        var host: String?

        @Option(help: "TCP port (default 8765).")
        var port: Int?

        @Option(help: "Viewer time zone (IANA name) when a request names none. Default: ALMANAC_TZ/config/system.")
        var tz: String?

        @Option(help: "Token budget for each answer's context text (default: unlimited).")
        var budget: Int?

        func run() throws {
            let server = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
                .deletingLastPathComponent().appendingPathComponent("tools-serve").path
            var arguments = [server]
            if let host { arguments += ["--host", host] }
            if let port { arguments += ["--port", String(port)] }
            if let tz { arguments += ["--tz", tz] }
            if let budget { arguments += ["--budget", String(budget)] }
            let argv = arguments.map { strdup($0) } + [nil]
            execv(server, argv)
            let reason = String(cString: strerror(errno))
            throw fail(
                AlmanacError.configuration(
                    "tools serve: cannot run the HTTP server \(server) (\(reason))",
                    suggestion: "build it beside tools: swift build -c release --product tools-serve"))
        }
    }
}
