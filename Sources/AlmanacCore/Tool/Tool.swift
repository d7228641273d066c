import Foundation

/// A domain tool (sports, weather, calendar, search) that turns arguments into a compact,
/// dated result an LLM can read.
///
/// Callers ask for a tool by name through a ``ToolRegistry``; a tool resolves its arguments into a
/// typed query, asks the ``Coordinator`` to run its providers in priority order, and returns a
/// ``ToolResult`` whose payload renders as context, JSON or text.
///
/// ## Implementation requirements
/// - `name` is stable: it appears on the CLI, in MCP, in OpenAI schemas and in JSON envelopes.
/// - `run` throws ``AlmanacError/usage(_:suggestion:)`` for bad input before any network call,
///   and lets the coordinator's ``AlmanacError`` for provider failures pass through unchanged.
public protocol Tool: Sendable {
    /// The stable name, e.g. `sports`.
    var name: String { get }
    /// One line saying what the tool answers.
    var summary: String { get }
    /// The tool's parameters, used for CLI parsing, `tools schema` and MCP `inputSchema`.
    var schema: ToolSchema { get }
    /// Every provider this tool may use, whatever the configuration (the registry reads these).
    var providerDescriptors: [ProviderDescriptor] { get }
    /// The providers this tool uses with the present configuration, in the order they are tried.
    func providers(in context: ToolContext) -> [ProviderInfo]
    /// Whether the tool can answer at all with the present configuration (e.g. an API key is set);
    /// `nil` when configured, else a one-line reason.
    func unconfiguredReason(in context: ToolContext) -> String?
    /// Whether web search stands in when the tool's own providers fail.
    var usesWebSearchFallback: Bool { get }
    /// The C libraries the tool opens on first use (`tools doctor` opens them up front). Default: none.
    var nativeLibraries: [NativeLibrary] { get }
    /// What the tool can be asked about, for `tools list TOOL [FILTER]` (sports: its leagues,
    /// optionally of one sport); nil when the tool has no such list.
    ///
    /// - Throws: ``AlmanacError`` (usage) for a filter the tool does not know.
    func choices(filter: String?) throws -> String?
    /// How the tool reads a clause of a question into its CLI words (the LLM router asks every
    /// tool); nil when it reads none. Default: nil.
    var questionReader: (any QuestionReader)? { get }
    /// What the tool is (takes a URL, heavy), for code that would otherwise test its name. Default: none.
    var traits: ToolTraits { get }
    /// Runs the tool.
    func run(_ arguments: ToolArguments, context: ToolContext) async throws -> ToolResult
}

extension Tool {
    /// Tools without configuration needs are always configured.
    public func unconfiguredReason(in context: ToolContext) -> String? { nil }

    /// Most tools open no C library of their own (libcurl is the transport's).
    public var nativeLibraries: [NativeLibrary] { [] }

    /// The chain that answers the tool's question: its configured main-role providers in priority
    /// order, then web search when one is configured (`tools list --providers` shows every role).
    public func providers(in context: ToolContext) -> [ProviderInfo] {
        let registry = ProviderRegistry(providerDescriptors)
        var list = registry.descriptors(forTool: name)
            .filter { $0.role == .main && $0.unconfiguredReason(context.settings) == nil }.map(\.info)
        if usesWebSearchFallback, let chain = context.environment.webSearch {
            for (index, searcher) in chain.searchers.enumerated() {
                list.append(
                    ProviderInfo(
                        name: searcher.providerName, priority: WebSearchFallbacks.firstPriority + index,
                        note: "web search fallback"))
            }
        }
        return list
    }

    /// A tool with no upstream of its own (a test double) has no descriptors.
    public var providerDescriptors: [ProviderDescriptor] { [] }

    /// Whether web search stands in when the tool's own providers fail (default: no).
    public var usesWebSearchFallback: Bool { false }

    /// Tools have no list of choices unless they say so.
    public func choices(filter: String?) throws -> String? { nil }
}

/// A provider's name and priority as shown by `tools list --providers`.
public struct ProviderInfo: Sendable, Hashable, Codable {
    /// Provider name, e.g. `espn`.
    var name: String
    /// Lower is tried first.
    var priority: Int
    /// A short note, e.g. "web search fallback".
    var note: String?

    /// Creates provider information.
    public init(name: String, priority: Int, note: String? = nil) {
        self.name = name
        self.priority = priority
        self.note = note
    }
}

/// The tools available to one process, keyed by name. Built explicitly and passed in (no global).
public struct ToolRegistry: Sendable {
    /// The tools in the order they were registered.
    public let tools: [any Tool]

    /// Creates a registry; later tools with a duplicate name are ignored.
    public init(_ tools: [any Tool]) {
        var seen = Set<String>()
        self.tools = tools.filter { seen.insert($0.name).inserted }
    }

    /// The tool called `name`, if any.
    public func tool(named name: String) -> (any Tool)? {
        tools.first { $0.name == name.lowercased() }
    }

    /// The tool called `name`, or a usage error listing the known tools.
    public func require(_ name: String) throws -> any Tool {
        if let tool = tool(named: name) { return tool }
        let names = tools.map(\.name)
        let guess = Suggest.closest(to: name, in: names)
        throw AlmanacError.usage(
            "unknown tool '\(name)'",
            suggestion: (guess.map { "did you mean '\($0)'? " } ?? "") + "tools: \(names.joined(separator: ", "))"
        )
    }
}
