import AlmanacCore
import Foundation

/// Removing secrets from what is recorded: every provider's declared secrets plus generic names.
enum Redaction {
    /// Response headers worth keeping; everything else (Set-Cookie, echoes, ids) is dropped.
    static let keptHeaders: Set<String> = [
        "content-type", "retry-after", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset",
        "last-modified",
        "expires", "etag",
    ]

    /// Secret values configured for this process (to scrub from bodies, should an upstream echo one).
    /// Values shorter than 4 characters are left out: replacing them would mangle ordinary text.
    static func secrets(in settings: Settings, providers: ProviderRegistry) -> [String] {
        providers.secretValues(in: settings).filter { $0.count >= 4 }
    }

    /// The URL without user info and with secret query values replaced by `REDACTED`.
    static func url(_ url: URL, providers: ProviderRegistry) -> String {
        let secretParameters = providers.secretQueryParameters
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "" }
        components.user = nil
        components.password = nil
        components.queryItems = components.queryItems?.map { item in
            secretParameters.contains(item.name.lowercased()) ? URLQueryItem(name: item.name, value: "REDACTED") : item
        }
        return components.string ?? ""
    }

    /// Only the ``keptHeaders`` (compared case-insensitively), names as received.
    static func headers(_ headers: [String: String]) -> [String: String] {
        headers.filter { keptHeaders.contains($0.key.lowercased()) }
    }

    /// `body` with every occurrence of each secret replaced by `REDACTED` (a body that is not
    /// UTF-8 text is returned as it is).
    static func body(_ body: Data, secrets: [String]) -> Data {
        guard !secrets.isEmpty, var text = String(data: body, encoding: .utf8) else { return body }
        for secret in secrets { text = text.replacingOccurrences(of: secret, with: "REDACTED") }
        return Data(text.utf8)
    }
}
