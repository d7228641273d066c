import AlmanacCore
import AlmanacMCP
import AlmanacRuntime
import ArgumentParser
import Foundation

/// `tools-mcp`: the MCP server behind `tools mcp`, in a binary of its own.
///
/// Why apart: the MCP SDK imports FoundationNetworking, which links libcurl and its ~25 shared
/// libraries into whatever binary holds it, and the dynamic loader then maps them at every start.
/// Without it, `tools` opens libcurl only when it fetches, so a call answered from the cache
/// starts ~4 ms sooner. `tools mcp` executes this binary from its own folder.
@main
struct ToolsMCP: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tools mcp",
        abstract: "Serve the tools over MCP on stdin/stdout (for Claude Desktop, editors, agents).",
        version: AlmanacVersion.current)

    @Option(help: "Viewer time zone (IANA name). Default: TZ or the system zone.")
    var tz: String?

    @Option(help: "Token budget for each tool result's context text (default: unlimited).")
    var budget: Int?

    func run() async throws {
        do {
            // Plugins are listed before the first tools/list (their tools are published as any tool).
            let runtime = try await Runtime.make(options: RuntimeOptions(timeZone: tz, front: "mcp"))
                .listingPlugins()
            // stderr is the log channel of a stdio MCP server; stdout carries the protocol only.
            for warning in runtime.warnings {
                FileHandle.standardError.write(Data("warning: \(TerminalText.escaped(warning))\n".utf8))
            }
            try await AlmanacMCPServer.serve(
                runtime: runtime, budget: budget, version: AlmanacVersion.current,
                maxLineBytes: try AlmanacMCPServer.maxLineBytes(runtime.settings))
            await runtime.stopPlugins()
            // Cache writes left for after the answers (write-behind) are stored before exit.
            await runtime.coordinator.flushCache()
        } catch let error as AlmanacError {
            FileHandle.standardError.write(Data((error.lines.joined(separator: "\n") + "\n").utf8))
            throw ExitCode(error.exitStatus)
        }
    }
}
