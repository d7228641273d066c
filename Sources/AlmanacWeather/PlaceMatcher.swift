import AlmanacCore
import Foundation

/// A place as typed: a name plus optional qualifiers ("Paris, TX" → "Paris" + ["TX"]).
struct PlaceText: Sendable, Hashable {
    /// The name looked up upstream.
    var name: String
    /// Country codes, country names or first-level areas (incl. US state abbreviations).
    var qualifiers: [String]

    /// Splits "Springfield, Illinois" at commas; whitespace is collapsed.
    init(_ text: String) {
        let parts = text.split(separator: ",").map { Self.collapse(String($0)) }.filter { !$0.isEmpty }
        name = parts.first ?? ""
        qualifiers = Array(parts.dropFirst())
    }

    /// The text as the user meant it: "Paris, TX".
    var display: String { ([name] + qualifiers).joined(separator: ", ") }

    /// The geocoding cache key part: lowercased, single spaces.
    var cacheKey: String { name.lowercased() }

    /// The name as sent to the geocoder: typed all in lower case ("frederick", "new york"), each
    /// word capitalised. Geocoders ignore case, and the cache key already does: this makes the
    /// request one function of the key, not of whoever asked first.
    var lookupName: String {
        guard name == name.lowercased() else { return name }
        return name.split(separator: " ", omittingEmptySubsequences: false).map { word in
            word.prefix(1).uppercased() + word.dropFirst()
        }.joined(separator: " ")
    }

    static func collapse(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

/// Picks the place a user meant from geocoding candidates.
///
/// Rules, in order: candidates must satisfy every qualifier (country code, country name,
/// first-level area, its US/Canadian/Australian abbreviation, or second-level area); among
/// those, an exact name match (ignoring case and accents) beats a partial one, then the larger
/// population wins, then upstream's order.
enum PlaceMatcher {
    /// The outcome of a choice.
    struct Choice: Sendable, Equatable {
        /// The place used.
        var place: GeoPlace
        /// Other places with the same name the user may have meant (at most two), shown so a
        /// wrong pick is visible; empty when the user qualified the name.
        var alternatives: [GeoPlace]
    }

    /// Chooses among `candidates` for `text`.
    ///
    /// - Throws: ``AlmanacError/usage(_:suggestion:)`` when nothing matches.
    ///   - answeredBy: The geocoder whose (empty) answer is used, as people name it.
    ///   - failed: The geocoders that failed before it, each "NAME: what failed".
    static func choose(
        _ text: PlaceText, from candidates: [GeoPlace], answeredBy: String = "Open-Meteo geocoding",
        failed: [String] = []
    ) throws -> Choice {
        guard !candidates.isEmpty else {
            let failures = failed.isEmpty ? "" : "; failed: " + failed.joined(separator: "; ")
            throw AlmanacError.usage(
                "no place called '\(text.name)' was found (\(answeredBy) has no match\(failures))",
                suggestion: "check the spelling, add a country or state ('Paris, FR', 'Paris, TX'), or use --lat/--lon")
        }
        let matching = candidates.enumerated().filter { _, place in
            text.qualifiers.allSatisfy { qualifier in matches(qualifier, place) }
        }
        guard !matching.isEmpty else {
            let found = candidates.prefix(4).map(\.displayName).joined(separator: "; ")
            throw AlmanacError.usage(
                "no '\(text.name)' in '\(text.qualifiers.joined(separator: ", "))' was found; found: \(found)",
                suggestion:
                    "qualify with a country code, country or state as Open-Meteo names it, e.g. '\(text.name), \(candidates[0].countryCode ?? "US")'"
            )
        }
        let wanted = fold(text.name)
        let ranked = matching.sorted { left, right in
            let leftExact = fold(left.element.name) == wanted
            let rightExact = fold(right.element.name) == wanted
            if leftExact != rightExact { return leftExact }
            let leftPopulation = left.element.population ?? 0
            let rightPopulation = right.element.population ?? 0
            if leftPopulation != rightPopulation { return leftPopulation > rightPopulation }
            return left.offset < right.offset
        }.map(\.element)
        let chosen = ranked[0]
        var alternatives: [GeoPlace] = []
        if text.qualifiers.isEmpty {
            // Nominatim lists one place several times (the city, its boundary, its centre): an
            // alternative is another place, not the same name a few kilometres away.
            for place in ranked.dropFirst() where fold(place.name) == fold(chosen.name) && alternatives.count < 2 {
                let seen = [chosen] + alternatives
                if !seen.contains(where: { kilometres($0, place) < 25 }) { alternatives.append(place) }
            }
        }
        return Choice(place: chosen, alternatives: alternatives)
    }

    /// Great-circle distance, km.
    static func kilometres(_ a: GeoPlace, _ b: GeoPlace) -> Double {
        let radians = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * radians
        let dLon = (b.longitude - a.longitude) * radians
        let h = pow(sin(dLat / 2), 2) + cos(a.latitude * radians) * cos(b.latitude * radians) * pow(sin(dLon / 2), 2)
        return 2 * 6371 * asin(min(1, sqrt(h)))
    }

    /// Whether `qualifier` names the place's country or area.
    static func matches(_ qualifier: String, _ place: GeoPlace) -> Bool {
        let folded = fold(qualifier)
        let upper = qualifier.uppercased()
        if let code = place.countryCode?.uppercased() {
            if code == upper || countryAliases[folded] == code { return true }
            if let area = areaAbbreviations[code]?[upper], let admin1 = place.admin1, fold(admin1) == fold(area) {
                return true
            }
        }
        for field in [place.country, place.admin1, place.admin2] {
            if let field, fold(field) == folded { return true }
        }
        return false
    }

    /// Case- and accent-insensitive form.
    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: Locale(identifier: "en_US_POSIX"))
            .trimmingCharacters(in: .whitespaces)
    }

