import Testing

@testable import AlmanacCore
@testable import AlmanacWeather

/// Names people read (the tool's summary, geocoders in messages) come from the chains'
/// descriptors, so a provider added to a chain is named without a second edit.
@Suite("weather names from the registry")
struct RegistryNamesTests {
    @Test("the summary names the forecast chain in its order, by label")
    func summaryFromChain() {
        #expect(WeatherTool.forecastChain.map(\.descriptor.label) == ["Open-Meteo", "MET Norway"])
        #expect(
            WeatherTool().summary
                == "Weather now, today and the next days for a place (Open-Meteo, else MET Norway), in the place's"
                + " local time; official warnings, air quality and UV, rain in the next hour")
    }

    @Test("geocoders are named by their descriptors' labels; an unknown name is kept")
    func geocoderLabels() {
        #expect(WeatherTool.geocoderName("open-meteo-geocoding") == "Open-Meteo geocoding")
        #expect(WeatherTool.geocoderName("nominatim") == "Nominatim")
        #expect(WeatherTool.geocoderName("elsewhere") == "elsewhere")
    }

    @Test("Open-Meteo's sample call sets only its own needs; the registry adds MET Norway's contact")
    func sampleCallNeeds() throws {
        let registry = ProviderRegistry(WeatherTool().providerDescriptors)
        let openMeteo = OpenMeteoProvider.descriptor
        #expect(openMeteo.sampleCall?.environment[UpstreamTerms.contactVariable] == nil)
        let call = try #require(registry.sampleCall(for: openMeteo))
        #expect(call.environment[UpstreamTerms.contactVariable] == SampleCall.testContact)
        #expect(call.environment["ALMANAC_NOW"] == openMeteo.sampleCall?.environment["ALMANAC_NOW"])
        // Last of its role: nothing after it to reach, so its own environment as it is.
        #expect(registry.sampleCall(for: MetNorwayProvider.descriptor) == MetNorwayProvider.descriptor.sampleCall)
        // Nothing after Open-Meteo's 15-minute steps; the nowcast before it needs no contact from it.
        let nextHour = OpenMeteoNextHourProvider.descriptor
        #expect(registry.sampleCall(for: nextHour) == nextHour.sampleCall)
    }
}
