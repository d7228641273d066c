import Foundation

/// The parameters a tool takes, described once for the CLI, `tools schema` (OpenAI) and MCP.
public struct ToolSchema: Sendable {
    /// Parameters in CLI order: positionals first, in the order they are filled.
    public var parameters: [ToolParameter]

    /// Creates a schema.
    public init(_ parameters: [ToolParameter]) {
        self.parameters = parameters
    }

    /// The parameter called `name`.
    public func parameter(named name: String) -> ToolParameter? {
        parameters.first { $0.name == name }
    }

    /// The parameters a caller under `policy` may pass: all of them on the command line; for
    /// untrusted callers none that names a file, and URL-taking ones only when the operator allowed
    /// some URL prefixes (docs/security.md). Servers publish this schema, and check calls against it.
    public func visible(to policy: EgressPolicy) -> ToolSchema {
        guard policy.trust == .untrusted else { return self }
        return ToolSchema(
            parameters.compactMap { parameter in
                let shown: Bool
                switch parameter.access {
                case .anyCaller: shown = true
                case .allowedURLs: shown = policy.callersMayNameURLs
                case .commandLineOnly, .skipsConfirmation: shown = false
                case .withTool(let tool): shown = policy.offers(tool)
                case .writes: shown = policy.mayWrite
                }
                guard shown else { return nil }
                // Words that write (calendar's `add`) leave a choice where writes are off.
                guard !policy.mayWrite, !parameter.writeChoices.isEmpty, case .choice(let values) = parameter.kind
                else { return parameter }
                var reading = parameter
                reading.kind = .choice(values.filter { !parameter.writeChoices.contains($0) })
                return reading
            })
    }

    /// Whether a call can ask for a write: an argument that writes, or a choice holding a word that
    /// writes (calendar's `add`). Servers mark such a tool destructive as a whole (docs/security.md).
    public var asksWrites: Bool {
        parameters.contains { parameter in
            guard case .choice(let values) = parameter.kind else { return parameter.access == .writes }
            return values.contains { parameter.writeChoices.contains($0) }
        }
    }

    /// Refuses, in one line, a write `policy`'s caller may not ask for: a word of a choice that
    /// writes (calendar's `add`) where writes are off for it (docs/security.md).
    public func checkWrites(_ json: [String: JSONValue], policy: EgressPolicy, tool: String) throws {
        guard !policy.mayWrite else { return }
        for parameter in parameters where !parameter.writeChoices.isEmpty {
            guard case .string(let text)? = json[parameter.name] else { continue }
            let word = text.lowercased()
            if parameter.writeChoices.contains(word) {
                throw CallerWrites.refusal(tool: tool, what: "'\(word)'")
            }
        }
    }

    /// Refuses, in one line, arguments `policy`'s caller may not pass although the tool has them.
    public func checkAccess(_ names: some Sequence<String>, policy: EgressPolicy, tool: String) throws {
        let visible = Set(visible(to: policy).parameters.map(\.name))
        for name in names where !visible.contains(name) {
            guard let parameter = parameter(named: name) else { continue }
            if parameter.access == .writes {
                throw CallerWrites.refusal(tool: tool, what: "argument '\(name)'")
            }
            if case .withTool(let other) = parameter.access {
                throw AlmanacError.usage(
                    "\(tool): argument '\(name)' is not available to callers of tools serve, mcp or a model (it uses the tool '\(other)', which is switched off for them)",
                    suggestion: "the operator chooses the tools with [serve] tools and deny_tools (docs/security.md)")
            }
            if parameter.access == .skipsConfirmation {
                throw AlmanacError.usage(
                    "\(tool): argument '\(name)' is the operator's alone (it skips the confirmation of a write)",
                    suggestion: "call without it: the answer is a preview with a token to pass as 'confirm'")
            }
            let what = parameter.access == .commandLineOnly ? "local files and hosts" : "URLs"
            throw AlmanacError.usage(
                "\(tool): argument '\(name)' is not available to callers of tools serve, mcp or a model (it names \(what))",
                suggestion:
                    "name a configured source instead; the operator decides what is reachable (docs/security.md)")
        }
    }

