import Foundation

/// A MeteoAlarm area name, or a name the geocoder gives a place, read the way the feeds write
/// areas (`cap:areaDesc`; the feeds carry no shapes, only these names and EMMA_ID codes):
///
/// - "Kreis und Stadt München", "Kreis Breisgau-Hochschwarzwald und Stadt Freiburg": one area
///   naming one or two units (split at " und ");
/// - "Kreis Harz - Bergland (Oberharz)": part of a unit (the part after " - " is dropped: a
///   place in the Harz district is in both of its parts);
/// - "Kreis Neumarkt i.d. OPf.", "Stadt Frankfurt (Oder)": a name with its qualifier, abbreviated
///   (DWD's `a.d.`, `i.`, `OPf.`) or in brackets;
/// - the unit words ("Kreis", "Stadt", "Landkreis", "Kreisfreie Stadt", "Berlin, Stadt",
///   "Land Berlin") are not part of the name, but say the area is a district or a town.
///
/// Two names are the same unit when their words agree (accents and case ignored; an abbreviated
/// word stands for any word it abbreviates) and their qualifiers do not disagree: "Brandenburg
/// an der Havel" is "Stadt Brandenburg", "Frankfurt am Main" is not "Stadt Frankfurt (Oder)",
/// and "Koblenz" is not "Kreis Mayen-Koblenz" (a different district).
struct AreaName: Equatable {
    /// A word, folded; `abbreviated` when the text wrote it with a full stop ("i.", "OPf.").
    struct Word: Equatable {
        let text: String
        let abbreviated: Bool

        /// Whether the two words can be the same word.
        func agrees(with other: Word) -> Bool {
            if text == other.text { return true }
            if abbreviated, !other.abbreviated { return Self.abbreviates(text, other.text) }
            if other.abbreviated, !abbreviated { return Self.abbreviates(other.text, text) }
            return false
        }

        /// "opf" abbreviates "oberpfalz", "d" abbreviates "der": same first letter, the rest in order.
        static func abbreviates(_ short: String, _ long: String) -> Bool {
            guard let first = short.first, long.first == first, short.count < long.count else { return false }
            var rest = long.dropFirst()[...]
            for character in short.dropFirst() {
                guard let index = rest.firstIndex(of: character) else { return false }
                rest = rest[rest.index(after: index)...]
            }
            return true
        }
    }

    /// The unit's own name ("neumarkt").
    let core: [Word]
    /// What tells it from same-named units ("oberpfalz"; "oder"); empty when none is written.
    let qualifier: [Word]

    /// Whether the two names can be the same unit.
    func matches(_ other: AreaName) -> Bool {
        Self.agree(core, other.core)
            && (qualifier.isEmpty || other.qualifier.isEmpty || Self.agree(qualifier, other.qualifier))
    }

    static func agree(_ one: [Word], _ other: [Word]) -> Bool {
        one.count == other.count && zip(one, other).allSatisfy { $0.agrees(with: $1) }
    }

    /// Words naming the kind of unit, not the unit. "kreis" also ends names ("Alb-Donau-Kreis").
    static let unitWords: Set<String> = [
        "kreis", "landkreis", "stadtkreis", "kreisfreie", "stadt", "hansestadt", "landeshauptstadt", "freie",
        "stadteregion", "region", "land", "county", "district", "city", "province", "voivodeship", "wojewodztwo",
        "powiat", "gmina",
    ]
    /// Level words that follow the name they qualify in a nested area: IMGW's (Poland's) areas read
    /// "<voivodeship> Province <county> County".
    static let levelWords: Set<String> = ["province", "county", "voivodeship", "district", "municipality"]