    static let countryAliases: [String: String] = [
        "usa": "US", "u.s.": "US", "u.s.a.": "US", "america": "US", "united states of america": "US",
        "uk": "GB", "u.k.": "GB", "britain": "GB", "great britain": "GB",
    ]

    /// First-level area abbreviations by country, as people write them after a town name.
    static let areaAbbreviations: [String: [String: String]] = [
        "US": [
            "AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California",
            "CO": "Colorado", "CT": "Connecticut", "DE": "Delaware", "DC": "District of Columbia",
            "FL": "Florida", "GA": "Georgia", "HI": "Hawaii", "ID": "Idaho", "IL": "Illinois", "IN": "Indiana",
            "IA": "Iowa", "KS": "Kansas", "KY": "Kentucky", "LA": "Louisiana", "ME": "Maine", "MD": "Maryland",
            "MA": "Massachusetts", "MI": "Michigan", "MN": "Minnesota", "MS": "Mississippi", "MO": "Missouri",
            "MT": "Montana", "NE": "Nebraska", "NV": "Nevada", "NH": "New Hampshire", "NJ": "New Jersey",
            "NM": "New Mexico", "NY": "New York", "NC": "North Carolina", "ND": "North Dakota", "OH": "Ohio",
            "OK": "Oklahoma", "OR": "Oregon", "PA": "Pennsylvania", "RI": "Rhode Island",
            "SC": "South Carolina", "SD": "South Dakota", "TN": "Tennessee", "TX": "Texas", "UT": "Utah",
            "VT": "Vermont", "VA": "Virginia", "WA": "Washington", "WV": "West Virginia", "WI": "Wisconsin",
            "WY": "Wyoming", "PR": "Puerto Rico",
        ],
        "CA": [
            "AB": "Alberta", "BC": "British Columbia", "MB": "Manitoba", "NB": "New Brunswick",
            "NL": "Newfoundland and Labrador", "NS": "Nova Scotia", "NT": "Northwest Territories",
            "NU": "Nunavut", "ON": "Ontario", "PE": "Prince Edward Island", "QC": "Quebec",
            "SK": "Saskatchewan", "YT": "Yukon",
        ],
        "AU": [
            "NSW": "New South Wales", "VIC": "Victoria", "QLD": "Queensland", "WA": "Western Australia",
            "SA": "South Australia", "TAS": "Tasmania", "NT": "Northern Territory",
            "ACT": "Australian Capital Territory",
        ],
    ]
}
