import AlmanacCore
import Foundation

/// A plugin tool's MCP `inputSchema` read as Almanac options, and the subset of JSON Schema that
/// plugin answers and arguments are checked against.
enum PluginSchema {
    /// The JSON Schema type of a property, the first one that is not `null`.
    static func type(of property: JSONValue) -> String? {
        guard case .object(let fields) = property else { return nil }
        switch fields["type"] {
        case .string(let name): return name
        case .array(let names):
            return names.compactMap { value -> String? in
                if case .string(let name) = value, name != "null" { return name }
                return nil
            }.first
        default:
            // `anyOf: [{type: X}, {type: null}]`, as pydantic writes optional fields.
            if case .array(let options) = fields["anyOf"] ?? fields["oneOf"] {
                return options.lazy.compactMap { type(of: $0) }.first { $0 != "null" }
            }
            return nil
        }
    }

    /// The options a plugin tool takes: one `--name` per property of its input schema. Arrays and
    /// objects are given as JSON text on the command line.
    static func parameters(_ inputSchema: JSONValue) -> ToolSchema {
        guard case .object(let schema) = inputSchema, case .object(let properties) = schema["properties"] else {
            return ToolSchema([])
        }
        var required: Set<String> = []
        if case .array(let names) = schema["required"] {
            for case .string(let name) in names { required.insert(name) }
        }
        return ToolSchema(
            properties.keys.sorted().map { name in
                let property = properties[name] ?? .null
                let fields = property.objectValue ?? [:]
                var help: String =
                    if case .string(let text) = fields["description"] ?? fields["title"] {
                        UntrustedText.clean(text, limit: 200)
                    } else { name }
                let kind: ToolParameter.Kind
                switch type(of: property) {
                case "integer": kind = .integer
                case "number": kind = .number
                case "boolean": kind = .boolean
                case "string":
                    // Lower-case words only: the command line matches choices in lower case.
                    if case .array(let values) = fields["enum"] {
                        let words = values.compactMap { value -> String? in
                            if case .string(let word) = value { return word }
                            return nil
                        }
                        kind =
                            words.count == values.count && words.allSatisfy { $0 == $0.lowercased() }
                            ? .choice(words) : .string
                    } else {
                        kind = .string
                    }
                case "array", "object":
                    kind = .string
                    help += " (JSON)"
                default: kind = .string
                }
                // `--repo-path` for `repo_path`, as command lines spell it (the schema's name stays
                // the one shown and sent), unless another property is called that.
                let dashed = name.replacingOccurrences(of: "_", with: "-")
                let aliases = dashed != name && properties[dashed] == nil ? ["--" + dashed] : []
                return ToolParameter(name, kind, help: help, required: required.contains(name), aliases: aliases)
            })
    }