    /// The levels of a nested area, outermost first: "Śląskie Province Mysłowice County" →
    /// ["Śląskie", "Mysłowice"]. Nil unless the whole text is two or more "<name> <level word>" pairs
    /// (a German "Region Hannover" puts its word first and is not one).
    static func levels(_ text: String) -> [String]? {
        var levels: [String] = []
        var name: [Substring] = []
        for word in text.split(separator: " ") {
            let folded = PlaceMatcher.fold(String(word)).lowercased()
            if levelWords.contains(folded), !name.isEmpty {
                levels.append(name.joined(separator: " "))
                name = []
            } else {
                name.append(word)
            }
        }
        return name.isEmpty && levels.count >= 2 ? levels : nil
    }
    /// Unit words that make an area a district or a town (German areas; a region's area has none).
    static let districtWords: Set<String> = [
        "kreis", "landkreis", "stadtkreis", "kreisfreie", "stadt", "hansestadt", "stadteregion", "region",
    ]
    /// Unit words that make a geocoder's region name a district (Nominatim's county "Landkreis
    /// Esslingen"); a Regierungsbezirk ("Stuttgart Region", "Cologne District") is not one.
    static let countyWords: Set<String> = ["kreis", "landkreis", "stadtkreis", "kreisfreie"]
    /// Words that start a qualifier ("am Main", "a.d. Donau", "i. Fichtelgebirge", "ob der Tauber").
    static let prepositions: Set<String> = ["am", "an", "im", "in", "a", "i", "ob", "bei", "vor"]
    /// Articles after a preposition ("an der", "i.d.").
    static let articles: Set<String> = ["der", "dem", "den", "d"]

    /// The units a text names ("Kreis und Stadt München" → one; "... und Stadt Freiburg" → two).
    static func units(_ text: String) -> [AreaName] {
        let whole = text.components(separatedBy: " - ").first ?? text
        return whole.components(separatedBy: ",").flatMap { $0.components(separatedBy: " und ") }
            .compactMap(unit)
    }

    /// Whether the text names a district or a town rather than a region (one of `kinds`, or a
    /// word ending in "kreis": "Westerwaldkreis").
    static func isDistrict(_ text: String, among kinds: Set<String> = districtWords) -> Bool {
        words(text).contains { kinds.contains($0.text) || $0.text.hasSuffix("kreis") }
    }

    /// One unit: bracketed words and words after a preposition are its qualifier.
    static func unit(_ text: String) -> AreaName? {
        var core: [Word] = []
        var qualifier: [Word] = []
        var inQualifier = false
        var bracketed = ""
        var plain = ""
        var depth = 0
        for character in text {
            if character == "(" {
                depth += 1
            } else if character == ")" {
                depth = max(0, depth - 1)
            } else if depth > 0 {
                bracketed.append(character)
            } else {
                plain.append(character)
            }
        }
        for word in words(plain) where !unitWords.contains(word.text) {
            if !inQualifier, !core.isEmpty, prepositions.contains(word.text) {
                inQualifier = true
                continue
            }
            if inQualifier {
                if qualifier.isEmpty, articles.contains(word.text) { continue }
                qualifier.append(word)
            } else {
                core.append(word)
            }
        }
        qualifier += words(bracketed).filter { !unitWords.contains($0.text) }
        return core.isEmpty ? nil : AreaName(core: core, qualifier: qualifier)
    }

    /// Folded words, each marked when a full stop follows it.
    static func words(_ text: String) -> [Word] {
        var result: [Word] = []
        var current = ""
        for character in PlaceMatcher.fold(text).lowercased() + " " {
            if character.isLetter || character.isNumber {
                current.append(character)
            } else if !current.isEmpty {
                result.append(Word(text: current, abbreviated: character == "."))
                current = ""
            }
        }
        return result
    }
}

/// Which of the feed's areas are the place's.
struct AreaMatcher {
    let names: [AreaName]
    let regions: [AreaName]
    let countyRegions: [AreaName]
    /// The Polish voivodeships the place's regions name (in any of the geocoders' languages).
    let voivodeships: Set<String>

