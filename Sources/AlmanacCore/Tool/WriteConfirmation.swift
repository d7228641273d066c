import Foundation

/// A write a tool will not make until the caller confirms it: nothing has been changed.
///
/// The command line answers it by asking on the terminal (then runs the same words again with
/// `--yes`), or refuses in one line when there is no terminal to ask on.
public struct ConfirmationRequired: Error, Sendable, CustomStringConvertible {
    /// The tool that asks.
    public var tool: String
    /// One line saying exactly what would be written (item, calendar, local time and zone).
    public var preview: String
    /// The word that confirms on the command line.
    public var confirmWord: String

    /// Creates the request.
    public init(tool: String, preview: String, confirmWord: String = "--yes") {
        self.tool = tool
        self.preview = preview
        self.confirmWord = confirmWord
    }

    /// The one-line refusal when nobody can be asked.
    public var description: String {
        "\(tool): not written without confirmation: \(preview)"
    }

    /// The error the command line prints when it cannot ask (no terminal).
    public var refusal: AlmanacError {
        AlmanacError.usage(
            "\(tool): \(preview): not written (no terminal to ask on)",
            suggestion: "add \(confirmWord) to write without asking")
    }
}