    /// A JSON Schema object (as used by OpenAI `parameters` and MCP `inputSchema`).
    public var jsonSchema: JSONValue {
        var properties: [String: JSONValue] = [:]
        for parameter in parameters {
            var property: [String: JSONValue] = ["description": .string(parameter.help)]
            switch parameter.kind {
            case .string: property["type"] = "string"
            case .integer: property["type"] = "integer"
            case .number: property["type"] = "number"
            case .boolean: property["type"] = "boolean"
            case .choice(let values):
                property["type"] = "string"
                property["enum"] = .array(values.map(JSONValue.string))
            }
            properties[parameter.name] = .object(property)
        }
        return .object([
            "type": "object",
            "properties": .object(properties),
            "required": .array(parameters.filter(\.isRequired).map { .string($0.name) }),
            "additionalProperties": false,
        ])
    }
}

/// One tool parameter.
public struct ToolParameter: Sendable {
    /// The value's type.
    public enum Kind: Sendable, Equatable {
        /// Free text.
        case string
        /// A whole number.
        case integer
        /// Any number.
        case number
        /// A switch; on the CLI `--name` alone sets it.
        case boolean
        /// One of a fixed set of words (matched case-insensitively on the CLI).
        case choice([String])
    }

    /// Who may pass the parameter (docs/security.md).
    public enum Access: Sendable, Equatable {
        /// Any caller: it names nothing on this machine or network.
        case anyCaller
        /// A URL: untrusted callers may pass it only when the operator allowed URL prefixes, and
        /// the tool checks the value against them.
        case allowedURLs
        /// A path, folder or host of the caller's choosing: the command line only.
        case commandLineOnly
        /// Hands its value to another tool (search's `read`): offered to untrusted callers only
        /// while that tool is, so a tool switched off for them stays off everywhere.
        case withTool(String)
        /// Asks for a write: offered to untrusted callers only where the operator allowed writes
        /// on their front (`[serve] allow_writes`).
        case writes
        /// Skips the confirmation of a write (`--yes`): the operator's alone; other callers
        /// confirm with a token or by elicitation.
        case skipsConfirmation
    }

    /// How the CLI fills the parameter.
    public enum Placement: Sendable, Equatable {
        /// `--name value` (or `--name=value`).
        case option
        /// The next positional word.
        case positional
        /// Every remaining positional word, joined with spaces (only as the last positional).
        case remainder
    }

    /// The name in JSON and `--name` on the CLI.
    public var name: String
    /// The type.
    public var kind: Kind
    /// One line for help texts and schemas.
    public var help: String
    /// Where it appears on the CLI.
    public var placement: Placement
    /// Whether it must be given.
    public var isRequired: Bool
    /// Extra CLI spellings (`-n`, `--count`).
    public var aliases: [String]
    /// Who may pass it.
    public var access: Access
    /// Words of a choice that ask for a write (calendar's `add`): left out for callers who may
    /// not write.
    var writeChoices: Set<String>

    /// Creates a parameter.
    public init(
        _ name: String, _ kind: Kind, help: String, placement: Placement = .option,
        required: Bool = false, aliases: [String] = [], access: Access = .anyCaller, writeChoices: Set<String> = []
    ) {
        self.access = access
        self.writeChoices = writeChoices
        self.name = name
        self.kind = kind
        self.help = help
        self.placement = placement
        self.isRequired = required
        self.aliases = aliases
    }
}

/// A parsed, type-checked argument value.
public enum ArgumentValue: Sendable, Hashable {
    /// Text (also choices, lowercased).
    case string(String)
    /// A whole number.
    case integer(Int)
    /// A number.
    case number(Double)
    /// A switch.
    case boolean(Bool)
}

/// Arguments for one tool run, checked against its ``ToolSchema``.
public struct ToolArguments: Sendable, Hashable {
    /// Values by parameter name.
    public var values: [String: ArgumentValue]

    /// Creates arguments from already-checked values.
    public init(_ values: [String: ArgumentValue] = [:]) {
        self.values = values
    }

    func string(_ name: String) -> String? {
        switch values[name] {
        case .string(let value): value
        case .integer(let value): String(value)
        case .number(let value): String(value)
        case .boolean(let value): String(value)
        case nil: nil
        }
    }

