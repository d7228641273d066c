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
            var arguments: [String] = []
            if let host { arguments += ["--host", host] }
            if let port { arguments += ["--port", String(port)] }
            if let tz { arguments += ["--tz", tz] }
            if let budget { arguments += ["--budget", String(budget)] }
            throw fail(
                SiblingBinary.exec("tools-serve", arguments: arguments, command: "tools serve", what: "the HTTP server")
            )
        }
    }
}

/// The binaries `tools` hands a long-running command to (`tools-mcp`, `tools-serve`): they live in
/// this binary's folder and are executed in its place, so their libraries never load into a
/// `tools run` start.
enum SiblingBinary {
    /// The one step that puts every binary in place, named wherever one is missing.
    static let installStep =
        "run scripts/install in the Almanac checkout (builds tools, tools-mcp and tools-serve into ~/.local/bin)"

    /// Where `name` must be: beside the running `tools` (symbolic links resolved).
    static func path(_ name: String) -> String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// Replaces this process with `name` from this binary's folder; stdin, stdout and the
    /// environment pass on as they are. Returns only on failure, with the one-line error to throw.
    static func exec(_ name: String, arguments: [String], command: String, what: String) -> AlmanacError {
        let path = path(name)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        let reason = String(cString: strerror(errno))
        return AlmanacError.configuration(
            "\(command): cannot run \(what) \(path) (\(reason))",
            suggestion: "\(installStep), or build this one beside tools: swift build -c release --product \(name)")
    }
}
