import AlmanacTesting
import Foundation
import Testing

/// The built `tools` binary with Open-Meteo down (a loopback server answering 500) and the second
/// providers served from their recorded answers by another loopback server.
@Suite("tools run weather: MET Norway and Nominatim fallbacks, end to end", .serialized)
struct WeatherFallbackEndToEndTests {
    func envelope(_ output: CommandOutput) throws -> [String: Any] {
        let data = Data(output.stdout.utf8)
        return try #require(
            try JSONSerialization.jsonObject(with: data) as? [String: Any], "not JSON: \(output.stdout)")
    }

    static let oslo = ["run", "weather", "--lat", "59.91", "--lon", "10.75"]

    /// A fixture root under `scratch` where each of `urls` answers 500 (synthetic: an upstream
    /// that is down), for a server standing in for Open-Meteo.
    static func downRoot(_ scratch: borrowing Scratch, _ urls: [String]) throws -> URL {
        let root = scratch.url.appendingPathComponent("down")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for (index, url) in urls.enumerated() {
            let exchange: [String: Any] = [
                "request": ["method": "GET", "url": url],
                "response": ["status": 500, "headers": ["content-type": "application/json"]],
            ]
            try JSONSerialization.data(withJSONObject: exchange).write(
                to: root.appendingPathComponent("down-\(index).exchange.json"))
        }
        return root
    }

    /// The forecast URL Open-Meteo is asked at `latitude`,`longitude` (the recorded Denver request,
    /// moved).
    static func openMeteoForecastURL(_ latitude: String, _ longitude: String, imperial: Bool = false) throws -> String {
        let name = imperial ? "forecast-toronto-imperial" : "forecast-denver"
        let data = try Data(
            contentsOf: Fixtures.directory.appendingPathComponent("weather/open-meteo/\(name).exchange.json"))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let url = try #require((object?["request"] as? [String: Any])?["url"] as? String)
        let from = imperial ? "latitude=43.7&longitude=-79.4" : "latitude=39.75&longitude=-104.99"
        return url.replacingOccurrences(of: from, with: "latitude=\(latitude)&longitude=\(longitude)")
    }

    @Test(
        "Open-Meteo answering 500: MET Norway answers (with a contact), source met-norway, Open-Meteo's failure in attempts"
    )
    func metNorway() async throws {
        let scratch = try Scratch()
        let down = try FixtureServer(
            root: try Self.downRoot(scratch, [try Self.openMeteoForecastURL("59.91", "10.75")]))
        defer { down.stop() }
        let up = try FixtureServer()
        defer { up.stop() }
        let withoutContact = scratch.environment([
            "ALMANAC_OPEN_METEO_URL": down.baseURL, "ALMANAC_GEOCODING_URL": down.baseURL,
            "ALMANAC_METNO_URL": up.baseURL, "ALMANAC_NOMINATIM_URL": up.baseURL, "ALMANAC_NOW": "2026-02-06T21:10:00Z",
        ])
        // No contact: MET Norway is never called (a generic agent gets 403); the failure says how to set one.
        let refused = try await ToolsBinary.run(Self.oslo, environment: withoutContact)
        #expect(refused.status == 69, "stdout: \(refused.stdout)")
        #expect(refused.stderr.contains("[weather] contact = \"you@example.org\""), "stderr: \(refused.stderr)")
        #expect(try await up.requestCount() == 0)

        let environment = withoutContact.merging(["ALMANAC_CONTACT": "almanac-tests@example.org"]) { $1 }
        let json = try await ToolsBinary.run(Self.oslo + ["--format", "json"], environment: environment)
        #expect(json.status == 0, "stderr: \(json.stderr)")
        let body = try envelope(json)
        #expect(body["provider"] as? String == "met-norway")
        let attempts = body["attempts"] as? [[String: Any]] ?? []
        #expect(attempts.compactMap { $0["provider"] as? String } == ["open-meteo", "met-norway"])
        #expect(attempts.first?["outcome"] as? String == "failed")
        #expect((attempts.first?["detail"] as? String)?.contains("HTTP 500") == true)
        let current = (body["data"] as? [String: Any])?["current"] as? [String: Any]
        // The recording's first step: -5.8 °C, "snow" (WMO 73).
        #expect(current?["temperature"] as? Double == -5.8)
        #expect(current?["description"] as? String == "moderate snow")

        let context = try await ToolsBinary.run(Self.oslo + ["--no-cache"], environment: environment)
        #expect(context.status == 0, "stderr: \(context.stderr)")
        #expect(context.stdout.contains("source: met-norway"))
        #expect(context.stdout.contains("times in UTC"))

        let text = try await ToolsBinary.run(Self.oslo + ["--format", "text"], environment: environment)
        #expect(text.stdout.contains("Data from MET Norway (CC BY 4.0)"))
    }

    @Test("Open-Meteo geocoding down: Ottawa resolves through Nominatim and is named; the zone comes from the forecast")
    func nominatim() async throws {
        // A fixture root with Nominatim's recorded Ottawa answer and, as a stand-in forecast at
        // Ottawa's coordinates, Open-Meteo's recorded Toronto answer (same zone, 350 km away; no
        // Ottawa forecast is recorded): only the place's name and zone are asserted.
        let scratch = try Scratch()
        let root = scratch.url.appendingPathComponent("fixtures")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let fixtures = Fixtures.directory.appendingPathComponent("weather")
        for name in ["search-ottawa-2017.exchange.json", "search-ottawa-2017.response.json"] {
            try FileManager.default.copyItem(
                at: fixtures.appendingPathComponent("nominatim/\(name)"), to: root.appendingPathComponent(name))
        }
        let ottawa: [String: Any] = [
            "request": ["method": "GET", "url": try Self.openMeteoForecastURL("45.42", "-75.69", imperial: true)],
            "response": [
                "status": 200, "headers": ["content-type": "application/json"], "body": "toronto.response.json",
            ],
        ]
        try JSONSerialization.data(withJSONObject: ottawa).write(
            to: root.appendingPathComponent("ottawa.exchange.json"))
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("open-meteo/forecast-toronto-imperial.response.json"),
            to: root.appendingPathComponent("toronto.response.json"))

        let geocoding = "https://geocoding-api.open-meteo.com/v1/search?name=Ottawa&count=10&language=en&format=json"
        let down = try FixtureServer(root: try Self.downRoot(scratch, [geocoding]))
        defer { down.stop() }
        let up = try FixtureServer(root: root)
        defer { up.stop() }
        let environment = scratch.environment([
            "ALMANAC_GEOCODING_URL": down.baseURL, "ALMANAC_NOMINATIM_URL": up.baseURL,
            "ALMANAC_OPEN_METEO_URL": up.baseURL, "ALMANAC_METNO_URL": down.baseURL,
            "ALMANAC_NOW": "2026-03-06T02:05:00Z",
        ])
        let output = try await ToolsBinary.run(
            ["run", "weather", "Ottawa", "--units", "imperial"], environment: environment)
        #expect(output.status == 0, "stderr: \(output.stderr)")
        #expect(
            output.stdout.contains("Ottawa, Ontario, Canada · local time Thu 5 Mar 2026 21:05 EST"), "\(output.stdout)")
        #expect(output.stdout.contains("source: open-meteo"))
        #expect(try await down.requestCount() == 1)
        #expect(try await up.requestCount() == 2)
        // Text for people credits both licences: the forecast's and OpenStreetMap's (the place
        // comes from the cache now, still named as Nominatim's).
        let text = try await ToolsBinary.run(
            ["run", "weather", "Ottawa", "--units", "imperial", "--format", "text"], environment: environment)
        #expect(text.status == 0, "stderr: \(text.stderr)")
        #expect(
            text.stdout.contains(
                "Weather data by Open-Meteo.com (CC BY 4.0)\nGeocoding © OpenStreetMap contributors (ODbL)"))
    }

    @Test("Nominatim: at most one request a second across concurrent processes (slots reserved in the SQLite state)")
    func nominatimInterval() async throws {
        let up = try FixtureServer()
        defer { up.stop() }
        let scratch = try Scratch()
        // Only Nominatim can answer (the forecast fails: no listener), so each run makes one request.
        let environment = scratch.environment([
            "ALMANAC_GEOCODING_URL": "http://127.0.0.1:9", "ALMANAC_OPEN_METEO_URL": "http://127.0.0.1:9",
            "ALMANAC_METNO_URL": "http://127.0.0.1:9", "ALMANAC_NOMINATIM_URL": up.baseURL,
        ])
        // Three processes at once: each reserves its slot in the shared SQLite state in one
        // transaction, so their requests reach the server a second apart, whoever starts first.
        let outputs = await ToolsBinary.runAtOnce(
            Array(repeating: ["run", "weather", "Ottawa", "--no-cache"], count: 3), environment: environment)
        #expect(outputs.allSatisfy { $0 != nil })
        let times = try await up.requestTimes()
        #expect(times.count == 3)
        for (earlier, later) in zip(times, times.dropFirst()) {
            // A slot is a second after the last; the 50 ms allow for the arrival being timed by the
            // server, after the request left the client.
            #expect(later.timeIntervalSince(earlier) >= 0.95, "\(times)")
        }
        #expect(try await up.requestCount() == 3)
    }
}
