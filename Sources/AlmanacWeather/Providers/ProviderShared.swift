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

/// Plane geometry on (longitude, latitude) outlines, good for coarse regions (tens of km).
enum Geo {
    /// Whether the point is inside the closed outline (even-odd rule).
    static func contains(_ outline: [(Double, Double)], latitude: Double, longitude: Double) -> Bool {
        var inside = false
        var previous = outline[outline.count - 1]
        for point in outline {
            let (x1, y1) = previous
            let (x2, y2) = point
            if (y1 > latitude) != (y2 > latitude),
                longitude < x1 + (latitude - y1) / (y2 - y1) * (x2 - x1)
            {
                inside.toggle()
            }
            previous = point
        }
        return inside
    }

    /// Distance in km from the point to the polyline (equirectangular: fine at this scale).
    static func distanceToLine(latitude: Double, longitude: Double, _ line: [(Double, Double)]) -> Double {
        let kmPerDegree = 111.2
        let scale = cos(latitude * .pi / 180)
        func local(_ point: (Double, Double)) -> (Double, Double) {
            ((point.0 - longitude) * scale * kmPerDegree, (point.1 - latitude) * kmPerDegree)
        }
        var best = Double.infinity
        for (start, end) in zip(line, line.dropFirst()) {
            let (ax, ay) = local(start)
            let (bx, by) = local(end)
            let (dx, dy) = (bx - ax, by - ay)
            let length = dx * dx + dy * dy
            let t = length == 0 ? 0 : max(0, min(1, -(ax * dx + ay * dy) / length))
            best = min(best, hypot(ax + t * dx, ay + t * dy))
        }
        return best
    }
}
