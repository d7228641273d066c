import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory --allow-network-connections all record-fixtures <tool> <scenario> [-- words...]`
///
/// Builds `tools` and runs `tools fixtures record <tool> <scenario> --dir <package>/Fixtures -- <words>`,
/// which writes `Fixtures/<tool>/<provider>/<scenario>.exchange.json` + `.response.json` with secrets
/// redacted. With no arguments it runs `tools fixtures check --live` instead (upstream drift report).
/// Goldens are re-made offline afterwards with `ALMANAC_RECORD=1 swift test` (never in CI).
@main
struct RecordFixtures: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let build = try packageManager.build(
            .product("tools"), parameters: .init(configuration: .debug, logging: .concise))
        guard build.succeeded,
            let tools = build.builtArtifacts.first(where: {
                $0.kind == .executable && $0.url.lastPathComponent == "tools"
            })
        else {
            Diagnostics.error("building tools failed:\n\(build.logText)")
            return
        }
        let fixtures = context.package.directoryURL.appendingPathComponent("Fixtures").path
        var words = arguments
        let passthrough: [String]
        if let separator = words.firstIndex(of: "--") {
            passthrough = Array(words[(separator + 1)...])
            words = Array(words[..<separator])
        } else {
            passthrough = []
        }
        let command: [String]
        switch words.count {
        case 0:
            command = ["fixtures", "check", "--live", "--dir", fixtures]
        case 1:
            command = ["fixtures", "check", "--live", words[0], "--dir", fixtures]
        default:
            command =
                ["fixtures", "record", words[0], words[1], "--dir", fixtures, "--"]
                + (passthrough.isEmpty ? Array(words.dropFirst(2)) : passthrough)
        }
        let process = Process()
        process.executableURL = tools.url
        process.arguments = command
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            Diagnostics.error(
                "tools \(command.prefix(2).joined(separator: " ")) exited with status \(process.terminationStatus)")
        }
    }
}
