import AlmanacCore
import Foundation

/// WMO weather interpretation codes (WMO 4677, as Open-Meteo's `weather_code` uses them) in plain
/// words: the shared sky vocabulary every forecast provider maps its own into.
enum WeatherCode {
    /// "light rain" for 61; "weather code N" for codes outside the WMO table.
    static func description(_ code: Int) -> String {
        switch code {
        case 0: "clear sky"
        case 1: "mainly clear"
        case 2: "partly cloudy"
        case 3: "overcast"
        case 45: "fog"
        case 48: "freezing fog"
        case 51: "light drizzle"
        case 53: "moderate drizzle"
        case 55: "dense drizzle"
        case 56: "light freezing drizzle"
        case 57: "dense freezing drizzle"
        case 61: "light rain"
        case 63: "moderate rain"
        case 65: "heavy rain"
        case 66: "light freezing rain"
        case 67: "heavy freezing rain"
        case 68: "light sleet"
        case 69: "sleet"
        case 71: "light snow"
        case 73: "moderate snow"
        case 75: "heavy snow"
        case 77: "snow grains"
        case 80: "light rain showers"
        case 81: "moderate rain showers"
        case 82: "violent rain showers"
        case 83: "light sleet showers"
        case 84: "sleet showers"
        case 85: "light snow showers"
        case 86: "heavy snow showers"
        case 95: "thunderstorm"
        case 96: "thunderstorm with light hail"
        case 99: "thunderstorm with heavy hail"
        default: "weather code \(code)"
        }
    }
}

/// Wind directions as compass points.
enum Compass {
    static let points = [
        "N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW",
    ]

    /// The 16-point compass name for a direction in degrees (0 = from the north).
    static func point(_ degrees: Double) -> String {
        guard degrees.isFinite else { return "?" }
        let normalized = degrees.truncatingRemainder(dividingBy: 360) + (degrees < 0 ? 360 : 0)
        let index = Int((normalized / 22.5).rounded()) % 16
        return points[index]
    }
}

/// Reads upstream's local wall-clock strings in the place's zone.
enum LocalTime {
    /// `2026-03-05T21:00` (or with seconds) read in `calendar`'s zone. Takes a prepared calendar:
    /// hourly series parse hundreds of these.
    static func instant(_ text: String, calendar: Calendar) -> Date? {
        let fields = text.split(whereSeparator: { $0 == "-" || $0 == "T" || $0 == ":" }).map { Int($0) }
        guard fields.count >= 5, fields.allSatisfy({ $0 != nil }), text.count >= 16,
            let year = fields[0], let month = fields[1], let day = fields[2], let hour = fields[3],
            let minute = fields[4], (1...12).contains(month), (1...31).contains(day), (0..<24).contains(hour),
            (0..<60).contains(minute)
        else { return nil }
        let second = fields.count > 5 ? fields[5] ?? 0 : 0
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == day else {
            return nil
        }
        return date
    }

    /// "2026-03-05T21:00:00-05:00": the local reading plus the offset, unambiguous for machines.
    static func iso(_ date: Date, calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let offset = calendar.timeZone.secondsFromGMT(for: date)
        let sign = offset < 0 ? "-" : "+"
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d%@%02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
            parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0, sign, abs(offset) / 3600, (abs(offset) % 3600) / 60)
    }
}

/// Number wording shared by the formatters.
enum Numbers {
    /// "32.4", "24" (no trailing ".0"), "-0.5".
    static func text(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        if rounded == rounded.rounded() { return String(Int(rounded)) }
        return String(format: "%.1f", rounded)
    }

    /// Precipitation amounts: two decimals below 1 ("0.11" inch, "0.3" mm), else one ("25", "6.6").
    static func amount(_ value: Double) -> String {
        guard abs(value) < 1 else { return text(value) }
        var text = String(format: "%.2f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// "40%".
    static func percent(_ value: Double) -> String {
        "\(Int(value.rounded()))%"
    }
}
