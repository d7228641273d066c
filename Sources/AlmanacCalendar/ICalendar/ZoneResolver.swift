import CLibical
import Foundation

/// A time zone as libical knows it (a VTIMEZONE of the calendar or a builtin from system tzdata)
/// or, when libical has no such zone, as Foundation knows it.
enum ICalZone {
    /// A borrowed libical zone (the calendar's own zones live as long as the document).
    case libical(OpaquePointer)
    /// A Foundation zone.
    case foundation(TimeZone)

    /// The instant of a wall-clock time in this zone.
    func instant(_ wall: icaltimetype) -> Date {
        switch self {
        case .libical(let zone):
            var local = wall
            local.is_date = 0
            let seconds = icaltime_as_timet_with_zone(local, zone)
            // Zone changes happen at night: only night hours pay for these checks.
            if local.hour <= 4 || local.hour >= 22 {
                return Date(
                    timeIntervalSince1970: TimeInterval(Self.rfcInstant(local, seconds: Int(seconds), in: zone)))
            }
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        case .foundation(let zone):
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let parts = DateComponents(
                year: Int(wall.year), month: Int(wall.month), day: Int(wall.day), hour: Int(wall.hour),
                minute: Int(wall.minute), second: Int(wall.second))
            return calendar.date(from: parts) ?? Date(timeIntervalSince1970: 0)
        }
    }

    /// `seconds` (libical's instant for the wall time `local` in `zone`) as RFC 5545 3.3.5 reads
    /// that wall time: one that occurs twice (the hour repeated when DST ends) is the first of the
    /// two, where libical gives the second; one that does not occur (skipped when DST begins) uses
    /// the offset from before the gap, where libical uses the one after it.
    private static func rfcInstant(_ local: icaltimetype, seconds: Int, in zone: OpaquePointer) -> Int {
        func fields(_ time: icaltimetype) -> Int {
            var floating = time
            floating.zone = nil
            floating.is_date = 0
            return Int(icaltime_as_timet(floating))
        }
        let wanted = fields(local)
        let got = fields(icaltime_from_timet_with_zone(time_t(seconds), 0, zone))
        if got != wanted { return seconds + (wanted - got) }  // in a gap
        for back in [3_600, 1_800]
        where fields(icaltime_from_timet_with_zone(time_t(seconds - back), 0, zone)) == wanted {
            return seconds - back
        }
        return seconds
    }

    /// The wall-clock time of `date` in this zone (floating: no zone attached).
    func wall(_ date: Date) -> icaltimetype {
        switch self {
        case .libical(let zone):
            var time = icaltime_from_timet_with_zone(time_t(date.timeIntervalSince1970), 0, zone)
            time.zone = nil
            return time
        case .foundation(let zone):
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            var time = icaltime_null_time()
            time.year = Int32(parts.year ?? 1970)
            time.month = Int32(parts.month ?? 1)
            time.day = Int32(parts.day ?? 1)
            time.hour = Int32(parts.hour ?? 0)
            time.minute = Int32(parts.minute ?? 0)
            time.second = Int32(parts.second ?? 0)
            return time
        }
    }
}

/// A date or date-time read from a property, with its zone resolved.
struct Stamp {
    /// Wall-clock fields (zone cleared).
    var wall: icaltimetype
    /// A DATE value (all-day).
    var isDate: Bool
    /// The zone for date-times (UTC, TZID, X-WR-TIMEZONE or the viewer's zone for floating times).
    var zone: ICalZone

    /// The day of the wall-clock time.
    var civil: CivilDate { CivilDate(year: Int(wall.year), month: Int(wall.month), day: Int(wall.day)) }

    /// The instant (dates: their midnight in `zone`).
    var instant: Date { zone.instant(wall) }
}

/// Resolves TZIDs the way real producers write them, caching per document.
///
/// The zone database's rules come first for a TZID that names a place in it, as Google, Apple and
/// Thunderbird read such files: exporters often embed only the transitions around the export date
/// (as RDATEs), and a VTIMEZONE that ends before an event's date would leave every later event an
/// hour off. A name places a zone when it is a Windows name (Exchange, Outlook), an Area/Location
/// name with or without a leading `/`, such a name after a vendor prefix
/// (`/mozilla.org/20050126_1/Europe/Berlin`, `/freeassociation.sourceforge.net/Tzfile/...`), or
/// when its VTIMEZONE's X-LIC-LOCATION (libical, Evolution) is one. UTC, GMT and `Etc/` names do so
/// only when the file's VTIMEZONE has no daylight time: Outlook-era exporters write `GMT` with
/// British summer time.
///
/// Any other TZID keeps the file's VTIMEZONE: a custom name, and abbreviations (`EST`, `MST`,
/// `EET`), which the database knows as fixed or different zones while the file's rules say what
/// the producer meant. Without a VTIMEZONE: the database or Foundation by the name.
final class ZoneResolver {
    private let calendar: OpaquePointer
    private var cache: [String: ICalZone?] = [:]
    /// The zone floating times are read in (X-WR-TIMEZONE, else the viewer's zone).
    private(set) var floating: ICalZone
    /// TZIDs that could not be resolved (reported once as a warning).
    private(set) var unknown: [String] = []
    /// What the calendar's VTIMEZONEs say beyond their rules, by TZID: read once here, as walking
    /// the calendar moves libical's per-component cursor, which forks on other threads must not.
    private let embedded: [String: EmbeddedZone]

    /// A VTIMEZONE's X-LIC-LOCATION and whether it has daylight time.
    struct EmbeddedZone {
        var location: String?
        var daylight: Bool
    }

