import AlmanacCore
import AlmanacLLM
import AlmanacRuntime
public import ArgumentParser
import Foundation

extension ToolCalling: ExpressibleByArgument {}

/// Options shared by the commands that take a question.
struct QuestionOptions: ParsableArguments {
    @Option(help: "Viewer time zone (IANA name, e.g. Europe/Lisbon). Default: TZ or the system zone.")
    var tz: String?

    @Flag(name: .customLong("no-cache"), help: "Ask providers even when a fresh cached answer exists.")
    var noCache = false

    @Argument(help: "The question, e.g. \"did the lakers win?\" (quote it, or pass several words).")
    var question: [String]

    var text: String { question.joined(separator: " ") }

    func validate() throws {
        if text.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("the question is empty; e.g. tools ask \"weather in Lisbon tomorrow\"")
        }
    }

    /// The runtime with every plugin's tools (plugins with no catalog listed now), so the router
    /// and the model see them as they see built-in tools.
    func runtime() async throws -> Runtime {
        let runtime = try await Runtime.make(options: RuntimeOptions(timeZone: tz, noCache: noCache)).listingPlugins()
        for warning in runtime.warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
        return runtime
    }
}

extension Tools {
    /// `tools route "question"`.
    struct RouteCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "route", abstract: "Show which tools a question is routed to (one 'tool words...' line each).")

        @OptionGroup var options: QuestionOptions

        func run() async throws {
            do {
                let runtime = try await options.runtime()
                let router = Router(registry: runtime.registry, now: runtime.now, timeZone: runtime.timeZone)
                let routes = router.route(options.text)
                printLine(routes.isEmpty ? "(no tool)" : routes.map(\.description).joined(separator: "\n"))
            } catch {
                throw fail(error)
            }
        }
    }

    /// `tools context "question"`.
    struct ContextCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "context",
            abstract: "Run the routed tools (in parallel) and print the exact context `tools ask` sends.")

        @OptionGroup var options: QuestionOptions

        @Option(
            help: "Token budget for the whole context, split across the tools (default \(PromptContext.defaultBudget))."
        )
        var budget: Int = PromptContext.defaultBudget

        @Flag(help: "Print the full prompt (system instructions around the context).")
        var prompt = false

        func validate() throws {
            guard budget > 0 else { throw ValidationError("--budget must be a positive number of tokens, e.g. 600") }
        }

        func run() async throws {
            do {
                let runtime = try await options.runtime()
                let router = Router(registry: runtime.registry, now: runtime.now, timeZone: runtime.timeZone)
                let context = await PromptContext.gather(
                    question: options.text, routes: router.route(options.text), runner: runtime)
                let text = context.render(budget: budget)
                printLine(prompt ? Prompt.system(context: text) + "\n\nQuestion: \(options.text)" : text)
            } catch {
                throw fail(error)
            }
        }
    }

    /// `tools ask "question"`.
    struct Ask: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Answer a question with a local llama.cpp server, streaming the answer.",
            discussion: """
                The servers are ALMANAC_LLM_URL or [llm] urls in priority order (default
                http://127.0.0.1:8080), any OpenAI-compatible /v1/chat/completions endpoint: llama-server,
                or python -m llama_cpp.server. The next is tried when one cannot be reached or answers 5xx.
                Exit status: 0 answered, 64 usage, 69 the answer broke off, 75 no server answered (the
                facts gathered are printed instead), 130 interrupted.
                """)

        @OptionGroup var options: QuestionOptions

        @Option(help: "Token budget for the context (default \(PromptContext.defaultBudget), for a 2k-context model).")
        var budget: Int = PromptContext.defaultBudget

        @Option(
            name: .customLong("tool-calling"),
            help: "router: Almanac picks the tools; native: the model does (OpenAI tools).")
        var toolCalling: ToolCalling = .router

        @Option(
            name: .customLong("tool-choice"), help: "With --tool-calling native: auto, none, required or a tool name.")
        var toolChoice: String?

        @Option(name: .customLong("max-tokens"), help: "Upper bound on answer tokens (default: the server's).")
        var maxTokens: Int?

        @Option(help: "Sampling temperature (default: the server's).")
        var temperature: Double?

        func validate() throws {
            guard budget > 0 else { throw ValidationError("--budget must be a positive number of tokens, e.g. 600") }
            if let maxTokens, maxTokens <= 0 { throw ValidationError("--max-tokens must be positive") }
        }

        func run() async throws {
            let asker: Asker
            do {
                let runtime = try await options.runtime()
                let clients = try LLMEndpoints.urls(from: runtime.settings).map { LLMClient(baseURL: $0) }
                guard let first = clients.first else { throw AlmanacError.internal("no LLM endpoint") }
                asker = Asker(
                    runner: try ConfirmingRunner(runtime), client: first, fallbacks: Array(clients.dropFirst()))
            } catch {
                throw fail(error)
            }
            let askOptions = AskOptions(
                budget: budget, toolCalling: toolCalling, toolChoice: toolChoice, maxTokens: maxTokens,
                temperature: temperature)
            let question = options.text
            let status = await Interruptible.run {
                _ = try await asker.ask(question, options: askOptions) { piece in
                    FileHandle.standardOutput.write(Data(piece.utf8))
                } note: { line in
                    FileHandle.standardError.write(Data("note: \(line)\n".utf8))
                }
            }
            if status != 0 { throw ExitCode(status) }
        }
    }

    /// `tools schema`.
    struct Schema: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the tools as OpenAI function schemas (the same argument schema as the CLI).")

        func run() async throws {
            do {
                // Plugins not yet listed are started and listed, so their tools are described too.
                let runtime = try await Runtime.make().listingPlugins()
                printLine(try OpenAITools.json(runtime.publishedTools, policy: runtime.egress.with(trust: .untrusted)))
            } catch {
                throw fail(error)
            }
        }
    }

    /// `tools mcp`: runs the MCP server binary, `tools-mcp`, from this binary's folder (see
    /// Sources/tools-mcp for why it is a binary of its own).
    struct MCPCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mcp",
            abstract: "Serve the tools over MCP on stdin/stdout (for Claude Desktop, editors, agents).")

        @Option(help: "Viewer time zone (IANA name). Default: TZ or the system zone.")
        var tz: String?

        @Option(help: "Token budget for each tool result's context text (default: unlimited).")
        var budget: Int?

        func run() throws {
            var arguments: [String] = []
            if let tz { arguments += ["--tz", tz] }
            if let budget { arguments += ["--budget", String(budget)] }
            throw fail(
                SiblingBinary.exec("tools-mcp", arguments: arguments, command: "tools mcp", what: "the MCP server"))
        }
    }
}