    /// The place's own names, and its regions (see ``AlertsQuery/regions``).
    init(names: [String], regions: [String]) {
        self.names = names.flatMap(AreaName.units)
        voivodeships = Set(regions.compactMap(Voivodeship.key))
        // A voivodeship is also known by the Polish adjective IMGW's areas use ("Śląskie").
        let regionNames = regions + voivodeships.sorted()
        self.regions = regionNames.filter { !AreaName.isDistrict($0, among: AreaName.countyWords) }
            .flatMap(AreaName.units)
        countyRegions = regions.filter { AreaName.isDistrict($0, among: AreaName.countyWords) }
            .flatMap(AreaName.units)
    }

    /// Whether the area (`cap:areaDesc`) is the place's: it names the place, its municipality or
    /// district; or it is a region (no district or town word) and names the place's region.
    func matches(_ area: String) -> Bool {
        if let levels = AreaName.levels(area) { return matches(levels: levels) }
        let units = AreaName.units(area)
        let own = names + countyRegions
        if units.contains(where: { unit in own.contains { $0.matches(unit) } }) { return true }
        guard !AreaName.isDistrict(area) else { return false }
        return units.contains { unit in regions.contains { $0.matches(unit) } }
    }

    /// A nested area ("Śląskie Province Mysłowice County"): its innermost unit must be the place,
    /// its municipality or district (any level the geocoder names below the region: a Polish
    /// county is Open-Meteo's `admin2`, Nominatim's county "powiat myszkowski"), and no outer
    /// level may name another region than the place's (Mazowieckie's Grodziski County is not
    /// Wielkopolskie's). An outer level this cannot tell (another language) does not refuse.
    func matches(levels: [String]) -> Bool {
        guard let innermost = levels.last.flatMap(AreaName.unit) else { return false }
        let own = names + countyRegions + regions
        guard own.contains(where: { $0.matches(innermost) }) else { return false }
        for outer in levels.dropLast() {
            if let key = Voivodeship.key(outer), !voivodeships.isEmpty, !voivodeships.contains(key) { return false }
        }
        return true
    }
}

/// Poland's 16 voivodeships, by the Polish adjective IMGW's MeteoAlarm areas use ("Śląskie
/// Province ..."), with the names geocoders give them: the same adjective after "województwo"
/// (Nominatim in Polish), GeoNames' English names (Open-Meteo: "Mazovia", "Lower Silesia") and
/// the English "… Voivodeship" forms.
enum Voivodeship {
    static let names: [String: [String]] = [
        "dolnośląskie": ["lower silesia", "lower silesian"],
        "kujawsko-pomorskie": ["kuyavia-pomerania", "kuyavian-pomeranian"],
        "lubelskie": ["lublin"],
        "lubuskie": ["lubusz"],
        "łódzkie": ["łódź", "lodz"],
        "małopolskie": ["lesser poland"],
        "mazowieckie": ["mazovia", "masovia", "masovian", "mazovian"],
        "opolskie": ["opole"],
        "podkarpackie": ["subcarpathia", "subcarpathian"],
        "podlaskie": ["podlasie"],
        "pomorskie": ["pomerania", "pomeranian"],
        "śląskie": ["silesia", "silesian"],
        "świętokrzyskie": ["holy cross"],
        "warmińsko-mazurskie": ["warmia-masuria", "warmian-masurian"],
        "wielkopolskie": ["greater poland"],
        "zachodniopomorskie": ["west pomerania", "west pomeranian"],
    ]

    /// Folded name (level words dropped) → the adjective.
    static let index: [String: String] = {
        var index: [String: String] = [:]
        for (adjective, others) in names {
            for name in [adjective] + others { index[fold(name)] = adjective }
        }
        return index
    }()

    static func fold(_ text: String) -> String {
        AreaName.words(text).map(\.text).filter {
            !["province", "voivodeship", "wojewodztwo"].contains($0)
        }.joined(separator: " ")
    }

    /// The voivodeship `text` names ("Silesia", "województwo śląskie", "Śląskie"), if it is one.
    static func key(_ text: String) -> String? { index[fold(text)] }
}