    init(calendar: OpaquePointer, viewer: TimeZone) {
        self.calendar = calendar
        var embedded: [String: EmbeddedZone] = [:]
        for zone in children(of: calendar, kind: ICAL_VTIMEZONE_COMPONENT) {
            guard let property = icalcomponent_get_first_property(zone, ICAL_TZID_PROPERTY),
                let tzid = icalproperty_get_value_as_string(property)
            else { continue }
            embedded[String(cString: tzid)] = EmbeddedZone(
                location: xProperty(zone, named: "X-LIC-LOCATION"),
                daylight: icalcomponent_get_first_component(zone, ICAL_XDAYLIGHT_COMPONENT) != nil)
        }
        self.embedded = embedded
        floating = Self.builtin(viewer.identifier).map(ICalZone.libical) ?? .foundation(viewer)
        if let name = xProperty(calendar, named: "X-WR-TIMEZONE"), let zone = zone(for: name) {
            floating = zone
        }
    }

    private init(calendar: OpaquePointer, floating: ICalZone, embedded: [String: EmbeddedZone]) {
        self.calendar = calendar
        self.floating = floating
        self.embedded = embedded
    }

    /// A resolver for the same calendar with the same floating zone and its own, empty cache, for
    /// another thread (this one is not thread-safe); it does not read the calendar's properties.
    func fork() -> ZoneResolver { ZoneResolver(calendar: calendar, floating: floating, embedded: embedded) }

    /// Makes libical sort the calendar's VTIMEZONE list (it does on the first lookup), so that
    /// forks on other threads only read it.
    func prepareForThreads() { _ = icalcomponent_get_timezone(calendar, "") }

    /// The zone named by `tzid`, or nil (recorded in ``unknown``).
    func zone(for tzid: String) -> ICalZone? {
        if let cached = cache[tzid] { return cached }
        let resolved = resolve(tzid)
        cache[tzid] = resolved
        if resolved == nil { unknown.append(tzid) }
        return resolved
    }

    private func resolve(_ raw: String) -> ICalZone? {
        let name = raw.trimmingCharacters(in: CharacterSet(charactersIn: "\" ").union(.whitespaces))
        let about = embedded[raw] ?? embedded[name]
        if let place = databaseName(for: name, embedded: about), let zone = Self.named(place) { return zone }
        if let own = icalcomponent_get_timezone(calendar, raw) ?? icalcomponent_get_timezone(calendar, name) {
            return .libical(own)
        }
        // Foundation comes only after the VTIMEZONE: it accepts names the zone database does not
        // have (offsets like "GMT+1"), which must not beat a zone the file defines.
        return Self.named(String(name.drop(while: { $0 == "/" })))
    }

    /// The zone database's name for `name` when the database is to be used before the file's own
    /// VTIMEZONE (described by `embedded`, if the file has one), else nil.
    private func databaseName(for name: String, embedded: EmbeddedZone?) -> String? {
        let bare = String(name.drop(while: { $0 == "/" }))
        var place: String?
        if let iana = WindowsZones.iana(for: name), Self.builtin(iana) != nil {
            place = iana
        } else if bare.contains("/"), Self.builtin(bare) != nil {
            place = bare
        } else if let trailing = Self.trailingArea(of: name) {
            place = trailing
        } else if let location = embedded?.location, location.contains("/"), Self.builtin(location) != nil {
            place = location
        } else if ["UTC", "GMT", "UT", "Z"].contains(bare.uppercased()) {
            place = "Etc/UTC"
        }
        guard let place else { return nil }
        // A fixed UTC offset by name, but summer time in the file: the file says what was meant.
        if embedded?.daylight == true, place == "Etc/UTC" || place.hasPrefix("Etc/") { return nil }
        return place
    }

    /// The Area/Location zone at the end of a vendor-prefixed TZID such as
    /// `/mozilla.org/20050126_1/Europe/Berlin` (three parts first, for `America/Argentina/Salta`).
    private static func trailingArea(of name: String) -> String? {
        let parts = name.split(separator: "/")
        for count in [3, 2] where parts.count > count {
            let candidate = parts.suffix(count).joined(separator: "/")
            if builtin(candidate) != nil { return candidate }
        }
        return nil
    }

    /// A builtin libical zone, else a Foundation zone, for an IANA name.
    static func named(_ name: String) -> ICalZone? {
        if let zone = builtin(name) { return .libical(zone) }
        if let zone = TimeZone(identifier: name) { return .foundation(zone) }
        return nil
    }

    static func builtin(_ name: String) -> OpaquePointer? {
        if name == "UTC" || name == "Etc/UTC" || name == "GMT" { return LibICal.utc }
        return LibICal.loadFailure == nil ? icaltimezone_get_builtin_timezone(name) : nil
    }

    /// Reads a DATE or DATE-TIME value of `property`, attaching the zone its TZID names.
    func stamp(_ value: icaltimetype, of property: OpaquePointer) -> Stamp? {
        guard icaltime_is_null_time(value) == 0 else { return nil }
        var wall = value
        let utc = icaltime_is_utc(value) != 0
        wall.zone = nil
        if value.is_date != 0 {
            wall.hour = 0
            wall.minute = 0
            wall.second = 0
            return Stamp(wall: wall, isDate: true, zone: floating)
        }
        if utc, let zone = LibICal.utc { return Stamp(wall: wall, isDate: false, zone: .libical(zone)) }
        if let name = tzid(of: property), let zone = zone(for: name) {
            return Stamp(wall: wall, isDate: false, zone: zone)
        }
        return Stamp(wall: wall, isDate: false, zone: floating)
    }
}