/// Runs an operation that Ctrl-C cancels: exit 0 when it finishes, 130 when interrupted, the
/// error's own status (with one line on stderr) when it fails.
enum Interruptible {
    static func run(_ operation: @escaping @Sendable () async throws -> Void) async -> Int32 {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        let task = Task { try await operation() }
        source.setEventHandler {
            task.cancel()
            // If something does not notice the cancellation, still leave promptly.
            DispatchQueue.global().asyncAfter(deadline: .now() + 3) {
                FileHandle.standardError.write(Data("\ninterrupted\n".utf8))
                exit(130)
            }
        }
        source.resume()
        defer { source.cancel() }
        do {
            try await task.value
            return 0
        } catch  where error is CancellationError || task.isCancelled {
            FileHandle.standardError.write(Data("\ninterrupted\n".utf8))
            return 130
        } catch let error as LLMError {
            // The server's own words may carry escape sequences: shown, not obeyed.
            FileHandle.standardError.write(Data("error: \(TerminalText.escaped(error.description))\n".utf8))
            return error.exitStatus
        } catch let none as NoModelAnswered {
            // Never nothing: the facts the model would have had, a note naming every server tried.
            FileHandle.standardOutput.write(Data((none.facts + "\n").utf8))
            FileHandle.standardError.write(Data("note: \(none.note)\n".utf8))
            return NoModelAnswered.exitStatus
        } catch {
            return fail(error).rawValue
        }
    }
}
