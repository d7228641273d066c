public import AlmanacCore
public import Foundation

/// The LLM servers `tools ask` may use, in priority order (issue #31 item 21).
///
/// `ALMANAC_LLM_URL` (one URL, or several separated by commas or spaces) wins; else
/// `[llm] urls = [...]`; else `[llm] url = "..."`; else `http://127.0.0.1:8080`.
public enum LLMEndpoints {
    /// Where a server is looked for when nothing is configured.
    public static let defaultURL = "http://127.0.0.1:8080"

    /// The endpoints, validated and without repeats, first choice first.
    ///
    /// - Throws: a usage error naming the setting when an entry is not an http(s) URL, when the
    ///   list is empty, or when `[llm] url` and `[llm] urls` are both set.
    public static func urls(from settings: Settings) throws -> [URL] {
        let example = "[llm] urls = [\"http://127.0.0.1:8080\", \"http://127.0.0.1:8081\"]"
        var raw: [String]
        var source: String
        if let list = try settings.list(env: "ALMANAC_LLM_URL", config: "llm", "urls", example: example) {
            if list.source != "ALMANAC_LLM_URL", settings.config("llm", "url") != nil {
                throw AlmanacError.usage(
                    "[llm] url and [llm] urls are both set", suggestion: "keep one, e.g. \(example)")
            }
            (raw, source) = list
        } else if let one = settings.config("llm", "url") {
            guard case .string(let text) = one else {
                throw AlmanacError.usage("[llm] url must be a string", suggestion: "e.g. [llm] url = \"\(defaultURL)\"")
            }
            (raw, source) = ([text], "[llm] url")
        } else {
            (raw, source) = ([defaultURL], "the default")
        }
        raw = raw.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !raw.isEmpty else {
            throw AlmanacError.usage("\(source) names no LLM server", suggestion: "e.g. \(example)")
        }
        var urls: [URL] = []
        for text in raw {
            let url = try Settings.validBaseURL(text, variable: source, example: defaultURL)
            if !urls.contains(url) { urls.append(url) }
        }
        return urls
    }
}

/// Why one endpoint gave no answer, for the one-line notes.
struct EndpointFailure: Sendable, Equatable {
    /// The endpoint, e.g. `http://127.0.0.1:8080`.
    var url: String
    /// What went wrong.
    var error: LLMError

    init(url: String, error: LLMError) {
        self.url = url
        self.error = error
    }

    /// `http://127.0.0.1:8080: nothing listening`; the server's words escaped and cut short.
    var line: String {
        let what: String
        switch error.kind {
        case .serverDown: what = "nothing listening"
        case .http: what = "HTTP \(error.status.map(String.init) ?? "?"): \(error.detail ?? "")"
        default: what = error.description
        }
        let short = what.count > 160 ? String(what.prefix(159)) + "…" : what
        return "\(url): \(TerminalText.escaped(short))"
    }
}

/// No endpoint answered and nothing of an answer was printed: the facts gathered for the
/// question (the context the model would have had) stand in for the answer.
public struct NoModelAnswered: Error, Sendable {
    /// The context, as `tools context` prints it.
    public var facts: String
    /// Each endpoint tried, in order.
    var failures: [EndpointFailure]

    /// Exit status of `tools ask` when it printed the facts instead of an answer: EX_TEMPFAIL
    /// (sysexits.h), apart from 0 (answered), 64 (usage), 69 (a failure with nothing printed)
    /// and 70 (a bug), so a script can tell "facts only, ask again later" from both.
    public static let exitStatus: Int32 = 75

    /// One line for stderr naming every endpoint that failed.
    public var note: String {
        var line =
            "no LLM answered, so the facts gathered for the question are printed instead ("
            + failures.map(\.line).joined(separator: "; ") + ")"
        if !failures.isEmpty, failures.allSatisfy({ $0.error.kind == .serverDown }) {
            line +=
                "; start one, e.g. `llama-server -m model.gguf --port 8080`, or set ALMANAC_LLM_URL or [llm] urls"
        }
        return line
    }
}

extension LLMError {
    /// Whether the next endpoint is tried: the server could not be reached, the connection
    /// failed, or it answered 5xx. Any other answer is the server's word on this request.
    var failsOver: Bool {
        kind == .serverDown || kind == .network || (kind == .http && (status ?? 0) >= 500)
    }
}
