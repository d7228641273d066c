import AlmanacCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The command line's answer to a write that needs confirming: ask on the terminal, or refuse.
enum TerminalConfirmation {
    /// Runs `body` with `words`; when the tool asks for confirmation, asks on the terminal (stdin
    /// and stderr both a terminal) and runs again with the confirming word, or throws the one-line
    /// refusal when there is no terminal or the answer is not yes.
    static func run<T>(_ words: [String], _ body: ([String]) async throws -> T) async throws -> T {
        do {
            return try await body(words)
        } catch let request as ConfirmationRequired {
            try decide(request)
            return try await body(words + [request.confirmWord])
        }
    }

    /// Asks on the terminal whether to make the write `request` previews: returns on yes, throws
    /// the one-line refusal when there is no terminal or the answer is not yes.
    static func decide(_ request: ConfirmationRequired) throws {
        guard let yes = ask("\(request.preview)\nWrite it?") else { throw request.refusal }
        guard yes else {
            throw AlmanacError.usage("\(request.tool): not written (not confirmed)", suggestion: nil)
        }
    }

    /// Puts `question` to the person at the terminal (stdin and stderr both a terminal): yes only
    /// for y or yes; nil when there is no terminal. The question is escaped, as a preview may
    /// quote a server's text.
    static func ask(_ question: String) -> Bool? {
        guard isatty(STDIN_FILENO) == 1, isatty(STDERR_FILENO) == 1 else { return nil }
        FileHandle.standardError.write(Data("\(TerminalText.escaped(question)) [y/N] ".utf8))
        let answer = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces).lowercased()
        return answer == "y" || answer == "yes"
    }
}
