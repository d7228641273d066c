import AlmanacBrief
import AlmanacCalendar
public import AlmanacCore
import AlmanacNews
import AlmanacRead
import AlmanacSearch
import AlmanacSports
import AlmanacWeather

extension Runtime {
    /// Every tool Almanac ships, in listing order.
    public static func defaultTools() -> [any Tool] {
        let sports = SportsTool()
        let weather = WeatherTool()
        let calendar = CalendarTool()
        let news = NewsTool()
        // The briefing runs the others' own paths (cache, fallback, stale copies).
        let brief = BriefTool(sources: [calendar, weather, sports, news])
        return [sports, weather, calendar, SearchTool(), ReadTool(), news, brief]
    }

    /// Every provider of every tool Almanac ships: the registry the CLI, doctor, recording, fuzzing
    /// and the fault matrix read.
    public static func defaultProviders() -> ProviderRegistry {
        ProviderRegistry(defaultTools().flatMap(\.providerDescriptors))
    }

    /// The providers of this runtime's tools.
    public var providers: ProviderRegistry { ProviderRegistry(registry.tools.flatMap(\.providerDescriptors)) }

    /// The web searcher other tools fall back to: the search tool's own chain (Brave when a key
    /// is set, then SearXNG when configured), nil when neither is.
    static func webSearcher(_ settings: Settings) -> (any WebSearching)? {
        SearchChain.configuredWebSearch(settings)
    }

    /// How to configure web search when no searcher is (the search chain's own words).
    public static var webSearchHelp: String { SearchChain.unconfiguredHelp }
}