    /// Checked arguments as the JSON object the plugin is called with: values of array and
    /// object properties parsed from their JSON text.
    ///
    /// - Throws: ``AlmanacError`` (usage) naming the argument and what the schema wants.
    static func callArguments(
        _ arguments: ToolArguments, inputSchema: JSONValue, tool: String
    ) throws -> [String: JSONValue] {
        let properties = inputSchema.objectValue?["properties"]?.objectValue ?? [:]
        var json: [String: JSONValue] = [:]
        for (name, value) in arguments.values {
            switch value {
            case .integer(let number): json[name] = .number(Double(number))
            case .number(let number): json[name] = .number(number)
            case .boolean(let flag): json[name] = .bool(flag)
            case .string(let text):
                let kind = properties[name].flatMap(type(of:))
                if kind == "array" || kind == "object" {
                    guard let parsed = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
                        throw AlmanacError.usage(
                            "\(tool): --\(name) must be JSON (an \(kind ?? "object"))",
                            suggestion: kind == "array"
                                ? "e.g. --\(name) '[\"a\", \"b\"]'" : "e.g. --\(name) '{\"a\": 1}'")
                    }
                    json[name] = parsed
                } else {
                    json[name] = .string(text)
                }
            }
        }
        if let problem = check(.object(json), against: inputSchema, root: inputSchema, path: "") {
            throw AlmanacError.usage(
                "\(tool): \(problem)", suggestion: "usage: \(ToolArguments.usage(parameters(inputSchema), tool: tool))")
        }
        return json
    }

    /// The first way `value` breaks `schema` (types, required, properties, additionalProperties
    /// false, items, enum, const, local `$ref`s, anyOf/oneOf), or nil when it does not; keywords
    /// outside that subset are not checked.
    static func check(
        _ value: JSONValue, against schema: JSONValue, root: JSONValue, path: String, depth: Int = 0
    )
        -> String?
    {
        guard depth < 32, case .object(let rules) = schema else { return nil }
        let here = path.isEmpty ? "the value" : "'\(path)'"
        if case .string(let reference) = rules["$ref"] {
            guard let target = resolve(reference, in: root) else { return nil }
            return check(value, against: target, root: root, path: path, depth: depth + 1)
        }
        if case .array(let options) = rules["anyOf"] ?? rules["oneOf"] {
            let fits = options.contains {
                check(value, against: $0, root: root, path: path, depth: depth + 1) == nil
            }
            if !fits { return "\(here) matches none of the allowed shapes" }
        }
        var types: [String] = []
        switch rules["type"] {
        case .string(let name): types = [name]
        case .array(let names): types = names.compactMap { if case .string(let name) = $0 { name } else { nil } }
        default: break
        }
        if !types.isEmpty, !types.contains(where: { matches(value, type: $0) }) {
            return "\(here) must be \(types.joined(separator: " or ")), got \(describe(value))"
        }
        if case .array(let allowed) = rules["enum"], !allowed.contains(value) {
            return "\(here) must be one of \(allowed.prefix(12).map(short).joined(separator: ", "))"
        }
        if let constant = rules["const"], constant != value {
            return "\(here) must be \(short(constant))"
        }
        switch value {
        case .object(let members):
            if case .array(let names) = rules["required"] {
                for case .string(let name) in names where members[name] == nil {
                    return "\(path.isEmpty ? "" : path + ".")\(name) is missing"
                }
            }
            let properties = rules["properties"]?.objectValue ?? [:]
            for (name, member) in members.sorted(by: { $0.key < $1.key }) {
                let inner = path.isEmpty ? name : "\(path).\(name)"
                if let rule = properties[name] {
                    if let problem = check(member, against: rule, root: root, path: inner, depth: depth + 1) {
                        return problem
                    }
                } else if rules["additionalProperties"] == .bool(false) {
                    return "'\(inner)' is not allowed (not in the schema)"
                } else if let rule = rules["additionalProperties"], case .object = rule,
                    let problem = check(member, against: rule, root: root, path: inner, depth: depth + 1)
                {
                    return problem
                }
            }
        case .array(let items):
            if let rule = rules["items"] {
                for (index, item) in items.enumerated() {
                    if let problem = check(
                        item, against: rule, root: root, path: "\(path)[\(index)]", depth: depth + 1)
                    {
                        return problem
                    }
                }
            }
        default: break
        }
        return nil
    }

    private static func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string), ("array", .array),
            ("object", .object):
            return true
        case ("integer", .number(let number)): return number.rounded() == number
        default: return false
        }
    }

    private static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    private static func short(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): "'\(UntrustedText.clean(text, limit: 40))'"
        case .number(let number): number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : "\(number)"
        case .bool(let flag): String(flag)
        default: describe(value)
        }
    }

    /// `#/$defs/Name` (or any local JSON pointer) within `root`.
    private static func resolve(_ reference: String, in root: JSONValue) -> JSONValue? {
        guard reference.hasPrefix("#") else { return nil }
        var current = root
        for part in reference.dropFirst().split(separator: "/") {
            let key = part.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            guard case .object(let members) = current, let next = members[key] else { return nil }
            current = next
        }
        return current
    }
}
