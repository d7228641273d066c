import AlmanacCore
import AlmanacCurl
import AlmanacFixtures
import AlmanacRuntime
import ArgumentParser
import Foundation

extension Tools {
    /// `tools fixtures record|check`: recording real exchanges and watching upstream shapes drift.
    struct FixturesCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fixtures", abstract: "Record upstream exchanges into Fixtures/, or check them for drift.",
            subcommands: [Record.self, Check.self])

        struct Record: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract:
                    "Run a tool live and write its exchanges (secrets redacted) into Fixtures/<tool>/<provider>/.",
                discussion: "Example: tools fixtures record sports nba-tonight -- nba --tz America/New_York. "
                    + "Goldens are re-made offline afterwards: ALMANAC_RECORD=1 swift test.")

            @Argument(help: "The tool ('tools list' shows them).") var tool: String
            @Argument(help: "Scenario name: the file stem, e.g. nba-scoreboard-2025-06-05.") var scenario: String
            @Argument(parsing: .postTerminator, help: "The tool's own words after --.") var words: [String] = []
            @Option(help: "The Fixtures directory.") var dir = "Fixtures"

            func run() async throws {
                do {
                    guard scenario.range(of: "^[a-z0-9][a-z0-9._-]*$", options: .regularExpression) != nil else {
                        throw AlmanacError.usage(
                            "scenario '\(scenario)' is not a file stem",
                            suggestion: "use lower case, digits, '-', e.g. nba-tonight")
                    }
                    let recorder = Recorder()
                    let runtime = try Runtime.make(
                        options: RuntimeOptions(
                            noCache: true, wrapTransport: { RecordingTransport(inner: $0, recorder: recorder) }))
                    _ = try await runtime.run(tool: tool, words: words)
                    let written = try recorder.write(
                        into: URL(fileURLWithPath: dir).appendingPathComponent(tool), scenario: scenario,
                        settings: runtime.settings, providers: runtime.providers)
                    for path in written { printLine("wrote \(path)") }
                } catch {
                    throw fail(error)
                }
            }
        }

        struct Check: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Check recorded exchanges; with --live, re-fetch each and report upstream shape drift.",
                discussion: "Base URLs follow each provider's variable (tools list --providers shows them). "
                    + "Exit 0 when every scenario matches, 69 when any drifted or failed.")

            @Flag(help: "Re-fetch every recorded request from the upstream.") var live = false
            @Argument(help: "Only this tool's fixtures.") var tool: String?
            @Argument(help: "Only scenarios whose name contains this.") var scenario: String?
            @Option(help: "The Fixtures directory.") var dir = "Fixtures"

            func run() async throws {
                do {
                    let runtime = try Runtime.make()
                    let root = URL(fileURLWithPath: dir)
                    let scenarios = try FixtureScenario.all(in: root, tool: tool, matching: scenario)
                    guard !scenarios.isEmpty else {
                        throw AlmanacError.usage(
                            "no recorded exchanges match", suggestion: "see the *.exchange.json files under \(dir)")
                    }
                    var bad = 0
                    for item in scenarios {
                        let line = await item.check(
                            live: live, settings: runtime.settings, providers: runtime.providers,
                            timeout: runtime.attemptTimeout, transport: CurlTransport())
                        if !line.hasPrefix("ok"), !line.hasPrefix("skip") { bad += 1 }
                        printLine(line)
                    }
                    printLine(
                        "\(scenarios.count - bad) of \(scenarios.count) scenario\(scenarios.count == 1 ? "" : "s") ok or skipped"
                    )
                    if bad > 0 { throw ExitCode(69) }
                } catch let exit as ExitCode {
                    throw exit
                } catch {
                    throw fail(error)
                }
            }
        }
    }
}