    func integer(_ name: String) -> Int? {
        switch values[name] {
        case .integer(let value): value
        case .number(let value): Int(exactly: value)
        case .string(let value): Int(value)
        default: nil
        }
    }

    func number(_ name: String) -> Double? {
        switch values[name] {
        case .number(let value): value
        case .integer(let value): Double(value)
        case .string(let value): Double(value)
        default: nil
        }
    }

    /// A switch value (absent means `false`).
    func flag(_ name: String) -> Bool {
        if case .boolean(let value) = values[name] { return value }
        return false
    }
}

extension ToolArguments {
    /// Parses CLI words (`nba --team lakers --next`) against `schema`.
    ///
    /// - Throws: ``AlmanacError/usage(_:suggestion:)`` naming the bad word and what would be right.
    public static func parse(cli words: [String], schema: ToolSchema, tool: String) throws -> ToolArguments {
        var (values, positionals) = try options(in: words, schema: schema, tool: tool)
        try assign(positionals, to: schema, values: &values, tool: tool)
        let arguments = ToolArguments(values)
        try arguments.checkRequired(schema, tool: tool)
        return arguments
    }

    /// The options' values (`--team lakers`, `--team=lakers`, `--next`) and the other words in order.
    private static func options(
        in words: [String], schema: ToolSchema, tool: String
    ) throws -> (values: [String: ArgumentValue], positionals: [String]) {
        var values: [String: ArgumentValue] = [:]
        var positionals: [String] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            if word == "--" {
                positionals.append(contentsOf: words[index...])
                break
            }
            guard word.hasPrefix("-"), word.count > 1, Double(word) == nil else {
                positionals.append(word)
                continue
            }
            var flagName = word
            var inlineValue: String?
            if let equals = word.firstIndex(of: "=") {
                flagName = String(word[..<equals])
                inlineValue = String(word[word.index(after: equals)...])
            }
            let parameter = try option(named: flagName, in: schema, tool: tool)
            if parameter.kind == .boolean, inlineValue == nil {
                values[parameter.name] = .boolean(true)
                continue
            }
            guard let raw = inlineValue ?? (index < words.count ? words[index] : nil) else {
                throw AlmanacError.usage(
                    "option '\(flagName)' needs a value", suggestion: "\(flagName) <\(parameter.help)>")
            }
            if inlineValue == nil { index += 1 }
            values[parameter.name] = try convert(raw, for: parameter, tool: tool)
        }
        return (values, positionals)
    }

    /// The option `flagName` (`--name` or an alias), or a usage error suggesting the closest one.
    private static func option(named flagName: String, in schema: ToolSchema, tool: String) throws -> ToolParameter {
        let options = schema.parameters.filter { $0.placement == .option }
        if let parameter = options.first(where: { "--" + $0.name == flagName || $0.aliases.contains(flagName) }) {
            return parameter
        }
        let optionNames = options.flatMap { ["--" + $0.name] + $0.aliases }
        throw AlmanacError.usage(
            "unknown option '\(flagName)' for \(tool)",
            suggestion: Suggest.closest(to: flagName, in: optionNames).map { "did you mean '\($0)'?" }
                ?? "options: \(optionNames.joined(separator: ", "))"
        )
    }

    /// Fills the positional parameters in order; a remainder parameter takes the rest.
    private static func assign(
        _ positionals: [String], to schema: ToolSchema, values: inout [String: ArgumentValue], tool: String
    ) throws {
        var remaining = positionals[...]
        for parameter in schema.parameters where parameter.placement != .option {
            guard let first = remaining.first else { break }
            if parameter.placement == .remainder {
                values[parameter.name] = .string(remaining.joined(separator: " "))
                remaining = []
                break
            }
            // An optional choice positional that does not match is left for the next positional.
            if case .choice(let choices) = parameter.kind, !parameter.isRequired,
                !choices.contains(first.lowercased())
            {
                continue
            }
            values[parameter.name] = try convert(first, for: parameter, tool: tool)
            remaining = remaining.dropFirst()
        }
        if let extra = remaining.first {
            throw AlmanacError.usage(
                "unexpected argument '\(extra)' for \(tool)", suggestion: "usage: \(usage(schema, tool: tool))")
        }
    }

    /// Builds arguments from JSON (MCP `arguments`, OpenAI tool-call `arguments`).
    public static func parse(json: [String: JSONValue], schema: ToolSchema, tool: String) throws -> ToolArguments {
        var values: [String: ArgumentValue] = [:]
        for (name, value) in json {
            guard let parameter = schema.parameter(named: name) else {
                let names = schema.parameters.map(\.name)
                throw AlmanacError.usage(
                    "unknown argument '\(name)' for \(tool)",
                    suggestion: Suggest.closest(to: name, in: names).map { "did you mean '\($0)'?" }
                        ?? "arguments: \(names.joined(separator: ", "))"
                )
            }
            switch value {
            case .null: continue
            case .string(let text): values[name] = try convert(text, for: parameter, tool: tool)
            case .number(let number):
                values[name] = try convert(
                    // Int(_:) traps beyond Int's range: only whole numbers well inside it are written as integers.
                    number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number),
                    for: parameter, tool: tool)
            case .bool(let flag):
                guard parameter.kind == .boolean else {
                    throw AlmanacError.usage("argument '\(name)' is not a switch", suggestion: parameter.help)
                }
                values[name] = .boolean(flag)
            default:
                throw AlmanacError.usage("argument '\(name)' must be a single value", suggestion: parameter.help)
            }
        }
        let arguments = ToolArguments(values)
        try arguments.checkRequired(schema, tool: tool)
        return arguments
    }

    /// A one-line usage string for `tool`.
    public static func usage(_ schema: ToolSchema, tool: String) -> String {
        var parts = ["tools run \(tool)"]
        for parameter in schema.parameters {
            let placeholder: String
            switch parameter.kind {
            case .choice(let values): placeholder = values.joined(separator: "|")
            case .boolean: placeholder = ""
            default: placeholder = "<\(parameter.name)>"
            }
            let body: String
            switch parameter.placement {
            case .option: body = "--\(parameter.name)" + (placeholder.isEmpty ? "" : " \(placeholder)")
            case .positional: body = placeholder.isEmpty ? "<\(parameter.name)>" : placeholder
            case .remainder: body = "<\(parameter.name)...>"
            }
            parts.append(parameter.isRequired ? body : "[\(body)]")
        }
        return parts.joined(separator: " ")
    }

    private func checkRequired(_ schema: ToolSchema, tool: String) throws {
        for parameter in schema.parameters where parameter.isRequired && values[parameter.name] == nil {
            throw AlmanacError.usage(
                "missing \(parameter.name) for \(tool)", suggestion: "usage: \(Self.usage(schema, tool: tool))")
        }
    }

    private static func convert(_ raw: String, for parameter: ToolParameter, tool: String) throws -> ArgumentValue {
        switch parameter.kind {
        case .string:
            return .string(raw)
        case .integer:
            guard let value = Int(raw) else {
                throw AlmanacError.usage(
                    "\(parameter.name) must be a whole number, got '\(raw)'", suggestion: parameter.help)
            }
            return .integer(value)
        case .number:
            guard let value = Double(raw), value.isFinite else {
                throw AlmanacError.usage("\(parameter.name) must be a number, got '\(raw)'", suggestion: parameter.help)
            }
            return .number(value)
        case .boolean:
            switch raw.lowercased() {
            case "true", "yes", "1", "on": return .boolean(true)
            case "false", "no", "0", "off": return .boolean(false)
            default:
                throw AlmanacError.usage("\(parameter.name) must be true or false, got '\(raw)'", suggestion: nil)
            }
        case .choice(let choices):
            let lowered = raw.lowercased()
            guard choices.contains(lowered) else {
                let guess = Suggest.closest(to: lowered, in: choices)
                throw AlmanacError.usage(
                    "\(tool): '\(raw)' is not a valid \(parameter.name)",
                    suggestion: (guess.map { "did you mean '\($0)'? " } ?? "")
                        + "expected one of: \(choices.joined(separator: ", "))"
                )
            }
            return .string(lowered)
        }
    }
}
