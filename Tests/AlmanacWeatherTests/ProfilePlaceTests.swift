import AlmanacCore
import Foundation
import Testing

@testable import AlmanacWeather

/// `[me] home` and `[me] places` (issue #34), on recorded Open-Meteo answers (Frederick, Denver;
/// "Qwxlorbia" is the recorded no-match).
@Suite("Weather: profile home and places")
struct ProfilePlaceTests {
    static func settings(_ me: String) throws -> Settings {
        Settings(config: try TOML.parse(me))
    }

    @Test("no place is [me] home, which wins over [weather] place; the answer says 'home'")
    func home() async throws {
        let settings = try Self.settings("[weather]\nplace = \"Qwxlorbia\"\n[me]\nhome = \"Frederick\"\n")
        let harness = try Harness.replay(now: try instant("2026-08-09T18:50:00Z"), settings: settings)
        let context = try harness.context(try await harness.run([]))
        #expect(context.hasPrefix("[weather] home (Frederick, Maryland, United States) · local time Sun 9 Aug"))
    }

    @Test("[weather] place still answers when no home is set")
    func weatherPlaceFallback() async throws {
        let settings = try Self.settings("[weather]\nplace = \"Frederick\"\n[me]\nplaces = { work = \"Bonn\" }\n")
        let harness = try Harness.replay(now: try instant("2026-08-09T18:50:00Z"), settings: settings)
        let context = try harness.context(try await harness.run([]))
        #expect(context.hasPrefix("[weather] Frederick, Maryland, United States"))
    }

    @Test("a name of [me] places wins over geocoding the word; context and JSON say which")
    func namedPlace() async throws {
        let settings = try Self.settings("[me]\nplaces = { Work = \"Frederick\" }\n")
        let harness = try Harness.replay(now: try instant("2026-08-09T18:50:00Z"), settings: settings)
        // "work" is never sent to the geocoder: the replay has no recording of it.
        let result = try await harness.run(["work", "today"])
        #expect(try harness.context(result).hasPrefix("[weather] Work (Frederick, Maryland, United States) · "))
        let json = try result.render(.json, now: harness.now, timeZone: TimeText.utc)
        #expect(json.contains(#""profilePlace":"Work""#))
        // A place named directly is looked up as before, without a label.
        let direct = try await harness.run(["Frederick"])
        #expect(try harness.context(direct).hasPrefix("[weather] Frederick, Maryland, United States"))
        #expect(try !direct.render(.json, now: harness.now, timeZone: TimeText.utc).contains("profilePlace"))
    }

    @Test("a home of \"LAT,LON\" is coordinates")
    func homeCoordinates() async throws {
        let settings = try Self.settings("[me]\nhome = \"39.746895,-104.987076\"\n")
        let harness = try Harness.replay(now: try instant("2026-08-08T03:35:00Z"), settings: settings)
        let context = try harness.context(try await harness.run(["--hourly"]))
        #expect(context.hasPrefix("[weather] home ("))
        #expect(context.contains("Now (21:30): 26.8 °C"))
    }

    @Test("a profile place no geocoder knows is one usage line naming the [me] entry")
    func unknownPlace() async throws {
        let settings = try Self.settings("[me]\nplaces = { mum = \"Qwxlorbia\" }\n")
        let harness = try Harness.replay(now: try instant("2026-08-09T18:50:00Z"), settings: settings)
        let error = await runError(harness, ["mum"])
        #expect(error?.kind == .usage)
        #expect(error?.message.hasPrefix("weather: [me] places: mum = 'Qwxlorbia' is not a known place") == true)
        #expect(error?.message.contains("\n") == false)
    }

    @Test("without a place, home or default the suggestion names [me] home")
    func noHome() async throws {
        let harness = try Harness.replay(now: try instant("2026-08-09T18:50:00Z"))
        let error = await runError(harness, [])
        #expect(error?.message == "weather: no place given and no home is set")
        #expect(error?.suggestion?.contains("[me] home = \"Lisbon\"") == true)
    }
}

@Suite("Weather: the user's own place words")
struct PersonalPlaceTests {
    @Test("'home' is [me] home; 'work' not in [me] places is one line saying how to add it")
    func words() async throws {
        let settings = Settings(config: try TOML.parse("[me]\nhome = \"Frederick\"\n"))
        let harness = try Harness.replay(now: try instant("2026-08-09T18:50:00Z"), settings: settings)
        let context = try harness.context(try await harness.run(["home", "today"]))
        #expect(context.hasPrefix("[weather] home (Frederick, Maryland, United States) · "))
        let error = await runError(harness, ["work"])
        #expect(error?.message == "weather: 'work' is not one of your places ([me] places)")
        #expect(error?.suggestion == "add it under [me] in config.toml: places = { work = \"Porto\" }")
    }
}
