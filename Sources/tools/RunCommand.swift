import AlmanacCore
import AlmanacRuntime
import ArgumentParser
import Foundation

extension Tools {
    /// `tools run <tool> [arguments...]`.
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run one tool and print its result.",
            discussion: "See 'tools list' for tools and 'tools run <tool> --help' for a tool's arguments.")

        @OptionGroup var output: OutputOptions

        @Argument(help: "The tool ('tools list' shows them, built-in and plugin tools).")
        var tool: String

        @Argument(parsing: .captureForPassthrough, help: "The tool's own arguments.")
        var words: [String] = []

        func run() async throws {
            let settings = OutputSettings(
                format: output.format, tz: output.tz, noCache: output.noCache, budget: output.budget)
            let status = await RunInvocation.execute(tool: tool, words: words, settings: settings)
            if status != 0 { throw ExitCode(status) }
        }
    }
}

/// Output options as plain values, so `tools run` can be served without ArgumentParser.
struct OutputSettings {
    var format: OutputFormat?
    var tz: String?
    var noCache = false
    var budget: Int?
}

/// The body of `tools run`, shared by the ArgumentParser command and the fast entry point.
enum RunInvocation {
    /// `tools run <tool> words...`, recognised before ArgumentParser: a warm cached answer is the
    /// common case and should cost no more than the process start. Anything else (help, no tool,
    /// an option before the tool) goes through ArgumentParser for its messages.
    static func fastArguments(_ arguments: [String]) -> (tool: String, words: [String])? {
        guard arguments.count >= 3, arguments[1] == "run", !arguments[2].hasPrefix("-") else { return nil }
        return (arguments[2], Array(arguments.dropFirst(3)))
    }

    /// Runs one tool and prints its result; returns the exit status.
    static func execute(tool: String, words rawWords: [String], settings: OutputSettings) async -> Int32 {
        var output = settings
        let words: [String]
        do {
            words = try GlobalWords.extract(from: rawWords, into: &output)
        } catch {
            return fail(error).rawValue
        }
        do {
            let runtime = try Runtime.make(options: RuntimeOptions(timeZone: output.tz, noCache: output.noCache))
            for warning in runtime.warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
            if words.contains("--help") || words.contains("-h") {
                let tool = try runtime.registry.require(tool)
                printLine(ToolHelp.text(for: tool))
                return 0
            }
            var call = ToolCall(tool: tool, input: .words(words))
            call.format = output.format ?? .context
            call.budget = output.budget
            call.confirm = { try TerminalConfirmation.decide($0) }
            return show(await runtime.answer(call))
        } catch {
            return fail(error).rawValue
        }
    }

    /// Prints an answer (the result on stdout, an error's lines on stderr); returns the exit status.
    static func show(_ answer: ToolAnswer) -> Int32 {
        switch answer.outcome {
        case .reply(let reply):
            printLine(reply.text)
            // Profile entries a tool could not use ([me] teams): data.warnings in JSON, and here.
            for warning in (reply.result.payload as? any PayloadWarnings)?.warnings ?? [] {
                FileHandle.standardError.write(Data("warning: \(TerminalText.escaped(warning))\n".utf8))
            }
            return 0
        case .confirm(let request):
            // Only when nobody decides: the words path always has the terminal's answer.
            return fail(request.refusal).rawValue
        case .failed(let failure):
            return fail(failure).rawValue
        }
    }
}

/// Pulls the global output options out of a tool's words, so they work anywhere on the line.
enum GlobalWords {
    static func extract(from words: [String], into output: inout OutputSettings) throws -> [String] {
        var rest: [String] = []
        var index = 0
        func value(_ name: String, _ inline: String?) throws -> String {
            if let inline { return inline }
            guard index < words.count else {
                throw AlmanacError.usage("option '\(name)' needs a value", suggestion: nil)
            }
            defer { index += 1 }
            return words[index]
        }
        while index < words.count {
            let word = words[index]
            index += 1
            if word == "--" {
                rest.append(contentsOf: words[(index - 1)...])
                break
            }
            let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
            let name = parts.first ?? word
            let inline = parts.count == 2 ? parts[1] : nil
            switch name {
            case "--format":
                let raw = try value(name, inline)
                guard let format = OutputFormat(rawValue: raw.lowercased()) else {
                    throw AlmanacError.usage(
                        "unknown format '\(raw)'", suggestion: "use --format context, json or text")
                }
                output.format = format
            case "--tz":
                output.tz = try value(name, inline)
            case "--no-cache":
                output.noCache = true
            case "--budget":
                let raw = try value(name, inline)
                guard let tokens = Int(raw), tokens > 0 else {
                    throw AlmanacError.usage(
                        "--budget must be a positive number of tokens, got '\(raw)'", suggestion: "e.g. --budget 400")
                }
                output.budget = tokens
            default:
                rest.append(word)
            }
        }
        return rest
    }
}

/// Help text generated from a tool's schema.
enum ToolHelp {
    static func text(for tool: any Tool) -> String {
        var lines = [
            "\(tool.name): \(tool.summary)", "", "usage: \(ToolArguments.usage(tool.schema, tool: tool.name))", "",
        ]
        for parameter in tool.schema.parameters {
            let name: String
            switch parameter.placement {
            case .option: name = (["--\(parameter.name)"] + parameter.aliases).joined(separator: ", ")
            case .positional, .remainder: name = "<\(parameter.name)>"
            }
            var help = parameter.help
            if case .choice(let values) = parameter.kind { help += " (\(values.joined(separator: "|")))" }
            lines.append("  " + name.padding(toLength: max(22, name.count + 2), withPad: " ", startingAt: 0) + help)
        }
        lines.append("")
        lines.append("  --format context|json|text, --tz ZONE, --no-cache, --budget TOKENS work with every tool.")
        return lines.joined(separator: "\n")
    }
}
