import ArgumentParser

@main
struct Tools: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tools", abstract: "Fresh, compact facts for local LLMs.")
}
