import AlmanacCore
import Testing

@testable import AlmanacRuntime

@Suite("plugins: a tool's input schema as command-line options")
struct PluginSchemaTests {
    /// mcp-server-git's `git_log` as it lists it (snake_case properties), plus a property whose
    /// dashed spelling is another property's name.
    let schema: JSONValue = .object([
        "type": .string("object"),
        "properties": .object([
            "repo_path": .object(["type": .string("string"), "title": .string("Repo Path")]),
            "max_count": .object(["type": .string("integer"), "default": .number(10)]),
            "a_b": .object(["type": .string("string")]),
            "a-b": .object(["type": .string("string")]),
        ]),
        "required": .array([.string("repo_path")]),
    ])

    @Test("--repo-path is read as repo_path, as command lines spell options; the schema's name still works")
    func dashedSpelling() throws {
        let parameters = PluginSchema.parameters(schema)
        let dashed = try ToolArguments.parse(
            cli: ["--repo-path", "/srv/repo", "--max-count=2"], schema: parameters, tool: "git.git_log")
        #expect(dashed.values["repo_path"] == .string("/srv/repo"))
        #expect(dashed.values["max_count"] == .integer(2))
        let named = try ToolArguments.parse(
            cli: ["--repo_path", "/srv/repo", "--max_count", "2"], schema: parameters, tool: "git.git_log")
        #expect(named == dashed)
    }

    @Test("a dashed spelling that is another property's name stays that property's")
    func noStolenName() throws {
        let parameters = PluginSchema.parameters(schema)
        let arguments = try ToolArguments.parse(
            cli: ["--repo_path", "/r", "--a-b", "dash", "--a_b", "under"], schema: parameters, tool: "x.y")
        #expect(arguments.values["a-b"] == .string("dash"))
        #expect(arguments.values["a_b"] == .string("under"))
    }
}
