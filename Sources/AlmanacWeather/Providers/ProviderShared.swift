import Foundation

// Helpers every weather provider shares (so adding a provider touches no other provider's file).

/// Coordinate rounding and wording shared by requests and cache keys.
enum Coordinate {
    /// Two decimals, half away from zero.
    static func round(_ value: Double) -> Double {
        (value * 100).rounded() / 100
    }

    /// "39.41", "12.5", "-104.99": the shortest text of the rounded value.
    static func text(_ value: Double) -> String {
        var text = String(format: "%.2f", round(value))
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}

/// Builds a provider URL with strict percent-encoding (`&`, `+`, `=` in a place name stay data).
enum ForecastURL {
    static let allowed: CharacterSet = {
        var set = CharacterSet.alphanumerics.intersection(
            CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        set.insert(charactersIn: "-._~,")
        return set
    }()

    static func make(base: URL, path: String, items: [(String, String)]) -> URL {
        let query = items.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)"
        }.joined(separator: "&")
        let text = base.absoluteString + path + "?" + query
        // The pieces are a validated base URL and percent-encoded ASCII, so this cannot fail.
        return URL(string: text) ?? base
    }
}
